import { describe, expect, it, vi } from 'vitest';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { CONFORMANCE_CARD } from '../testing/cards';
import { computeEtag } from './kernel/etag';
import { createAgentCardResponder } from './responder';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponse } from './types';

const quiet = { warn: () => {} };
const CARD_PATH = '/.well-known/agent-card.json';
const LEGACY_PATH = '/.well-known/agent.json';
const bytes = new TextEncoder().encode(JSON.stringify(CONFORMANCE_CARD));
const ETAG = computeEtag(bytes);

function respond(
  options: Partial<AgentCardOptions>,
  request: Partial<AgentCardRequest>,
): AgentCardResponse | undefined {
  const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet, ...options });
  const res = responder.respond({ method: 'GET', path: CARD_PATH, headers: {}, ...request });
  if (res instanceof Promise) throw new Error('a static card must answer synchronously');
  return res;
}

const text = (res: AgentCardResponse | undefined) => (res?.body ? new TextDecoder().decode(res.body) : undefined);

describe('static card: status by method and path', () => {
  it.each([
    ['GET', CARD_PATH, 200],
    ['HEAD', CARD_PATH, 200],
    ['OPTIONS', CARD_PATH, 204],
    ['POST', CARD_PATH, 405],
    ['PUT', CARD_PATH, 405],
    ['DELETE', CARD_PATH, 405],
    ['PATCH', CARD_PATH, 405],
    ['BREW', CARD_PATH, 405],
    ['GET', `${CARD_PATH}?x=1`, 200],
    ['GET', `${CARD_PATH}/`, 200],
    ['GET', `${CARD_PATH}/?x=1&y`, 200],
    ['GET', LEGACY_PATH, 200],
    ['GET', `${LEGACY_PATH}/`, 200],
    ['POST', LEGACY_PATH, 405],
  ])('%s %s → %i', (method, path, status) => {
    expect(respond({}, { method, path })?.status).toBe(status);
  });

  it.each([
    '/',
    '/.well-known/other',
    '/.well-known/%61gent-card.json',
    '/.well-known/agent-card.json/..',
    '/.well-known/agent-card.json//',
    '/.well-known/x/../agent-card.json',
    '//.well-known/agent-card.json',
    '/.well-known/agent-card.jsonx',
    '/.well-known/AGENT-CARD.JSON',
    '/api/.well-known/agent-card.json',
    '.well-known/agent-card.json',
    '',
    '/.well-known/agent-card.json#frag',
    '/a2a/rest/extendedAgentCardX',
  ])('%j falls through', (path) => {
    expect(respond({}, { path })).toBeUndefined();
  });
});

describe('static card: GET headers and body', () => {
  it('sends the exact bytes with every header the table asks for', () => {
    const res = respond({}, {});
    expect(Buffer.compare(res!.body!, bytes)).toBe(0);
    // On Node, a Buffer over the prepared bytes: the server writes it without wrapping it.
    expect(Buffer.isBuffer(res?.body)).toBe(true);
    expect(res?.headers).toEqual({
      'content-type': 'application/a2a+json',
      'content-length': String(bytes.byteLength),
      'x-content-type-options': 'nosniff',
      etag: ETAG,
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
      vary: 'Accept',
    });
    expect(ETAG).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it('HEAD sends the same headers and no body', () => {
    const get = respond({}, {});
    const head = respond({}, { method: 'HEAD' });
    expect(head?.headers).toEqual(get?.headers);
    expect(head?.body).toBeUndefined();
  });

  it('returns the same frozen response object every time (nothing is built per request)', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    const a = responder.respond({ method: 'GET', path: CARD_PATH, headers: {} });
    const b = responder.respond({ method: 'GET', path: `${CARD_PATH}?q=1`, headers: { 'if-none-match': '"other"' } });
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen((a as AgentCardResponse).headers)).toBe(true);
  });

  it.each([
    [{ contentType: 'application/json' }, 'content-type', 'application/json'],
    [{ cacheControl: 'public, max-age=60' }, 'cache-control', 'public, max-age=60'],
    [{ cacheControl: false as const }, 'cache-control', undefined],
    [{ cors: false as const }, 'access-control-allow-origin', undefined],
  ])('%j sets %s to %j', (options, header, value) => {
    expect(respond(options, {})?.headers[header]).toBe(value);
  });
});

