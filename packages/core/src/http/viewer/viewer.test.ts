import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import { CONFORMANCE_CARD, conformanceAgentCard, EXTENDED_ONLY_SKILL } from '../../testing/cards';
import { VIEWER_CONTENT_SECURITY_POLICY } from '../../view/document';
import { computeEtag } from '../kernel/etag';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponse } from '../types';
import { relativeReference } from './pages';

const quiet = { warn: () => {} };
const PAGE = '/.well-known/agent-card.html';
const CARD = '/.well-known/agent-card.json';
const decoder = new TextDecoder();
const text = (res: AgentCardResponse | undefined) => (res?.body ? decoder.decode(res.body) : '');

function responder(options: Partial<AgentCardOptions> = {}) {
  return createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet, viewer: true, ...options });
}

function ask(
  r: ReturnType<typeof createAgentCardResponder>,
  request: Partial<AgentCardRequest> = {},
): AgentCardResponse | undefined {
  const res = r.respond({ method: 'GET', path: PAGE, headers: {}, ...request });
  if (res instanceof Promise) throw new Error('a static card must answer synchronously');
  return res;
}

function options(error: () => unknown): string {
  try {
    error();
  } catch (e) {
    expect(e).toBeInstanceOf(AgentCardError);
    expect((e as AgentCardError).code).toBe('ERR_AGENT_CARD_OPTIONS');
    return (e as Error).message;
  }
  throw new Error('expected a start-up error');
}

