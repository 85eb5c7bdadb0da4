import type { JSONWebKeySet } from 'jose';
import type { AgentCardSigningAlgorithm } from './algorithms';
import type { AgentCardCanonicalForm } from './canonicalize';
import type { AgentCardPublicKey } from './keys';

// What a verification is given, what it returns, and how much work it may do: shared by the
// steps of a verification (verify-*.ts) and re-exported by verify.ts.

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

/** How one verification is run; for callers inside this package. */
export interface VerifyRun {
  /** `performance.now()` after which no further public-key check starts. */
  deadline?: number;
}
