import type { KeyObject } from 'node:crypto';
import type * as Jose from 'jose';
import type { CryptoKey, JSONWebKeySet, JWK } from 'jose';
import { decodeBase64url, encodeBase64url } from './base64url';
import { loadJose } from './jose';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { AGENT_CARD_SIGNING_ALGORITHMS, type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import { canonicalizeAgentCard } from './canonicalize';
import { checkKeySetUrl, fetchKeySet } from './jwks';
import { type AgentCardPublicKey, keyMismatch, toPublicKey } from './keys';

/** Options of {@link verifyAgentCard}. At least one key source is required. */
export interface VerifyAgentCardOptions {
  /**
   * Trusted public keys by `kid`: a Node `KeyObject`, a WebCrypto `CryptoKey`, a public JWK or a
   * PEM string (SPKI, or an X.509 certificate).
   * @example { 'card-key-1': readFileSync('card-key.pub.pem', 'utf8') }
   */
  keys?: Readonly<Record<string, AgentCardPublicKey>>;
  /** A trusted JWK Set; keys are matched by their `kid`. */
  jwks?: JSONWebKeySet;
  /**
   * A trusted JWKS URL, fetched once per call (https only, no redirects, `timeoutMs`,
   * `maxJwksBytes`). A signature whose `jku` names a different URL fails, unless that `jku`'s
   * host is listed in `allowJkuHosts`.
   */
  jwksUrl?: string | URL;
  /**
   * Hosts whose `jku` (the key-set URL inside a signature's protected header) may be fetched.
   * The card names its own `jku`, so whoever can change the card can point it at their own
   * keys: a `jku` is therefore never fetched unless its host is listed here (exact host name,
   * `https:` only). Without it a `jku` is only checked to be https and, with `jwksUrl`, equal to it.
   * @default [] (never fetch a card's jku)
   */
  allowJkuHosts?: readonly string[];
  /**
   * Algorithms accepted. Every entry must be an allowed Agent Card algorithm; `none` and `HS*`
   * are refused even here.
   * @default all of ES256/384/512, RS256/384/512, PS256/384/512, EdDSA, Ed25519
   */
  algorithms?: readonly AgentCardSigningAlgorithm[];
  /** The `fetch` used for `jwksUrl` and allowed `jku`s. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Time allowed for each JWKS request, headers and body. @default 5000 */
  timeoutMs?: number;
  /** Largest JWKS body read. @default 262144 (256 KiB) */
  maxJwksBytes?: number;
  /**
   * Lets `jwksUrl` and allowed `jku`s use plain `http:`, and only to 127.0.0.1, [::1] or
   * localhost: for tests against a local key server. Never needed in production.
   * @default false
   */
  allowInsecureJwksUrl?: boolean;
}

/** The outcome for one entry of `card.signatures`. */
export interface AgentCardSignatureCheck {
  /** Position in `card.signatures`. */
  index: number;
  /** The protected header's `kid`, when readable. */
  kid?: string;
  /** The protected header's `alg`, when readable. */
  alg?: string;
  /** The protected header's `jku`, when present. */
  jku?: string;
  /** Whether this signature verified. */
  valid: boolean;
  /** Which trusted key verified it, e.g. `keys["card-key-1"]` or `https://…/jwks.json#card-key-1`. */
  key?: string;
  /** Why it did not verify. */
  reason?: string;
}

/** What {@link verifyAgentCard} found. */
export interface VerifyAgentCardResult {
  /** True when at least one signature verified with a trusted key. */
  valid: boolean;
  /** One entry per element of `card.signatures`, in order. */
  signatures: AgentCardSignatureCheck[];
  /** Why nothing could be checked at all (no signatures, a card that cannot be canonicalized). */
  reason?: string;
}

interface Candidate {
  key: KeyObject | CryptoKey;
  name: string;
  alg?: string;
}

type KeySource = { name: string; keys: readonly JWK[] } | { name: string; error: string };

function optionsError(what: string, how: string): AgentCardError {
  return new AgentCardError('ERR_AGENT_CARD_SIGNATURE', `verifyAgentCard: ${what}. ${how}`);
}

function jwkCandidates(
  source: string,
  jwks: readonly JWK[],
  kid: string,
  label: (jwk: JWK) => string,
): { found: Candidate[]; skipped: string[] } {
  const found: Candidate[] = [];
  const skipped: string[] = [];
  for (const jwk of jwks) {
    if (jwk.kid !== kid) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') {
      skipped.push(`${label(jwk)} is for "use": "${jwk.use}", not signatures`);
      continue;
    }
    if (jwk.kty === 'oct') {
      skipped.push(`${label(jwk)} is a symmetric "oct" key, refused (key/alg confusion)`);
      continue;
    }
    try {
      found.push({
        key: toPublicKey(jwk, source),
        name: label(jwk),
        alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
      });
    } catch (error) {
      skipped.push(`${label(jwk)} cannot be imported (${(error as Error).message})`);
    }
  }
  return { found, skipped };
}

