import { expect } from 'vitest';
import { computeEtag } from '../../http/kernel/etag';
import { CONFORMANCE_CARD } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { CARD_BYTES, CARD_ETAG, CARD_PATH, LEGACY_PATH } from './shared';

/** `/.well-known/agent.json`: an alias by default, off, or the v0.3-compatible card. */
export const legacyPath: ConformanceFeature = {
  title: 'legacy path',
  fixtures: {
    legacyOff: () => ({ card: CONFORMANCE_CARD, legacy: false }),
    legacyV03: () => ({ card: CONFORMANCE_CARD, legacy: 'v0.3' }),
  },
  cases: [
    check('/.well-known/agent.json is a byte-identical alias with the same ETag and a canonical Link', async (t) => {
      const res = await t.get('default', LEGACY_PATH);
      expect(res.status).toBe(200);
      expect(Buffer.from(res.body).equals(Buffer.from(CARD_BYTES))).toBe(true);
      expect(res.headers.etag).toBe(CARD_ETAG);
      expect(res.headers.link).toBe('</.well-known/agent-card.json>; rel="canonical"');
      expect((await t.get('default', LEGACY_PATH, { headers: { 'if-none-match': CARD_ETAG } })).status).toBe(304);
    }),
    check('legacy: false leaves /.well-known/agent.json to the app (404)', async (t) => {
      const res = await t.get('legacyOff', LEGACY_PATH);
      expect(res.status).toBe(404);
      expect(res.headers.etag).not.toBe(CARD_ETAG);
      expect((await t.get('legacyOff', CARD_PATH)).status).toBe(200);
    }),
    check("legacy: 'v0.3' serves the v0.3-compatible superset card", async (t) => {
      const res = await t.get('legacyV03', LEGACY_PATH);
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
      expect((await t.get('legacyV03', CARD_PATH)).headers.etag).toBe(CARD_ETAG);
    }),
  ],
};
