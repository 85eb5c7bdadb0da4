// The AI Catalog's Signature object and its `did:web` Signer Profile (`did-web-v1`), as the
// specification's "Signature Object", "The did:web Signer Profile", "The did:web Catalog
// Profile" and "Entry Release Coverage" sections define them: a detached compact JWS, ES256
// only, over the RFC 8785 form of the containing object without its own `signature.jws` and
// `additionalSignatures`; the key is the P-256 `publicKeyJwk` of a verification method the
// signer's DID document lists under `assertionMethod`, looked up at verification time.
import ipaddr from 'ipaddr.js';
import { readCapped } from '../bytes';
import { readJsonText } from '../json/read';
import { quoteUntrusted, showValue } from '../util';
import { decodeBase64url, encodeBase64url } from './base64url';
import { nonPublicRefusal, nonPublicTarget } from './fetch-target';
import { jcs } from './jcs';
import { nodeCrypto } from './node-crypto';
import { type FetchedBody, publicOnlyGet } from './pinned-get';
import { decodeHeader } from './verify-header';

/** The one signer profile this package implements. */
export const DID_WEB_PROFILE = 'did-web-v1';
/** Protected `typ` of a catalog root signature. */
export const AI_CATALOG_JWS_TYP = 'ai-catalog+jws';
/** Protected `typ` of a Trust Manifest signature. */
export const TRUST_MANIFEST_JWS_TYP = 'ai-catalog-trust-manifest+jws';

/** Header parameters that name a key source; the profile takes keys only from the DID document. */
const KEY_SOURCE_HEADERS = ['jku', 'jwk', 'x5u', 'x5c'] as const;

