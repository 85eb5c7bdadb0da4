import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AGENT_CARD_SIGNING_ALGORITHMS,
  AgentCardError,
  type AgentCardSigningAlgorithm,
  toPublicJwk,
} from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { toJsonText } from '../read';
import { jwkMember, readKeyFile } from './keys';

export interface KeysGenerateOptions {
  alg?: string;
  /** Two keys, ES256 and Ed25519, and their JWK Set on stdout. */
  forEveryone?: boolean;
  output?: string;
  kid?: string;
  force?: boolean;
}

/** A fresh key pair for `alg`, with the parameters its JWS algorithm needs. */
function generate(alg: AgentCardSigningAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  switch (alg) {
    case 'ES256':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' });
    case 'ES384':
      return generateKeyPairSync('ec', { namedCurve: 'P-384' });
    case 'ES512':
      return generateKeyPairSync('ec', { namedCurve: 'P-521' });
    case 'EdDSA':
    case 'Ed25519':
      return generateKeyPairSync('ed25519');
    default:
      return generateKeyPairSync('rsa', { modulusLength: 3072 });
  }
}

/**
 * `agent-card keys generate [--alg ES256] [-o card-key.pem]`: writes a PKCS#8 private key that
 * only its owner can read (mode 0600) and prints the public JWK, its kid the key's RFC 7638
 * thumbprint unless `--kid` names one.
 */
export async function keysGenerateCommand(io: CliIO, options: KeysGenerateOptions): Promise<number> {
  if (options.forEveryone) return keysForEveryone(io, options);
  const alg = (options.alg ?? 'ES256') as AgentCardSigningAlgorithm;
  if (!AGENT_CARD_SIGNING_ALGORITHMS.includes(alg)) {
    throw new CliError(
      `--alg: ${JSON.stringify(options.alg)} is not one of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`,
    );
  }
  const output = options.output ?? 'card-key.pem';
  const { privateKey, publicKey } = generate(alg);
  await writePrivateKey(io, output, privateKey, options.force === true);
  const jwk = toPublicJwk(publicKey, { alg, ...(options.kid ? { kid: options.kid } : {}) });
  io.stderr.write(
    `Wrote the ${alg} private key to ${output} (mode 0600). Keep it secret; publish the public JWK below.\n`,
  );
  io.stdout.write(toJsonText(jwk));
  return 0;
}

/**
 * The algorithms of `--for-everyone`: no one algorithm is accepted by every verifier (the AI
 * Catalog's did:web profile takes ES256 only, pipelock EdDSA only; @a2a-js/sdk and a2a-python
 * both), and these two together are.
 */
const FOR_EVERYONE = [
  { alg: 'ES256', suffix: 'es256' },
  { alg: 'EdDSA', suffix: 'ed25519' },
] as const;

/**
 * `agent-card keys generate --for-everyone [-o card-key.pem]`: an ES256 and an Ed25519 key
 * (`card-key.es256.pem`, `card-key.ed25519.pem`), each kid its thumbprint, and the JWK Set of both
 * on stdout. Neither file is written when either exists (without `--force`).
 */
async function keysForEveryone(io: CliIO, options: KeysGenerateOptions): Promise<number> {
  const output = options.output ?? 'card-key.pem';
  const stem = output.endsWith('.pem') ? output.slice(0, -4) : output;
  const files = FOR_EVERYONE.map(({ alg, suffix }) => ({ alg, file: `${stem}.${suffix}.pem` }));
  if (!options.force) {
    for (const { file } of files) {
      if (existsSync(resolve(io.cwd, file))) {
        throw new CliError(`${file}: already exists. Pass --force to overwrite it, or -o another name.`);
      }
    }
  }
  const keys = [];
  for (const { alg, file } of files) {
    const { privateKey, publicKey } = generate(alg);
    await writePrivateKey(io, file, privateKey, options.force === true);
    keys.push(toPublicJwk(publicKey, { alg }));
  }
  io.stderr.write(
    `Wrote the ES256 private key to ${files[0]!.file} and the Ed25519 one to ${files[1]!.file} (mode 0600). Keep them secret; sign with both (agent-card sign --key ${files[0]!.file} --key ${files[1]!.file}) and publish the JWK Set below.\n`,
  );
  io.stdout.write(toJsonText({ keys }));
  return 0;
}

/** Writes a PKCS#8 private key that only its owner can read; never overwrites one unless `force`. */
async function writePrivateKey(io: CliIO, output: string, privateKey: KeyObject, force: boolean): Promise<void> {
  const path = resolve(io.cwd, output);
  try {
    // wx: never overwrite a key by accident; mode 0600: the private key is its owner's alone.
    await writeFile(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), {
      flag: force ? 'w' : 'wx',
      mode: 0o600,
    });
    await chmod(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError(`${output}: already exists. Pass --force to overwrite it, or -o another file.`);
    }
    throw new CliError(`${output}: cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
}

export interface KeysJwksOptions {
  alg?: string;
}

/**
 * `agent-card keys jwks <key>...`: the JWK Set of the given keys (PEM or JWK, public or
 * private), public members only, each kid the JWK's own or the key's thumbprint.
 */
export async function keysJwksCommand(io: CliIO, files: readonly string[], options: KeysJwksOptions): Promise<number> {
  if (files.length === 0) throw new CliError('keys jwks: pass at least one key file (PEM or JWK).');
  const keys = [];
  for (const file of files) {
    const material = await readKeyFile(io, file);
    const kid = jwkMember(material, 'kid');
    const alg = options.alg ?? jwkMember(material, 'alg');
    try {
      keys.push(
        toPublicJwk(
          material as Parameters<typeof toPublicJwk>[0],
          { ...(kid ? { kid } : {}), ...(alg ? { alg: alg as AgentCardSigningAlgorithm } : {}) },
          file,
        ),
      );
    } catch (error) {
      if (error instanceof AgentCardError) throw new CliError(error.message);
      throw error;
    }
  }
  const kids = keys.map((key) => key.kid);
  const twice = kids.find((kid, i) => kids.indexOf(kid) !== i);
  if (twice !== undefined) {
    throw new CliError(
      `keys jwks: kid ${JSON.stringify(twice)} names two of the keys given. Give each key its own kid.`,
    );
  }
  io.stdout.write(toJsonText({ keys }));
  return 0;
}
