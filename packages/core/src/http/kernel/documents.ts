import { nativeBytes } from '../../bytes';
import {
  ALLOWED_METHODS,
  BASE_ALLOW_HEADERS,
  buildCorsVariants,
  type CorsSetting,
  type CorsVariants,
  PREFLIGHT_MAX_AGE,
  selectCors,
} from './cors';
import type { AgentCardRequest, AgentCardResponse } from './exchange';
import { computeEtag, ifNoneMatchMatches } from './etag';
import { encodeJson } from './encode';
import { markServed, type ServedDocument, servedOf } from './served';

function freeze(
  served: ServedDocument,
  status: number,
  headers: Record<string, string>,
  body?: Uint8Array,
): AgentCardResponse {
  Object.freeze(headers);
  // Prepared once, written on every request: in the form the server writes without a wrapper.
  return markServed(
    Object.freeze(body === undefined ? { status, headers } : { status, headers, body: nativeBytes(body) }),
    served,
  );
}

/**
 * A frozen copy of `response` with other headers (a `Link` added by the router), serving what
 * `response` serves.
 */
export function withHeaders(response: AgentCardResponse, headers: Record<string, string>): AgentCardResponse {
  const served = servedOf(response);
  const copy = Object.freeze(
    response.body === undefined
      ? { status: response.status, headers: Object.freeze(headers) }
      : { status: response.status, headers: Object.freeze(headers), body: response.body },
  );
  return served === undefined ? copy : markServed(copy, served);
}

function joinVary(setting: CorsSetting, vary: readonly string[]): string | undefined {
  const all = setting.mode === 'list' ? ['Origin', ...vary] : [...vary];
  return all.length > 0 ? all.join(', ') : undefined;
}

/** The answers for one resource and one CORS outcome, all built before the first request. */
export interface ResponseSet {
  /** 200 with the body. */
  readonly ok: AgentCardResponse;
  /** 200 without the body (HEAD). */
  readonly head: AgentCardResponse;
  /** 304 for a matching `If-None-Match`. */
  readonly notModified: AgentCardResponse;
  /** 204 for OPTIONS (CORS preflight or plain OPTIONS). */
  readonly preflight: AgentCardResponse;
  /** 405 for any other method. */
  readonly methodNotAllowed: AgentCardResponse;
}

/** A served document: its bytes, its ETag and every answer about it. */
export interface PreparedDocument {
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly responses: CorsVariants<ResponseSet>;
  /** The same bytes under a second media type a client may ask for with `Accept`. */
  readonly alternate?: AlternateRepresentation;
}

/** A second representation of a document: the same bytes, another `Content-Type` and ETag. */
export interface AlternateRepresentation {
  readonly contentType: string;
  /** Finds the type in an `Accept` value, any case, without allocating (the per-request test). */
  readonly named: RegExp;
  readonly etag: string;
  readonly responses: CorsVariants<ResponseSet>;
}

/** How a document's headers are made. */
export interface DocumentHeaderSettings {
  /** What the document is, for the serve hook: its kind (named by the feature) and agent. */
  served: ServedDocument;
  contentType: string;
  cacheControl: string | false;
  cors: CorsSetting;
  /** A `Link` header (the legacy alias points to the canonical path). */
  link?: string;
  /** Extra `Vary` members besides `Origin` (e.g. `Authorization` for the extended card). */
  vary?: readonly string[];
  /** Extra request headers a preflight may allow (e.g. an API-key header). */
  allowHeaders?: readonly string[];
  /** More headers of the 200 and HEAD answers (a page's `Content-Security-Policy`). */
  headers?: Readonly<Record<string, string>>;
  /**
   * A second media type for the same bytes, answered to an `Accept` that prefers it (the card's
   * `application/a2a-agent-card+json`); both answers then carry `Vary: Accept`.
   */
  alternateContentType?: string;
}

const METHOD_NOT_ALLOWED_BODY = encodeJson({
  error: { code: 405, status: 'METHOD_NOT_ALLOWED', message: 'Method not allowed. Use GET, HEAD or OPTIONS.' },
});

