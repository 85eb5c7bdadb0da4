// The AI Catalog's own signature (current draft §"Top-Level Structure", `signature`): a detached
// JWS over the RFC 8785 form of the catalog without `signature`, and the SHA-256 digests that
// bind each entry to the exact bytes it points to (ADR-0032 `digest`). Signing happens once, when
// the catalog is built; verification follows verifyAgentCard's key policy.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { nodeCrypto } from './node-crypto';
import canonicalize from 'canonicalize';
import { AI_CATALOG_SIGNATURE_ALGORITHMS } from '../catalog/format';
import { AgentCardError } from '../errors';
import { readJsonText } from '../json/read';
import { quoteUntrusted, showValue } from '../util';
import type { AgentCardSigningAlgorithm } from './algorithms';
import { decodeBase64url, encodeBase64url } from './base64url';
import {
  AI_CATALOG_JWS_TYP,
  type BoundedFetcher,
  boundedFetch,
  coverageProblem,
  DID_WEB_PROFILE,
  type DidWebContext,
  DidWebResolver,
  rootDidWebProblem,
  signaturePayload,
  TRUST_MANIFEST_JWS_TYP,
  verifyDidWebSignature,
} from './catalog-did-web';
import { jcs } from './jcs';
import { keyMismatch } from './keys';
import { nodeDigest, nodeKeyOptions, type PreparedKey, prepareKey, type SignAgentCardOptions } from './sign';
import type { AgentCardSigningOptions } from './signing-options';
import { type AgentCardPublicJwk, jwkThumbprint } from './thumbprint';
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

/** Options of {@link signAiCatalogDidWeb}. */
export interface SignAiCatalogDidWebOptions {
  /** The root `did:web` DID that signs, e.g. `did:web:agents.example.com`; also the catalog's `host.identifier`. */
  signer: string;
  /** @default now */
  issuedAt?: Date | string;
  /** When the signature stops being acceptable. @default none */
  expiresAt?: Date | string;
}

/** Signs catalogs (and Trust Manifests) in the Signature object form, with one ES256 key. */
export interface AiCatalogDidWebSigner {
  readonly signer: string;
  /** `{signer}#{fragment}`: the verification method the DID document lists under `assertionMethod`. */
  readonly kid: string;
  /** The public JWK published in the DID document. */
  readonly publicJwk: AgentCardPublicJwk;
  /** The catalog with `host.identifier` set to the signer and its Signature object last. */
  sign<T extends object>(
    catalog: T,
    at?: Pick<SignAiCatalogDidWebOptions, 'issuedAt' | 'expiresAt'>,
  ): T & {
    signature: AiCatalogSignatureObject;
  };
  /** A Trust Manifest for `entry` by the signer: `contributor`, a `subject` copied from the entry, and a signature. */
  signManifest(
    entry: Readonly<Record<string, unknown>>,
    manifest?: Readonly<Record<string, unknown>>,
    at?: Pick<SignAiCatalogDidWebOptions, 'issuedAt' | 'expiresAt'>,
  ): Record<string, unknown>;
}

/** The AI Catalog's Signature object. */
export interface AiCatalogSignatureObject {
  signer: string;
  profile: typeof DID_WEB_PROFILE;
  issuedAt: string;
  expiresAt?: string;
  jws: string;
}

