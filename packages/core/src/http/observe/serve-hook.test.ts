import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../../model';
import {
  CONFORMANCE_CARD,
  CONFORMANCE_EXTENDED_PATH,
  CONFORMANCE_TOKEN,
  conformanceAgentCard,
} from '../../testing/cards';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions, AgentCardRequest } from '../types';
import { clientFamily, requestedVersion } from './client';
import type { AgentCardServeEvent } from './hook';

const quiet = { warn: () => {} };
const CARD = '/.well-known/agent-card.json';
const key = generateKeyPairSync('ed25519');
const authenticate = (req: { headers?: Record<string, unknown> } | undefined) =>
  req?.headers?.authorization === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'caller' } : undefined;

/** Answers `request` with a responder made of `options` and gives the events the hook got. */
async function served(options: Partial<AgentCardOptions>, request: Partial<AgentCardRequest>) {
  const events: AgentCardServeEvent[] = [];
  const responder = createAgentCardResponder({
    card: CONFORMANCE_CARD,
    logger: quiet,
    extended: { authenticate: (raw) => authenticate(raw as never) },
    ...options,
    onServe: (e) => events.push(e),
  } as AgentCardOptions);
  const headers = request.headers ?? {};
  const res = await responder.respond({ method: 'GET', path: CARD, ...request, headers, raw: { headers } });
  // The hook runs in a microtask after the answer.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { res, events };
}

