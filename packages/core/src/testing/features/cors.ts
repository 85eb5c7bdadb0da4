import { expect } from 'vitest';
import { CONFORMANCE_CARD } from '../cards';
import { type ConformanceCase, type ConformanceFeature, check } from '../runner';
import { CARD_ETAG, CARD_PATH } from './shared';

/** Request origins against `cors: [list]`, and the Access-Control-Allow-Origin each gets. */
const ORIGIN_LIST: readonly [origin: string, allowed: string | undefined][] = [
  ['https://app.conformance.dev', 'https://app.conformance.dev'],
  ['http://localhost:5173', 'http://localhost:5173'],
  ['https://evil.conformance.dev', undefined],
];

const originList: ConformanceCase[] = ORIGIN_LIST.map(([origin, allowed]) =>
  check(`origin list: Origin ${origin} → Access-Control-Allow-Origin ${allowed}, Vary: Origin`, async (t) => {
    const res = await t.get('corsList', CARD_PATH, { headers: { origin } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    expect(res.headers.vary).toMatch(/\bOrigin\b/);
  }),
);

/** `cors`: `*` by default (see the public card), a list of origins, or off. */
export const cors: ConformanceFeature = {
  title: 'CORS',
  fixtures: {
    corsList: () => ({ card: CONFORMANCE_CARD, cors: ['https://app.conformance.dev', 'http://localhost:5173'] }),
    corsOff: () => ({ card: CONFORMANCE_CARD, cors: false }),
  },
  cases: [
    ...originList,
    check('304 keeps the CORS and Vary headers', async (t) => {
      const res = await t.get('corsList', CARD_PATH, {
        headers: { origin: 'https://app.conformance.dev', 'if-none-match': CARD_ETAG },
      });
      expect(res.status).toBe(304);
      expect(res.headers['access-control-allow-origin']).toBe('https://app.conformance.dev');
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    }),
    check('cors: false sends no CORS headers', async (t) => {
      const res = await t.get('corsOff', CARD_PATH, { headers: { origin: 'https://app.conformance.dev' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }),
  ],
};
