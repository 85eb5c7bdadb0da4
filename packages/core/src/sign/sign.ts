import { KeyObject, constants, sign as nodeSign } from 'node:crypto';
import { encodeBase64url } from './base64url';
import { loadJose } from './jose';
import { AgentCardError } from '../errors';
import type { AgentCard, AgentCardSignature } from '../model';
import { AGENT_CARD_SIGNING_ALGORITHMS, type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import { canonicalForms } from './canonicalize';
import { type AgentCardPrivateKey, toPrivateKey } from './keys';
import { checkKeySetUrl } from './jwks';

/** Options of {@link signAgentCard}. */
export interface SignAgentCardOptions {
  /**
   * The private key: a Node `KeyObject`, a WebCrypto `CryptoKey`, a private JWK, or a PEM string
   * (PKCS#8; PKCS#1 RSA and SEC1 EC PEMs are read too). It must fit `alg`.
   */
  privateKey: AgentCardPrivateKey;
  /** The key id verifiers look the public key up by (protected header `kid`). Required by the spec. */
  kid: string;
  /**
   * The JWS algorithm: `ES256`, `ES384`, `ES512`, `RS256`, `RS384`, `RS512`, `PS256`, `PS384`,
   * `PS512`, `EdDSA` or `Ed25519`. `none` and HMAC (`HS*`) are refused.
   */
  alg: AgentCardSigningAlgorithm;
  /**
   * Where the public JWKS lives (protected header `jku`). Must be an `https:` URL. Verifiers
   * should not fetch it blindly (the card names it, so the card's author controls it); see
   * `verifyAgentCard`'s `allowJkuHosts`.
   */
  jku?: string | URL;
}

/** The digest node:crypto applies for `alg`; EdDSA hashes internally. */
function nodeDigest(alg: AgentCardSigningAlgorithm): string | null {
  if (alg === 'EdDSA' || alg === 'Ed25519') return null;
  return `sha${alg.slice(2)}`;
}

/** JWS encodings: ECDSA as r||s (RFC 7518 §3.4), PSS with a salt as long as the hash (§3.5). */
function nodeKeyOptions(alg: AgentCardSigningAlgorithm, key: KeyObject) {
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' as const };
  if (alg.startsWith('PS'))
    return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 };
  return key;
}

/**
 * Checks sign options once, so that middleware can refuse them at start-up. Returns the
 * protected header and the key to sign with.
 */