/** 405 answers for every CORS outcome (shared by documents and error resources). */
function methodNotAllowed(
  served: ServedDocument,
  cors: Record<string, string>,
  vary: string | undefined,
): AgentCardResponse {
  const headers: Record<string, string> = {
    allow: ALLOWED_METHODS,
    'content-type': 'application/json',
    'content-length': String(METHOD_NOT_ALLOWED_BODY.byteLength),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...cors,
  };
  if (vary) headers.vary = vary;
  return freeze(served, 405, headers, METHOD_NOT_ALLOWED_BODY);
}

function preflight(
  served: ServedDocument,
  cors: Record<string, string>,
  vary: string | undefined,
  allowHeaders: readonly string[],
): AgentCardResponse {
  const headers: Record<string, string> = { allow: ALLOWED_METHODS, ...cors };
  if (cors['access-control-allow-origin'] !== undefined) {
    headers['access-control-allow-methods'] = ALLOWED_METHODS;
    headers['access-control-allow-headers'] = [...BASE_ALLOW_HEADERS, ...allowHeaders].join(', ');
    headers['access-control-max-age'] = PREFLIGHT_MAX_AGE;
  }
  if (vary) headers.vary = vary;
  return freeze(served, 204, headers);
}

/**
 * Serialises nothing and hashes once: takes the exact bytes of a document and prepares its ETag
 * and every response object (200, HEAD, 304, 204, 405) for every CORS outcome. The per-request
 * path only picks one of them. `etag` is passed when the same bytes were already hashed (the
 * byte-identical legacy alias).
 */
