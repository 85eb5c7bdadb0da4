/**
 * One bounded HTTP exchange: manual redirects (each hop recorded), a deadline that covers the
 * headers and the whole body, and a hard cap on the bytes read. Never throws; every failure
 * becomes a {@link DiscoveryFailure}.
 */
import type { DiscoveryFailure, DiscoveryFailureKind, DiscoveryFetch, DiscoveryRedirect } from './types';

/** What {@link exchange} needs to know about one logical request. */
export interface ExchangeSpec {
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST';
  url: string;
  /** The request body (`POST`). */
  body?: string;
  headers: Record<string, string>;
  /**
   * The caller's own headers (the `headers` option: `Authorization`, API keys, cookies), sent
   * with `headers` only on a hop whose origin (scheme, host and port) is `origin`: never over
   * plain http when `origin` is https, never to another host or port.
   */
  caller?: { origin: string; headers: Record<string, string> };
  /** Follow same-origin redirects (a CORS preflight never does). */
  follow: boolean;
  /** Also follow same-origin `http → http` hops. */
  allowHttp: boolean;
  maxRedirects: number;
  maxBytes: number;
  timeoutMs: number;
  fetch: DiscoveryFetch;
  signal?: AbortSignal;
  /** Counts every request sent, hops included. */
  onRequest: () => void;
}

