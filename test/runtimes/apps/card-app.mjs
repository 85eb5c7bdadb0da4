// The app every runtime serves: one card with an extended card behind a bearer token, through
// core's fetch handler, and a report of which signing algorithms work in this runtime. Plain
// JavaScript, loaded as it is by workerd (through wrangler), Deno, Bun and Node.
import { createAgentCardFetchHandler, signAgentCard, verifyAgentCard } from '@agent-card/core';
import { CARD, EXTENDED_SKILL, TOKEN } from './card.mjs';

/** The bearer token is the only credential. */
const authenticate = (request) =>
  request.headers.get('authorization') === `Bearer ${TOKEN}` ? { sub: 'runtime-test' } : undefined;

export const cardHandler = createAgentCardFetchHandler({
  card: CARD,
  extended: { authenticate, card: [EXTENDED_SKILL] },
});

/** WebCrypto key generation for each algorithm, exported as the JWK a user would pass. */
const KEY_PARAMS = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  EdDSA: { name: 'Ed25519' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
};

/**
 * For each algorithm: `'ok'` when the card is signed with `signAgentCard`, verified with
 * `verifyAgentCard` and served signed by a handler with the `sign` option; else the first error.
 */
async function signingReport() {
  const report = {};
  for (const [alg, params] of Object.entries(KEY_PARAMS)) {
    try {
      const pair = await crypto.subtle.generateKey(params, true, ['sign', 'verify']);
      const privateKey = await crypto.subtle.exportKey('jwk', pair.privateKey);
      const publicKey = await crypto.subtle.exportKey('jwk', pair.publicKey);
      const signed = await signAgentCard(CARD, { privateKey, alg, kid: 'k1' });
      const verified = await verifyAgentCard(signed, { keys: { k1: publicKey } });
      if (!verified.valid) throw new Error(`not verified: ${JSON.stringify(verified.signatures)}`);
      const handler = createAgentCardFetchHandler({ card: CARD, sign: { privateKey, alg, kid: 'k1' } });
      const served = await (await handler(new Request('http://127.0.0.1/.well-known/agent-card.json'))).json();
      if (!Array.isArray(served.signatures)) throw new Error('the served card carries no signatures');
      report[alg] = 'ok';
    } catch (error) {
      report[alg] = String(error?.message ?? error);
    }
  }
  return report;
}

/** The whole app: the card's paths, `/signing`, and a 404 for anything else. */
export async function app(request, connection) {
  if (new URL(request.url).pathname === '/signing') return Response.json(await signingReport());
  return (await cardHandler(request, connection)) ?? new Response('not found', { status: 404 });
}
