import type { KeyObject } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2';
import { encodeBase64url } from './base64url';
import { showValue } from '../util';

/** The members RFC 7638 §3.2 hashes, by key type, in lexicographic order. */
const REQUIRED: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

/**
 * The members of a JSON Web Key (RFC 7517) this package reads and writes. Its own type rather than
 * `JsonWebKey` of `node:crypto`, which some `@types/node` majors export and others do not.
 */
export interface AgentCardJwk {
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  [member: string]: unknown;
}

/**
 * The public JWK of a key: only the members a public key has (`kty`, `crv`, `x`, `y`, `n`,
 * `e`), whatever form the key came in, so a private member can never leak into a key set.
 */
export function publicJwkOf(key: KeyObject): AgentCardJwk {
  const jwk = key.export({ format: 'jwk' });
  const out: AgentCardJwk = {};
  for (const name of ['kty', 'crv', 'x', 'y', 'n', 'e'] as const) {
    if (typeof jwk[name] === 'string') out[name] = jwk[name];
  }
  return out;
}

/**
 * The RFC 7638 JWK thumbprint (base64url SHA-256 of the required public members) of a key: the
 * key id used when none is given, so that the id names the key and nothing else.
 *
 * Written here rather than taken from jose's `calculateJwkThumbprint` (and the public JWK from
 * `KeyObject.export` rather than jose's `exportJWK`) because both of jose's are asynchronous,
 * while the `sign` option is checked synchronously at start-up and `toPublicJwk` is synchronous;
 * importing jose for them would add about 50 ms of CPU (130 ms in a fresh process) to the start
 * of every application that signs. The tests compare it with `calculateJwkThumbprint`.
 */
export function jwkThumbprint(jwk: AgentCardJwk): string {
  const members = REQUIRED[String(jwk.kty)];
  if (members === undefined) throw new Error(`no RFC 7638 thumbprint for kty ${showValue(jwk.kty)}`);
  const text = `{${members.map((name) => `${JSON.stringify(name)}:${JSON.stringify(jwk[name])}`).join(',')}}`;
  return encodeBase64url(sha256(new TextEncoder().encode(text)));
}

/** A public JWK as published in a JWK Set: public members, `kid`, and `alg`/`use` when known. */
export interface AgentCardPublicJwk extends AgentCardJwk {
  kid: string;
  alg?: string;
  use?: 'sig';
}