/** A root `did:web` DID: lowercase ASCII labels, no port, path, IP address or trailing dot. */
const ROOT_DID_WEB = /^did:web:([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/;

/** Why `did` is not a root `did:web` DID the profile accepts, or `undefined`. */
export function rootDidWebProblem(did: unknown): string | undefined {
  if (typeof did !== 'string') return `signer is not a string (${showValue(did)})`;
  const m = ROOT_DID_WEB.exec(did);
  if (m === null)
    return `signer ${quoteUntrusted(did)} is not a root did:web DID (did:web:<lowercase domain>, no port, path or trailing dot)`;
  if (ipaddr.isValid(m[1]!)) return `signer ${quoteUntrusted(did)} names an IP address, which did:web does not allow`;
  return undefined;
}

/**
 * The https URL of a `did:web` DID's document (the did:web method, §3.2): `did:web:host` →
 * `https://host/.well-known/did.json`, `did:web:host:a:b` → `https://host/a/b/did.json`, with
 * `%3A` in the host read as the port separator.
 */
export function didWebDocumentUrl(did: string): string | undefined {
  if (!did.startsWith('did:web:')) return undefined;
  const parts = did.slice('did:web:'.length).split(':');
  if (parts.some((p) => p === '')) return undefined;
  let host: string;
  let path: string[];
  try {
    host = decodeURIComponent(parts[0]!);
    path = parts.slice(1).map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
  if (/[/?#@\s]/.test(host) || path.some((p) => /[/?#\s]/.test(p) || p === '.' || p === '..')) return undefined;
  try {
    const url = new URL(`https://${host}/${path.length === 0 ? '.well-known' : path.join('/')}/did.json`);
    return url.href;
  } catch {
    return undefined;
  }
}

/** How a verification reaches the network: one deadline, the same bounds for every request. */
export interface BoundedFetcher {
  /**
   * The caller's `fetch`, which makes its own connections: a target is checked before it is
   * called, not when it connects. Without it, a request to a checked target goes out on a
   * connection of its own whose resolved addresses are the ones checked (`node:https`), or
   * through the runtime's `fetch` where there is no `node:https`.
   */
  fetch?: typeof globalThis.fetch;
  /** Epoch milliseconds after which nothing more is fetched. */
  deadline: number;
  /** Whether loopback, private and link-local targets may be reached. */
  allowPrivateTargets: boolean;
  /** Whether `http:` may be used to 127.0.0.1, [::1] or localhost. */
  allowInsecureLoopback: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Fetches `url` within the bounds (https only, no redirects, at most `maxBytes`, before the
 * deadline, to a public address unless allowed), or says why not.
 */
export async function boundedFetch(
  url: string,
  maxBytes: number,
  via: BoundedFetcher,
  what: string,
): Promise<Uint8Array | string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${what} is not an absolute URL (${quoteUntrusted(url)})`;
  }
  const insecureOk = via.allowInsecureLoopback && parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !insecureOk)
    return `${what} is not https (${quoteUntrusted(url)}); it was not fetched`;
  if (parsed.username || parsed.password) return `${what} carries credentials; it was not fetched`;
  const publicOnly = !via.allowPrivateTargets && !insecureOk;
  if (publicOnly) {
    const problem = await nonPublicTarget(parsed);
    if (problem !== undefined) return `${quoteUntrusted(parsed.href)} was not fetched: ${problem}`;
  }
  const left = via.deadline - Date.now();
  if (left <= 0) return `${what} not fetched: the time for requests is spent`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), left);
  try {
    const response = await send(parsed, via, publicOnly, controller.signal);
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return `${parsed.href} answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (a redirect, not followed)' : ''}`;
    }
    const bytes = await readCapped(response.body, maxBytes);
    return bytes ?? `${parsed.href} is larger than ${maxBytes} bytes`;
  } catch (error) {
    const refused = nonPublicRefusal(error);
    if (refused !== undefined)
      return `${quoteUntrusted(parsed.href)} was not fetched: ${parsed.host} resolves to ${refused}`;
    return controller.signal.aborted
      ? `${parsed.href} did not answer in time`
      : `${parsed.href} could not be fetched (${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One GET, no redirect followed: through the caller's `fetch` when given; else, to a target that
 * must be public, on a connection that checks the addresses it connects to (#37).
 */
function send(url: URL, via: BoundedFetcher, publicOnly: boolean, signal: AbortSignal): Promise<FetchedBody> {
  if (via.fetch !== undefined) return via.fetch(url, { redirect: 'manual', signal });
  return (publicOnly ? publicOnlyGet(url, signal) : undefined) ?? globalThis.fetch(url, { redirect: 'manual', signal });
}

/** Largest DID document read. */
export const DID_DOCUMENT_MAX_BYTES = 64 * 1024;

/** Resolves DID documents once per verification. */
export class DidWebResolver {
  readonly #cache = new Map<string, Promise<Record<string, unknown> | string>>();
  constructor(
    private readonly via: BoundedFetcher,
    private readonly given: Readonly<Record<string, unknown>> = {},
  ) {}

  /** The DID document of `did` (its `id` checked), or why it cannot be had. */
  resolve(did: string): Promise<Record<string, unknown> | string> {
    let found = this.#cache.get(did);
    if (found === undefined) {
      found = this.#load(did);
      this.#cache.set(did, found);
    }
    return found;
  }

  async #load(did: string): Promise<Record<string, unknown> | string> {
    let value: unknown;
    if (Object.hasOwn(this.given, did)) value = this.given[did];
    else {
      const url = didWebDocumentUrl(did);
      if (url === undefined) return `${quoteUntrusted(did)} has no did:web document URL`;
      const bytes = await boundedFetch(url, DID_DOCUMENT_MAX_BYTES, this.via, 'the DID document URL');
      if (typeof bytes === 'string') return `the DID document of ${did} could not be read: ${bytes}`;
      const read = readJsonText(bytes, { duplicates: 0, inexactNumbers: 0 });
      if (!read.ok) return `the DID document at ${url} is not JSON`;
      if (read.duplicates.length > 0) return `the DID document at ${url} names a member twice`;
      value = read.value;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return `the DID document of ${did} is not a JSON object`;
    const doc = value as Record<string, unknown>;
    if (doc.id !== did) return `the DID document's id (${showValue(doc.id)}) is not ${did}`;
    return doc;
  }
}

/** The P-256 key `kid` names under the DID document's `assertionMethod`, or why there is none. */
export function assertionKey(
  doc: Record<string, unknown>,
  signer: string,
  kid: string,
): { kty: 'EC'; crv: 'P-256'; x: string; y: string } | string {
  const absolute = (ref: string) => (ref.startsWith('#') ? `${signer}${ref}` : ref);
  const methods = new Map<string, Record<string, unknown>>();
  for (const vm of Array.isArray(doc.verificationMethod) ? doc.verificationMethod : []) {
    if (typeof vm === 'object' && vm !== null && typeof (vm as { id?: unknown }).id === 'string')
      methods.set(absolute((vm as { id: string }).id), vm as Record<string, unknown>);
  }
  const authorized: Record<string, unknown>[] = [];
  for (const item of Array.isArray(doc.assertionMethod) ? doc.assertionMethod : []) {
    if (typeof item === 'string') {
      const vm = methods.get(absolute(item));
      if (vm !== undefined) authorized.push(vm);
    } else if (typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string')
      authorized.push(item as Record<string, unknown>);
  }
  const selected = authorized.filter((vm) => absolute(vm.id as string) === kid);
  if (selected.length !== 1)
    return selected.length === 0
      ? `${kid} is not a key of the DID document's assertionMethod (removed, or listed for another purpose)`
      : `${kid} names more than one assertionMethod key`;
  const vm = selected[0]!;
  if (vm.controller !== signer) return `${kid} is controlled by ${showValue(vm.controller)}, not ${signer}`;
  const jwk = vm.publicKeyJwk as Record<string, unknown> | undefined;
  if (typeof jwk !== 'object' || jwk === null || jwk.kty !== 'EC' || jwk.crv !== 'P-256')
    return `${kid} has no P-256 publicKeyJwk`;
  if ('d' in jwk) return `${kid}: the publicKeyJwk carries private key material`;
  if ((jwk.alg ?? 'ES256') !== 'ES256' || (jwk.use ?? 'sig') !== 'sig')
    return `${kid}: the publicKeyJwk is for alg ${showValue(jwk.alg)} / use ${showValue(jwk.use)}, not ES256 / sig`;
  if ('key_ops' in jwk && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify')))
    return `${kid}: the publicKeyJwk's key_ops do not allow verify`;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return `${kid}: the publicKeyJwk has no x and y`;
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/** The signed payload: the object without its own `signature.jws` and `additionalSignatures`. */
export function signaturePayload(container: Record<string, unknown>): string {
  const { additionalSignatures: _reserved, ...rest } = container;
  const signature = rest.signature;
  if (typeof signature === 'object' && signature !== null && !Array.isArray(signature)) {
    const { jws: _jws, ...meta } = signature as Record<string, unknown>;
    rest.signature = meta;
  }
  return jcs(rest);
}

/** RFC 3339 date-time with an offset, as an instant, or `undefined`. */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** What one did-web-v1 signature check found. */
export interface DidWebSignatureCheck {
  valid: boolean;
  reason?: string;
  signer?: string;
  profile?: string;
  kid?: string;
  alg?: string;
  issuedAt?: string;
  expiresAt?: string;
}

/** Context of {@link verifyDidWebSignature}. */
export interface DidWebContext {
  resolver: DidWebResolver;
  /** The verification instant, epoch milliseconds. */
  now: number;
  /** Clock skew tolerated on `issuedAt` and `expiresAt`, in milliseconds. */
  skewMs: number;
}

/**
 * Verifies the Signature object of `container` (a catalog or a Trust Manifest) under
 * `did-web-v1`, with the protected `typ` the container's kind requires.
 */
export async function verifyDidWebSignature(
  container: Record<string, unknown>,
  typ: typeof AI_CATALOG_JWS_TYP | typeof TRUST_MANIFEST_JWS_TYP,
  context: DidWebContext,
): Promise<DidWebSignatureCheck> {
  const out: DidWebSignatureCheck = { valid: false };
  const fail = (reason: string) => Object.assign(out, { reason });
  const signature = container.signature;
  if (typeof signature !== 'object' || signature === null || Array.isArray(signature))
    return fail('signature is not a Signature object');
  const s = signature as Record<string, unknown>;
  for (const member of ['signer', 'profile', 'issuedAt', 'jws'] as const) {
    if (typeof s[member] !== 'string' || s[member] === '') return fail(`signature.${member} is missing or empty`);
  }
  const signer = s.signer as string;
  out.signer = signer;
  out.profile = s.profile as string;
  out.issuedAt = s.issuedAt as string;
  if (typeof s.expiresAt === 'string') out.expiresAt = s.expiresAt;
  if (s.profile !== DID_WEB_PROFILE)
    return fail(
      `signature.profile ${quoteUntrusted(s.profile as string)} is not supported (this verifier knows "${DID_WEB_PROFILE}")`,
    );
  const didProblem = rootDidWebProblem(signer);
  if (didProblem !== undefined) return fail(didProblem);
  const issuedAt = instant(s.issuedAt);
  const expiresAt = s.expiresAt === undefined ? undefined : instant(s.expiresAt);
  if (issuedAt === undefined || (s.expiresAt !== undefined && expiresAt === undefined))
    return fail('signature.issuedAt or expiresAt is not an RFC 3339 date-time');
  if (expiresAt !== undefined && expiresAt <= issuedAt) return fail('signature.expiresAt is not after issuedAt');
  const parts = (s.jws as string).split('.');
  if (parts.length !== 3 || parts[1] !== '' || parts[0] === '' || parts[2] === '')
    return fail('signature.jws is not a detached compact JWS ("header..signature")');
  const header = decodeHeader({ protected: parts[0], signature: parts[2] });
  if (typeof header === 'string') return fail(`signature.jws: ${header.replace(/"signature"/, 'the signature part')}`);
  if (typeof header.kid === 'string') out.kid = header.kid;
  if (typeof header.alg === 'string') out.alg = header.alg;
  if (header.alg !== 'ES256')
    return fail(`alg ${showValue(header.alg)} is not allowed: the ${DID_WEB_PROFILE} profile accepts ES256 only`);
  if (header.typ !== typ) return fail(`the protected typ is ${showValue(header.typ)}, not "${typ}"`);
  if ('b64' in header) return fail('the protected header carries b64, which the AI Catalog does not use');
  const named = KEY_SOURCE_HEADERS.filter((name) => name in header);
  if (named.length > 0)
    return fail(
      `the protected header names a key source (${named.join(', ')}); ${DID_WEB_PROFILE} takes keys only from the DID document`,
    );
  if ('crit' in header) return fail('the protected header has crit parameters this verifier does not support');
  const kid = header.kid;
  if (
    typeof kid !== 'string' ||
    !kid.startsWith(`${signer}#`) ||
    // A DID URL: the signer, '#', and a fragment of URI characters (RFC 3986 §3.5), no path or query.
    !/^#[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/.test(kid.slice(signer.length))
  )
    return fail(`kid ${showValue(kid)} is not ${signer}#<fragment>`);
  if (context.now + context.skewMs < issuedAt) return fail(`the signature is not valid before ${out.issuedAt}`);
  if (expiresAt !== undefined && context.now - context.skewMs >= expiresAt)
    return fail(`the signature expired at ${out.expiresAt}`);
  let payload: string;
  try {
    payload = signaturePayload(container);
  } catch {
    return fail('the signed object cannot be put in RFC 8785 form (a lone surrogate or a number JSON cannot carry)');
  }
  const doc = await context.resolver.resolve(signer);
  if (typeof doc === 'string') return fail(doc);
  const jwk = assertionKey(doc, signer, kid);
  if (typeof jwk === 'string') return fail(jwk);
  const crypto = nodeCrypto('verifyAiCatalog');
  let key: ReturnType<typeof crypto.createPublicKey>;
  try {
    key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return fail(`${kid}: the publicKeyJwk is not a valid P-256 point`);
  }
  const raw = Buffer.from(decodeBase64url(parts[2]!));
  const input = Buffer.from(`${parts[0]}.${encodeBase64url(payload)}`);
  const ok = raw.length === 64 && crypto.verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, raw);
  if (!ok)
    return fail(`${kid}: the signature does not match: the object changed after signing, or another key signed it`);
  out.valid = true;
  return out;
}

/**
 * Entry Release Coverage: why `manifest.subject` does not bind `entry`'s release, or
 * `undefined` when it does (the digest's bytes are checked with the entry's own digest).
 */
export function coverageProblem(entry: Record<string, unknown>, manifest: Record<string, unknown>): string | undefined {
  const subject = manifest.subject;
  if (typeof subject !== 'object' || subject === null || Array.isArray(subject))
    return 'a signed Trust Manifest needs a subject';
  const sub = subject as Record<string, unknown>;
  for (const name of ['identifier', 'type'] as const)
    if (sub[name] !== entry[name])
      return `subject.${name} ${showValue(sub[name])} is not the entry's (${showValue(entry[name])})`;
  for (const name of ['version', 'digest'] as const) {
    if (name in sub !== name in entry || sub[name] !== entry[name])
      return `subject.${name} ${name in sub ? showValue(sub[name]) : '(absent)'} does not match the entry's ${name} (${name in entry ? showValue(entry[name]) : 'absent'})`;
  }
  if (!('digest' in sub) && !('url' in sub)) return 'the subject binds neither a digest nor a url';
  if ('url' in sub) {
    if (typeof sub.url !== 'string' || !sub.url.startsWith('https://')) return 'subject.url is not an https URL';
    if (sub.url !== entry.url)
      return `subject.url ${showValue(sub.url)} is not the entry's url (${showValue(entry.url)})`;
  }
  return undefined;
}

/** Why `value` is not a well-formed Signature object (members and the jws shape), or `undefined`. */
export function signatureObjectProblem(value: Record<string, unknown>): string | undefined {
  for (const member of ['signer', 'profile', 'issuedAt', 'jws'] as const)
    if (typeof value[member] !== 'string' || value[member] === '') return `has no ${member} string`;
  if (value.expiresAt !== undefined && instant(value.expiresAt) === undefined)
    return `expiresAt is not an RFC 3339 date-time (${showValue(value.expiresAt)})`;
  if (instant(value.issuedAt) === undefined)
    return `issuedAt is not an RFC 3339 date-time (${showValue(value.issuedAt)})`;
  if (!/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/.test(value.jws as string))
    return 'jws is not a detached compact JWS ("header..signature")';
  return undefined;
}