function decodeHeader(entry: unknown): Record<string, unknown> | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'the entry is not an object';
  const { protected: encoded, signature } = entry as { protected?: unknown; signature?: unknown };
  if (typeof encoded !== 'string' || encoded === '') return '"protected" is missing or not a string';
  if (typeof signature !== 'string' || signature === '') return '"signature" is missing or not a string';
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return '"protected" is not base64url (RFC 7515 §2)';
  if (!/^[A-Za-z0-9_-]+$/.test(signature)) return '"signature" is not base64url (RFC 7515 §2)';
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64url(encoded)));
  } catch (error) {
    return `"protected" does not decode to JSON (${(error as Error).message})`;
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return '"protected" does not decode to a JSON object';
  return header as Record<string, unknown>;
}

function describeJoseError(error: unknown, alg: string, errors: typeof Jose.errors): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the signature does not match the card: the card changed after signing, or another key signed it';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return `alg "${alg}" is not allowed`;
  if (error instanceof errors.JOSENotSupported) return `not supported: ${(error as Error).message}`;
  if (error instanceof TypeError) return `the key cannot verify alg "${alg}" (${error.message}) (key/alg confusion)`;
  return (error as Error).message;
}

/**
 * Verifies the signatures of an Agent Card against trusted keys, and says for each one whether
 * it verified, with which key, or why not. Never throws for anything in the card (a card from
 * the network may be hostile); only wrong options throw.
 *
 * Each signature must have a base64url protected header with `alg` (in the allowlist; `none`
 * and `HS*` never), `typ` and `kid` (as `@a2a-js/sdk` requires), an https `jku` if any, and a
 * trusted key with that `kid` that fits `alg`. The payload is rebuilt with
 * {@link canonicalizeAgentCard}, so signatures made by `@a2a-js/sdk` verify here and ours there.
 *
 * Key trust: keys come from `keys`, `jwks` and `jwksUrl`, which the caller chose. A `jku` in a
 * signature is fetched only when its host is in `allowJkuHosts`.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` when no key source is given, a key is
 *   secret, unreadable or private-only as CryptoKey, `algorithms` names a refused algorithm, or
 *   `jwksUrl` is not https.
 * @example
 * const result = await verifyAgentCard(card, { jwksUrl: 'https://agent.example.com/.well-known/jwks.json' })
 * if (!result.valid) console.error(result.signatures.map((s) => `#${s.index} ${s.kid}: ${s.reason}`))
 * @see spec §8.4.3, RFC 7515 §5.2
 */
