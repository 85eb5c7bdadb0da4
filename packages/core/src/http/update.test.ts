// Changing a static card at run time: the hostile cases are a bad card slipped in by an update
// (it must never be served, nor disturb the card that is), and requests racing the swap (each
// must get one card's bytes with that card's ETag, never one card's body with another's ETag).
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { verifyAgentCard } from '../sign/verify';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from '../testing/cards';
import { computeEtag } from './kernel/etag';
import { createAgentCardResponder } from './responder';
import type { AgentCardRequest, AgentCardResponse } from './types';

const quiet = { warn: () => {} };
const CARD_PATH = '/.well-known/agent-card.json';
const get = (headers: Record<string, string> = {}): AgentCardRequest => ({ method: 'GET', path: CARD_PATH, headers });
const text = (res: AgentCardResponse | undefined | Promise<unknown>) =>
  new TextDecoder().decode((res as AgentCardResponse).body);
const withSkill = (card: AgentCard, id: string): AgentCard => ({
  ...card,
  skills: [...card.skills, { id, name: `Skill ${id}`, description: `Does ${id}.`, tags: ['extra'] }],
});

describe('responder.update(card)', () => {
  it('serves the new bytes with their own ETag, and an old ETag no longer gets 304', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    const before = responder.respond(get()) as AgentCardResponse;
    const next = withSkill(CONFORMANCE_CARD, 'added');
    responder.update(next);
    const after = responder.respond(get()) as AgentCardResponse;
    expect(JSON.parse(text(after)).skills.map((s: { id: string }) => s.id)).toContain('added');
    expect(after.headers.etag).toBe(computeEtag(after.body!));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['content-length']).toBe(String(after.body!.byteLength));
    expect((responder.respond(get({ 'if-none-match': before.headers.etag! })) as AgentCardResponse).status).toBe(200);
    expect((responder.respond(get({ 'if-none-match': after.headers.etag! })) as AgentCardResponse).status).toBe(304);
    const legacy = responder.respond({ ...get(), path: '/.well-known/agent.json' }) as AgentCardResponse;
    expect(legacy.headers.etag).toBe(after.headers.etag);
  });

  it('refuses an invalid card with every error and keeps serving the old bytes and ETag', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    const before = responder.respond(get()) as AgentCardResponse;
    const hostile = { ...CONFORMANCE_CARD, skills: [{ id: '', name: 'x', description: '', tags: [] }] } as AgentCard;
    let error: unknown;
    try {
      responder.update(hostile);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentCardError);
    expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_INVALID');
    expect((error as AgentCardError).findings.map((f) => f.path)).toEqual(
      expect.arrayContaining(['/skills/0/description', '/skills/0/tags']),
    );
    const after = responder.respond(get()) as AgentCardResponse;
    expect(text(after)).toBe(text(before));
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('signs the new card once, so every request after the swap gets the same verifiable bytes', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      sign: { privateKey, kid: 'k1', alg: 'EdDSA' },
    });
    responder.update(withSkill(CONFORMANCE_CARD, 'signed'));
    const one = responder.respond(get()) as AgentCardResponse;
    const two = responder.respond(get()) as AgentCardResponse;
    expect(two.body).toBe(one.body);
    const card = JSON.parse(text(one)) as AgentCard;
    expect(card.skills.map((s) => s.id)).toContain('signed');
    expect(await verifyAgentCard(card, { keys: { k1: publicKey } })).toMatchObject({ valid: true });
  });

  it('answers an extended-card request that was authenticating during the swap from the card it started with', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      extended: {
        authenticate: async (raw) => {
          await gate;
          const auth = (raw as { headers: Record<string, string> }).headers.authorization;
          return auth === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'tester' } : undefined;
        },
        card: [EXTENDED_ONLY_SKILL],
      },
    });
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}` };
    const pending = responder.respond({ method: 'GET', path: CONFORMANCE_EXTENDED_PATH, headers, raw: { headers } });
    responder.update({ ...CONFORMANCE_CARD, name: 'Renamed Agent' });
    release();
    const old = JSON.parse(text(await pending));
    expect(old.name).toBe(CONFORMANCE_CARD.name);
    const fresh = await responder.respond({
      method: 'GET',
      path: CONFORMANCE_EXTENDED_PATH,
      headers,
      raw: { headers },
    });
    expect(JSON.parse(text(fresh)).name).toBe('Renamed Agent');
  });

  it('replaces the extended content with the card, and refuses it on a responder without extended', async () => {
    const extended = { authenticate: () => ({ sub: 'tester' }), card: [EXTENDED_ONLY_SKILL] };
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet, extended });
    const secret = { ...EXTENDED_ONLY_SKILL, id: 'second-audit' };
    responder.update(CONFORMANCE_CARD, { extendedCard: [EXTENDED_ONLY_SKILL, secret] });
    const res = await responder.respond({ method: 'GET', path: CONFORMANCE_EXTENDED_PATH, headers: {}, raw: {} });
    expect(JSON.parse(text(res)).skills.map((s: { id: string }) => s.id)).toContain('second-audit');
    // A duplicate id in the extended card is refused like at start-up, and the old one stays.
    expect(() => responder.update(CONFORMANCE_CARD, { extendedCard: [secret, secret] })).toThrow(AgentCardError);
    const again = await responder.respond({ method: 'GET', path: CONFORMANCE_EXTENDED_PATH, headers: {}, raw: {} });
    expect(text(again)).toBe(text(res));
    const plain = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    expect(() => plain.update(CONFORMANCE_CARD, { extendedCard: [secret] })).toThrow(
      'update: extendedCard is given but the responder has no extended option. Create the responder with extended: { authenticate } to serve an extended card.',
    );
  });

  it('gives every one of many concurrent requests one whole card and its ETag while cards are swapped', async () => {
    const cards = [CONFORMANCE_CARD, withSkill(CONFORMANCE_CARD, 'b'), withSkill(CONFORMANCE_CARD, 'c')];
    const responder = createAgentCardResponder({ card: cards[0]!, logger: quiet });
    const server = createServer((req, res) => {
      const answer = responder.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
      }) as AgentCardResponse;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let swaps = 0;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CARD_PATH}`;
    const swapper = setInterval(() => responder.update(cards[++swaps % cards.length]!), 2);
    try {
      const results = await Promise.all(
        Array.from({ length: 120 }, async () => {
          const res = await fetch(url);
          return { etag: res.headers.get('etag'), body: new Uint8Array(await res.arrayBuffer()) };
        }),
      );
      const served = new Set<number>();
      for (const { etag, body } of results) {
        // The ETag is the hash of exactly these bytes, and the bytes are one whole card.
        expect(etag).toBe(computeEtag(body));
        const index = cards.findIndex((c) => JSON.stringify(c) === new TextDecoder().decode(body));
        expect(index).not.toBe(-1);
        served.add(index);
      }
      expect(served.size).toBeGreaterThan(1);
    } finally {
      clearInterval(swapper);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses update() on a responder of several agents, whose catalog lists every card', () => {
    const responder = createAgentCardResponder({
      agents: [{ id: 'main', path: '/agents/main', card: CONFORMANCE_CARD }],
      logger: quiet,
    } as never);
    expect(() => responder.update(CONFORMANCE_CARD)).toThrow(
      'update: the responder serves several agents (agents), so it has no single card to replace. Create the responder again with the changed agents.',
    );
  });

  it('refuses update() on a per-request card, whose variants change with the card function', () => {
    const responder = createAgentCardResponder({
      card: () => CONFORMANCE_CARD,
      logger: quiet,
      dynamic: { allowedOrigins: ['https://agent.conformance.dev'] },
    } as never);
    expect(() => responder.update(CONFORMANCE_CARD)).toThrow(
      'update: the card is a function, built per request. Change what the card function returns instead (variantMaxAge rebuilds cached variants).',
    );
  });
});
