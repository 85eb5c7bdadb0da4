import parseForwarded from 'forwarded-parse';
import type { AgentCardRequest } from './types';

const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string') return undefined;
  const comma = v.indexOf(',');
  return (comma === -1 ? v : v.slice(0, comma)).trim();
}

/** Longest `Forwarded` header value read; a longer one is ignored as a whole. */
const MAX_FORWARDED_LENGTH = 4096;

interface ForwardedParams {
  proto?: string;
  host?: string;
}
/** What a missing or unreadable header gives: shared, so such a request allocates nothing here. */
const NO_PARAMS: Readonly<ForwardedParams> = Object.freeze({});

/**
 * The `proto` and `host` parameters of the first element of a `Forwarded` header (RFC 7239 §4),
 * the one the proxy nearest the client wrote. A header that does not parse gives nothing, so the
 * `X-Forwarded-*` headers or the connection decide instead.
 */
export function forwardedParams(value: string | string[] | undefined): Readonly<ForwardedParams> {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text.length > MAX_FORWARDED_LENGTH) return NO_PARAMS;
  let element: Record<string, string> | undefined;
  try {
    element = parseForwarded(text)[0];
  } catch {
    return NO_PARAMS;
  }
  if (element === undefined) return NO_PARAMS;
  const out: ForwardedParams = {};
  if (Object.hasOwn(element, 'proto')) out.proto = element.proto;
  if (Object.hasOwn(element, 'host')) out.host = element.host;
  return out;
}

/**
 * The `scheme://host[:port]` a client used, or `undefined` when the request carries no usable
 * host (missing, empty, or not a hostname / IP literal with an optional port). Default ports
 * are dropped so `https://a.example:443` and `https://a.example` are the same variant.
 *
 * Proxy headers are read only with `trustProxy` (otherwise anyone could make the card advertise
 * their URLs): the `proto` and `host` of the first `Forwarded` element (RFC 7239), else the first
 * value of `X-Forwarded-Proto` and `X-Forwarded-Host`, each on its own.
 */
export function requestOrigin(request: AgentCardRequest<unknown>, trustProxy: boolean): string | undefined {
  const headers = request.headers;
  let proto: string | undefined;
  let host: string | undefined;
  if (trustProxy) {
    const forwarded = forwardedParams(headers.forwarded);
    proto = (forwarded.proto ?? first(headers['x-forwarded-proto']))?.toLowerCase();
    host = forwarded.host ?? first(headers['x-forwarded-host']);
    if (proto !== undefined && proto !== 'http' && proto !== 'https') proto = undefined;
    if (host === '') host = undefined;
  }
  host ??= first(headers.host);
  proto ??= request.encrypted ? 'https' : 'http';
  if (host === undefined || host.length > 260 || !HOST.test(host)) return undefined;
  host = host.toLowerCase();
  if ((proto === 'https' && host.endsWith(':443')) || (proto === 'http' && host.endsWith(':80'))) {
    host = host.slice(0, host.lastIndexOf(':'));
  }
  return `${proto}://${host}`;
}