describe('static card: conditional GET', () => {
  it.each([
    [ETAG, 304],
    [`W/${ETAG}`, 304],
    ['*', 304],
    [' * ', 304],
    [`"a", ${ETAG}`, 304],
    [`"a",W/${ETAG} , "b"`, 304],
    [[`"a"`, ETAG], 304],
    ['"a", "b"', 200],
    [`${ETAG.slice(0, -2)}"`, 200],
    [`W/${ETAG.slice(1)}`, 200],
    [ETAG.slice(1, -1), 200],
    ['', 200],
    ['"a", *', 200],
    ['"unterminated', 200],
    [`garbage, ${ETAG}`, 200],
    [`"a"${' '.repeat(20_000)}, ${ETAG}`, 200],
    [','.repeat(100_000), 200],
    ['\u0000\uffff', 200],
  ] as const)('If-None-Match %j → %i', (inm, status) => {
    expect(respond({}, { headers: { 'if-none-match': inm as string } })?.status).toBe(status);
    expect(respond({}, { method: 'HEAD', headers: { 'if-none-match': inm as string } })?.status).toBe(status);
  });

  it('304 carries ETag, Cache-Control, CORS and Vary and no body', () => {
    const res = respond(
      { cors: ['https://app.example.org'] },
      { headers: { 'if-none-match': ETAG, origin: 'https://app.example.org' } },
    );
    expect(res?.status).toBe(304);
    expect(res?.body).toBeUndefined();
    expect(res?.headers).toEqual({
      etag: ETAG,
      'cache-control': 'public, max-age=3600',
      vary: 'Origin, Accept',
      'access-control-allow-origin': 'https://app.example.org',
    });
  });
});

