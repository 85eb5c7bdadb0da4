import type { KeyObject } from 'node:crypto';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2';
import { p256, p384, p521 } from '@noble/curves/nist';
import { AgentCardError } from '../errors';
import type { AgentCard, AgentCardSignature } from '../model';
import { AGENT_CARD_SIGNING_ALGORITHMS, type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import { encodeBase64url } from './base64url';
import { type AgentCardCanonicalForm, canonicalForms, FORM_HEADER_PARAMETER } from './canonicalize';
import { checkKeySetUrl } from './jwks';
import { type AgentCardPrivateKey, signError, toPrivateKey } from './keys';
import { isKeyObject, nodeCrypto } from './node-crypto';
import { type AgentCardPublicJwk, jwkThumbprint, publicJwkOf } from './thumbprint';
import { quote, showValue } from '../util';

/** Options of {@link signAgentCard}: one signing key. */
export interface SignAgentCardOptions {
  /**
   * The private key: a Node `KeyObject`, a WebCrypto `CryptoKey`, a private JWK, or a PEM string
   * (PKCS#8; PKCS#1 RSA and SEC1 EC PEMs are read too). It must fit `alg`.
   */
  privateKey: AgentCardPrivateKey;
  /**
   * The key id verifiers look the public key up by (protected header `kid`).
   * @default the RFC 7638 JWK thumbprint of the public key (base64url SHA-256), so the id names the key
   */
  kid?: string;
  /**
   * The JWS algorithm: `ES256`, `ES384`, `ES512`, `RS256`, `RS384`, `RS512`, `PS256`, `PS384`,
   * `PS512`, `EdDSA` or `Ed25519`. `none` and HMAC (`HS*`) are refused. ECDSA is signed
   * deterministically (RFC 6979); `PS*` cannot be, so every process signs different bytes.
   */
  alg: AgentCardSigningAlgorithm;
  /**
   * Where the public JWKS lives (protected header `jku`). Must be an `https:` URL. Informational
   * only: a verifier must not take a key from it unless it already trusts that URL (A2A PR#2099;
   * see `verifyAgentCard`'s `allowJkuHosts`).
   */
  jku?: string | URL;
}

/** The digest node:crypto applies for `alg`; EdDSA hashes internally. */
export function nodeDigest(alg: AgentCardSigningAlgorithm): string | null {
  if (alg === 'EdDSA' || alg === 'Ed25519') return null;
  return `sha${alg.slice(2)}`;
}

/** JWS encodings: ECDSA as r||s (RFC 7518 §3.4), PSS with a salt as long as the hash (§3.5). */
export function nodeKeyOptions(alg: AgentCardSigningAlgorithm, key: KeyObject) {
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' as const };
  if (alg.startsWith('PS')) {
    return { key, padding: RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 };
  }
  return key;
}

/** `crypto.constants.RSA_PKCS1_PSS_PADDING`, as OpenSSL numbers it. */
const RSA_PKCS1_PSS_PADDING = 6;

const CURVES = { ES256: p256, ES384: p384, ES512: p521 } as const;
const DIGESTS = { ES256: sha256, ES384: sha384, ES512: sha512 } as const;

/**
 * An ECDSA signer that gives the same signature for the same input on every replica (RFC 6979
 * nonces), or `undefined` when the private scalar cannot be read (a non-extractable CryptoKey).
 */
function deterministicEcdsa(alg: AgentCardSigningAlgorithm, key: KeyObject): ((input: Buffer) => Buffer) | undefined {
  if (!(alg in CURVES)) return undefined;
  let d: Uint8Array;
  try {
    const jwk = key.export({ format: 'jwk' });
    if (typeof jwk.d !== 'string') return undefined;
    d = Buffer.from(jwk.d, 'base64url');
  } catch {
    return undefined;
  }
  const curve = CURVES[alg as keyof typeof CURVES];
  const digest = DIGESTS[alg as keyof typeof DIGESTS];
  return (input) => {
    const hash = digest(input);
    return Buffer.from(curve.sign(hash, d, { lowS: false }).toCompactRawBytes());
  };
}

/**
 * The distinct canonical forms of a card, pruned first: what its signatures cover. When the two
 * coincide, the one signature covers both and names none.
 */
function payloadsOf(card: AgentCard): { form?: AgentCardCanonicalForm; text: string }[] {
  const forms = canonicalForms(card);
  return forms.pruned === forms['served-as-is']
    ? [{ text: forms['served-as-is'] }]
    : [
        { form: 'pruned', text: forms.pruned },
        { form: 'served-as-is', text: forms['served-as-is'] },
      ];
}

/** One key, checked and imported: the protected header and how to sign with it. */
export interface PreparedKey {
  header: { alg: AgentCardSigningAlgorithm; typ: 'JOSE'; kid: string; jku?: string };
  /** The public JWK (public members only), with `kid`, `alg` and `use`. */
  publicJwk: AgentCardPublicJwk;
  /** Whether two processes signing the same card make different bytes (`PS*`, or ECDSA on an opaque key). */
  randomized: boolean;
  signInput(input: Buffer): Buffer;
}

export function prepareKey(options: SignAgentCardOptions, where: string): PreparedKey {
  if (typeof options !== 'object' || options === null) {
    throw signError(where, 'options are missing', 'Pass { privateKey, alg } (and kid, jku if you like).');
  }
  const refused = refuseAlgorithm(options.alg);
  if (refused) throw signError(where, refused, `Use one of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`);
  if (options.kid !== undefined && (typeof options.kid !== 'string' || options.kid.trim() === '')) {
    throw signError(
      where,
      `kid is empty or not a string (${showValue(options.kid)})`,
      'Pass the key id verifiers will find the public key under, e.g. "card-key-2025", or leave it out to use the key thumbprint.',
    );
  }
  let jku: string | undefined;
  if (options.jku !== undefined) {
    const url = checkKeySetUrl(options.jku, false);
    if (typeof url === 'string') throw signError(where, `jku ${url}`, 'Publish the JWKS at an https:// URL.');
    jku = url.href;
  }
  const imported = toPrivateKey(options.privateKey, options.alg, `${where}: privateKey`);
  const crypto = nodeCrypto(where);
  const key = isKeyObject(imported) ? imported : crypto.KeyObject.from(imported);
  const publicKey = crypto.createPublicKey(key);
  const kid = options.kid ?? jwkThumbprint(publicJwkOf(publicKey));
  const header: PreparedKey['header'] = { alg: options.alg, typ: 'JOSE', kid };
  if (jku !== undefined) header.jku = jku;
  const deterministic = deterministicEcdsa(options.alg, key);
  const keyOptions = nodeKeyOptions(options.alg, key);
  const digest = nodeDigest(options.alg);
  return {
    header,
    publicJwk: { ...publicJwkOf(publicKey), kid, alg: options.alg, use: 'sig' },
    randomized: options.alg.startsWith('PS') || (options.alg.startsWith('ES') && deterministic === undefined),
    signInput(input) {
      try {
        return deterministic ? deterministic(input) : crypto.sign(digest, input, keyOptions);
      } catch (error) {
        throw signError(
          where,
          `the key cannot sign with alg "${options.alg}" (${(error as Error).message})`,
          'Use a key that fits the algorithm (RSA keys need 2048 bits or more).',
          error,
        );
      }
    },
  };
}

/**
 * Checks signing options once, so that middleware can refuse them at start-up: one key, or a
 * list of keys (rotation) with distinct key ids. Returns a signer that makes every signature of
 * a card synchronously.
 */
export function prepareSigner(
  options: SignAgentCardOptions | readonly SignAgentCardOptions[],
  where = 'signAgentCard',
) {
  const list = Array.isArray(options) ? options : [options as SignAgentCardOptions];
  if (list.length === 0)
    throw signError(where, 'the list of signing keys is empty', 'Pass at least one { privateKey, alg }.');
  const problems: string[] = [];
  const keys: PreparedKey[] = [];
  list.forEach((entry, i) => {
    const at = Array.isArray(options) ? `${where}[${i}]` : where;
    try {
      keys.push(prepareKey(entry, at));
    } catch (error) {
      problems.push(error instanceof AgentCardError ? error.message : `${at}: ${String(error)}`);
    }
  });
  const seen = new Map<string, number>();
  keys.forEach((key, i) => {
    const first = seen.get(key.header.kid);
    if (first !== undefined) {
      problems.push(
        `${where}[${i}]: kid ${quote(key.header.kid)} is also the kid of ${where}[${first}]. Give each key its own kid, or leave kid out to use each key's thumbprint.`,
      );
    } else seen.set(key.header.kid, i);
  });
  if (problems.length > 0) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      problems.length === 1
        ? (problems[0] as string)
        : `${where}: ${problems.length} problems:\n- ${problems.join('\n- ')}`,
    );
  }
  // When the forms differ, each signature names the one it covers, so that the pruned one cannot
  // pass for a served-as-is signature of the card with its default-valued members removed (a
  // parameter other verifiers ignore: not in `crit`).
  const encoded = keys.map((key) => ({
    both: encodeBase64url(JSON.stringify(key.header)),
    pruned: encodeBase64url(JSON.stringify({ ...key.header, [FORM_HEADER_PARAMETER]: 'pruned' })),
    'served-as-is': encodeBase64url(JSON.stringify({ ...key.header, [FORM_HEADER_PARAMETER]: 'served-as-is' })),
  }));
  return {
    /** The protected headers, one per key, in the order given. */
    headers: keys.map((key) => key.header),
    /** The public JWKs of the signing keys (public members, `kid`, `alg`, `use: "sig"`). */
    publicJwks: keys.map((key) => key.publicJwk),
    /** The algorithms whose signatures differ between processes (`PS*`), for a start-up warning. */
    randomized: keys.filter((key) => key.randomized).map((key) => key.header.alg),
    /**
     * Every signature of `card`: for each key, one per distinct canonical form (pruned first,
     * then served as is; one when the two coincide). Deterministic except for `PS*`.
     */
    signSync(card: AgentCard): AgentCardSignature[] {
      const payloads = payloadsOf(card).map(({ form, text }) => ({ form, payload: encodeBase64url(text) }));
      const out: AgentCardSignature[] = [];
      keys.forEach((key, i) => {
        for (const { form, payload } of payloads) {
          const header = (encoded[i] as Record<AgentCardCanonicalForm | 'both', string>)[form ?? 'both'];
          const signature = key.signInput(Buffer.from(`${header}.${payload}`));
          out.push({ protected: header, signature: signature.toString('base64url') });
        }
      });
      return out;
    },
  };
}

