// The AI Catalog's own signature (current draft §"Top-Level Structure", `signature`): a detached
// JWS over the RFC 8785 form of the catalog without `signature`, and the SHA-256 digests that
// bind each entry to the exact bytes it points to (ADR-0032 `digest`). Signing happens once, when
// the catalog is built; verification follows verifyAgentCard's key policy.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { nodeCrypto } from './node-crypto';
import canonicalize from 'canonicalize';
import { readCapped } from '../bytes';
import { AI_CATALOG_SIGNATURE_ALGORITHMS } from '../catalog/format';
import { AgentCardError } from '../errors';
import { readJsonText } from '../json/read';
import { quoteUntrusted, showValue } from '../util';
import type { AgentCardSigningAlgorithm } from './algorithms';
import { decodeBase64url, encodeBase64url } from './base64url';
import { keyMismatch } from './keys';
import { nodeDigest, nodeKeyOptions, type PreparedKey, prepareKey, type SignAgentCardOptions } from './sign';
import type { AgentCardSigningOptions } from './signing-options';
import { decodeHeader } from './verify-header';
import { KeyFinder } from './verify-keys';
import { type ResolvedVerifyOptions, resolveVerifyOptions } from './verify-options';
import type { VerifyAgentCardOptions } from './verify-types';

/** How much one {@link verifyAiCatalog} reads, whatever the catalog says. */
export const AI_CATALOG_VERIFY_LIMITS = Object.freeze({
  /** Largest catalog text read, and largest canonical form signed or checked. */
  catalogBytes: 4 * 1024 * 1024,
  /** Largest artifact body fetched to check a digest. */
  artifactBytes: 1024 * 1024,
  /** Digests checked per catalog; entries past it are reported unchecked. */
  digests: 100,
  /** Time for all artifact requests of one verification together, in milliseconds. */
  timeoutMs: 5_000,
});

/** `sha256:{hex}` of `bytes`: the digest an entry carries for the exact bytes at its `url`. */
export function sha256Digest(bytes: Uint8Array | string): string {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return `sha256:${bytesToHex(sha256(data))}`;
}

/** The RFC 8785 text the catalog `signature` covers: the catalog without `signature`. */
export function canonicalizeAiCatalog(catalog: object): string {
  const { signature: _dropped, ...rest } = catalog as Record<string, unknown>;
  const text = canonicalize(rest);
  if (typeof text !== 'string') throw new TypeError('the catalog cannot be put in RFC 8785 form');
  return text;
}

/** Signs catalogs with one key, prepared once. */
export interface AiCatalogSigner {
  readonly kid: string;
  readonly alg: AgentCardSigningAlgorithm;
  /** The catalog with its `signature` member last: `{header}..{signature}`. */
  sign<T extends object>(catalog: T): T & { signature: string };
}

/**
 * Prepares the catalog signer of a `sign` option (or `signAiCatalog` keys): the first key whose
 * algorithm the draft allows for catalogs (ES256, ES384, EdDSA, PS256, PS384, RS256). ES256 and
 * ES384 sign deterministically, so every replica serves the same catalog bytes.
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` naming the option when no key fits.
 */