export function prepareDocument(
  bytes: Uint8Array,
  settings: DocumentHeaderSettings,
  etag = computeEtag(bytes),
): PreparedDocument {
  const alternate = settings.alternateContentType;
  if (alternate === undefined || alternate === settings.contentType)
    return { bytes, etag, responses: prepareResponses(bytes, settings, etag) };
  const negotiated = { ...settings, vary: [...(settings.vary ?? []), 'Accept'] };
  // A second representation has its own strong validator (RFC 9110 §8.8.3): a cache that stored
  // one under Vary: Accept never revalidates it with the other's tag.
  const alternateEtag = `${etag.slice(0, -1)}.card"`;
  return {
    bytes,
    etag,
    responses: prepareResponses(bytes, negotiated, etag),
    alternate: {
      contentType: alternate,
      named: new RegExp(alternate.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i'),
      etag: alternateEtag,
      responses: prepareResponses(bytes, { ...negotiated, contentType: alternate }, alternateEtag),
    },
  };
}

/** Every answer about one representation, for every CORS outcome. */
function prepareResponses(
  bytes: Uint8Array,
  settings: DocumentHeaderSettings,
  etag: string,
): CorsVariants<ResponseSet> {
  const vary = joinVary(settings.cors, settings.vary ?? []);
  const allowHeaders = settings.allowHeaders ?? [];
  const served = settings.served;
  return buildCorsVariants(settings.cors, (cors): ResponseSet => {
    const common: Record<string, string> = { etag };
    if (settings.cacheControl !== false) common['cache-control'] = settings.cacheControl;
    if (vary) common.vary = vary;
    if (settings.link) common.link = settings.link;
    Object.assign(common, cors);
    const full: Record<string, string> = {
      'content-type': settings.contentType,
      'content-length': String(bytes.byteLength),
      'x-content-type-options': 'nosniff',
      ...settings.headers,
      ...common,
    };
    return Object.freeze({
      ok: freeze(served, 200, { ...full }, bytes),
      head: freeze(served, 200, { ...full }),
      // RFC 9110 §15.4.5: a 304 repeats the ETag, Cache-Control and Vary a 200 would carry.
      notModified: freeze(served, 304, { ...common }),
      preflight: preflight(served, cors, vary, allowHeaders),
      methodNotAllowed: methodNotAllowed(served, cors, vary),
    });
  });
}

/** A fixed error resource (400, 401, 503…): the same answer for GET/HEAD, plus 204 and 405. */
export interface ErrorResponseSet {
  readonly get: AgentCardResponse;
  readonly head: AgentCardResponse;
  readonly preflight: AgentCardResponse;
  readonly methodNotAllowed: AgentCardResponse;
}

/** Settings of {@link prepareErrorResponses}. */
export interface ErrorResponseSettings {
  /** What the answer is about, for the serve hook (see {@link DocumentHeaderSettings.served}). */
  served: ServedDocument;
  status: number;
  body: unknown;
  contentType?: string;
  cors: CorsSetting;
  headers?: Record<string, string>;
  vary?: readonly string[];
  allowHeaders?: readonly string[];
}

/** Prepares a fixed JSON error answer for every CORS outcome. */
export function prepareErrorResponses(settings: ErrorResponseSettings): CorsVariants<ErrorResponseSet> {
  const bytes = encodeJson(settings.body);
  const vary = joinVary(settings.cors, settings.vary ?? []);
  const served = settings.served;
  return buildCorsVariants(settings.cors, (cors): ErrorResponseSet => {
    const headers: Record<string, string> = {
      'content-type': settings.contentType ?? 'application/json',
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...settings.headers,
      ...cors,
    };
    if (vary) headers.vary = vary;
    return Object.freeze({
      get: freeze(served, settings.status, { ...headers }, bytes),
      head: freeze(served, settings.status, { ...headers }),
      preflight: preflight(served, cors, vary, settings.allowHeaders ?? []),
      methodNotAllowed: methodNotAllowed(served, cors, vary),
    });
  });
}

/** Answers a request to an error resource by method. */
export function answerError(set: ErrorResponseSet, method: string): AgentCardResponse {
  if (method === 'GET') return set.get;
  if (method === 'HEAD') return set.head;
  if (method === 'OPTIONS') return set.preflight;
  return set.methodNotAllowed;
}

/** Answers a GET/HEAD/OPTIONS/other request for a prepared document. */
export function answerDocument(
  doc: PreparedDocument,
  request: Pick<AgentCardRequest<unknown>, 'method' | 'headers'>,
): AgentCardResponse {
  const alternate = doc.alternate;
  if (alternate !== undefined) {
    const accept = request.headers.accept;
    // The common requests (no Accept, */*, application/json: shorter than the type) leave after
    // a length check; a longer one after a regular-expression test that allocates nothing. Only
    // an Accept naming the type is parsed.
    if (
      typeof accept === 'string' &&
      accept.length >= alternate.contentType.length &&
      alternate.named.test(accept) &&
      prefersAlternate(accept, alternate.contentType)
    )
      return answerWith(alternate.responses, alternate.etag, request);
  }
  return answerWith(doc.responses, doc.etag, request);
}

function answerWith(
  responses: CorsVariants<ResponseSet>,
  etag: string,
  request: Pick<AgentCardRequest<unknown>, 'method' | 'headers'>,
): AgentCardResponse {
  const set = selectCors(responses, request.headers);
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') {
    const inm = request.headers['if-none-match'];
    if (inm !== undefined && ifNoneMatchMatches(inm, etag)) return set.notModified;
    return method === 'GET' ? set.ok : set.head;
  }
  return method === 'OPTIONS' ? set.preflight : set.methodNotAllowed;
}

/** Longest `Accept` value read for negotiation; a longer one gets the default type. */
const MAX_ACCEPT_LENGTH = 4096;

/**
 * Whether an `Accept` header asks for `alternate` over the default type: it names `alternate`
 * with a q-value above 0 and above the one it gives the default card type, if it names that.
 * Wildcards never choose the alternate (the default type stays the answer to `*\/*`). Anything
 * else (absent, repeated, oversized, malformed) gets the default.
 */
export function prefersAlternate(accept: string | string[] | undefined, alternate: string): boolean {
  if (typeof accept !== 'string' || accept.length > MAX_ACCEPT_LENGTH) return false;
  let wanted = 0;
  let fallback = 0;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';');
    const name = type!.trim().toLowerCase();
    if (name !== alternate && name !== 'application/a2a+json') continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(param);
      if (m !== null) q = Number(m[1]);
    }
    if (name === alternate) wanted = Math.max(wanted, q);
    else fallback = Math.max(fallback, q);
  }
  return wanted > 0 && wanted > fallback;
}