function timestamp(value: Date | string, where: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: ${showValue(value)} is not a date. Pass a Date or an RFC 3339 date-time.`,
    );
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A `kid` fragment: the key's own id when it is one, its thumbprint otherwise. */
function fragmentOf(kid: string, thumbprint: string): string {
  return /^[A-Za-z0-9._~-]+$/.test(kid) ? kid : thumbprint;
}

/**
 * Prepares the Signature object signer of `did-web-v1`: the first ES256 key of `keys`, whose
 * `kid` becomes `{signer}#{key kid}` (the key's thumbprint when its kid is not a plain fragment).
 * ES256 signs deterministically here, so replicas serve the same bytes.
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a signer that is not a root did:web DID or no ES256 key.
 */
export function prepareAiCatalogDidWebSigner(
  value: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions,
  options: SignAiCatalogDidWebOptions,
  where = 'signAiCatalogDidWeb',
): AiCatalogDidWebSigner {
  const problem = rootDidWebProblem(options?.signer);
  if (problem !== undefined)
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: ${problem}. Name the domain that serves /.well-known/did.json, e.g. "did:web:agents.example.com".`,
    );
  const signer = options.signer;
  const full = typeof value === 'object' && value !== null && !Array.isArray(value) && 'keys' in value;
  const keys = full ? (value as AgentCardSigningOptions).keys : value;
  const list: readonly SignAgentCardOptions[] = Array.isArray(keys) ? keys : [keys as SignAgentCardOptions];
  const chosen = list.findIndex((k) => k?.alg === 'ES256');
  if (chosen === -1)
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: the did:web profile of the AI Catalog signs with ES256 only, and no key uses it (${list.map((k) => showValue(k?.alg)).join(', ')}). Add a P-256 key with alg "ES256" (agent-card keys generate).`,
    );
  const key: PreparedKey = prepareKey(list[chosen]!, Array.isArray(keys) ? `${where}[${chosen}]` : where);
  const thumbprint = jwkThumbprint(key.publicJwk);
  const kid = `${signer}#${fragmentOf(key.header.kid, thumbprint)}`;
  const publicJwk = { ...key.publicJwk, kid, alg: 'ES256' as const, use: 'sig' as const };
  const stamp = (at?: Pick<SignAiCatalogDidWebOptions, 'issuedAt' | 'expiresAt'>) => {
    const issuedAt = timestamp(at?.issuedAt ?? options.issuedAt ?? new Date(), `${where}: issuedAt`);
    const until = at?.expiresAt ?? options.expiresAt;
    const meta: Omit<AiCatalogSignatureObject, 'jws'> = { signer, profile: DID_WEB_PROFILE, issuedAt };
    if (until !== undefined) meta.expiresAt = timestamp(until, `${where}: expiresAt`);
    return meta;
  };
  const signObject = (
    container: Record<string, unknown>,
    typ: string,
    meta: Omit<AiCatalogSignatureObject, 'jws'>,
  ): AiCatalogSignatureObject => {
    const header = encodeBase64url(JSON.stringify({ alg: 'ES256', kid, typ }));
    const { signature: _old, additionalSignatures: _reserved, ...rest } = container;
    const payload = encodeBase64url(signaturePayload({ ...rest, signature: meta }));
    const sig = key.signInput(Buffer.from(`${header}.${payload}`)).toString('base64url');
    return { ...meta, jws: `${header}..${sig}` };
  };
  return {
    signer,
    kid,
    publicJwk,
    sign(catalog, at) {
      const c = catalog as Record<string, unknown>;
      const host = (typeof c.host === 'object' && c.host !== null ? c.host : {}) as Record<string, unknown>;
      if (host.identifier !== undefined && host.identifier !== signer)
        throw new AgentCardError(
          'ERR_AGENT_CARD_SIGNATURE',
          `${where}: host.identifier is ${showValue(host.identifier)}, but the did:web catalog profile requires it to be the signer (${signer}). Leave host.identifier out (it is set to the signer) or sign as that DID.`,
        );
      const { signature: _old, ...rest } = c;
      const unsigned = {
        ...rest,
        host: { displayName: host.displayName ?? signer.slice('did:web:'.length), ...host, identifier: signer },
      };
      const signature = signObject(unsigned, AI_CATALOG_JWS_TYP, stamp(at));
      return { ...unsigned, signature } as unknown as typeof catalog & { signature: AiCatalogSignatureObject };
    },
    signManifest(entry, manifest = {}, at) {
      const subject: Record<string, unknown> = { identifier: entry.identifier, type: entry.type };
      if (entry.digest !== undefined) subject.digest = entry.digest;
      if (typeof entry.url === 'string' && entry.url.startsWith('https://')) subject.url = entry.url;
      if (entry.version !== undefined) subject.version = entry.version;
      if (subject.digest === undefined && subject.url === undefined)
        throw new AgentCardError(
          'ERR_AGENT_CARD_SIGNATURE',
          `${where}: entry ${showValue(entry.identifier)} has neither a digest nor an https url, so a Trust Manifest cannot bind its release. Give the entry a digest.`,
        );
      const { signature: _old, ...rest } = manifest as Record<string, unknown>;
      const unsigned = { ...rest, contributor: signer, subject };
      return { ...unsigned, signature: signObject(unsigned, TRUST_MANIFEST_JWS_TYP, stamp(at)) };
    },
  };
}