/** The outcome of {@link exchange}. */
export interface Exchange {
  url: string;
  finalUrl: string;
  status?: number;
  headers?: Headers;
  redirects: DiscoveryRedirect[];
  /** Why the redirect chain ended on a 3xx, when it did. */
  redirectStop?: 'cross-origin' | 'downgrade' | 'loop' | 'too-many' | 'no-location' | 'not-followed';
  body: Uint8Array;
  truncated: boolean;
  failure?: DiscoveryFailure;
  timeMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Runs one logical request within `timeoutMs`, whatever the server does. */
export async function exchange(spec: ExchangeSpec): Promise<Exchange> {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete response within ${spec.timeoutMs} ms`));
  }, spec.timeoutMs);
  const signal = spec.signal ? AbortSignal.any([controller.signal, spec.signal]) : controller.signal;
  const fail = (error: unknown): DiscoveryFailure =>
    classifyFailure(error, timedOut, spec.signal?.aborted === true, spec.timeoutMs);

  const result: Exchange = {
    url: spec.url,
    finalUrl: spec.url,
    redirects: [],
    body: new Uint8Array(0),
    truncated: false,
    timeMs: 0,
  };
  const seen = new Set<string>([spec.url]);
  let url = spec.url;
  try {
    // Bounded: at most maxRedirects + 1 requests.
    for (let hop = 0; hop <= spec.maxRedirects; hop++) {
      let response: Response;
      try {
        spec.onRequest();
        const headers =
          spec.caller !== undefined && new URL(url).origin === spec.caller.origin
            ? { ...spec.caller.headers, ...spec.headers }
            : spec.headers;
        response = await spec.fetch(url, {
          method: spec.method,
          headers,
          redirect: 'manual',
          signal,
          ...(spec.body === undefined ? {} : { body: spec.body }),
        });
      } catch (error) {
        result.failure = fail(error);
        return result;
      }
      result.finalUrl = url;
      result.status = response.status;
      result.headers = response.headers;

      if (!REDIRECTS.has(response.status)) {
        await readBody(response, spec, result, signal, fail);
        if (result.truncated) controller.abort(new Error('stopped reading'));
        return result;
      }

      discard(response);
      const redirect = describeRedirect(url, response);
      result.redirects.push(redirect);
      const next = redirect.location;
      if (next === undefined) {
        result.redirectStop = 'no-location';
        return result;
      }
      if (redirect.schemeChange === 'https->http') result.redirectStop = 'downgrade';
      else if (!redirect.sameOrigin) result.redirectStop = 'cross-origin';
      else if (!spec.follow) result.redirectStop = 'not-followed';
      else if (seen.has(next)) result.redirectStop = 'loop';
      else if (hop === spec.maxRedirects) result.redirectStop = 'too-many';
      else if (new URL(next).protocol !== 'https:' && !spec.allowHttp) result.redirectStop = 'cross-origin';
      if (result.redirectStop) return result;
      redirect.followed = true;
      seen.add(next);
      url = next;
    }
    return result;
  } finally {
    clearTimeout(timer);
    result.timeMs = Math.round(performance.now() - started);
  }
}

function describeRedirect(from: string, response: Response): DiscoveryRedirect {
  const raw = response.headers.get('location');
  let location: string | undefined;
  try {
    location = raw === null ? undefined : new URL(raw, from).href;
  } catch {
    location = undefined;
  }
  const source = new URL(from);
  const target = location === undefined ? undefined : new URL(location);
  const redirect: DiscoveryRedirect = {
    url: from,
    status: response.status,
    sameOrigin: target !== undefined && target.origin === source.origin,
    followed: false,
  };
  if (location !== undefined) redirect.location = location;
  if (target !== undefined && target.protocol !== source.protocol) {
    redirect.schemeChange = `${source.protocol.slice(0, -1)}->${target.protocol.slice(0, -1)}`;
  }
  return redirect;
}

async function readBody(
  response: Response,
  spec: ExchangeSpec,
  result: Exchange,
  signal: AbortSignal,
  fail: (error: unknown) => DiscoveryFailure,
): Promise<void> {
  if (response.body === null) return;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > spec.maxBytes) {
    discard(response);
    result.truncated = true;
    result.failure = {
      kind: 'too-large',
      message: `Content-Length ${declared} is over the ${spec.maxBytes}-byte cap`,
    };
    return;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Bounded by maxBytes (checked per chunk) and by the deadline, which errors the stream.
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
      if (total > spec.maxBytes) {
        result.truncated = true;
        result.failure = { kind: 'too-large', message: `body passed the ${spec.maxBytes}-byte cap` };
        reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch (error) {
    result.truncated = true;
    result.failure = fail(error);
  }
  result.body = Buffer.concat(chunks, total);
}

/** Drops a body we do not need without waiting for it. */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

/** Maps whatever fetch threw to a failure kind and a readable reason. */
export function classifyFailure(
  error: unknown,
  timedOut: boolean,
  aborted: boolean,
  timeoutMs: number,
): DiscoveryFailure {
  if (timedOut) return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
  if (aborted) return { kind: 'aborted', message: 'the discovery run was aborted' };
  const root = rootCause(error);
  const code = typeof root.code === 'string' ? root.code : undefined;
  let kind: DiscoveryFailureKind = 'network';
  if (code !== undefined) {
    if (DNS_CODES.has(code)) kind = 'dns';
    else if (REFUSED_CODES.has(code)) kind = 'refused';
    else if (RESET_CODES.has(code)) kind = 'reset';
    else if (/^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|EPROTO$|HOSTNAME_MISMATCH)/.test(code))
      kind = 'tls';
  } else if (/terminated|other side closed|socket hang up/i.test(root.message)) {
    kind = 'reset';
  }
  // OpenSSL messages carry a library prefix; the reason at the end is what people recognise.
  const ssl = kind === 'tls' ? /SSL routines:[^:]*:([^:]+)/.exec(root.message)?.[1] : undefined;
  const failure: DiscoveryFailure = { kind, message: ssl ?? (root.message || 'request failed') };
  if (code !== undefined) failure.code = code;
  return failure;
}

/** The innermost error: fetch wraps the socket error in `cause` (or an AggregateError). */
function rootCause(error: unknown): { message: string; code?: unknown } {
  let current: unknown = error;
  // Bounded: error chains are short; the cap guards against cyclic causes.
  for (let depth = 0; depth < 8; depth++) {
    if (typeof current !== 'object' || current === null) break;
    const { cause, errors, code } = current as { cause?: unknown; errors?: unknown; code?: unknown };
    if (typeof code === 'string' && !code.startsWith('ABORT')) break;
    if (cause !== undefined && cause !== current) current = cause;
    else if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else break;
  }
  if (typeof current === 'object' && current !== null) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    return { message: typeof message === 'string' ? message : String(current), code };
  }
  return { message: String(current) };
}
