import { AgentCardError } from '../errors';
import { type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import { type AgentCardPrivateKey, type AgentCardPublicKey, toPublicKey } from './keys';
import { type AgentCardPublicJwk, jwkThumbprint, publicJwkOf } from './thumbprint';
import { isKeyObject, nodeCrypto } from './node-crypto';

/** Options of {@link toPublicJwk}. */
export interface ToPublicJwkOptions {
  /** The key id. @default the RFC 7638 thumbprint of the key */
  kid?: string;
  /** The algorithm the key signs with, published as `alg`. */
  alg?: AgentCardSigningAlgorithm;
}

/**
 * The public JWK of a key, for a JWK Set: only public members (`kty`, `crv`, `x`, `y`, `n`,
 * `e`), whatever form the key came in (a private key is reduced to its public half), plus `kid`
 * (the RFC 7638 thumbprint by default), `use: "sig"` and `alg` when given.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a secret key, an unreadable key, or a
 *   refused `alg`.
 * @example toPublicJwk(readFileSync('card-key.pem', 'utf8'), { alg: 'ES256' })
 * // → { kty: 'EC', crv: 'P-256', x: '…', y: '…', kid: '<thumbprint>', alg: 'ES256', use: 'sig' }
 * @see RFC 7517, RFC 7638
 */
export function toPublicJwk(
  key: AgentCardPublicKey | AgentCardPrivateKey,
  options: ToPublicJwkOptions = {},
  where = 'toPublicJwk',
): AgentCardPublicJwk {
  if (options.alg !== undefined) {
    const refused = refuseAlgorithm(options.alg);
    if (refused)
      throw new AgentCardError(
        'ERR_AGENT_CARD_SIGNATURE',
        `${where}: ${refused}. Use an Agent Card signing algorithm.`,
      );
  }
  const imported = toPublicKey(key, where);
  const keyObject = isKeyObject(imported) ? imported : nodeCrypto(where).KeyObject.from(imported);
  const jwk = publicJwkOf(keyObject);
  const out: AgentCardPublicJwk = { ...jwk, kid: options.kid ?? jwkThumbprint(jwk), use: 'sig' };
  if (options.alg !== undefined) out.alg = options.alg;
  return out;
}
