import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import { computeEtag } from '../http/kernel/etag';
import type { AgentCardOptions, AgentCardUpdate } from '../http/types';
import type { AgentCard } from '../model';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from './cards';
import { readRequestHeader } from './request-header';
import type { ConformanceServer } from './server';

/** A running app under test whose card the adapter's own run-time handle changes. */
export interface UpdatableConformanceServer extends ConformanceServer {
  /** The adapter's `update`, as a user reaches it (`middleware.update`, `app.agentCard.update`, …). */
  update(card: AgentCard, changes?: AgentCardUpdate): void;
}

/** Settings of {@link runAgentCardUpdateSuite}. */
export interface AgentCardUpdateSuiteOptions {
  /** Shown in the test names, e.g. `express 4`. */
  name: string;
  /**
   * Starts the app with the card middleware built from `options` (the app's own routes are not
   * needed) and hands back the adapter's `update`.
   */
  start: (options: AgentCardOptions<any>) => Promise<UpdatableConformanceServer>;
}

const CARD_PATH = '/.well-known/agent-card.json';
const quiet = { warn: () => {} };

/** The card with one more skill, `id`. */
function withSkill(card: AgentCard, id: string): AgentCard {
  return {
    ...card,
    skills: [...card.skills, { id, name: `Skill ${id}`, description: `Does ${id}.`, tags: ['extra'] }],
  };
}

/** The bytes and the ETag of one response. */
async function fetchCard(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, etag: response.headers.get('etag'), body, text: new TextDecoder().decode(body) };
}

/**
 * The run-time card changes of an adapter, over a real socket: `update` through the adapter's own
 * handle serves the new bytes with their own ETag, a hostile card is refused with core's exact
 * message while the old bytes stay, and every request racing the swaps gets one whole card with
 * that card's ETag.
 *
 * @example
 * runAgentCardUpdateSuite({
 *   name: 'express 5',
 *   async start(options) {
 *     const middleware = agentCard(options);
 *     const server = express().use(middleware).listen(0);
 *     await once(server, 'listening');
 *     return { url: `http://127.0.0.1:${server.address().port}`, update: middleware.update, close: … };
 *   },
 * });
 */
export function runAgentCardUpdateSuite(config: AgentCardUpdateSuiteOptions): void {
  describe(`${config.name}: changing the card at run time`, () => {
    const start = () =>
      config.start({
        card: CONFORMANCE_CARD,
        profile: 'production',
        logger: quiet,
        extended: {
          authenticate: (raw: unknown) =>
            readRequestHeader(raw, 'authorization') === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'tester' } : undefined,
          card: [EXTENDED_ONLY_SKILL],
        },
      });

    it('serves the new bytes with a new ETag on the next GET; the old ETag gets them too, the new one a 304', async () => {
      const server = await start();
      try {
        const url = server.url + CARD_PATH;
        const before = await fetchCard(url);
        server.update(withSkill(CONFORMANCE_CARD, 'added-at-run-time'));
        const after = await fetchCard(url);
        expect(after.status).toBe(200);
        expect((JSON.parse(after.text) as AgentCard).skills.map((skill) => skill.id)).toEqual([
          'public-answer',
          'added-at-run-time',
        ]);
        expect(after.etag).toBe(computeEtag(after.body));
        expect(after.etag).not.toBe(before.etag);
        const stale = await fetchCard(url, { 'if-none-match': before.etag! });
        expect([stale.status, stale.etag, stale.text]).toEqual([200, after.etag, after.text]);
        expect((await fetchCard(url, { 'if-none-match': after.etag! })).status).toBe(304);
        const legacy = await fetchCard(`${server.url}/.well-known/agent.json`);
        expect([legacy.etag, legacy.text]).toEqual([after.etag, after.text]);
      } finally {
        await server.close();
      }
    });

    it('refuses a hostile card with every error and keeps serving the old bytes and ETag', async () => {
      const server = await start();
      try {
        const url = server.url + CARD_PATH;
        const before = await fetchCard(url);
        const hostile = {
          ...CONFORMANCE_CARD,
          supportedInterfaces: [{ url: 'javascript:alert(1)', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        } as AgentCard;
        let error: unknown;
        try {
          server.update(hostile);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(AgentCardError);
        expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_INVALID');
        expect((error as AgentCardError).message).toBe(
          'card: the Agent Card has 1 validation error(s) (profile production). Fix them; an invalid card is never served:\n' +
            '  - [interface-url-format] /supportedInterfaces/0/url: supportedInterfaces[0].url: is not an absolute URL ("javascript:alert(1)"). Use the absolute endpoint URL with scheme and host, e.g. "https://api.acme.io/a2a".',
        );
        const after = await fetchCard(url);
        expect([after.status, after.etag, after.text]).toEqual([200, before.etag, before.text]);
      } finally {
        await server.close();
      }
    });

    it('changes the extended card with the public one, still only for an authenticated caller', async () => {
      const server = await start();
      try {
        const url = server.url + CONFORMANCE_EXTENDED_PATH;
        const added = { ...EXTENDED_ONLY_SKILL, id: 'added-audit' };
        server.update(withSkill(CONFORMANCE_CARD, 'added-public'), { extendedCard: [EXTENDED_ONLY_SKILL, added] });
        const extended = await fetchCard(url, { authorization: `Bearer ${CONFORMANCE_TOKEN}` });
        expect(extended.status).toBe(200);
        expect((JSON.parse(extended.text) as AgentCard).skills.map((skill) => skill.id)).toEqual([
          'public-answer',
          'added-public',
          'private-audit',
          'added-audit',
        ]);
        const anonymous = await fetchCard(url);
        expect(anonymous.status).toBe(401);
        expect(anonymous.text).not.toContain('added-audit');
      } finally {
        await server.close();
      }
    });

    it('gives each of many concurrent requests one whole card with its own ETag while cards are swapped', async () => {
      const server = await start();
      const cards = [CONFORMANCE_CARD, withSkill(CONFORMANCE_CARD, 'b'), withSkill(CONFORMANCE_CARD, 'c')];
      const texts = cards.map((card) => JSON.stringify(card));
      let swaps = 0;
      const swapper = setInterval(() => server.update(cards[++swaps % cards.length]!), 1);
      try {
        const results = await Promise.all(Array.from({ length: 150 }, () => fetchCard(server.url + CARD_PATH)));
        const served = new Set<number>();
        for (const { status, etag, body, text } of results) {
          expect(status).toBe(200);
          // The ETag is the hash of exactly these bytes, and the bytes are one whole card.
          expect(etag).toBe(computeEtag(body));
          const index = texts.indexOf(text);
          expect(index).not.toBe(-1);
          served.add(index);
        }
        expect(swaps).toBeGreaterThan(1);
        expect(served.size).toBeGreaterThan(1);
      } finally {
        clearInterval(swapper);
        await server.close();
      }
    });
  });
}