describe('viewer: a static card', () => {
  const r = responder({ extended: { authenticate: () => undefined, card: [EXTENDED_ONLY_SKILL] } });

  it('GET → 200 HTML with the CSP, nosniff, a strong ETag of the bytes and the card cache policy', () => {
    const res = ask(r)!;
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(res.body!.byteLength),
      'x-content-type-options': 'nosniff',
      'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      etag: computeEtag(res.body!),
      'cache-control': 'public, max-age=3600',
    });
    expect(text(res)).toContain('<h1>Conformance Agent</h1>');
    expect(text(res)).toContain('<a href="./agent-card.json">Open the JSON document</a>');
  });

  it('is built once: every request gets the same prebuilt response object', () => {
    expect(ask(r)).toBe(ask(r));
    expect(ask(r, { path: `${PAGE}?utm=1` })).toBe(ask(r));
  });

  it('never shows the extended card, even to a caller the extended card would accept', () => {
    const open = responder({ extended: { authenticate: () => ({ sub: 'x' }), card: [EXTENDED_ONLY_SKILL] } });
    const page = text(ask(open, { headers: { authorization: 'Bearer anything' } }));
    expect(page).toContain('Public answers');
    expect(page).not.toContain(EXTENDED_ONLY_SKILL.name);
    expect(page).not.toContain(EXTENDED_ONLY_SKILL.id);
  });

  it.each([
    ['HEAD', 200, 0],
    ['OPTIONS', 204, 0],
    ['POST', 405, undefined],
    ['DELETE', 405, undefined],
  ])('%s → %i', (method, status, length) => {
    const res = ask(r, { method });
    expect(res?.status).toBe(status);
    if (length === 0) expect(res?.body).toBeUndefined();
    if (status === 405) expect(res?.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('If-None-Match with the ETag → 304 without a body', () => {
    const etag = ask(r)!.headers.etag!;
    const res = ask(r, { headers: { 'if-none-match': etag } });
    expect([res?.status, res?.body, res?.headers.etag]).toEqual([304, undefined, etag]);
  });

  it('leaves the card answers untouched and other paths to the app', () => {
    const plain = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    const card = ask(r, { path: CARD })!;
    expect(card.headers).toEqual(
      (plain.respond({ method: 'GET', path: CARD, headers: {} }) as AgentCardResponse).headers,
    );
    for (const path of ['/', '/api/ping', '/.well-known/other', `${PAGE}/x`, '/agent-card.html'])
      expect(ask(r, { path }), path).toBeUndefined();
  });

  it('is off by default and with viewer: false', () => {
    expect(ask(responder({ viewer: undefined }))).toBeUndefined();
    expect(ask(responder({ viewer: false }))).toBeUndefined();
  });

  it('serves at a configured path, linking the card relatively so a mount path still works', () => {
    const custom = responder({ viewer: { path: '/docs/agent' } });
    expect(ask(custom)).toBeUndefined();
    const page = text(ask(custom, { path: '/docs/agent' }));
    expect(page).toContain('<a href="../.well-known/agent-card.json">Open the JSON document</a>');
  });

  it('shows the new card after update(), with a new ETag', () => {
    const live = responder();
    const before = ask(live)!;
    live.update({ ...CONFORMANCE_CARD, name: 'Renamed Agent' });
    const after = ask(live)!;
    expect(text(after)).toContain('<h1>Renamed Agent</h1>');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('shows the signatures of the served card and their key ids', () => {
    const key = generateKeyPairSync('ed25519');
    const signed = responder({ sign: { privateKey: key.privateKey, kid: 'card-2026', alg: 'EdDSA' } });
    const page = text(ask(signed));
    expect(page).toMatch(/The card is signed \((one signature|\d signatures)\)/);
    expect(page).toContain('Key <code>card-2026</code>, algorithm EdDSA');
  });
});

describe('viewer: start-up errors', () => {
  it.each([
    [CARD, 'the card'],
    ['/.well-known/agent.json', 'the legacy alias'],
    ['/a2a/rest/extendedAgentCard', 'the REST extended card'],
  ])('a page at %s (%s) is refused', (path) => {
    const message = options(() =>
      responder({ viewer: { path }, extended: { authenticate: () => undefined, card: [EXTENDED_ONLY_SKILL] } }),
    );
    expect(message).toBe(
      `Invalid agent card options:\n  - options.viewer: the page path is also served by the agent card middleware ("${path}"). Choose another viewer path, e.g. '/.well-known/agent-card.html'.`,
    );
  });

  it('a page at the JWK Set path is refused', () => {
    const key = generateKeyPairSync('ed25519');
    expect(
      options(() =>
        responder({ viewer: { path: '/.well-known/jwks.json' }, sign: { privateKey: key.privateKey, alg: 'EdDSA' } }),
      ),
    ).toContain('options.viewer: the page path is also served by the agent card middleware ("/.well-known/jwks.json")');
  });

  it('the legacy path is free when legacy is off', () => {
    const r = responder({ viewer: { path: '/.well-known/agent.json' }, legacy: false });
    expect(ask(r, { path: '/.well-known/agent.json' })?.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it.each([
    [{ path: 'agent.html' }, 'options.viewer.path: must be a path of non-empty segments'],
    [{ path: '/page?x=1' }, 'options.viewer.path: must be a path'],
    [{ path: '/page/' }, 'options.viewer.path: must be a path'],
    [{ path: '/' }, 'options.viewer.path: must be a path'],
    [{ path: '/a/../b' }, 'options.viewer.path: must be a path'],
    [{ paht: '/x' }, 'options.viewer.paht: unknown option'],
    ['yes', 'options.viewer: must be true, false or { path } ("yes")'],
  ])('viewer: %j is refused', (viewer, message) => {
    expect(options(() => responder({ viewer: viewer as never }))).toContain(message);
  });
});

describe('viewer: a card function', () => {
  const build = (ctx: { origin: string }): AgentCard => ({
    ...CONFORMANCE_CARD,
    name: `Agent for ${ctx.origin}`,
    supportedInterfaces: [{ url: `${ctx.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  });

  it('renders one page per variant from the variant cache, with the variant Vary', async () => {
    const card = vi.fn(build);
    const r = createAgentCardResponder({
      card,
      logger: quiet,
      viewer: true,
      dynamic: { allowedOrigins: ['https://a.example', 'https://b.example'], trustProxy: true },
    });
    const get = async (host: string, path = PAGE) =>
      (await r.respond({
        method: 'GET',
        path,
        headers: { host, 'x-forwarded-proto': 'https' },
      })) as AgentCardResponse;
    const a = await get('a.example');
    expect(text(a)).toContain('<h1>Agent for https://a.example</h1>');
    expect(a.headers.vary).toContain('Host');
    expect(text(await get('b.example'))).toContain('<h1>Agent for https://b.example</h1>');
    expect(await get('a.example')).toBe(a);
    await get('a.example', CARD);
    // The page's variant is the card's: the provider ran once per origin.
    expect(card).toHaveBeenCalledTimes(2);
    const refused = await get('evil.example');
    expect([refused.status, refused.headers['content-type']]).toEqual([400, 'application/json']);
  });
});

describe('viewer: several agents', () => {
  const agents = (extra: Partial<AgentCardOptions> = {}) =>
    createAgentCardResponder({
      logger: quiet,
      viewer: true,
      agents: ['billing', 'support'].map((id) => ({
        id,
        path: `/agents/${id}`,
        card: conformanceAgentCard(id),
        extended: { authenticate: () => ({ sub: id }), card: [{ ...EXTENDED_ONLY_SKILL, id: `${id}-private` }] },
      })),
      default: 'support',
      catalog: { host: { displayName: 'Conformance Corp' } },
      ...extra,
    });
  const get = (r: ReturnType<typeof agents>, path: string) =>
    r.respond({ method: 'GET', path, headers: { authorization: 'Bearer x' } }) as AgentCardResponse | undefined;

  it("each agent has its page, showing its card only and never an extended card's skill", () => {
    const r = agents();
    for (const id of ['billing', 'support']) {
      const page = text(get(r, `/agents/${id}${PAGE}`));
      expect(page).toContain(`<h1>Conformance ${id}</h1>`);
      expect(page).not.toContain('-private');
      expect(page).not.toContain(EXTENDED_ONLY_SKILL.name);
    }
    expect(text(get(r, PAGE))).toContain('<h1>Conformance support</h1>');
  });

  it('the host page lists every catalog agent, linked to its page, with its skills', () => {
    const res = get(agents(), '/.well-known/ai-catalog.html')!;
    expect(res.headers['content-security-policy']).toBe(VIEWER_CONTENT_SECURITY_POLICY);
    const page = text(res);
    expect(page).toContain('<h1>Conformance Corp</h1>');
    expect(page).toContain('<a href="../agents/billing/.well-known/agent-card.html">Conformance billing</a>');
    expect(page).toContain('<a href="../agents/support/.well-known/agent-card.html">Conformance support</a>');
    expect(page).toContain('billing answers');
    expect(page).toContain('<a href="./ai-catalog.json">Open the JSON document</a>');
  });

  it('an agent left out of the catalog still has its page but is not listed', () => {
    const r = createAgentCardResponder({
      logger: quiet,
      viewer: true,
      agents: [
        { id: 'a', path: '/a', card: conformanceAgentCard('a') },
        { id: 'hidden', path: '/hidden', card: conformanceAgentCard('hidden'), catalogEntry: false },
      ],
    });
    expect(text(get(r, `/hidden${PAGE}`))).toContain('<h1>Conformance hidden</h1>');
    expect(text(get(r, '/.well-known/ai-catalog.html'))).not.toContain('Conformance hidden');
    expect(get(r, PAGE)).toBeUndefined();
  });

  it('viewer on one agent is refused, naming the agent', () => {
    const message = options(() =>
      createAgentCardResponder({
        logger: quiet,
        agents: [{ id: 'a', path: '/a', card: conformanceAgentCard('a'), viewer: true } as never],
      }),
    );
    expect(message).toContain('options.agents[0] (agent "a").viewer: is set for the whole host, not per agent (true).');
  });

  it.each([
    [{ catalogPath: '/.well-known/ai-catalog.json' }, '"/.well-known/ai-catalog.json"'],
    [{ catalogPath: '/agents/billing/.well-known/agent-card.html' }, 'two pages would be served at the same path'],
    [{ path: '/.well-known/agent-card.json' }, '"/agents/billing/.well-known/agent-card.json"'],
  ])('viewer %j collides', (viewer, message) => {
    expect(options(() => agents({ viewer }))).toContain(message);
  });
});

describe('relativeReference', () => {
  it.each([
    ['/.well-known/agent-card.html', '/.well-known/agent-card.json', './agent-card.json'],
    ['/docs/agent', '/.well-known/agent-card.json', '../.well-known/agent-card.json'],
    ['/agent', '/.well-known/agent-card.json', './.well-known/agent-card.json'],
    ['/.well-known/ai-catalog.html', '/a:b/.well-known/agent-card.html', '../a:b/.well-known/agent-card.html'],
    ['/x.html', '/a:b/c', './a:b/c'],
  ])('from %s to %s is %s', (from, to, expected) => {
    expect(relativeReference(from, to)).toBe(expected);
    expect(new URL(expected, `https://h.example/mount${from}`).pathname).toBe(`/mount${to}`);
  });
});
