import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../model';
import { verifyAgentCard } from '../sign/verify';
import { computeEtag } from '../http/etag';
import { VIEWER_CONTENT_SECURITY_POLICY } from '../view/document';
import type { AgentCardContext, AgentCardOptions } from '../http/types';
import { runMultiAgentConformance } from './features/agents';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from './cards';
import { readRequestHeader } from './request-header';
import type { AgentCardConformanceOptions, ConformanceServer } from './server';

interface Got {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  text: string;
}

const CARD_PATH = '/.well-known/agent-card.json';
const LEGACY_PATH = '/.well-known/agent.json';
const CARD_BYTES = new TextEncoder().encode(JSON.stringify(CONFORMANCE_CARD));
const CARD_ETAG = computeEtag(CARD_BYTES);
const quiet = { warn: () => {} };
const ignore = () => {};

const authenticate = (raw: unknown) =>
  readRequestHeader(raw, 'authorization') === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'conformance' } : undefined;

function cardFor(ctx: AgentCardContext): AgentCard {
  return {
    ...CONFORMANCE_CARD,
    supportedInterfaces: [{ url: `${ctx.origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  };
}

/** The headers the table requires on a 200 (and HEAD) of the public card. */
const CARD_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'x-content-type-options',
  'access-control-allow-origin',
];

/**
 * Runs the shared HTTP conformance suite (the behaviour table of the README) against an adapter,
 * over real sockets with `fetch`. Every adapter must pass it unchanged; it needs vitest.
 */
export function runAgentCardConformanceSuite(config: AgentCardConformanceOptions): void {
  const started = new Map<string, Promise<ConformanceServer>>();
  const providerState = { fail: false, calls: 0, gate: undefined as Promise<void> | undefined, entered: () => {} };
  // The test hosts listen on 127.0.0.1; the conformance names stand for public origins.
  const allowedOrigins = (origin: string) =>
    origin.startsWith('http://127.0.0.1:') || /^https:\/\/[ab]\.conformance\.dev$/.test(origin);
  const counted = (ctx: AgentCardContext) => {
    providerState.calls++;
    return cardFor(ctx);
  };
  const gated = async (ctx: AgentCardContext) => {
    providerState.calls++;
    providerState.entered();
    await providerState.gate;
    return cardFor(ctx);
  };

  // Two signing keys (rotation: a signature by each) and one published next key.
  const signingKeys = {
    current: generateKeyPairSync('ed25519'),
    retiring: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    next: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  };

  const configurations: Record<string, () => AgentCardOptions<any>> = {
    default: () => ({ card: CONFORMANCE_CARD }),
    signed: () => ({
      card: CONFORMANCE_CARD,
      logger: quiet,
      sign: {
        keys: [
          { privateKey: signingKeys.current.privateKey, kid: 'current', alg: 'EdDSA' },
          { privateKey: signingKeys.retiring.privateKey, kid: 'retiring', alg: 'ES256' },
        ],
        publish: [{ ...signingKeys.next.publicKey.export({ format: 'jwk' }), kid: 'next' }],
      },
    }),
    custom: () => ({
      card: CONFORMANCE_CARD,
      contentType: 'application/json',
      cacheControl: 'public, max-age=60, must-revalidate',
    }),
    noCache: () => ({ card: CONFORMANCE_CARD, cacheControl: false }),
    corsList: () => ({ card: CONFORMANCE_CARD, cors: ['https://app.conformance.dev', 'http://localhost:5173'] }),
    corsOff: () => ({ card: CONFORMANCE_CARD, cors: false }),
    legacyOff: () => ({ card: CONFORMANCE_CARD, legacy: false }),
    legacyV03: () => ({ card: CONFORMANCE_CARD, legacy: 'v0.3' }),
    extended: () => ({ card: CONFORMANCE_CARD, extended: { authenticate, card: [EXTENDED_ONLY_SKILL] } }),
    viewer: () => ({ card: CONFORMANCE_CARD, viewer: true, extended: { authenticate, card: [EXTENDED_ONLY_SKILL] } }),
    viewerDynamic: () => ({ card: cardFor, viewer: true, allowedOrigins }),
    dynamic: () => ({
      card: counted,
      trustProxy: true,
      allowedOrigins,
      extended: { authenticate, card: [EXTENDED_ONLY_SKILL], path: CONFORMANCE_EXTENDED_PATH },
    }),
    // The test client connects from 127.0.0.1: `loopback` trusts it, 10.0.0.0/8 does not.
    trustLoopback: () => ({ card: cardFor, trustProxy: ['loopback'], allowedOrigins }),
    trustOther: () => ({ card: cardFor, trustProxy: ['10.0.0.0/8'], allowedOrigins }),
    oneBuild: () => ({ card: gated, trustProxy: true, allowedOrigins, maxConcurrentBuilds: 1, retryAfter: 9 }),
    failing: () => ({
      card: () => {
        throw new Error('provider failure with a secret detail');
      },
      allowedOrigins,
      retryAfter: 17,
    }),
    stale: () => ({
      card: (ctx: AgentCardContext) => {
        if (providerState.fail) throw new Error('provider failure');
        return cardFor(ctx);
      },
      allowedOrigins,
      staleIfError: true,
      variantMaxAge: 0.05,
    }),
  };

  const server = (name: keyof typeof configurations): Promise<ConformanceServer> => {
    let s = started.get(name);
    if (s === undefined) {
      s = config.start({ logger: quiet, onError: ignore, ...configurations[name]!() });
      started.set(name, s);
    }
    return s;
  };

  const get = async (name: keyof typeof configurations, path: string, init: RequestInit = {}): Promise<Got> => {
    const { url } = await server(name);
    const res = await fetch(url + path, { redirect: 'manual', ...init });
    const body = new Uint8Array(await res.arrayBuffer());
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: res.status, headers, body, text: new TextDecoder().decode(body) };
  };

  describe(`${config.name}: agent card conformance`, () => {
    afterAll(async () => {
      const all = await Promise.allSettled([...started.values()]);
      await Promise.all(all.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    });

    describe('public card', () => {
      it('GET → 200, the exact bytes, and every required header', async () => {
        const res = await get('default', CARD_PATH);
        expect(res.status).toBe(200);
        expect(Buffer.from(res.body).equals(Buffer.from(CARD_BYTES))).toBe(true);
        expect(res.headers).toMatchObject({
          'content-type': 'application/a2a+json',
          'content-length': String(CARD_BYTES.byteLength),
          etag: CARD_ETAG,
          'cache-control': 'public, max-age=3600',
          'x-content-type-options': 'nosniff',
          'access-control-allow-origin': '*',
        });
      });

      it('HEAD → 200, the same card headers, no body', async () => {
        const [g, h] = [await get('default', CARD_PATH), await get('default', CARD_PATH, { method: 'HEAD' })];
        expect(h.status).toBe(200);
        expect(h.body.byteLength).toBe(0);
        for (const name of CARD_HEADERS) expect(h.headers[name], name).toBe(g.headers[name]);
      });

      it.each([
        ['the ETag', CARD_ETAG, 304],
        ['the weak form', `W/${CARD_ETAG}`, 304],
        ['*', '*', 304],
        ['a list containing it', `"nope", ${CARD_ETAG}, "other"`, 304],
        ['another tag', '"nope"', 200],
        ['a malformed value', 'garbage"', 200],
        ['an unterminated tag', `"${CARD_ETAG.slice(1, -1)}`, 200],
        ['a huge list', `${'"x", '.repeat(2000)}"y"`, 200],
      ])('If-None-Match with %s → $2', async (_what, value, status) => {
        const res = await get('default', CARD_PATH, { headers: { 'if-none-match': value } });
        expect(res.status).toBe(status);
        if (status === 304) {
          expect(res.body.byteLength).toBe(0);
          expect(res.headers.etag).toBe(CARD_ETAG);
          expect(res.headers['cache-control']).toBe('public, max-age=3600');
          expect(res.headers['access-control-allow-origin']).toBe('*');
        }
      });

      it('HEAD with a matching If-None-Match → 304', async () => {
        expect(
          (await get('default', CARD_PATH, { method: 'HEAD', headers: { 'if-none-match': CARD_ETAG } })).status,
        ).toBe(304);
      });

      it('OPTIONS (CORS preflight) → 204 with the allowed methods', async () => {
        const res = await get('default', CARD_PATH, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://browser.conformance.dev',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'if-none-match',
          },
        });
        expect(res.status).toBe(204);
        expect(res.body.byteLength).toBe(0);
        expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('if-none-match');
        expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      });

      it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s → 405 with Allow and a JSON error body', async (method) => {
        const res = await get('default', CARD_PATH, {
          method,
          body: method === 'DELETE' ? undefined : '{}',
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
        expect(JSON.parse(res.text)).toMatchObject({ error: { code: 405 } });
      });

      it.each([`${CARD_PATH}?x=1`, `${CARD_PATH}/`, `${CARD_PATH}/?a=b&c`])('%s is the card too', async (path) => {
        const res = await get('default', path);
        expect(res.status).toBe(200);
        expect(res.headers.etag).toBe(CARD_ETAG);
      });

      it('custom contentType and cacheControl', async () => {
        const res = await get('custom', CARD_PATH);
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
        expect((await get('noCache', CARD_PATH)).headers['cache-control']).toBeUndefined();
      });
    });

    describe('legacy path', () => {
      it('/.well-known/agent.json is a byte-identical alias with the same ETag and a canonical Link', async () => {
        const res = await get('default', LEGACY_PATH);
        expect(res.status).toBe(200);
        expect(Buffer.from(res.body).equals(Buffer.from(CARD_BYTES))).toBe(true);
        expect(res.headers.etag).toBe(CARD_ETAG);
        expect(res.headers.link).toBe('</.well-known/agent-card.json>; rel="canonical"');
        expect((await get('default', LEGACY_PATH, { headers: { 'if-none-match': CARD_ETAG } })).status).toBe(304);
      });

      it('legacy: false leaves /.well-known/agent.json to the app (404)', async () => {
        const res = await get('legacyOff', LEGACY_PATH);
        expect(res.status).toBe(404);
        expect(res.headers.etag).not.toBe(CARD_ETAG);
        expect((await get('legacyOff', CARD_PATH)).status).toBe(200);
      });

      it("legacy: 'v0.3' serves the v0.3-compatible superset card", async () => {
        const res = await get('legacyV03', LEGACY_PATH);
        expect(res.status).toBe(200);
        const card = JSON.parse(res.text);
        expect(card).toMatchObject({
          name: CONFORMANCE_CARD.name,
          url: 'https://agent.conformance.dev/a2a/jsonrpc',
          preferredTransport: 'JSONRPC',
          protocolVersion: '0.3.0',
          supportsAuthenticatedExtendedCard: true,
          supportedInterfaces: CONFORMANCE_CARD.supportedInterfaces,
          security: [{ bearer: [] }, { apiKey: [] }],
          securitySchemes: {
            bearer: { type: 'http', scheme: 'Bearer' },
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          },
        });
        expect(card.additionalInterfaces).toHaveLength(2);
        expect(res.headers.etag).toBe(computeEtag(res.body));
        expect((await get('legacyV03', CARD_PATH)).headers.etag).toBe(CARD_ETAG);
      });
    });

    describe('fall-through', () => {
      it('the app routes still answer', async () => {
        const ping = await get('default', '/api/ping');
        expect(ping.status).toBe(200);
        expect(ping.text).toBe('pong');
        const other = await get('default', '/.well-known/other');
        expect(other.status).toBe(200);
        expect(other.text).toBe('other');
      });

      it.each([
        '/.well-known/%61gent-card.json',
        '/.well-known/agent-card.jsonx',
        '/.well-known/agent-card.json/x',
        '/.WELL-KNOWN/agent-card.json',
        '/nope',
      ])('%s is not the card', async (path) => {
        const res = await get('default', path);
        expect(res.status).toBe(404);
        expect(res.headers.etag).not.toBe(CARD_ETAG);
      });
    });

    describe('CORS', () => {
      it.each([
        ['https://app.conformance.dev', 'https://app.conformance.dev'],
        ['http://localhost:5173', 'http://localhost:5173'],
        ['https://evil.conformance.dev', undefined],
      ])('origin list: Origin %s → Access-Control-Allow-Origin %s, Vary: Origin', async (origin, allowed) => {
        const res = await get('corsList', CARD_PATH, { headers: { origin } });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe(allowed);
        expect(res.headers.vary).toMatch(/\bOrigin\b/);
      });

      it('304 keeps the CORS and Vary headers', async () => {
        const res = await get('corsList', CARD_PATH, {
          headers: { origin: 'https://app.conformance.dev', 'if-none-match': CARD_ETAG },
        });
        expect(res.status).toBe(304);
        expect(res.headers['access-control-allow-origin']).toBe('https://app.conformance.dev');
        expect(res.headers.vary).toMatch(/\bOrigin\b/);
      });

      it('cors: false sends no CORS headers', async () => {
        const res = await get('corsOff', CARD_PATH, { headers: { origin: 'https://app.conformance.dev' } });
        expect(res.status).toBe(200);
        expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      });
    });

    describe('extended card', () => {
      it('no credentials → 401 with WWW-Authenticate and a google.rpc.Status body', async () => {
        const res = await get('extended', CONFORMANCE_EXTENDED_PATH);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="Conformance Agent"/);
        const body = JSON.parse(res.text);
        expect(body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
        expect(body.error.details[0]).toMatchObject({ reason: 'UNAUTHENTICATED', domain: 'a2a-protocol.org' });
        expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
      });

      it('a wrong token → 401 and no extended skill', async () => {
        const res = await get('extended', CONFORMANCE_EXTENDED_PATH, { headers: { authorization: 'Bearer wrong' } });
        expect(res.status).toBe(401);
        expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
      });

      it('the right token → 200 with the extended skills, private caching, Vary: Authorization', async () => {
        const res = await get('extended', CONFORMANCE_EXTENDED_PATH, {
          headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/a2a+json');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers.vary).toMatch(/\bAuthorization\b/);
        const ids = JSON.parse(res.text).skills.map((s: { id: string }) => s.id);
        expect(ids).toEqual(['public-answer', EXTENDED_ONLY_SKILL.id]);
        expect((await get('extended', CARD_PATH)).text).not.toContain(EXTENDED_ONLY_SKILL.id);
      });

      it('declared but not configured → 400 EXTENDED_AGENT_CARD_NOT_CONFIGURED', async () => {
        const res = await get('default', CONFORMANCE_EXTENDED_PATH, {
          headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` },
        });
        expect(res.status).toBe(400);
        expect(JSON.parse(res.text).error.details[0].reason).toBe('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
      });
    });

    describe('viewer page', () => {
      const PAGE_PATH = '/.well-known/agent-card.html';

      it('GET → 200 text/html with the CSP, nosniff, a strong ETag of the bytes, and the card in words', async () => {
        const res = await get('viewer', PAGE_PATH);
        expect(res.status).toBe(200);
        expect(res.headers).toMatchObject({
          'content-type': 'text/html; charset=utf-8',
          'content-length': String(res.body.byteLength),
          'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          etag: computeEtag(res.body),
          'cache-control': 'public, max-age=3600',
        });
        expect(res.text).toContain('<h1>Conformance Agent</h1>');
        expect(res.text).toContain('API key in header X-API-Key');
      });

      it('never shows the extended card, even to a caller with the token', async () => {
        const res = await get('viewer', PAGE_PATH, { headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` } });
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
        expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.name);
      });

      it('HEAD → 200 without a body; If-None-Match → 304; a query string still matches; POST → 405', async () => {
        const page = await get('viewer', PAGE_PATH);
        const head = await get('viewer', PAGE_PATH, { method: 'HEAD' });
        expect([head.status, head.body.byteLength, head.headers.etag]).toEqual([200, 0, page.headers.etag]);
        const notModified = await get('viewer', PAGE_PATH, { headers: { 'if-none-match': page.headers.etag! } });
        expect([notModified.status, notModified.body.byteLength]).toEqual([304, 0]);
        expect((await get('viewer', `${PAGE_PATH}?from=docs`)).headers.etag).toBe(page.headers.etag);
        const post = await get('viewer', PAGE_PATH, { method: 'POST', body: '{}' });
        expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
      });

      it("its link to the JSON document resolves to the card, under the host's mount path too", async () => {
        const { url } = await server('viewer');
        const page = await get('viewer', PAGE_PATH);
        const href = /<a href="([^"]+)">Open the JSON document<\/a>/.exec(page.text)?.[1];
        expect(href).toBe('./agent-card.json');
        const card = await fetch(new URL(href!, `${url}${PAGE_PATH}`));
        expect([card.status, card.headers.get('etag')]).toEqual([200, CARD_ETAG]);
      });

      it('the card and the app routes are unchanged with the viewer on; off by default', async () => {
        expect((await get('viewer', CARD_PATH)).headers.etag).toBe(CARD_ETAG);
        expect((await get('viewer', '/api/ping')).text).toBe('pong');
        expect((await get('default', PAGE_PATH)).status).toBe(404);
      });

      it("a card function's page shows the variant of the request's origin", async () => {
        const { url } = await server('viewerDynamic');
        const res = await get('viewerDynamic', PAGE_PATH);
        expect(res.status).toBe(200);
        expect(res.text).toContain(`${new URL(url).origin}/a2a/rest`);
        expect(res.headers.vary).toMatch(/\bHost\b/);
      });
    });

    describe('signed card and its JWK Set', () => {
      const JWKS_PATH = '/.well-known/jwks.json';

      it('GET /.well-known/jwks.json → 200 application/jwk-set+json, strong ETag, Cache-Control, CORS, public members only', async () => {
        const r = await get('signed', JWKS_PATH);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toBe('application/jwk-set+json');
        expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        expect(r.headers['cache-control']).toBe('public, max-age=3600');
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        const keys = (JSON.parse(r.text) as { keys: Record<string, unknown>[] }).keys;
        expect(keys.map((k) => k.kid)).toEqual(['current', 'retiring', 'next']);
        for (const key of keys)
          for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key).not.toHaveProperty(member);
      });

      it('If-None-Match → 304; HEAD → headers only; POST → 405', async () => {
        const first = await get('signed', JWKS_PATH);
        const again = await get('signed', `${JWKS_PATH}?v=1`, { headers: { 'if-none-match': first.headers.etag! } });
        expect(again.status).toBe(304);
        const head = await get('signed', JWKS_PATH, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.body.byteLength).toBe(0);
        expect((await get('signed', JWKS_PATH, { method: 'POST' })).status).toBe(405);
      });

      it('rotation: the served card verifies against the served JWKS URL with either signing key alone', async () => {
        const card = JSON.parse((await get('signed', CARD_PATH)).text) as AgentCard;
        const { url } = await server('signed');
        const set = JSON.parse((await get('signed', JWKS_PATH)).text) as { keys: { kid: string }[] };
        for (const kid of ['current', 'retiring']) {
          const only = { keys: set.keys.filter((k) => k.kid === kid) };
          const result = await verifyAgentCard(card, { jwks: only as never });
          expect(result.valid).toBe(true);
          expect(result.signatures.find((s) => s.valid)?.kid).toBe(kid);
        }
        const viaUrl = await verifyAgentCard(card, { jwksUrl: `${url}${JWKS_PATH}`, allowInsecureJwksUrl: true });
        expect(viaUrl.valid).toBe(true);
      });

      it('an unsigned card serves no key set (the path falls through to the app)', async () => {
        expect((await get('default', JWKS_PATH)).status).toBe(404);
      });
    });

    describe('dynamic card', () => {
      it('builds a card per origin (X-Forwarded-* with trustProxy)', async () => {
        const a = await get('dynamic', CARD_PATH, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.conformance.dev' },
        });
        const b = await get('dynamic', CARD_PATH, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'b.conformance.dev' },
        });
        expect(JSON.parse(a.text).supportedInterfaces[0].url).toBe('https://a.conformance.dev/a2a/rest');
        expect(JSON.parse(b.text).supportedInterfaces[0].url).toBe('https://b.conformance.dev/a2a/rest');
        expect(a.headers.etag).not.toBe(b.headers.etag);
        const again = await get('dynamic', CARD_PATH, {
          headers: {
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'a.conformance.dev',
            'if-none-match': a.headers.etag!,
          },
        });
        expect(again.status).toBe(304);
      });

      it('extended card of a dynamic variant', async () => {
        const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.conformance.dev' };
        expect((await get('dynamic', CONFORMANCE_EXTENDED_PATH, { headers })).status).toBe(401);
        const ok = await get('dynamic', CONFORMANCE_EXTENDED_PATH, {
          headers: { ...headers, authorization: `Bearer ${CONFORMANCE_TOKEN}` },
        });
        expect(ok.status).toBe(200);
        expect(ok.text).toContain(EXTENDED_ONLY_SKILL.id);
      });

      it('a failing provider → 503 with Retry-After and a fixed body, no stack trace', async () => {
        const res = await get('failing', CARD_PATH);
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('17');
        expect(JSON.parse(res.text)).toEqual({
          error: {
            code: 503,
            status: 'UNAVAILABLE',
            message: 'The agent card is temporarily unavailable. Retry later.',
          },
        });
        expect(res.text).not.toMatch(/secret|Error|\bat\b/);
        expect((await get('failing', '/api/ping')).text).toBe('pong');
      });

      it('trustProxy: true reads the element the proxy appended, not the one the client sent', async () => {
        // A proxy that appends: the client's own value comes first, the proxy's last.
        const xf = await get('dynamic', CARD_PATH, {
          headers: {
            'x-forwarded-proto': 'http, https',
            'x-forwarded-host': 'evil.conformance.dev, a.conformance.dev',
          },
        });
        expect(xf.status).toBe(200);
        expect(JSON.parse(xf.text).supportedInterfaces[0].url).toBe('https://a.conformance.dev/a2a/rest');
        const fwd = await get('dynamic', CARD_PATH, {
          headers: {
            forwarded: 'host=evil.conformance.dev;proto=http, for=192.0.2.1;host=b.conformance.dev;proto=https',
          },
        });
        expect(JSON.parse(fwd.text).supportedInterfaces[0].url).toBe('https://b.conformance.dev/a2a/rest');
      });

      it('a client that breaks the Forwarded header the proxy appends to gets the Host origin, not its X-Forwarded-Host', async () => {
        const { url } = await server('dynamic');
        for (const broken of ['for="', `for=192.0.2.9;host=${'x'.repeat(4100)}.example`]) {
          const res = await get('dynamic', CARD_PATH, {
            headers: {
              forwarded: `${broken}, for=192.0.2.1;host=b.conformance.dev;proto=https`,
              'x-forwarded-host': 'a.conformance.dev',
              'x-forwarded-proto': 'https',
            },
          });
          expect(res.status).toBe(200);
          expect(JSON.parse(res.text).supportedInterfaces[0].url).toBe(`${new URL(url).origin}/a2a/rest`);
        }
      });

      it('a dynamic card varies on the headers its origin comes from, on 200 and 304', async () => {
        const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.conformance.dev' };
        const ok = await get('dynamic', CARD_PATH, { headers });
        const vary = (ok.headers.vary ?? '').split(/\s*,\s*/).map((v) => v.toLowerCase());
        expect(vary).toEqual(expect.arrayContaining(['host', 'forwarded', 'x-forwarded-host', 'x-forwarded-proto']));
        const again = await get('dynamic', CARD_PATH, { headers: { ...headers, 'if-none-match': ok.headers.etag! } });
        expect(again.status).toBe(304);
        expect(again.headers.vary).toBe(ok.headers.vary);
        expect((await get('default', CARD_PATH)).headers.vary).toBeUndefined();
      });

      it('a host outside allowedOrigins gets a fixed 400 and never reaches the provider', async () => {
        await get('dynamic', CARD_PATH);
        const before = providerState.calls;
        for (let i = 0; i < 20; i++) {
          const res = await get('dynamic', CARD_PATH, {
            headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': `t${i}.attacker.example` },
          });
          expect(res.status).toBe(400);
          expect(res.headers['cache-control']).toBe('no-store');
          expect(JSON.parse(res.text)).toEqual({
            error: { code: 400, status: 'INVALID_ARGUMENT', message: 'No agent card is served for this host.' },
          });
        }
        expect(providerState.calls).toBe(before);
      });

      it('an app route ending in /extendedAgentCard is left to the app and builds nothing', async () => {
        const before = providerState.calls;
        const res = await get('dynamic', '/api/extendedAgentCard', {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'b.conformance.dev' },
        });
        expect(res.status).toBe(404);
        expect(providerState.calls).toBe(before);
      });

      it('trustProxy as a list checks the peer address of the socket', async () => {
        const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.conformance.dev' };
        const trusted = await get('trustLoopback', CARD_PATH, { headers });
        expect(JSON.parse(trusted.text).supportedInterfaces[0].url).toBe('https://a.conformance.dev/a2a/rest');
        const untrusted = await get('trustOther', CARD_PATH, { headers });
        expect(untrusted.status).toBe(200);
        expect(JSON.parse(untrusted.text).supportedInterfaces[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/rest$/);
      });

      it('beyond maxConcurrentBuilds a new variant gets 503 with Retry-After, without a provider call', async () => {
        let release!: () => void;
        providerState.gate = new Promise<void>((r) => (release = r));
        const entered = new Promise<void>((r) => (providerState.entered = r));
        const before = providerState.calls;
        const first = get('oneBuild', CARD_PATH, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.conformance.dev' },
        });
        // Bounded, so a host that never calls the provider fails here rather than hanging.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the provider was never called')), 5000);
        });
        await Promise.race([entered, late]).finally(() => clearTimeout(timer));
        const second = await get('oneBuild', CARD_PATH, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'b.conformance.dev' },
        });
        expect(second.status).toBe(503);
        expect(second.headers['retry-after']).toBe('9');
        expect(providerState.calls).toBe(before + 1);
        release();
        expect((await first).status).toBe(200);
        providerState.gate = undefined;
      });

      it('staleIfError serves the last good bytes when the provider fails', async () => {
        providerState.fail = false;
        const good = await get('stale', CARD_PATH);
        expect(good.status).toBe(200);
        providerState.fail = true;
        await new Promise((r) => setTimeout(r, 80));
        const stale = await get('stale', CARD_PATH);
        providerState.fail = false;
        expect(stale.status).toBe(200);
        expect(stale.headers.etag).toBe(good.headers.etag);
        expect(Buffer.from(stale.body).equals(Buffer.from(good.body))).toBe(true);
      });
    });
  });
  runMultiAgentConformance(config);
}
