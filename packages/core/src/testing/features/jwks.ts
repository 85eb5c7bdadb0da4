import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import type { AgentCard } from '../../model';
import { verifyAgentCard } from '../../sign/verify';
import { CONFORMANCE_CARD } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { CARD_PATH } from './shared';

const JWKS_PATH = '/.well-known/jwks.json';

/** Two signing keys (rotation: a signature by each) and one published next key. */
function signingKeys() {
  return {
    current: generateKeyPairSync('ed25519'),
    retiring: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    next: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  };
}

/** `sign`: the served card carries signatures that verify against the served `/.well-known/jwks.json`. */
export const signedCard: ConformanceFeature<ReturnType<typeof signingKeys>> = {
  title: 'signed card and its JWK Set',
  state: signingKeys,
  fixtures: {
    signed: (keys) => ({
      card: CONFORMANCE_CARD,
      sign: {
        keys: [
          { privateKey: keys.current.privateKey, kid: 'current', alg: 'EdDSA' },
          { privateKey: keys.retiring.privateKey, kid: 'retiring', alg: 'ES256' },
        ],
        publish: [{ ...keys.next.publicKey.export({ format: 'jwk' }), kid: 'next' }],
      },
    }),
  },
  cases: [
    check(
      'GET /.well-known/jwks.json → 200 application/jwk-set+json, strong ETag, Cache-Control, CORS, public members only',
      async (t) => {
        const r = await t.get('signed', JWKS_PATH);
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
      },
    ),
    check('If-None-Match → 304; HEAD → headers only; POST → 405', async (t) => {
      const first = await t.get('signed', JWKS_PATH);
      const again = await t.get('signed', `${JWKS_PATH}?v=1`, { headers: { 'if-none-match': first.headers.etag! } });
      expect(again.status).toBe(304);
      const head = await t.get('signed', JWKS_PATH, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.byteLength).toBe(0);
      expect((await t.get('signed', JWKS_PATH, { method: 'POST' })).status).toBe(405);
    }),
    check('rotation: the served card verifies against the served JWKS URL with either signing key alone', async (t) => {
      const card = JSON.parse((await t.get('signed', CARD_PATH)).text) as AgentCard;
      const url = await t.url('signed');
      const set = JSON.parse((await t.get('signed', JWKS_PATH)).text) as { keys: { kid: string }[] };
      for (const kid of ['current', 'retiring']) {
        const only = { keys: set.keys.filter((k) => k.kid === kid) };
        const result = await verifyAgentCard(card, { jwks: only as never });
        expect(result.valid).toBe(true);
        expect(result.signatures.find((s) => s.valid)?.kid).toBe(kid);
      }
      const viaUrl = await verifyAgentCard(card, { jwksUrl: `${url}${JWKS_PATH}`, allowInsecureJwksUrl: true });
      expect(viaUrl.valid).toBe(true);
    }),
    check('an unsigned card serves no key set (the path falls through to the app)', async (t) => {
      expect((await t.get('default', JWKS_PATH)).status).toBe(404);
    }),
  ],
};
