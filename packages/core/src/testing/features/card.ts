import { expect } from 'vitest';
import { CONFORMANCE_CARD } from '../cards';
import { type ConformanceCase, type ConformanceFeature, check } from '../runner';
import { CARD_BYTES, CARD_ETAG, CARD_PATH } from './shared';

/** The headers the table requires on a 200 (and HEAD) of the public card. */
const CARD_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'x-content-type-options',
  'access-control-allow-origin',
];

/** If-None-Match values and the status each gets. */
const IF_NONE_MATCH: readonly [what: string, value: string, status: number][] = [
  ['the ETag', CARD_ETAG, 304],
  ['the weak form', `W/${CARD_ETAG}`, 304],
  ['*', '*', 304],
  ['a list containing it', `"nope", ${CARD_ETAG}, "other"`, 304],
  ['another tag', '"nope"', 200],
  ['a malformed value', 'garbage"', 200],
  ['an unterminated tag', `"${CARD_ETAG.slice(1, -1)}`, 200],
  ['a huge list', `${'"x", '.repeat(2000)}"y"`, 200],
];

const conditional: ConformanceCase[] = IF_NONE_MATCH.map(([what, value, status]) =>
  check(`If-None-Match with ${what} → ${status}`, async (t) => {
    const res = await t.get('default', CARD_PATH, { headers: { 'if-none-match': value } });
    expect(res.status).toBe(status);
    if (status === 304) {
      expect(res.body.byteLength).toBe(0);
      expect(res.headers.etag).toBe(CARD_ETAG);
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  }),
);

const methodNotAllowed: ConformanceCase[] = ['POST', 'PUT', 'DELETE', 'PATCH'].map((method) =>
  check(`${method} → 405 with Allow and a JSON error body`, async (t) => {
    const res = await t.get('default', CARD_PATH, {
      method,
      body: method === 'DELETE' ? undefined : '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 405 } });
  }),
);

const samePath: ConformanceCase[] = [`${CARD_PATH}?x=1`, `${CARD_PATH}/`, `${CARD_PATH}/?a=b&c`].map((path) =>
  check(`${path} is the card too`, async (t) => {
    const res = await t.get('default', path);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(CARD_ETAG);
  }),
);

/** GET and HEAD of the card, its ETag and 304s, the CORS preflight, other methods, other spellings of the path. */
export const publicCard: ConformanceFeature = {
  title: 'public card',
  fixtures: {
    default: () => ({ card: CONFORMANCE_CARD }),
    custom: () => ({
      card: CONFORMANCE_CARD,
      contentType: 'application/json',
      cacheControl: 'public, max-age=60, must-revalidate',
    }),
    noCache: () => ({ card: CONFORMANCE_CARD, cacheControl: false }),
  },
  cases: [
    check('GET → 200, the exact bytes, and every required header', async (t) => {
      const res = await t.get('default', CARD_PATH);
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
    }),
    check('HEAD → 200, the same card headers, no body', async (t) => {
      const [g, h] = [await t.get('default', CARD_PATH), await t.get('default', CARD_PATH, { method: 'HEAD' })];
      expect(h.status).toBe(200);
      expect(h.body.byteLength).toBe(0);
      for (const name of CARD_HEADERS) expect(h.headers[name], name).toBe(g.headers[name]);
    }),
    ...conditional,
    check('HEAD with a matching If-None-Match → 304', async (t) => {
      expect(
        (await t.get('default', CARD_PATH, { method: 'HEAD', headers: { 'if-none-match': CARD_ETAG } })).status,
      ).toBe(304);
    }),
    check('OPTIONS (CORS preflight) → 204 with the allowed methods', async (t) => {
      const res = await t.get('default', CARD_PATH, {
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
    }),
    ...methodNotAllowed,
    ...samePath,
    check('custom contentType and cacheControl', async (t) => {
      const res = await t.get('custom', CARD_PATH);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
      expect((await t.get('noCache', CARD_PATH)).headers['cache-control']).toBeUndefined();
    }),
  ],
};

const notTheCard: ConformanceCase[] = [
  '/.well-known/%61gent-card.json',
  '/.well-known/agent-card.jsonx',
  '/.well-known/agent-card.json/x',
  '/.WELL-KNOWN/agent-card.json',
  '/nope',
].map((path) =>
  check(`${path} is not the card`, async (t) => {
    const res = await t.get('default', path);
    expect(res.status).toBe(404);
    expect(res.headers.etag).not.toBe(CARD_ETAG);
  }),
);

/** Everything that is not the card reaches the app. */
export const fallThrough: ConformanceFeature = {
  title: 'fall-through',
  cases: [
    check('the app routes still answer', async (t) => {
      const ping = await t.get('default', '/api/ping');
      expect(ping.status).toBe(200);
      expect(ping.text).toBe('pong');
      const other = await t.get('default', '/.well-known/other');
      expect(other.status).toBe(200);
      expect(other.text).toBe('other');
    }),
    ...notTheCard,
  ],
};