/**
 * Signs an AI Catalog in the current specification's form: a Signature object `{ signer,
 * profile: "did-web-v1", issuedAt[, expiresAt], jws }` whose `jws` is a detached ES256 JWS
 * (`typ: "ai-catalog+jws"`, `kid: "{signer}#{fragment}"`) over the RFC 8785 form of the catalog
 * without `signature.jws` and `additionalSignatures`. `host.identifier` is set to the signer (the
 * did:web catalog profile). Publish the key in the signer's DID document ({@link aiCatalogDidDocument}).
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for a signer that is not a root did:web DID or no ES256 key.
 * @example
 * const signed = signAiCatalogDidWeb(catalog, { privateKey, alg: 'ES256', kid: 'catalog' }, { signer: 'did:web:agents.example.com' })
 */
export function signAiCatalogDidWeb<T extends object>(
  catalog: T,
  keys: SignAgentCardOptions | readonly SignAgentCardOptions[],
  options: SignAiCatalogDidWebOptions,
): T & { signature: AiCatalogSignatureObject } {
  return prepareAiCatalogDidWebSigner(keys, options).sign(catalog);
}

/**
 * The DID document `did:web` resolves to for `signers`: each key a `JsonWebKey2020`
 * verification method controlled by the DID and listed under `assertionMethod` (and only
 * there), with its public JWK. Serve it at `https://{domain}/.well-known/did.json`.
 */
export function aiCatalogDidDocument(signers: readonly Pick<AiCatalogDidWebSigner, 'signer' | 'kid' | 'publicJwk'>[]) {
  const did = signers[0]?.signer;
  if (did === undefined || signers.some((s) => s.signer !== did))
    throw new AgentCardError('ERR_AGENT_CARD_SIGNATURE', 'aiCatalogDidDocument: pass the signers of one DID.');
  const methods = signers.map((s) => {
    const { kid: _kid, ...jwk } = s.publicJwk;
    return { id: s.kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk };
  });
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}

