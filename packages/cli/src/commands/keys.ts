import { type AgentCardPublicJwk, toPublicJwk } from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { readJsonOrText } from '../read';

/** A key file's content: a PEM string, or a parsed JWK. */
export type KeyMaterial = string | Record<string, unknown>;

/** Reads a PEM or JWK (JSON) key file. */
export async function readKeyFile(io: CliIO, file: string): Promise<KeyMaterial> {
  const read = await readJsonOrText(io, file);
  if (read.ok) {
    const jwk = read.value;
    if (
      typeof jwk === 'object' &&
      jwk !== null &&
      !Array.isArray(jwk) &&
      typeof (jwk as { kty?: unknown }).kty === 'string'
    ) {
      return jwk as Record<string, unknown>;
    }
  } else {
    const text = read.text.trim();
    if (text.startsWith('-----BEGIN')) return text;
  }
  throw new CliError(
    `${file}: not a PEM key or a JWK. Pass a PEM file (BEGIN PRIVATE KEY / PUBLIC KEY) or a JWK JSON file.`,
  );
}

/** The public JWK of a key file (a PEM's, or a JWK's public part), or `undefined` when it is not a key. */
function publicJwk(key: KeyMaterial): AgentCardPublicJwk | undefined {
  try {
    return toPublicJwk(key as Parameters<typeof toPublicJwk>[0]);
  } catch {
    return undefined;
  }
}

/**
 * The RFC 7638 thumbprint of a key (a PEM, or a JWK whatever its `kid`), or `undefined` when it
 * is not a public or private key this package reads.
 */
export function keyThumbprint(key: KeyMaterial): string | undefined {
  return publicJwk(key)?.kid;
}

/**
 * The key id a public key stands for when checking signatures: `--kid`, else the JWK's `kid`.
 * With `thumbprint` (`verify`), a key without one stands for its RFC 7638 thumbprint, the id
 * `sign` gives a signature when no kid is passed; otherwise (`check`) `--kid` is then required.
 */
export function verifyingKeyId(kidFlag: string | undefined, key: KeyMaterial, thumbprint = false): string {
  const kid = kidFlag ?? jwkMember(key, 'kid') ?? (thumbprint ? keyThumbprint(key) : undefined);
  if (!kid) throw new CliError('--kid: missing. Pass the key id this key stands for (or use a JWK with "kid").');
  return kid;
}

/**
 * The one signing algorithm a key fits, when there is one: P-256 is ES256, P-384 ES384, P-521
 * ES512, Ed25519 EdDSA. An RSA key fits several (RS256, PS256, …), so it gives none.
 */
export function keyAlgorithm(key: KeyMaterial): string | undefined {
  const jwk = publicJwk(key) as { kty?: string; crv?: string } | undefined;
  if (jwk?.kty === 'EC') return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[jwk.crv ?? ''];
  if (jwk?.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

/** A string member of a JWK key file (`kid`, `alg`), used where the matching flag is left out. */
export function jwkMember(key: KeyMaterial, name: 'kid' | 'alg'): string | undefined {
  return typeof key === 'object' && typeof key[name] === 'string' ? (key[name] as string) : undefined;
}