describe('static card: CORS', () => {
  const list = ['https://a.example.org', 'http://localhost:3000'];
  it.each([
    ['https://a.example.org', 'https://a.example.org'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://evil.example.org', undefined],
    [undefined, undefined],
  ])('origin list: Origin %j → Access-Control-Allow-Origin %j, always Vary: Origin', (origin, allowed) => {
    const res = respond({ cors: list }, { headers: origin ? { origin } : {} });
    expect(res?.headers['access-control-allow-origin']).toBe(allowed);
    expect(res?.headers.vary).toBe('Origin, Accept');
  });

  it('OPTIONS answers a preflight with methods, headers and max-age', () => {
    const res = respond(
      {},
      { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } },
    );
    expect(res?.status).toBe(204);
    expect(res?.body).toBeUndefined();
    expect(res?.headers).toMatchObject({
      allow: 'GET, HEAD, OPTIONS',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-max-age': '7200',
    });
    expect(res?.headers['access-control-allow-headers']).toContain('If-None-Match');
  });

  it('OPTIONS with CORS off still answers 204 with Allow and no CORS headers', () => {
    const res = respond({ cors: false }, { method: 'OPTIONS' });
    expect(res?.status).toBe(204);
    expect(Object.keys(res?.headers ?? {}).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('static card: 405', () => {
  it('has Allow and a small fixed JSON body', () => {
    const res = respond({}, { method: 'POST' });
    expect(res?.status).toBe(405);
    expect(res?.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(text(res)!)).toEqual({
      error: { code: 405, status: 'METHOD_NOT_ALLOWED', message: 'Method not allowed. Use GET, HEAD or OPTIONS.' },
    });
  });
});

describe('legacy path', () => {
  it('is a byte-identical alias with the same ETag and a canonical Link', () => {
    const main = respond({}, {});
    const legacy = respond({}, { path: LEGACY_PATH });
    expect(legacy?.body).toEqual(main?.body);
    expect(legacy?.headers.etag).toBe(main?.headers.etag);
    expect(legacy?.headers.link).toBe('</.well-known/agent-card.json>; rel="canonical"');
    expect(main?.headers.link).toBeUndefined();
    expect(respond({}, { path: LEGACY_PATH, headers: { 'if-none-match': ETAG } })?.status).toBe(304);
  });

  it('legacy: false leaves the path to the app', () => {
    expect(respond({ legacy: false }, { path: LEGACY_PATH })).toBeUndefined();
    expect(respond({ legacy: false }, {})?.status).toBe(200);
  });

  it("legacy: 'v0.3' serves the v0.3 superset card with its own ETag", () => {
    const res = respond({ legacy: 'v0.3' }, { path: LEGACY_PATH });
    const card = JSON.parse(text(res)!);
    expect(card).toMatchObject({
      url: 'https://agent.conformance.dev/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      supportsAuthenticatedExtendedCard: true,
      supportedInterfaces: CONFORMANCE_CARD.supportedInterfaces,
    });
    expect(res?.headers.etag).toBe(computeEtag(res!.body!));
    expect(res?.headers.etag).not.toBe(ETAG);
    expect(Buffer.compare(respond({ legacy: 'v0.3' }, {})!.body!, bytes)).toBe(0);
  });
});

describe('start-up', () => {
  it('reports every bad option at once', () => {
    const bad = {
      card: CONFORMANCE_CARD,
      cors: ['https://ok.example', 'not an origin/'],
      cacheControl: 'x\r\ny',
      dynamic: { maxVariants: 0 },
      legacy: 'v0.2',
      cahceControl: 'typo',
      extended: { card: [] },
    } as unknown as AgentCardOptions;
    let error: unknown;
    try {
      createAgentCardResponder(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentCardError);
    expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_OPTIONS');
    const message = (error as AgentCardError).message;
    for (const where of [
      'options.cors',
      'options.cacheControl',
      'options.dynamic.maxVariants',
      'options.legacy',
      'options.cahceControl',
      'options.extended.authenticate',
    ]) {
      expect(message).toContain(where);
    }
  });

  it('an invalid static card throws ERR_AGENT_CARD_INVALID listing the findings', () => {
    const card = { ...CONFORMANCE_CARD, skills: [], name: '' } as unknown as AgentCard;
    expect(() => createAgentCardResponder({ card, logger: quiet })).toThrow(
      expect.objectContaining({
        code: 'ERR_AGENT_CARD_INVALID',
        findings: expect.arrayContaining([expect.objectContaining({ severity: 'error' })]),
      }),
    );
  });

  it('an extended card without security schemes fails at start-up', () => {
    const { securitySchemes: _s, securityRequirements: _r, ...card } = CONFORMANCE_CARD;
    expect(() =>
      createAgentCardResponder({ card: card as AgentCard, logger: quiet, extended: { authenticate: () => 'x' } }),
    ).toThrow(
      expect.objectContaining({
        code: 'ERR_AGENT_CARD_INVALID',
        findings: expect.arrayContaining([expect.objectContaining({ rule: 'extended-card-requires-security' })]),
      }),
    );
  });

  it('a declared but unconfigured extended card is warned about once at start-up', () => {
    const warn = vi.fn();
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: { warn } });
    responder.respond({ method: 'GET', path: CARD_PATH, headers: {} });
    responder.respond({ method: 'GET', path: CARD_PATH, headers: {} });
    expect(warn.mock.calls.filter(([m]) => String(m).includes('no `extended` option'))).toHaveLength(1);
  });
});

describe('zero-config', () => {
  it('without card, serves agent-card.json from the working directory', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'agent-card-'));
    const { name: _n, description: _d, version: _v, ...rest } = CONFORMANCE_CARD;
    writeFileSync(join(dir, 'agent-card.json'), JSON.stringify(rest));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'zero-config-agent',
        description: 'Serves its card without any option at all.',
        version: '3.1.4',
      }),
    );
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(dir);
    try {
      const res = createAgentCardResponder({ logger: quiet }).respond({
        method: 'GET',
        path: CARD_PATH,
        headers: {},
      }) as AgentCardResponse;
      expect(JSON.parse(new TextDecoder().decode(res.body))).toMatchObject({
        name: 'zero-config-agent',
        version: '3.1.4',
      });
    } finally {
      cwd.mockRestore();
    }
  });

  it('without card and without agent-card.json, fails at start-up with ERR_AGENT_CARD_CONFIG', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(mkdtempSync(join(tmpdir(), 'agent-card-empty-')));
    try {
      expect(() => createAgentCardResponder({ logger: quiet })).toThrow(
        expect.objectContaining({ code: 'ERR_AGENT_CARD_CONFIG' }),
      );
    } finally {
      cwd.mockRestore();
    }
  });
});