export async function verifyAgentCard(
  card: AgentCard,
  options: VerifyAgentCardOptions,
): Promise<VerifyAgentCardResult> {
  if (typeof options !== 'object' || options === null) {
    throw optionsError('options are missing', 'Pass { keys }, { jwks } or { jwksUrl }.');
  }
  const allowInsecure = options.allowInsecureJwksUrl === true;
  const jkuHosts = new Set((options.allowJkuHosts ?? []).map((host) => host.toLowerCase()));
  if (
    options.keys === undefined &&
    options.jwks === undefined &&
    options.jwksUrl === undefined &&
    jkuHosts.size === 0
  ) {
    throw optionsError('no trusted key source', 'Pass keys (by kid), jwks, jwksUrl, or allowJkuHosts.');
  }
  const algorithms = new Set<string>(options.algorithms ?? AGENT_CARD_SIGNING_ALGORITHMS);
  if (algorithms.size === 0)
    throw optionsError(
      'algorithms is empty',
      `Leave it out or list some of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`,
    );
  for (const alg of algorithms) {
    const refused = refuseAlgorithm(alg);
    if (refused) throw optionsError(`algorithms: ${refused}`, `Use only ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`);
  }

  const localKeys = new Map<string, Candidate>();
  for (const [kid, key] of Object.entries(options.keys ?? {})) {
    localKeys.set(kid, { key: toPublicKey(key, `verifyAgentCard: keys["${kid}"]`), name: `keys["${kid}"]` });
  }
  if (options.jwks !== undefined && !Array.isArray(options.jwks?.keys)) {
    throw optionsError('jwks has no "keys" array', 'Pass a JWK Set: { keys: [ { kty, kid, … } ] }.');
  }
  let trustedUrl: URL | undefined;
  if (options.jwksUrl !== undefined) {
    const checked = checkKeySetUrl(options.jwksUrl, allowInsecure);
    if (typeof checked === 'string') {
      throw optionsError(
        `jwksUrl ${checked}`,
        allowInsecure ? 'Use https.' : 'Use https (allowInsecureJwksUrl admits http to 127.0.0.1 for tests).',
      );
    }
    trustedUrl = checked;
  }

  const fetched = new Map<string, Promise<KeySource>>();
  const keySetAt = (url: URL): Promise<KeySource> => {
    let pending = fetched.get(url.href);
    if (!pending) {
      pending = fetchKeySet(url, {
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxJwksBytes,
      }).then(
        (set) => ({ name: url.href, keys: set.keys }),
        (error: Error) => ({ name: url.href, error: error.message }),
      );
      fetched.set(url.href, pending);
    }
    return pending;
  };

  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    return { valid: false, signatures: [], reason: 'the card is not a JSON object' };
  }
  const entries: unknown = (card as { signatures?: unknown }).signatures;
  if (entries === undefined || (Array.isArray(entries) && entries.length === 0)) {
    return { valid: false, signatures: [], reason: 'the card has no signatures' };
  }
  if (!Array.isArray(entries)) return { valid: false, signatures: [], reason: '"signatures" is not an array' };

  let payload: string;
  try {
    payload = encodeBase64url(new TextEncoder().encode(canonicalizeAgentCard(card)));
  } catch (error) {
    const reason = `the card cannot be canonicalized: ${(error as Error).message}`;
    return { valid: false, reason, signatures: entries.map((_, index) => ({ index, valid: false, reason })) };
  }

  const checks: AgentCardSignatureCheck[] = [];
  // Loaded when the first signature gets as far as a key.
  let jose: typeof Jose | undefined;
  for (const [index, entry] of entries.entries()) {
    const check: AgentCardSignatureCheck = { index, valid: false };
    checks.push(check);
    const header = decodeHeader(entry);
    if (typeof header === 'string') {
      check.reason = `malformed signature: ${header}`;
      continue;
    }
    if (typeof header.kid === 'string') check.kid = header.kid;
    if (typeof header.alg === 'string') check.alg = header.alg;
    if (typeof header.jku === 'string') check.jku = header.jku;
    const refused = refuseAlgorithm(header.alg, algorithms);
    if (refused) {
      check.reason = refused;
      continue;
    }
    const alg = header.alg as AgentCardSigningAlgorithm;
    if (typeof header.typ !== 'string' || header.typ === '') {
      check.reason = 'the protected header has no "typ" (spec §8.4.2: "JOSE")';
      continue;
    }
    if (typeof header.kid !== 'string' || header.kid === '') {
      check.reason = 'the protected header has no "kid", so no trusted key can be chosen';
      continue;
    }
    const kid = header.kid;

    const candidates: Candidate[] = [];
    const notes: string[] = [];
    const local = localKeys.get(kid);
    if (local) candidates.push(local);
    if (options.jwks) {
      const { found, skipped } = jwkCandidates('verifyAgentCard: jwks', options.jwks.keys, kid, () => `jwks["${kid}"]`);
      candidates.push(...found);
      notes.push(...skipped);
    }
    const remote: URL[] = [];
    if (header.jku !== undefined) {
      const jku = checkKeySetUrl(header.jku, allowInsecure);
      if (typeof jku === 'string') {
        check.reason = `jku ${jku}: keys must come over https (spec §8.4.3)`;
        continue;
      }
      if (jkuHosts.has(jku.hostname.toLowerCase())) remote.push(jku);
      else if (trustedUrl && jku.href !== trustedUrl.href) {
        check.reason = `jku ${jku.href} differs from the trusted jwksUrl ${trustedUrl.href}; add its host to allowJkuHosts if both are yours`;
        continue;
      }
    }
    if (trustedUrl && !remote.some((url) => url.href === trustedUrl.href)) remote.unshift(trustedUrl);
    for (const url of remote) {
      const source = await keySetAt(url);
      if ('error' in source) {
        notes.push(source.error);
        continue;
      }
      const { found, skipped } = jwkCandidates(
        `verifyAgentCard: ${url.href}`,
        source.keys,
        kid,
        () => `${url.href}#${kid}`,
      );
      candidates.push(...found);
      notes.push(...skipped);
    }
    if (candidates.length === 0) {
      check.reason = `unknown kid "${kid}": no trusted key has this kid${notes.length ? ` (${notes.join('; ')})` : ''}`;
      continue;
    }

    const failures: string[] = [];
    for (const candidate of candidates) {
      if (candidate.alg !== undefined && candidate.alg !== alg) {
        failures.push(`${candidate.name} is for alg "${candidate.alg}", the signature uses "${alg}"`);
        continue;
      }
      const mismatch = keyMismatch(candidate.key, alg);
      if (mismatch) {
        failures.push(`${candidate.name}: ${mismatch}`);
        continue;
      }
      try {
        const {
          protected: encoded,
          signature,
          header: unprotected,
        } = entry as { protected: string; signature: string; header?: unknown };
        jose ??= await loadJose();
        const { flattenedVerify } = jose;
        const jws: Parameters<typeof Jose.flattenedVerify>[0] = { payload, protected: encoded, signature };
        if (unprotected !== undefined) jws.header = unprotected as Record<string, unknown>;
        await flattenedVerify(jws, candidate.key, { algorithms: [...algorithms] });
        check.valid = true;
        check.key = candidate.name;
        break;
      } catch (error) {
        jose ??= await loadJose();
        failures.push(`${candidate.name}: ${describeJoseError(error, alg, jose.errors)}`);
      }
    }
    if (!check.valid) check.reason = failures.join('; ');
  }
  return { valid: checks.some((check) => check.valid), signatures: checks };
}