/** A prepared signer: options checked and keys imported once, see {@link prepareSigner}. */
export type AgentCardSigner = ReturnType<typeof prepareSigner>;

/**
 * Signs an Agent Card: JWSs (RFC 7515, flattened JSON serialization, detached payload) over
 * {@link canonicalizeAgentCard}, with the protected header
 * `{ alg, typ: "JOSE", kid[, jku][, agentCardForm] }` (`agentCardForm` names the form covered
 * when the two forms differ),
 * one per distinct canonical form of the card (the pruned form, which `@a2a-js/sdk` and
 * `a2a-sdk` verify, and the served-as-is form, which a2a-go verifies; one signature when the
 * card has no default-valued member and the two coincide), for each key given. Returns a copy
 * of the card with the signatures appended to `signatures`; existing signatures are kept and
 * the input is never changed.
 *
 * Pass a list of keys to rotate: the card then carries a signature by each, and a verifier that
 * trusts only the old or only the new key accepts it.
 *
 * The result is deterministic for `ES*` (RFC 6979), `EdDSA`/`Ed25519` and `RS*`: every replica
 * serves the same bytes. `PS*` signatures are randomized by the algorithm.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a refused `alg` (`none`, `HS*`, …), an
 *   empty `kid`, two keys with one `kid`, a non-https `jku`, a key that is public, secret,
 *   unreadable or does not fit `alg`, an RSA key under 2048 bits, or a card RFC 8785 cannot
 *   serialize.
 * @example
 * import { readFileSync } from 'node:fs'
 * const signed = await signAgentCard(card, {
 *   privateKey: readFileSync('card-key.pem', 'utf8'),
 *   alg: 'ES256',
 *   jku: 'https://agent.example.com/.well-known/jwks.json',
 * })
 * @see spec §8.4.2, RFC 7515 Appendix F (detached content), RFC 7638, RFC 6979
 */
export async function signAgentCard(
  card: AgentCard,
  options: SignAgentCardOptions | readonly SignAgentCardOptions[],
): Promise<AgentCard> {
  const signatures = prepareSigner(options).signSync(card);
  const copy = structuredClone(card);
  return { ...copy, signatures: [...(copy.signatures ?? []), ...signatures] };
}