/** Options of {@link verifyAiCatalog}: the key options of `verifyAgentCard`, and how digests are checked. */
export interface VerifyAiCatalogOptions
  extends Omit<VerifyAgentCardOptions, 'forms' | 'maxCheckTimeMs' | 'keys'>,
    Partial<Pick<VerifyAgentCardOptions, 'keys'>> {
  /** The exact bytes of listed artifacts, by entry `url`, when the caller has them already. */
  artifacts?: Readonly<Record<string, Uint8Array | string>>;
  /**
   * Fetch entry URLs whose bytes `artifacts` does not give, to check their digests, once the
   * catalog signature verified: https only (http to a loopback host with
   * `allowInsecureArtifactUrls`), no redirects, at most `maxArtifactBytes` each, within
   * `artifactTimeoutMs` for all of them, to public addresses only (`allowPrivateTargets`).
   * @default true
   */
  fetchArtifacts?: boolean;
  /** @default 1048576 (1 MiB) */
  maxArtifactBytes?: number;
  /** @default 5000 */
  artifactTimeoutMs?: number;
  /** Lets artifact URLs use `http:` to 127.0.0.1, [::1] or localhost: for tests. @default false */
  allowInsecureArtifactUrls?: boolean;
  /**
   * The URL the catalog was read from. With it, only entries at the catalog's own origin are
   * fetched (`followArtifacts: 'any'` fetches other origins too).
   */
  catalogUrl?: string;
  /**
   * Which entry URLs are fetched: `'same-origin'` (the catalog's origin, the default when
   * `catalogUrl` is given) or `'any'` (every https origin; the default for a catalog read from
   * a file, which has no origin).
   */
  followArtifacts?: 'same-origin' | 'any';
  /** Lets requests (artifacts, DID documents) reach loopback, private and link-local addresses. @default false */
  allowPrivateTargets?: boolean;
  /** DID documents by DID, used instead of resolving them over https (tests, offline checks). */
  didDocuments?: Readonly<Record<string, unknown>>;
  /** The verification instant for `issuedAt` and `expiresAt`. @default now */
  now?: Date;
  /** Clock skew tolerated on `issuedAt` and `expiresAt`. @default 60000 (one minute) */
  clockSkewMs?: number;
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

/** The outcome for one signed Trust Manifest. */
export interface AiCatalogManifestCheck {
  /** Index in `entries`. */
  entry: number;
  /** Index in that entry's `trustManifests`. */
  index: number;
  contributor?: string;
  signer?: string;
  kid?: string;
  valid: boolean;
  /** The signer is the publisher `urn:air:{publisher}` names (the did:web publisher profile). */
  publisher?: boolean;
  reason?: string;
}

/** What {@link verifyAiCatalog} returns. */
export interface VerifyAiCatalogResult {
  /** The signature verified with a trusted key, every signed Trust Manifest verified and every entry digest matched its bytes. */
  valid: boolean;
  /** Why not, in one sentence. */
  reason?: string;
  signature: {
    valid: boolean;
    /** `signature-object` (the current specification) or `detached-jws` (the earlier draft's string). */
    form?: 'signature-object' | 'detached-jws';
    signer?: string;
    profile?: string;
    issuedAt?: string;
    expiresAt?: string;
    kid?: string;
    alg?: string;
    jku?: string;
    key?: string;
    reason?: string;
  };
  /** One check per entry that carries a `digest` (at most {@link AI_CATALOG_VERIFY_LIMITS}.digests), made once the signature verified. */
  digests: AiCatalogDigestCheck[];
  /** One check per signed Trust Manifest, made once the catalog signature verified. */
  manifests: AiCatalogManifestCheck[];
  /** What the catalog should change although it verified (the earlier signature form). */
  notes?: string[];
  /** Limits that cut the verification short. */
  limits?: string[];
}

/** The note a catalog signed in the earlier form gets. */
export const AI_CATALOG_PREVIOUS_SIGNATURE_NOTE =
  'signature is a detached JWS string, the form of an earlier AI Catalog draft; the current specification carries a Signature object { signer, profile: "did-web-v1", issuedAt, jws } verified through the signer\'s did:web DID document';

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

/** Where digests may be fetched from, and how. */
interface ArtifactPolicy {
  options: VerifyAiCatalogOptions;
  via: BoundedFetcher;
  /** The only origin fetched, when the catalog has one and `followArtifacts` is not `'any'`. */
  origin?: string;
}

/** Checks each entry `digest` against the bytes it names (given, fetched, or the JCS form of `data`). */
async function checkDigests(catalog: Record<string, unknown>, policy: ArtifactPolicy, limits: string[]) {
  const { options } = policy;
  const entries = Array.isArray(catalog.entries) ? catalog.entries : [];
  const checks: AiCatalogDigestCheck[] = [];
  const max = options.maxArtifactBytes ?? AI_CATALOG_VERIFY_LIMITS.artifactBytes;
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
        bytes = jcs(e.data);
      } catch {
        check.reason = 'data cannot be put in RFC 8785 form';
        continue;
      }
    } else if (check.url !== undefined) {
      const given = options.artifacts?.[check.url];
      if (given !== undefined) bytes = given;
      else if (options.fetchArtifacts === false)
        check.reason = 'not checked: its bytes were not given and fetching is off';
      else if (policy.origin !== undefined && originOf(check.url) !== policy.origin)
        check.reason = `not fetched: ${quoteUntrusted(check.url)} is not at the catalog's origin (${policy.origin}); fetch other origins with followArtifacts: 'any' (--follow-artifacts any)`;
      else {
        const fetched = await boundedFetch(check.url, max, policy.via, 'url');
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

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Signed Trust Manifests checked per catalog. */
const MANIFEST_LIMIT = 100;

/** Checks every signed Trust Manifest: its did-web-v1 signature, contributor, and release coverage. */
async function checkManifests(catalog: Record<string, unknown>, context: DidWebContext, limits: string[]) {
  const checks: AiCatalogManifestCheck[] = [];
  const entries = Array.isArray(catalog.entries) ? catalog.entries : [];
  let seen = 0;
  for (const [entryIndex, entry] of entries.entries()) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    if (!Array.isArray(e.trustManifests)) continue;
    for (const [index, manifest] of e.trustManifests.entries()) {
      if (typeof manifest !== 'object' || manifest === null || !('signature' in manifest)) continue;
      seen += 1;
      if (seen > MANIFEST_LIMIT) continue;
      const m = manifest as Record<string, unknown>;
      const check: AiCatalogManifestCheck = { entry: entryIndex, index, valid: false };
      if (typeof m.contributor === 'string') check.contributor = m.contributor;
      checks.push(check);
      const signed = await verifyDidWebSignature(m, TRUST_MANIFEST_JWS_TYP, context);
      if (signed.signer !== undefined) check.signer = signed.signer;
      if (signed.kid !== undefined) check.kid = signed.kid;
      if (!signed.valid) {
        check.reason = signed.reason ?? 'did not verify';
        continue;
      }
      if (m.contributor !== signed.signer) {
        check.reason = `contributor ${showValue(m.contributor)} is not the signer (${signed.signer})`;
        continue;
      }
      const coverage = coverageProblem(e, m);
      if (coverage !== undefined) {
        check.reason = coverage;
        continue;
      }
      check.valid = true;
      const publisher = typeof e.identifier === 'string' ? /^urn:air:([^:]+):/.exec(e.identifier)?.[1] : undefined;
      check.publisher = publisher !== undefined && signed.signer === `did:web:${publisher}`;
    }
  }
  if (seen > MANIFEST_LIMIT)
    limits.push(`only the first ${MANIFEST_LIMIT} of ${seen} signed Trust Manifests were checked`);
  return checks;
}

function hasKeySource(options: VerifyAiCatalogOptions): boolean {
  return (
    options.keys !== undefined ||
    options.jwks !== undefined ||
    options.jwksUrl !== undefined ||
    options.allowJkuHosts !== undefined
  );
}

/**
 * Verifies a signed AI Catalog. Never throws for anything in the catalog (it may be hostile);
 * only wrong options throw.
 *
 * - The current form, a Signature object under `did-web-v1`: the root signature through the
 *   signer's `did:web` DID document (resolved over https within the bounds, or from
 *   `didDocuments`), `typ: "ai-catalog+jws"`, ES256 only, `kid` under the signer, no key named
 *   by the header, `host.identifier` equal to the signer; then every signed Trust Manifest
 *   (its signature, `contributor`, and the subject binding its entry's release).
 * - The earlier form, a detached JWS string: against the keys the caller trusts (`keys`, `jwks`,
 *   `jwksUrl`, `allowJkuHosts`), as {@link verifyAgentCard} takes them, with a note naming the
 *   current form.
 *
 * Entry digests are compared with the exact bytes only once the signature verified, and entry
 * URLs are fetched only at the catalog's own origin when `catalogUrl` is given, never at a
 * loopback, private or link-local address unless `allowPrivateTargets`: without a `fetch`
 * option, each request's connection goes to the addresses its own lookup checked, so a name
 * that resolves to a public address for a check and to 127.0.0.1 a moment later gets no
 * connection (DNS rebinding). Bounds: {@link AI_CATALOG_VERIFY_LIMITS}.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` for options `verifyAgentCard` refuses too.
 * @example
 * const result = await verifyAiCatalog(text, { catalogUrl: 'https://acme.example/.well-known/ai-catalog.json' })
 * if (!result.valid) console.error(result.reason)
 */
export async function verifyAiCatalog(
  catalog: unknown,
  options: VerifyAiCatalogOptions = {},
): Promise<VerifyAiCatalogResult> {
  const read = readCatalog(catalog);
  const objectForm = typeof read !== 'string' && typeof read.signature === 'object' && read.signature !== null;
  let resolved: ResolvedVerifyOptions | undefined;
  if (!objectForm || hasKeySource(options)) {
    try {
      resolved = resolveVerifyOptions({ ...options, forms: undefined } as VerifyAgentCardOptions);
    } catch (error) {
      if (!(error instanceof AgentCardError)) throw error;
      throw new AgentCardError(
        'ERR_AGENT_CARD_SIGNATURE',
        error.message.replace(/^verifyAgentCard:/, 'verifyAiCatalog:'),
      );
    }
  }
  const signature: VerifyAiCatalogResult['signature'] = { valid: false };
  if (typeof read === 'string')
    return { valid: false, reason: read, signature: { valid: false, reason: read }, digests: [], manifests: [] };
  const limits: string[] = [];
  const notes: string[] = [];
  const via: BoundedFetcher = {
    fetch: options.fetch,
    deadline: Date.now() + (options.artifactTimeoutMs ?? AI_CATALOG_VERIFY_LIMITS.timeoutMs),
    allowPrivateTargets: options.allowPrivateTargets === true,
    allowInsecureLoopback: options.allowInsecureArtifactUrls === true,
  };
  const context: DidWebContext = {
    resolver: new DidWebResolver(via, options.didDocuments),
    now: (options.now ?? new Date()).getTime(),
    skewMs: options.clockSkewMs ?? 60_000,
  };
  if (objectForm) {
    signature.form = 'signature-object';
    const checked = await verifyDidWebSignature(read, AI_CATALOG_JWS_TYP, context);
    const { valid, reason, ...about } = checked;
    Object.assign(signature, about);
    const host = read.host as Record<string, unknown> | undefined;
    if (!valid) signature.reason = reason ?? 'did not verify';
    else if (host?.identifier !== checked.signer)
      signature.reason = `host.identifier (${showValue(host?.identifier)}) is not the signer (${checked.signer}), so the signature does not speak for the catalog's operator (did:web catalog profile)`;
    else {
      signature.valid = true;
      signature.key = checked.kid;
    }
  } else if (read.signature === undefined) {
    signature.reason = 'the catalog has no signature';
  } else {
    signature.form = 'detached-jws';
    const failed = await checkSignature(read, resolved!, signature, limits);
    if (failed !== undefined) signature.reason = failed;
    notes.push(AI_CATALOG_PREVIOUS_SIGNATURE_NOTE);
  }
  let digests: AiCatalogDigestCheck[] = [];
  let manifests: AiCatalogManifestCheck[] = [];
  if (signature.valid) {
    manifests = await checkManifests(read, context, limits);
    const follow = options.followArtifacts ?? (options.catalogUrl === undefined ? 'any' : 'same-origin');
    const origin =
      follow === 'same-origin' && options.catalogUrl !== undefined ? originOf(options.catalogUrl) : undefined;
    const policy: ArtifactPolicy = { options, via };
    if (follow === 'same-origin') policy.origin = origin ?? 'null';
    digests = await checkDigests(read, policy, limits);
  }
  const mismatch = digests.find((d) => !d.valid);
  const badManifest = manifests.find((m) => !m.valid);
  const reason = !signature.valid
    ? `the catalog signature did not verify: ${signature.reason}`
    : badManifest !== undefined
      ? `entries[${badManifest.entry}].trustManifests[${badManifest.index}] did not verify: ${badManifest.reason}`
      : mismatch !== undefined
        ? `entries[${mismatch.index}] digest did not verify: ${mismatch.reason}`
        : undefined;
  return {
    valid: reason === undefined,
    ...(reason === undefined ? {} : { reason }),
    signature,
    digests,
    manifests,
    ...(notes.length > 0 ? { notes } : {}),
    ...(limits.length > 0 ? { limits } : {}),
  };
}