const agents = {
  card: undefined,
  extended: undefined,
  default: 'billing',
  agents: [
    { id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing') },
    { id: 'support', path: '/agents/support', card: conformanceAgentCard('support') },
  ],
} as unknown as Partial<AgentCardOptions>;

describe('onServe: what was served, told after each answered request', () => {
  it.each<[string, Partial<AgentCardOptions>, Partial<AgentCardRequest>, Partial<AgentCardServeEvent>]>([
    ['the card', {}, {}, { kind: 'card', status: 200, agent: undefined, method: 'GET' }],
    ['the card, HEAD', {}, { method: 'HEAD' }, { kind: 'card', status: 200, method: 'HEAD' }],
    ['the card, revalidated', {}, { headers: { 'if-none-match': '*' } }, { kind: 'card', status: 304 }],
    ['a preflight', {}, { method: 'OPTIONS' }, { kind: 'card', status: 204 }],
    ['a POST to the card', {}, { method: 'POST' }, { kind: 'card', status: 405 }],
    ['the legacy alias', {}, { path: '/.well-known/agent.json' }, { kind: 'alias', status: 200 }],
    ['the v0.3 card', { legacy: 'v0.3' }, { path: '/.well-known/agent.json' }, { kind: 'alias', status: 200 }],
    ['the extended card, no credentials', {}, { path: CONFORMANCE_EXTENDED_PATH }, { kind: 'extended', status: 401 }],
    [
      'the extended card',
      {},
      { path: CONFORMANCE_EXTENDED_PATH, headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` } },
      { kind: 'extended', status: 200 },
    ],
    [
      'the JWK Set',
      { sign: { privateKey: key.privateKey, alg: 'EdDSA', kid: 'k1' } },
      { path: '/.well-known/jwks.json' },
      { kind: 'jwks', status: 200 },
    ],
    ['the page', { viewer: true }, { path: '/.well-known/agent-card.html' }, { kind: 'viewer', status: 200 }],
    ['an agent', agents, { path: `/agents/support${CARD}` }, { kind: 'card', agent: 'support', status: 200 }],
    ['the default agent at the root', agents, {}, { kind: 'card', agent: 'billing', status: 200 }],
    [
      "an agent's extended card",
      agents,
      { path: '/agents/support/a2a/rest/extendedAgentCard' },
      { kind: 'extended', agent: 'support', status: 400 },
    ],
    ['the AI Catalog', agents, { path: '/.well-known/ai-catalog.json' }, { kind: 'catalog', agent: undefined }],
    [
      "an agent's page",
      { ...agents, viewer: true },
      { path: '/agents/billing/.well-known/agent-card.html' },
      { kind: 'viewer', agent: 'billing', status: 200 },
    ],
    [
      'a card function that fails',
      {
        card: () => {
          throw new Error('down');
        },
        extended: undefined,
        dynamic: { allowedOrigins: ['https://agent.example.com'] },
      },
      { headers: { host: 'agent.example.com' }, encrypted: true },
      { kind: 'card', status: 503 },
    ],
    [
      "a card function's alias, unknown host",
      { card: () => CONFORMANCE_CARD, extended: undefined, dynamic: { allowedOrigins: ['https://a.example.com'] } },
      { path: '/.well-known/agent.json', headers: { host: 'evil.example' } },
      { kind: 'alias', status: 400 },
    ],
  ])('%s', async (_name, options, request, expected) => {
    const { res, events } = await served(options, request);
    expect(res).toBeDefined();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ...expected, status: expected.status ?? res!.status });
  });

  it('is not told about requests the app answers', async () => {
    const { res, events } = await served({}, { path: '/api/orders' });
    expect(res).toBeUndefined();
    expect(events).toEqual([]);
  });

  it('is not told about the documents a page is made of', async () => {
    const { events } = await served({ viewer: true }, { path: '/.well-known/agent-card.html' });
    expect(events.map((e) => e.kind)).toEqual(['viewer']);
  });

  it('carries the A2A-Version asked for and the client family', async () => {
    const { events } = await served(
      {},
      {
        headers: {
          'a2a-version': '1.0',
          'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        },
      },
    );
    expect(events[0]).toMatchObject({ a2aVersion: '1.0', client: 'agent-crawler' });
  });

  it('a hook that throws leaves the answer as it was and goes to onError', async () => {
    const errors: unknown[] = [];
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      onError: (e) => errors.push(e),
      onServe: () => {
        throw new Error('hook broke');
      },
    });
    const res = responder.respond({ method: 'GET', path: CARD, headers: {} });
    expect(res).toMatchObject({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual([new Error('hook broke')]);
  });

  it('an async hook that rejects goes to onError, never unhandled', async () => {
    const errors: unknown[] = [];
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      onError: (e) => errors.push(e),
      onServe: async () => {
        throw new Error('async hook broke');
      },
    });
    expect(responder.respond({ method: 'GET', path: CARD, headers: {} })).toMatchObject({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual([new Error('async hook broke')]);
  });

  it('a static card is still answered in the same tick, not in a promise', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet, onServe: () => {} });
    expect(responder.respond({ method: 'GET', path: CARD, headers: {} })).not.toBeInstanceOf(Promise);
  });

  it('refuses an onServe that is not a function, with the other problems, at start-up', () => {
    expect(() =>
      createAgentCardResponder({ card: CONFORMANCE_CARD, onServe: 'log' as never, cors: 'yes' as never }),
    ).toThrow(
      /options\.onServe: must be a function \("log"\)\. Pass \(event\) => \{ … \}, or leave it out\.[\s\S]*options\.cors/,
    );
  });
});

describe('client family: a bounded reading of User-Agent', () => {
  it.each([
    [undefined, 'none'],
    ['', 'none'],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
      'agent-crawler',
    ],
    ['Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'agent-crawler'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'search-crawler'],
    ['some-directory-crawler/0.1', 'search-crawler'],
    ['a2a-python/0.3.4 python-httpx/0.28.1', 'a2a-sdk'],
    ['agent-card/0.1.0 (+https://github.com/agent-card)', 'a2a-sdk'],
    ['python-httpx/0.28.1', 'http-library'],
    ['curl/8.5.0', 'http-library'],
    ['node', 'http-library'],
    ['Go-http-client/2.0', 'http-library'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', 'browser'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'browser'],
    ['MyAgent/1.0', 'other'],
    [['curl/8.5.0', 'GPTBot'], 'http-library'],
  ] as const)('%j is %s', (ua, family) => {
    expect(clientFamily(ua as never)).toBe(family);
  });

  it('reads only the start of a hostile, megabyte-long User-Agent', () => {
    const hostile = `${'Mozilla/5.0 '.repeat(100_000)}GPTBot`;
    const start = performance.now();
    for (let i = 0; i < 100; i++) expect(clientFamily(hostile)).toBe('other');
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('A2A-Version: a bounded set of values', () => {
  it.each([
    [undefined, undefined],
    ['1.0', '1.0'],
    [' 0.3 ', '0.3'],
    ['1.0.2', '1.0'],
    [['1.0', '0.3'], '1.0'],
    ['', 'invalid'],
    ['1', 'invalid'],
    ['1.', 'invalid'],
    ['.1', 'invalid'],
    ['v1.0', 'invalid'],
    ['1.0; DROP TABLE', 'invalid'],
    ['1234.0', 'invalid'],
    ['1.00000', 'invalid'],
    ['10.0', 'invalid'],
    [`1.${'0'.repeat(100_000)}`, 'invalid'],
  ] as const)('case %#', (header, version) => {
    expect(requestedVersion(header as never)).toBe(version);
  });
});

describe('onServe left out', () => {
  it('changes nothing in what respond returns', () => {
    const card: AgentCard = CONFORMANCE_CARD;
    const a = createAgentCardResponder({ card, logger: quiet });
    const res = a.respond({ method: 'GET', path: CARD, headers: {} });
    expect(res).toMatchObject({ status: 200 });
    expect(Object.keys(res as object)).toEqual(['status', 'headers', 'body']);
  });
});
