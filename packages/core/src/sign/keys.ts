import type { JsonWebKeyInput, KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';
import { AgentCardError } from '../errors';
import { type AgentCardSigningAlgorithm, expectedKey } from './algorithms';
import { isKeyObject, nodeCrypto } from './node-crypto';

/**
 * A private key that signs a card: a Node `KeyObject`, a WebCrypto `CryptoKey`, a private JWK
 * (with `d`), or a PEM string (PKCS#8 `BEGIN PRIVATE KEY`; PKCS#1 `BEGIN RSA PRIVATE KEY` and
 * SEC1 `BEGIN EC PRIVATE KEY` are read too).
 */
export type AgentCardPrivateKey = KeyObject | CryptoKey | JWK | string;

/**
 * A public key that verifies a card: a Node `KeyObject`, a WebCrypto `CryptoKey`, a public JWK,
 * or a PEM string (SPKI `BEGIN PUBLIC KEY`, PKCS#1 `BEGIN RSA PUBLIC KEY` or an X.509
 * `BEGIN CERTIFICATE`).
 */
export type AgentCardPublicKey = KeyObject | CryptoKey | JWK | string;

function isCryptoKey(value: unknown): value is CryptoKey {
  const CryptoKeyClass = (globalThis as { CryptoKey?: abstract new () => unknown }).CryptoKey;
  return typeof CryptoKeyClass === 'function' && value instanceof CryptoKeyClass;
}

/** A signing or key error: where, what is wrong, how to fix it. */
export function signError(where: string, what: string, how: string, cause?: unknown): AgentCardError {
  return new AgentCardError(
    'ERR_AGENT_CARD_SIGNATURE',
    `${where}: ${what}. ${how}`,
    cause === undefined ? {} : { cause },
  );
}

/** `ec P-256`, `rsa 2048-bit`, `ed25519`: what a Node key is, for messages. */
export function describeKeyObject(key: KeyObject): string {
  if (key.type === 'secret') return 'secret (symmetric) key';
  const details = key.asymmetricKeyDetails ?? {};
  const curve = details.namedCurve ? ` ${details.namedCurve}` : '';
  const bits = details.modulusLength ? ` ${details.modulusLength}-bit` : '';
  return `${key.type} ${key.asymmetricKeyType ?? 'unknown'}${curve}${bits} key`;
}

function checkKeyObjectFits(key: KeyObject, alg: AgentCardSigningAlgorithm, where: string): void {
  const want = expectedKey(alg);
  if (!want.accepts(key.asymmetricKeyType ?? '', key.asymmetricKeyDetails?.namedCurve)) {
    throw signError(
      where,
      `alg "${alg}" needs ${want.text}, got a ${describeKeyObject(key)}`,
      'Pass a key of the right type or change alg.',
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  // RFC 7518 §3.3 and §3.5 require 2048 bits; verifiers (jose among them) refuse shorter keys.
  if (bits !== undefined && bits < 2048) {
    throw signError(
      where,
      `alg "${alg}" needs an RSA key of 2048 bits or more, got a ${describeKeyObject(key)}`,
      'Generate a 2048-, 3072- or 4096-bit RSA key.',
    );
  }
}

/**
 * Turns any accepted private key form into a key `jose` can sign with, checking it fits `alg`.
 * Secret keys and public keys are refused with a message that says why.
 */
export function toPrivateKey(
  input: AgentCardPrivateKey,
  alg: AgentCardSigningAlgorithm,
  where: string,
): KeyObject | CryptoKey {
  if (typeof input === 'string') {
    if (!input.includes('-----BEGIN')) {
      throw signError(
        where,
        'a string key must be a PEM document and this one has no "-----BEGIN" line',
        'Pass the PKCS#8 PEM text (not a file path), a JWK object or a KeyObject.',
      );
    }
    if (/-----BEGIN (RSA )?PUBLIC KEY-----|-----BEGIN CERTIFICATE-----/.test(input)) {
      throw signError(
        where,
        'the PEM holds a public key or certificate, which cannot sign',
        'Pass the private key (-----BEGIN PRIVATE KEY-----); publish the public one.',
      );
    }
    const crypto = nodeCrypto(where);
    let key: KeyObject;
    try {
      key = crypto.createPrivateKey(input);
    } catch (error) {
      throw signError(
        where,
        `the PEM could not be read (${(error as Error).message})`,
        'Pass an unencrypted PKCS#8 PEM (openssl pkcs8 -topk8 -nocrypt -in key.pem).',
        error,
      );
    }
    checkKeyObjectFits(key, alg, where);
    return key;
  }
  if (isKeyObject(input)) {
    if (input.type !== 'private') {
      throw signError(
        where,
        `a ${describeKeyObject(input)} cannot sign an Agent Card`,
        input.type === 'secret'
          ? 'Agent Card signatures use asymmetric keys (HMAC is refused); generate an EC, RSA or Ed25519 key pair.'
          : 'Pass the private key; publish the public one.',
      );
    }
    checkKeyObjectFits(input, alg, where);
    return input;
  }
  if (isCryptoKey(input)) {
    if (input.type !== 'private') {
      throw signError(
        where,
        `a ${input.type} CryptoKey (${input.algorithm.name}) cannot sign an Agent Card`,
        'Pass the private key of an EC, RSA or Ed25519 key pair.',
      );
    }
    return input;
  }
  if (typeof input === 'object' && input !== null) {
    const jwk = input as JWK;
    if (jwk.kty === 'oct') {
      throw signError(
        where,
        'the JWK is a symmetric "oct" key',
        'Agent Card signatures use asymmetric keys (HMAC is refused); use an EC, RSA or OKP (Ed25519) private JWK.',
      );
    }
    if (typeof jwk.d !== 'string') {
      throw signError(
        where,
        `the JWK (kty "${String(jwk.kty)}") has no "d" member, so it is a public key`,
        'Pass the private JWK; publish the public one.',
      );
    }
    const crypto = nodeCrypto(where);
    let key: KeyObject;
    try {
      key = crypto.createPrivateKey({ key: jwk, format: 'jwk' } as JsonWebKeyInput);
    } catch (error) {
      throw signError(
        where,
        `the JWK could not be imported (${(error as Error).message})`,
        'Check that it is a complete EC, RSA or OKP private JWK.',
        error,
      );
    }
    checkKeyObjectFits(key, alg, where);
    return key;
  }
  throw signError(
    where,
    `expected a KeyObject, CryptoKey, JWK object or PEM string, got ${input === null ? 'null' : typeof input}`,
    'Pass one of these forms.',
  );
}

/**
 * Turns any accepted public key form into a key `jose` can verify with. A private key is
 * reduced to its public half; secret keys are refused (they would allow HMAC forgery).
 */
export function toPublicKey(input: AgentCardPublicKey, where: string): KeyObject | CryptoKey {
  if (typeof input === 'string') {
    if (!input.includes('-----BEGIN')) {
      throw signError(
        where,
        'a string key must be a PEM document and this one has no "-----BEGIN" line',
        'Pass the SPKI PEM text (-----BEGIN PUBLIC KEY-----), a JWK object or a KeyObject.',
      );
    }
    const crypto = nodeCrypto(where);
    try {
      return crypto.createPublicKey(input);
    } catch (error) {
      throw signError(
        where,
        `the PEM could not be read (${(error as Error).message})`,
        'Pass an SPKI PEM (-----BEGIN PUBLIC KEY-----) or an X.509 certificate.',
        error,
      );
    }
  }
  if (isKeyObject(input)) {
    if (input.type === 'secret') {
      throw signError(
        where,
        'a secret (symmetric) key cannot verify Agent Card signatures',
        "HMAC is refused (key/alg confusion); pass the signer's public key.",
      );
    }
    return input.type === 'private' ? nodeCrypto(where).createPublicKey(input) : input;
  }
  if (isCryptoKey(input)) {
    if (input.type !== 'public') {
      throw signError(
        where,
        `a ${input.type} CryptoKey cannot verify Agent Card signatures`,
        "Pass the signer's public CryptoKey.",
      );
    }
    return input;
  }
  if (typeof input === 'object' && input !== null) {
    const jwk = input as JWK;
    if (jwk.kty === 'oct') {
      throw signError(
        where,
        'the JWK is a symmetric "oct" key',
        "HMAC is refused (key/alg confusion); pass the signer's public EC, RSA or OKP JWK.",
      );
    }
    const crypto = nodeCrypto(where);
    try {
      return crypto.createPublicKey({ key: jwk, format: 'jwk' } as JsonWebKeyInput);
    } catch (error) {
      throw signError(
        where,
        `the JWK could not be imported (${(error as Error).message})`,
        'Check that it is a complete EC, RSA or OKP public JWK.',
        error,
      );
    }
  }
  throw signError(
    where,
    `expected a KeyObject, CryptoKey, JWK object or PEM string, got ${input === null ? 'null' : typeof input}`,
    'Pass one of these forms.',
  );
}

/** The largest RSA public exponent a verifier uses. */
const MAX_RSA_PUBLIC_EXPONENT = 0x7fff_ffffn;

/** Why a public key cannot check `alg` (key/alg confusion), or `undefined` when it fits. */
export function keyMismatch(key: KeyObject | CryptoKey, alg: AgentCardSigningAlgorithm): string | undefined {
  if (isKeyObject(key)) {
    const want = expectedKey(alg);
    if (!want.accepts(key.asymmetricKeyType ?? '', key.asymmetricKeyDetails?.namedCurve)) {
      return `alg "${alg}" needs ${want.text} but the key is a ${describeKeyObject(key)} (key/alg confusion)`;
    }
    // A public exponent as long as the modulus makes each check cost what a signature does
    // (a key set chooses it); real keys use 65537. Go's crypto/rsa draws the same line.
    const exponent = key.asymmetricKeyDetails?.publicExponent;
    if (exponent !== undefined && exponent > MAX_RSA_PUBLIC_EXPONENT) {
      return `the RSA key's public exponent is larger than 2^31 - 1, so each check would cost as much as signing (real keys use 65537)`;
    }
  }
  return undefined;
}
