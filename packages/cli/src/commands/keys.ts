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

/**
 * The key id a public key stands for when checking signatures: `--kid`, else the JWK's `kid`.
 * A PEM key has none, so `--kid` is then required (a guessed id would match no signature).
 */
export function verifyingKeyId(kidFlag: string | undefined, key: KeyMaterial): string {
  const kid = kidFlag ?? jwkMember(key, 'kid');
  if (!kid) throw new CliError('--kid: missing. Pass the key id this key stands for (or use a JWK with "kid").');
  return kid;
}

/** A string member of a JWK key file (`kid`, `alg`), used where the matching flag is left out. */
export function jwkMember(key: KeyMaterial, name: 'kid' | 'alg'): string | undefined {
  return typeof key === 'object' && typeof key[name] === 'string' ? (key[name] as string) : undefined;
}
