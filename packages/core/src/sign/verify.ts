import { KeyObject, verify as nodeVerify } from 'node:crypto';
import type * as Jose from 'jose';
import type { CryptoKey, JSONWebKeySet, JWK } from 'jose';
import { decodeBase64url, encodeBase64url } from './base64url';
import { loadJose } from './jose';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { AGENT_CARD_SIGNING_ALGORITHMS, type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import {
  AGENT_CARD_CANONICAL_FORMS,
  type AgentCardCanonicalForm,
  type CanonicalForms,
  canonicalFormsOf,
  FORM_HEADER_PARAMETER,
} from './canonicalize';
import { checkKeySetUrl } from './jwks';
import { admitJku, createKeySetFetcher, parseAllowedJkus } from './key-sources';
import { canonicalKeyOrder, dualNamePointers, modelCanonicalForm, uncoveredPointers } from './model-form';
import { type AgentCardPublicKey, keyMismatch, toPublicKey } from './keys';
import { nodeDigest, nodeKeyOptions } from './sign';

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
   * Where a signature's `jku` (the key-set URL inside its protected header) may be fetched from.
   * The card names its own `jku`, so whoever can change the card chooses it: a `jku` is never
   * fetched unless an entry here admits it. An entry is a host (`keys.example.com`: any path on
   * the default port, no query string), a `host:port`, or an exact `https://` URL (the only way
   * to admit a query string). One verification fetches at most one key set per entry, and every
   * fetch shares the one `timeoutMs` budget. Without it a `jku` is only checked to be https and,
   * with `jwksUrl`, equal to it. `jku` alone never establishes trust (A2A PR#2099).
   * @default [] (never fetch a card's jku)
   * @example ['keys.example.com', 'https://auth.example.com/keys?set=cards']
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
  /** Time allowed for all the key-set requests of one verification together. @default 5000 */
  timeoutMs?: number;
  /** Largest JWKS body read. @default 262144 (256 KiB) */
  maxJwksBytes?: number;
  /**
   * Lets `jwksUrl` and allowed `jku`s use plain `http:`, and only to 127.0.0.1, [::1] or
   * localhost: for tests against a local key server. Never needed in production.
   * @default false
   */
  allowInsecureJwksUrl?: boolean;
  /**
   * The canonical forms a signature may cover. Both by default, so that signatures made by
   * either SDK family verify. `['served-as-is']` refuses the pruned form, which leaves members at
   * their default value uncovered (an added empty security requirement, a blanked optional field).
   * A signature whose protected header names its form (`agentCardForm`, as `signAgentCard`
   * writes it) is checked over that form only, and refused when the form is not listed here; one
   * without it (older signatures, other SDKs) is tried over each form listed.
   * @default ['pruned', 'served-as-is']
   */
  forms?: readonly AgentCardCanonicalForm[];
  /**
   * Time, counted from the call, after which no further public-key check starts: the signatures
   * not checked by then fail with a reason that says the time ran out. For a caller with a
   * deadline of its own (a discovery run); the number of checks is bounded anyway by
   * {@link AGENT_CARD_VERIFY_LIMITS}.
   * @default no limit
   */
  maxCheckTimeMs?: number;
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
  /** The canonical form the signature covers, when it verified. */
  form?: AgentCardCanonicalForm;
  /** True when the protected header names that form (`agentCardForm`). */
  formNamed?: boolean;
  /**
   * JSON pointers of content the signature does not cover: when that is what made it fail, the
   * members a model-based signer left out, or both spellings of a field the card names twice;
   * when it verified over the pruned form, the members at their default value that form leaves
   * out (at most 20).
   */
  uncovered?: string[];
}

/** What {@link verifyAgentCard} found. */
export interface VerifyAgentCardResult {
  /** True when at least one signature verified with a trusted key. */
  valid: boolean;
  /** One entry per element of `card.signatures`, in order. */
  signatures: AgentCardSignatureCheck[];
  /** Why nothing could be checked at all (no signatures, a card that cannot be canonicalized or names a field twice). */
  reason?: string;
  /**
   * Which of {@link AGENT_CARD_VERIFY_LIMITS} this card reached, one sentence each (`only the
   * first 8 of 200 signatures were checked …`); absent when none was reached.
   */
  limits?: string[];
}

/**
 * How much work one verification does at most, whatever the card and the key sets hold. The card
 * and a fetched key set may come from the party being checked, and each public-key check costs
 * up to a few milliseconds (P-521), so without bounds they would choose the verifier's CPU time.
 * An honest card needs one signature per key and canonical form, and one key per `kid`.
 */
export const AGENT_CARD_VERIFY_LIMITS = {
  /** Signatures examined per card; the others fail as `not checked`. */
  signatures: 8,
  /** Keys tried per `kid` (all key sources together); the others are not imported. */
  keysPerKid: 3,
  /** Public-key checks per card (signature × key × canonical form, diagnoses included). */
  checks: 8,
  /** Failed signatures whose uncovered content is looked for (one more check each). */
  diagnoses: 2,
} as const;

/**
 * A sentence for a result in which signatures verified over the pruned form only: then members
 * at their default value are covered by no signature (one could have been added or removed,
 * such as a requirement without scopes). `undefined` otherwise.
 */
export function prunedOnlyNote(result: VerifyAgentCardResult): string | undefined {
  const verified = result.signatures.filter((s) => s.valid);
  // A signature that names no form and verified over a card whose two forms coincide covers both.
  const prunedOnly = (s: AgentCardSignatureCheck) =>
    s.form === 'pruned' && (s.formNamed === true || (s.uncovered?.length ?? 0) > 0);
  if (verified.length === 0 || !verified.every(prunedOnly)) return undefined;
  const uncovered = [...new Set(verified.flatMap((s) => s.uncovered ?? []))];
  return `only the pruned form verified: no signature covers the members at their default value${
    uncovered.length > 0 ? ` (${uncovered.join(', ')})` : ''
  }, so one could have been added or removed since signing`;
}

/** How one verification is run; for callers inside this package. */
export interface VerifyRun {
  /** `performance.now()` after which no further public-key check starts. */
  deadline?: number;
}

interface Candidate {
  key: KeyObject | CryptoKey;
  name: string;
  alg?: string;
}

function optionsError(what: string, how: string): AgentCardError {
  return new AgentCardError('ERR_AGENT_CARD_SIGNATURE', `verifyAgentCard: ${what}. ${how}`);
}

interface KidCandidates {
  found: Candidate[];
  skipped: string[];
  /** How many keys of the source name this kid, including those not looked at. */
  named: number;
}

/** The keys of a JWK Set under `kid`: only the first `keysPerKid` are read and imported. */
function jwkCandidates(source: string, jwks: readonly JWK[], kid: string, label: (jwk: JWK) => string): KidCandidates {
  const found: Candidate[] = [];
  const skipped: string[] = [];
  let named = 0;
  for (const jwk of jwks) {
    if (typeof jwk !== 'object' || jwk === null || jwk.kid !== kid) continue;
    named += 1;
    if (named > AGENT_CARD_VERIFY_LIMITS.keysPerKid) continue;
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
  return { found, skipped, named };
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

/**
 * The payload length from which a signature is first checked by node:crypto: below it, what jose
 * copies costs less than the second public-key operation a mismatch then takes (a P-521 check
 * costs about 1 ms).
 */
const PRECHECK_BYTES = 64 * 1024;

/**
 * Whether node:crypto (the OpenSSL that WebCrypto runs on) finds that `signature` does not match
 * `input` under `key`. The signing input is built once per signature and payload, where jose
 * encodes and copies the payload again on every call, about 10 ms for a 1 MiB card. `false` when
 * it matches or node:crypto cannot say: then jose checks the real payload and has the last word.
 */
function mismatches(
  alg: AgentCardSigningAlgorithm,
  key: KeyObject | CryptoKey,
  input: Buffer,
  signature: Buffer,
): boolean {
  try {
    const keyObject = key instanceof KeyObject ? key : KeyObject.from(key as Parameters<typeof KeyObject.from>[0]);
    return !nodeVerify(nodeDigest(alg), input, nodeKeyOptions(alg, keyObject), signature);
  } catch {
    return false;
  }
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

interface Signable {
  /** The base64url payload of each allowed form to try, in order, without duplicates. */
  payloads(): { form: AgentCardCanonicalForm; payload: string }[];
  /** The base64url payload of `form`, for a signature that names the one it covers. */
  payload(form: AgentCardCanonicalForm): string;
  /** The pruned content as a value. */
  pruned(): unknown;
  /** The pointers of the default-valued members the pruned form leaves out (computed once, on demand). */
  prunedAway(): string[];
}

/**
 * The canonical forms the examined signatures may cover: the one a signature names, or every
 * form listed for one that names none. At least one, so that a card no form can represent is
 * refused as such whatever its signatures hold.
 */
function formsNeeded(
  entries: readonly unknown[],
  forms: readonly AgentCardCanonicalForm[],
): Set<AgentCardCanonicalForm> {
  const needed = new Set<AgentCardCanonicalForm>();
  for (const entry of entries.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures)) {
    const header = decodeHeader(entry);
    if (typeof header === 'string') continue;
    const named = header[FORM_HEADER_PARAMETER];
    if (named === undefined) for (const form of forms) needed.add(form);
    else if (forms.includes(named as AgentCardCanonicalForm)) needed.add(named as AgentCardCanonicalForm);
  }
  if (needed.size === 0) needed.add(forms[0] as AgentCardCanonicalForm);
  return needed;
}

/** What a signature covers, or why no signature on this card can be trusted. */
function signable(
  card: object,
  forms: readonly AgentCardCanonicalForm[],
  needed: ReadonlySet<AgentCardCanonicalForm>,
): Signable | { reason: string; uncovered?: string[] } {
  const twice = dualNamePointers(card);
  if (twice.length > 0) {
    const pairs = twice.slice(0, 5).map(([json, proto]) => `${json} and ${proto}`);
    return {
      reason: `the card names a field twice, under its JSON name and its proto name (${pairs.join('; ')}${twice.length > 5 ? `; ${twice.length - 5} more` : ''}): a reader may take either, so no signature can vouch for the one it reads (spec §5.5: JSON uses the camelCase name)`,
      uncovered: twice.flat(),
    };
  }
  // Only the forms the examined signatures need are computed, each once.
  let of: CanonicalForms;
  try {
    of = canonicalFormsOf(card);
    for (const form of AGENT_CARD_CANONICAL_FORMS) if (needed.has(form)) of.text(form);
  } catch (error) {
    return { reason: `the card cannot be canonicalized: ${(error as Error).message}` };
  }
  const byForm: Partial<Record<AgentCardCanonicalForm, string>> = {};
  const payload = (form: AgentCardCanonicalForm): string => {
    byForm[form] ??= encodeBase64url(of.text(form));
    return byForm[form];
  };
  let payloads: ReturnType<Signable['payloads']> | undefined;
  let prunedAway: string[] | undefined;
  return {
    payloads: () => {
      if (payloads === undefined) {
        payloads = [];
        const seen = new Set<string>();
        for (const form of forms) {
          if (!seen.has(payload(form))) payloads.push({ form, payload: payload(form) });
          seen.add(payload(form));
        }
      }
      return payloads;
    },
    payload,
    pruned: of.pruned,
    prunedAway: () => {
      // The values compared in the order of their canonical text, without serializing the
      // served-as-is form only for this.
      prunedAway ??= uncoveredPointers(of.content, of.pruned(), 20, canonicalKeyOrder);
      return prunedAway;
    },
  };
}

/** The card as the v1.0 model reads it, and its payload; `undefined` when it does not fit the model. */
function modelPayload(card: object): { text: string; payload: string } | undefined {
  try {
    const text = modelCanonicalForm(card as AgentCard);
    return { text, payload: encodeBase64url(text) };
  } catch {
    return undefined;
  }
}

/**
 * Why a signature that matched no canonical form failed, when it matches the card as read
 * through the v1.0 model: then it is a signature over less than the card shows, and the
 * pointers say what it leaves out. `undefined` when it does not match that reading either.
 */
async function uncoveredBy(
  content: Signable,
  model: { text: string; payload: string } | undefined,
  verify: (payload: string) => Promise<boolean>,
): Promise<{ reason: string; uncovered: string[] } | undefined> {
  if (model === undefined || !(await verify(model.payload))) return undefined;
  const uncovered = uncoveredPointers(content.pruned(), JSON.parse(model.text));
  return {
    reason: `the signature does not cover ${uncovered.length > 0 ? uncovered.join(', ') : 'some members'}: it matches the card only as the v1.0 model reads it, without ${uncovered.length === 1 ? 'that member' : 'those members'} (outside the model, a snake_case twin, or a second member of a oneof), so ${uncovered.length === 1 ? 'it was' : 'they were'} added after signing or left out by the signer, and a reader could use content nobody signed`,
    uncovered,
  };
}

/**
 * Verifies the signatures of an Agent Card against trusted keys, and says for each one whether
 * it verified, with which key and over which canonical form, or why not. Never throws for
 * anything in the card (a card from the network may be hostile); only wrong options throw.
 *
 * A signature is valid only over a canonical form of the JSON as received (see
 * {@link canonicalizeAgentCard}): served as is, or with default-valued members pruned. No model
 * round trip happens on this side, so nothing a reader of the card sees is outside what a valid
 * signature covers. A card that names one field under both its JSON and its proto name is
 * refused whatever its signatures, and a signature over the card as a model reads it
 * (unknown members dropped, snake_case read, one oneof member kept) fails with the pointers of
 * the content it leaves out.
 *
 * Each signature must have a base64url protected header with `alg` (in the allowlist; `none`
 * and `HS*` never), `typ` and `kid` (as `@a2a-js/sdk` requires), an https `jku` if any, and a
 * trusted key with that `kid` that fits `alg`.
 *
 * Key trust: keys come from `keys`, `jwks` and `jwksUrl`, which the caller chose. A `jku` in a
 * signature is fetched only when an `allowJkuHosts` entry admits it.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` when no key source is given, a key is
 *   secret, unreadable or private-only as CryptoKey, `algorithms` names a refused algorithm,
 *   `forms` names no form, an `allowJkuHosts` entry is malformed, `jwksUrl` is not https, or
 *   `maxCheckTimeMs` is not a number ≥ 0.
 * @example
 * const result = await verifyAgentCard(card, { jwksUrl: 'https://agent.example.com/.well-known/jwks.json' })
 * if (!result.valid) console.error(result.signatures.map((s) => `#${s.index} ${s.kid}: ${s.reason}`))
 * @see spec §8.4.3, RFC 7515 §5.2, A2A#2122
 */
export async function verifyAgentCard(
  card: AgentCard,
  options: VerifyAgentCardOptions,
): Promise<VerifyAgentCardResult> {
  const limit = typeof options === 'object' && options !== null ? options.maxCheckTimeMs : undefined;
  if (limit === undefined) return verifyAgentCardRun(card, options, {});
  if (typeof limit !== 'number' || !(limit >= 0)) {
    throw optionsError(
      `maxCheckTimeMs must be a number of milliseconds ≥ 0 (${String(limit)})`,
      'Leave it out for no limit.',
    );
  }
  return verifyAgentCardRun(card, options, { deadline: performance.now() + limit });
}

/** {@link verifyAgentCard}, with no public-key check started after `run.deadline`. */
export async function verifyAgentCardRun(
  card: AgentCard,
  options: VerifyAgentCardOptions,
  run: VerifyRun,
): Promise<VerifyAgentCardResult> {
  if (typeof options !== 'object' || options === null) {
    throw optionsError('options are missing', 'Pass { keys }, { jwks } or { jwksUrl }.');
  }
  const allowInsecure = options.allowInsecureJwksUrl === true;
  const allowedJkus = parseAllowedJkus(options.allowJkuHosts ?? [], allowInsecure);
  if (
    options.keys === undefined &&
    options.jwks === undefined &&
    options.jwksUrl === undefined &&
    allowedJkus.length === 0
  ) {
    throw optionsError('no trusted key source', 'Pass keys (by kid), jwks, jwksUrl, or allowJkuHosts.');
  }
  const algorithms = new Set<string>(options.algorithms ?? AGENT_CARD_SIGNING_ALGORITHMS);
  if (algorithms.size === 0) {
    throw optionsError(
      'algorithms is empty',
      `Leave it out or list some of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`,
    );
  }
  for (const alg of algorithms) {
    const refused = refuseAlgorithm(alg);
    if (refused) throw optionsError(`algorithms: ${refused}`, `Use only ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`);
  }
  const forms = options.forms ?? AGENT_CARD_CANONICAL_FORMS;
  if (!Array.isArray(forms) || forms.length === 0 || forms.some((f) => !AGENT_CARD_CANONICAL_FORMS.includes(f))) {
    throw optionsError(
      `forms ${JSON.stringify(forms)} is not a list of canonical forms`,
      'List "pruned", "served-as-is" or both, or leave it out.',
    );
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
  const keySetAt = createKeySetFetcher({
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxJwksBytes,
  });

  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    return { valid: false, signatures: [], reason: 'the card is not a JSON object' };
  }
  const entries: unknown = (card as { signatures?: unknown }).signatures;
  if (entries === undefined || (Array.isArray(entries) && entries.length === 0)) {
    return { valid: false, signatures: [], reason: 'the card has no signatures' };
  }
  if (!Array.isArray(entries)) return { valid: false, signatures: [], reason: '"signatures" is not an array' };

  const content = signable(card, forms, formsNeeded(entries, forms));
  if ('reason' in content) {
    const { reason, uncovered } = content;
    return {
      valid: false,
      reason,
      signatures: entries.map((_, index) => ({ index, valid: false, reason, ...(uncovered ? { uncovered } : {}) })),
    };
  }

  const checks: AgentCardSignatureCheck[] = [];
  const limits: string[] = [];
  const { signatures: maxSignatures, keysPerKid, checks: maxChecks } = AGENT_CARD_VERIFY_LIMITS;
  if (entries.length > maxSignatures) {
    limits.push(
      `only the first ${maxSignatures} of ${entries.length} signatures were checked (at most ${maxSignatures} per card)`,
    );
  }
  // Each key set's keys under one kid are looked up and imported once per verification.
  const byKid = new Map<string, KidCandidates>();
  const keysUnder = (source: string, jwks: readonly JWK[], kid: string, label: (jwk: JWK) => string) => {
    const key = `${source}\n${kid}`;
    let found = byKid.get(key);
    if (found === undefined) {
      found = jwkCandidates(source, jwks, kid, label);
      byKid.set(key, found);
    }
    return found;
  };
  // The ASCII bytes of each payload, shared by the signing inputs of every signature.
  const bytesOf = new Map<string, Buffer>();
  const payloadBytes = (payload: string): Buffer => {
    let bytes = bytesOf.get(payload);
    if (bytes === undefined) {
      bytes = Buffer.from(payload, 'latin1');
      bytesOf.set(payload, bytes);
    }
    return bytes;
  };
  const kidsCut = new Set<string>();
  let checksLeft = maxChecks;
  let diagnosesLeft = AGENT_CARD_VERIFY_LIMITS.diagnoses;
  let stopped: 'checks' | 'time' | undefined;
  let unchecked = 0;
  // The model reading, computed for the first diagnosis that needs it.
  let model: ReturnType<typeof modelPayload> | null = null;
  // Loaded when the first signature gets as far as a key.
  let jose: typeof Jose | undefined;
  for (const [index, entry] of entries.entries()) {
    const check: AgentCardSignatureCheck = { index, valid: false };
    checks.push(check);
    if (index >= maxSignatures) {
      check.reason = `not checked: only the first ${maxSignatures} signatures of a card are checked`;
      continue;
    }
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
    // A signature that names its form is checked over that form only: a pruned-form signature
    // must not pass for a served-as-is one of the card with its default-valued members removed.
    let tries: ReturnType<Signable['payloads']> | undefined;
    const namedForm = header[FORM_HEADER_PARAMETER];
    if (namedForm !== undefined) {
      if (typeof namedForm !== 'string' || !AGENT_CARD_CANONICAL_FORMS.includes(namedForm as AgentCardCanonicalForm)) {
        check.reason = `the protected header's "${FORM_HEADER_PARAMETER}" is ${JSON.stringify(namedForm)}, not a canonical form (${AGENT_CARD_CANONICAL_FORMS.join(', ')})`;
        continue;
      }
      const form = namedForm as AgentCardCanonicalForm;
      if (!forms.includes(form)) {
        check.reason = `the signature covers the ${form} form, which this verification does not accept (forms: ${forms.join(', ')})`;
        continue;
      }
      tries = [{ form, payload: content.payload(form) }];
      check.formNamed = true;
    }

    const candidates: Candidate[] = [];
    const notes: string[] = [];
    let named = 0;
    const local = localKeys.get(kid);
    if (local) {
      candidates.push(local);
      named += 1;
    }
    const take = (found: KidCandidates): void => {
      candidates.push(...found.found);
      notes.push(...found.skipped);
      named += found.named;
    };
    if (options.jwks) take(keysUnder('jwks', options.jwks.keys, kid, () => `jwks["${kid}"]`));
    const remote: { url: URL; entry?: Parameters<typeof keySetAt>[1] }[] = [];
    if (header.jku !== undefined) {
      const jku = checkKeySetUrl(header.jku, allowInsecure);
      if (typeof jku === 'string') {
        check.reason = `jku ${jku}: keys must come over https (spec §8.4.3)`;
        continue;
      }
      const admitted = admitJku(jku, allowedJkus);
      if (typeof admitted === 'string') {
        check.reason = `${admitted}; it was not fetched`;
        continue;
      }
      if (admitted !== undefined) remote.push({ url: jku, entry: admitted });
      else if (trustedUrl && jku.href !== trustedUrl.href) {
        check.reason = `jku ${jku.href} differs from the trusted jwksUrl ${trustedUrl.href}; add it to allowJkuHosts if both are yours`;
        continue;
      }
    }
    if (trustedUrl && !remote.some(({ url }) => url.href === trustedUrl.href)) remote.unshift({ url: trustedUrl });
    for (const { url, entry: allowed } of remote) {
      const source = await keySetAt(url, allowed);
      if ('error' in source) {
        notes.push(source.error);
        continue;
      }
      take(keysUnder(url.href, source.keys, kid, () => `${url.href}#${kid}`));
    }
    if (named > keysPerKid && !kidsCut.has(kid)) {
      kidsCut.add(kid);
      limits.push(
        `kid ${JSON.stringify(kid)} names ${named} keys; only the first ${keysPerKid} were tried (at most ${keysPerKid} per kid)`,
      );
    }
    candidates.splice(keysPerKid);
    if (candidates.length === 0) {
      check.reason = `unknown kid "${kid}": no trusted key has this kid${notes.length ? ` (${notes.join('; ')})` : ''}`;
      continue;
    }

    const {
      protected: encoded,
      signature,
      header: unprotected,
    } = entry as { protected: string; signature: string; header?: unknown };
    const failures: string[] = [];
    let cut = false;
    // What every key is checked against, built once per signature and payload.
    const signatureBytes = decodeBase64url(signature) as Buffer;
    const inputs = new Map<string, Buffer>();
    const signingInput = (payload: string): Buffer => {
      let input = inputs.get(payload);
      if (input === undefined) {
        input = Buffer.concat([Buffer.from(`${encoded}.`, 'latin1'), payloadBytes(payload)]);
        inputs.set(payload, input);
      }
      return input;
    };
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
      jose ??= await loadJose();
      const { flattenedVerify, errors } = jose;
      let lastError: unknown;
      /** Whether `payload` verifies; `undefined` when no further check may start. */
      const verifies = async (payload: string): Promise<boolean | undefined> => {
        if (checksLeft <= 0) stopped = 'checks';
        else if (run.deadline !== undefined && performance.now() > run.deadline) stopped = 'time';
        if (stopped) return undefined;
        checksLeft -= 1;
        // A signature that does not match is still given to jose, over an empty payload: jose
        // refuses a wrong header, key or algorithm before it looks at the payload, and so gives
        // the same reason it would give over the card, without copying the card again.
        const mismatch =
          payload.length >= PRECHECK_BYTES && mismatches(alg, candidate.key, signingInput(payload), signatureBytes);
        const jws: Parameters<typeof Jose.flattenedVerify>[0] = {
          payload: mismatch ? '' : payload,
          protected: encoded,
          signature,
        };
        if (unprotected !== undefined) jws.header = unprotected as Record<string, unknown>;
        try {
          await flattenedVerify(jws, candidate.key, { algorithms: [...algorithms] });
          if (!mismatch) return true;
          lastError = new errors.JWSSignatureVerificationFailed();
          return false;
        } catch (error) {
          lastError = error;
          return false;
        }
      };
      tries ??= content.payloads();
      for (const { form, payload } of tries) {
        const verified = await verifies(payload);
        if (verified === undefined) break;
        if (verified) {
          check.valid = true;
          check.form = form;
          break;
        }
      }
      if (check.valid) {
        check.key = candidate.name;
        if (check.form === 'pruned') {
          const away = content.prunedAway();
          if (away.length > 0) check.uncovered = away;
        }
        break;
      }
      if (stopped) {
        cut = true;
        break;
      }
      if (lastError instanceof errors.JWSSignatureVerificationFailed && diagnosesLeft > 0) {
        diagnosesLeft -= 1;
        if (model === null) model = modelPayload(card);
        const partial = await uncoveredBy(content, model, async (payload) => (await verifies(payload)) === true);
        if (partial) {
          failures.push(`${candidate.name}: ${partial.reason}`);
          check.uncovered = partial.uncovered;
          continue;
        }
      }
      failures.push(`${candidate.name}: ${describeJoseError(lastError, alg, errors)}`);
    }
    if (cut) {
      unchecked += 1;
      const why =
        stopped === 'time'
          ? 'the time allowed for this verification ran out'
          : `the ${maxChecks} public-key checks of one verification are used up`;
      failures.push(failures.length === 0 ? `not checked: ${why}` : `the other keys were not tried: ${why}`);
    }
    if (!check.valid) check.reason = failures.join('; ');
  }
  if (unchecked > 0) {
    limits.push(
      stopped === 'time'
        ? `the time allowed for this verification ran out; ${unchecked} ${unchecked === 1 ? 'signature was' : 'signatures were'} not checked`
        : `the card used up the ${maxChecks} public-key checks of one verification; ${unchecked} ${unchecked === 1 ? 'signature was' : 'signatures were'} not checked`,
    );
  }
  return { valid: checks.some((check) => check.valid), signatures: checks, ...(limits.length > 0 ? { limits } : {}) };
}
