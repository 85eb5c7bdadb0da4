import { showValue } from '../util';

/**
 * The JWS algorithms Agent Card signatures may use: asymmetric only. `none` and the HMAC family
 * (`HS256`…) are never accepted, because a card is verified with a key anyone can read, and
 * HMAC with a public key lets anyone forge signatures (key/alg confusion).
 *
 * `Ed25519` is the fully specified name (RFC 9864) of `EdDSA` over Ed25519.
 *
 * @see RFC 7518 §3.1, RFC 8037, spec §8.4.2
 */
export const AGENT_CARD_SIGNING_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
  'Ed25519',
] as const;

/** A JWS algorithm allowed for Agent Card signatures. */
export type AgentCardSigningAlgorithm = (typeof AGENT_CARD_SIGNING_ALGORITHMS)[number];

const ALLOWED: ReadonlySet<string> = new Set(AGENT_CARD_SIGNING_ALGORITHMS);

/** Why `alg` is refused, or `undefined` when it is allowed by `allowed`. */
export function refuseAlgorithm(alg: unknown, allowed: ReadonlySet<string> = ALLOWED): string | undefined {
  if (typeof alg !== 'string' || alg === '') return `alg is missing (${showValue(alg)})`;
  if (alg.toLowerCase() === 'none') return 'alg "none" means an unsigned card and is never accepted';
  if (/^HS\d+$/i.test(alg)) {
    return `alg "${alg}" is HMAC, a shared-secret algorithm: with a published key anyone could forge it (key/alg confusion)`;
  }
  if (!ALLOWED.has(alg)) return `alg "${alg}" is not an allowed Agent Card signing algorithm`;
  if (!allowed.has(alg))
    return `alg "${alg}" is not in the algorithms this verifier accepts (${[...allowed].join(', ')})`;
  return undefined;
}

/** What a key must be for `alg`, for messages, and the check of a Node key against it. */
export function expectedKey(alg: AgentCardSigningAlgorithm): {
  text: string;
  accepts(type: string, curve?: string): boolean;
} {
  switch (alg) {
    case 'ES256':
      return { text: 'an EC P-256 key', accepts: (t, c) => t === 'ec' && c === 'prime256v1' };
    case 'ES384':
      return { text: 'an EC P-384 key', accepts: (t, c) => t === 'ec' && c === 'secp384r1' };
    case 'ES512':
      return { text: 'an EC P-521 key', accepts: (t, c) => t === 'ec' && c === 'secp521r1' };
    case 'RS256':
    case 'RS384':
    case 'RS512':
      return { text: 'an RSA key', accepts: (t) => t === 'rsa' };
    case 'PS256':
    case 'PS384':
    case 'PS512':
      return { text: 'an RSA or RSA-PSS key', accepts: (t) => t === 'rsa' || t === 'rsa-pss' };
    case 'EdDSA':
      return { text: 'an Ed25519 key', accepts: (t) => t === 'ed25519' };
    case 'Ed25519':
      return { text: 'an Ed25519 key', accepts: (t) => t === 'ed25519' };
  }
}