export function prepareAiCatalogSigner(
  value: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions,
  where = 'signAiCatalog',
): AiCatalogSigner {
  const full = typeof value === 'object' && value !== null && !Array.isArray(value) && 'keys' in value;
  const keys = full ? (value as AgentCardSigningOptions).keys : value;
  const list: readonly SignAgentCardOptions[] = Array.isArray(keys) ? keys : [keys as SignAgentCardOptions];
  const chosen = list.findIndex((k) => AI_CATALOG_SIGNATURE_ALGORITHMS.includes(String(k?.alg)));
  if (chosen === -1)
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: no key uses an algorithm the AI Catalog draft allows for the catalog signature (${list.map((k) => showValue(k?.alg)).join(', ')}). Add a key signed with one of ${AI_CATALOG_SIGNATURE_ALGORITHMS.join(', ')}, or leave the catalog unsigned.`,
    );
  const key: PreparedKey = prepareKey(list[chosen]!, Array.isArray(keys) ? `${where}[${chosen}]` : where);
  const header = encodeBase64url(JSON.stringify(key.header));
  return {
    kid: key.header.kid,
    alg: key.header.alg,
    sign(catalog) {
      const payload = encodeBase64url(canonicalizeAiCatalog(catalog));
      const signature = key.signInput(Buffer.from(`${header}.${payload}`)).toString('base64url');
      const { signature: _old, ...rest } = catalog as Record<string, unknown>;
      return { ...rest, signature: `${header}..${signature}` } as typeof catalog & { signature: string };
    },
  };
}

/**
 * Signs an AI Catalog: returns a copy with `signature`, a detached JWS (compact serialization,
 * empty payload) over the RFC 8785 form of the catalog without `signature`, protected header
 * `{ alg, typ: "JOSE", kid[, jku] }`. Digests are not added here: the catalog's entries carry
 * them as given (the middleware adds one per agent it serves).
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a key no catalog may be signed with.
 * @example
 * const signed = signAiCatalog(catalog, { privateKey: readFileSync('card-key.pem', 'utf8'), alg: 'ES256' })
 * @see https://github.com/Agent-Card/ai-catalog/blob/0379c868c8811f93e168caaa06dd42517449f6ac/specification/ai-catalog.md#top-level-structure
 */
export function signAiCatalog<T extends object>(
  catalog: T,
  keys: SignAgentCardOptions | readonly SignAgentCardOptions[],
): T & { signature: string } {
  return prepareAiCatalogSigner(keys).sign(catalog);
}

/** Options of {@link verifyAiCatalog}: the key options of `verifyAgentCard`, and how digests are checked. */
export interface VerifyAiCatalogOptions extends Omit<VerifyAgentCardOptions, 'forms' | 'maxCheckTimeMs'> {
  /** The exact bytes of listed artifacts, by entry `url`, when the caller has them already. */
  artifacts?: Readonly<Record<string, Uint8Array | string>>;
  /**
   * Fetch entry URLs whose bytes `artifacts` does not give, to check their digests: https only
   * (http to a loopback host with `allowInsecureArtifactUrls`), no redirects, at most
   * `maxArtifactBytes` each, within `artifactTimeoutMs` for all of them.
   * @default true
   */
  fetchArtifacts?: boolean;
  /** @default 1048576 (1 MiB) */
  maxArtifactBytes?: number;
  /** @default 5000 */
  artifactTimeoutMs?: number;
  /** Lets artifact URLs use `http:` to 127.0.0.1, [::1] or localhost: for tests. @default false */
  allowInsecureArtifactUrls?: boolean;
}

/** The outcome for one entry's `digest`. */
export interface AiCatalogDigestCheck {
  /** Index in `entries`. */
  index: number;
  identifier?: string;
  url?: string;
  digest: string;
  valid: boolean;
  reason?: string;
}

/** What {@link verifyAiCatalog} returns. */
export interface VerifyAiCatalogResult {
  /** The signature verified with a trusted key and every entry digest matched its bytes. */
  valid: boolean;
  /** Why not, in one sentence. */
  reason?: string;
  signature: { valid: boolean; kid?: string; alg?: string; jku?: string; key?: string; reason?: string };
  /** One check per entry that carries a `digest` (at most {@link AI_CATALOG_VERIFY_LIMITS}.digests). */
  digests: AiCatalogDigestCheck[];
  /** Limits that cut the verification short. */
  limits?: string[];
}

/** The catalog as an object, read within the size and depth bounds, or why not. */
function readCatalog(input: unknown): Record<string, unknown> | string {
  let value = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
    if (size > AI_CATALOG_VERIFY_LIMITS.catalogBytes)
      return `the catalog is larger than ${AI_CATALOG_VERIFY_LIMITS.catalogBytes} bytes (${size})`;
    const read = readJsonText(input, { duplicates: 0, inexactNumbers: 0 });
    if (!read.ok) return 'the catalog is not JSON (or nests deeper than 64 levels)';
    if (read.duplicates.length > 0) return 'the catalog names a member twice, so readers disagree about what it says';
    value = read.value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the catalog is not a JSON object';
  return value as Record<string, unknown>;
}

/** Checks the catalog `signature` with a trusted key; fills `out`, and returns why it failed. */
async function checkSignature(
  catalog: Record<string, unknown>,
  resolved: ResolvedVerifyOptions,
  out: VerifyAiCatalogResult['signature'],
  limits: string[],
): Promise<string | undefined> {
  const jws = catalog.signature;
  if (jws === undefined) return 'the catalog has no signature';
  const parts = typeof jws === 'string' ? jws.split('.') : [];
  if (parts.length !== 3 || parts[1] !== '' || parts[0] === '' || parts[2] === '')
    return 'signature is not a detached JWS in compact form ("header..signature")';
  const header = decodeHeader({ protected: parts[0], signature: parts[2] });
  if (typeof header === 'string') return `malformed signature: ${header}`;
  if (typeof header.kid === 'string') out.kid = header.kid;
  if (typeof header.alg === 'string') out.alg = header.alg;
  if (typeof header.jku === 'string') out.jku = header.jku;
  const alg = header.alg;
  if (typeof alg !== 'string' || !AI_CATALOG_SIGNATURE_ALGORITHMS.includes(alg) || !resolved.algorithms.has(alg))
    return `alg ${showValue(alg)} is not allowed for a catalog signature (${AI_CATALOG_SIGNATURE_ALGORITHMS.filter((a) => resolved.algorithms.has(a)).join(', ')})`;
  if (typeof header.kid !== 'string' || header.kid === '')
    return 'the protected header has no "kid", so no trusted key can be chosen';
  let text: string;
  try {
    text = canonicalizeAiCatalog(catalog);
  } catch {
    return 'the catalog cannot be put in RFC 8785 form (a lone surrogate or a number JSON cannot carry)';
  }
  if (text.length > AI_CATALOG_VERIFY_LIMITS.catalogBytes)
    return `the catalog is larger than ${AI_CATALOG_VERIFY_LIMITS.catalogBytes} bytes`;
  const candidates = await new KeyFinder(resolved, limits).find(header.kid, header);
  if (typeof candidates === 'string') return candidates;
  const input = Buffer.from(`${parts[0]}.${encodeBase64url(text)}`);
  const signature = Buffer.from(decodeBase64url(parts[2]!));
  const reasons: string[] = [];
  for (const candidate of candidates) {
    if (candidate.alg !== undefined && candidate.alg !== alg) {
      reasons.push(`${candidate.name} is for alg "${candidate.alg}"`);
      continue;
    }
    const mismatch = keyMismatch(candidate.key, alg as AgentCardSigningAlgorithm);
    if (mismatch) {
      reasons.push(`${candidate.name}: ${mismatch}`);
      continue;
    }
    try {
      const { KeyObject, verify: nodeVerify } = nodeCrypto('verifyAiCatalog');
      const key =
        candidate.key instanceof KeyObject
          ? candidate.key
          : KeyObject.from(candidate.key as Parameters<typeof KeyObject.from>[0]);
      const digest = nodeDigest(alg as AgentCardSigningAlgorithm);
      if (nodeVerify(digest, input, nodeKeyOptions(alg as AgentCardSigningAlgorithm, key), signature)) {
        out.valid = true;
        out.key = candidate.name;
        return undefined;
      }
      reasons.push(
        `${candidate.name}: the signature does not match the catalog: it changed after signing, or another key signed it`,
      );
    } catch (error) {
      reasons.push(`${candidate.name}: ${(error as Error).message}`);
    }
  }
  return reasons.join('; ');
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Fetches one artifact's bytes within the bounds, or says why not. */
async function fetchArtifact(
  url: string,
  options: VerifyAiCatalogOptions,
  deadline: number,
): Promise<Uint8Array | string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url is not an absolute URL (${quoteUntrusted(url)})`;
  }
  const insecureOk =
    options.allowInsecureArtifactUrls === true && parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !insecureOk)
    return `url is not https (${quoteUntrusted(url)}); it was not fetched`;
  if (parsed.username || parsed.password) return 'url carries credentials; it was not fetched';
  const left = deadline - Date.now();
  if (left <= 0) return 'not fetched: the time for artifact requests is spent';
  const max = options.maxArtifactBytes ?? AI_CATALOG_VERIFY_LIMITS.artifactBytes;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), left);
  try {
    const response = await (options.fetch ?? globalThis.fetch)(parsed, {
      redirect: 'manual',
      signal: controller.signal,
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return `${parsed.href} answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (a redirect, not followed)' : ''}`;
    }
    const bytes = await readCapped(response.body, max);
    return bytes ?? `${parsed.href} is larger than ${max} bytes`;
  } catch (error) {
    return controller.signal.aborted
      ? `${parsed.href} did not answer in time`
      : `${parsed.href} could not be fetched (${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
  }
}

/** Checks each entry `digest` against the bytes it names (given, fetched, or the JCS form of `data`). */
async function checkDigests(catalog: Record<string, unknown>, options: VerifyAiCatalogOptions, limits: string[]) {
  const entries = Array.isArray(catalog.entries) ? catalog.entries : [];
  const checks: AiCatalogDigestCheck[] = [];
  const deadline = Date.now() + (options.artifactTimeoutMs ?? AI_CATALOG_VERIFY_LIMITS.timeoutMs);
  for (const [index, entry] of entries.entries()) {
    if (typeof entry !== 'object' || entry === null || !('digest' in entry)) continue;
    const e = entry as Record<string, unknown>;
    const check: AiCatalogDigestCheck = { index, digest: String(e.digest), valid: false };
    if (typeof e.identifier === 'string') check.identifier = e.identifier;
    if (typeof e.url === 'string') check.url = e.url;
    checks.push(check);
    if (checks.length > AI_CATALOG_VERIFY_LIMITS.digests) {
      check.reason = `not checked: at most ${AI_CATALOG_VERIFY_LIMITS.digests} digests are checked per catalog`;
      continue;
    }
    const m = typeof e.digest === 'string' ? /^(sha256|sha384|sha512):([0-9a-f]+)$/.exec(e.digest) : null;
    if (m === null) {
      check.reason = 'digest is not sha256:, sha384: or sha512: with lowercase hex';
      continue;
    }
    let bytes: Uint8Array | string | undefined;
    if ('data' in e) {
      try {
        bytes = canonicalizeAiCatalog({ data: e.data }).slice('{"data":'.length, -1);
      } catch {
        check.reason = 'data cannot be put in RFC 8785 form';
        continue;
      }
    } else if (check.url !== undefined) {
      const given = options.artifacts?.[check.url];
      if (given !== undefined) bytes = given;
      else if (options.fetchArtifacts === false)
        check.reason = 'not checked: its bytes were not given and fetching is off';
      else {
        const fetched = await fetchArtifact(check.url, options, deadline);
        if (typeof fetched === 'string') check.reason = fetched;
        else bytes = fetched;
      }
    } else check.reason = 'the entry has neither url nor data';
    if (bytes === undefined) continue;
    const actual = nodeCrypto('verifyAiCatalog').createHash(m[1]!).update(bytes).digest('hex');
    if (actual === m[2]) check.valid = true;
    else check.reason = `the bytes do not match the digest (they hash to ${m[1]}:${actual})`;
  }
  if (checks.length > AI_CATALOG_VERIFY_LIMITS.digests)
    limits.push(`only the first ${AI_CATALOG_VERIFY_LIMITS.digests} of ${checks.length} digests were checked`);
  return checks;
}

/**
 * Verifies a signed AI Catalog: its `signature` (a detached JWS over the RFC 8785 form of the
 * catalog without `signature`) against trusted keys, and every entry `digest` against the exact
 * bytes the entry points to. Never throws for anything in the catalog (it may be hostile); only
 * wrong options throw.
 *
 * Keys as {@link verifyAgentCard} takes them: from `keys`, `jwks` and `jwksUrl`, which the
 * caller chose; a `jku` in the header is fetched only when `allowJkuHosts` admits it, and never
 * trusted by itself. Algorithms: the draft's list (ES256, ES384, EdDSA, PS256, PS384, RS256),
 * narrowed by `algorithms`. Bounds: {@link AI_CATALOG_VERIFY_LIMITS}.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for options `verifyAgentCard` refuses too.
 * @example
 * const result = await verifyAiCatalog(text, { jwksUrl: 'https://acme.example/.well-known/jwks.json' })
 * if (!result.valid) console.error(result.reason)
 */
export async function verifyAiCatalog(
  catalog: unknown,
  options: VerifyAiCatalogOptions,
): Promise<VerifyAiCatalogResult> {
  let resolved: ResolvedVerifyOptions;
  try {
    resolved = resolveVerifyOptions({ ...options, forms: undefined });
  } catch (error) {
    if (!(error instanceof AgentCardError)) throw error;
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      error.message.replace(/^verifyAgentCard:/, 'verifyAiCatalog:'),
    );
  }
  const read = readCatalog(catalog);
  const signature: VerifyAiCatalogResult['signature'] = { valid: false };
  if (typeof read === 'string')
    return { valid: false, reason: read, signature: { valid: false, reason: read }, digests: [] };
  const limits: string[] = [];
  const failed = await checkSignature(read, resolved, signature, limits);
  if (failed !== undefined) signature.reason = failed;
  const digests = await checkDigests(read, options, limits);
  const mismatch = digests.find((d) => !d.valid);
  const reason = !signature.valid
    ? `the catalog signature did not verify: ${signature.reason}`
    : mismatch !== undefined
      ? `entries[${mismatch.index}] digest did not verify: ${mismatch.reason}`
      : undefined;
  return {
    valid: reason === undefined,
    ...(reason === undefined ? {} : { reason }),
    signature,
    digests,
    ...(limits.length > 0 ? { limits } : {}),
  };
}