export function prepareSigner(options: SignAgentCardOptions, where = 'signAgentCard') {
  if (typeof options !== 'object' || options === null) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: options are missing. Pass { privateKey, kid, alg }.`,
    );
  }
  const refused = refuseAlgorithm(options.alg);
  if (refused) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: ${refused}. Use one of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`,
    );
  }
  if (typeof options.kid !== 'string' || options.kid.trim() === '') {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: kid is missing or empty (${JSON.stringify(options.kid)}). Pass the key id verifiers will find the public key under, e.g. "card-key-2025".`,
    );
  }
  const header: { alg: AgentCardSigningAlgorithm; typ: 'JOSE'; kid: string; jku?: string } = {
    alg: options.alg,
    typ: 'JOSE',
    kid: options.kid,
  };
  if (options.jku !== undefined) {
    const problem = checkKeySetUrl(options.jku, false);
    if (typeof problem === 'string') {
      throw new AgentCardError(
        'ERR_AGENT_CARD_SIGNATURE',
        `${where}: jku ${problem}. Publish the JWKS at an https:// URL.`,
      );
    }
    header.jku = problem.href;
  }
  const key = toPrivateKey(options.privateKey, options.alg, `${where}: privateKey`);
  const encodedHeader = encodeBase64url(JSON.stringify(header));
  return {
    header,
    /**
     * The signatures of `card`, one per distinct canonical form (pruned first, then served as is;
     * one signature when the two coincide), made synchronously with node:crypto for callers that
     * cannot await (a responder prepares a static card before its first request).
     */
    signSync(card: AgentCard): AgentCardSignature[] {
      const keyObject = key instanceof KeyObject ? key : KeyObject.from(key);
      return payloadsOf(card).map((payload) => {
        const signingInput = `${encodedHeader}.${encodeBase64url(payload)}`;
        try {
          const signature = nodeSign(
            nodeDigest(header.alg),
            Buffer.from(signingInput),
            nodeKeyOptions(header.alg, keyObject),
          );
          return { protected: encodedHeader, signature: signature.toString('base64url') };
        } catch (error) {
          throw new AgentCardError(
            'ERR_AGENT_CARD_SIGNATURE',
            `${where}: the key cannot sign with alg "${header.alg}" (${(error as Error).message}). Use a key that fits the algorithm.`,
            { cause: error },
          );
        }
      });
    },
    /** The same signatures as {@link signSync}, made with jose (any key form, WebCrypto included). */
    async sign(card: AgentCard): Promise<AgentCardSignature[]> {
      const out: AgentCardSignature[] = [];
      for (const payload of payloadsOf(card)) {
        try {
          const { FlattenedSign } = await loadJose();
          const jws = await new FlattenedSign(new TextEncoder().encode(payload)).setProtectedHeader(header).sign(key);
          out.push({ protected: jws.protected as string, signature: jws.signature });
        } catch (error) {
          throw new AgentCardError(
            'ERR_AGENT_CARD_SIGNATURE',
            `${where}: the key cannot sign with alg "${header.alg}" (${(error as Error).message}). Use a key that fits the algorithm (RSA keys need 2048 bits or more).`,
            { cause: error },
          );
        }
      }
      return out;
    },
  };
}

/** The distinct canonical forms of a card, pruned first: what its signatures cover. */
function payloadsOf(card: AgentCard): string[] {
  const forms = canonicalForms(card);
  return forms.pruned === forms['served-as-is'] ? [forms.pruned] : [forms.pruned, forms['served-as-is']];
}

/** A prepared signer: options checked and key imported once, see {@link prepareSigner}. */
export type AgentCardSigner = ReturnType<typeof prepareSigner>;

/**
 * Signs an Agent Card: JWSs (RFC 7515, flattened JSON serialization, detached payload) over
 * {@link canonicalizeAgentCard}, with the protected header `{ alg, typ: "JOSE", kid[, jku] }`,
 * one per distinct canonical form of the card (the pruned form, which `@a2a-js/sdk` and
 * `a2a-sdk` verify, and the served-as-is form, which a2a-go verifies; one signature when the
 * card has no default-valued member and the two coincide). Returns a copy of the card with the
 * signatures appended to `signatures`; existing signatures are kept (key rotation) and the
 * input is never changed.
 *
 * The result is deterministic for `EdDSA`/`Ed25519` and `RS*`; `ES*` and `PS*` signatures are
 * randomized by their algorithms.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a refused `alg` (`none`, `HS*`, …), a
 *   missing `kid`, a non-https `jku`, a key that is public, secret, unreadable or does not fit
 *   `alg`, or a card RFC 8785 cannot serialize.
 * @example
 * import { readFileSync } from 'node:fs'
 * const signed = await signAgentCard(card, {
 *   privateKey: readFileSync('card-key.pem', 'utf8'),
 *   kid: 'card-key-1',
 *   alg: 'ES256',
 *   jku: 'https://agent.example.com/.well-known/jwks.json',
 * })
 * @see spec §8.4.2, RFC 7515 Appendix F (detached content)
 */
export async function signAgentCard(card: AgentCard, options: SignAgentCardOptions): Promise<AgentCard> {
  const signer = prepareSigner(options);
  const signatures = await signer.sign(card);
  const copy = structuredClone(card);
  return { ...copy, signatures: [...(copy.signatures ?? []), ...signatures] };
}
