import type { AgentCardRequest } from './types';

const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string') return undefined;
  const comma = v.indexOf(',');
  return (comma === -1 ? v : v.slice(0, comma)).trim();
}

/**
 * The `scheme://host[:port]` a client used, or `undefined` when the request carries no usable
 * host (missing, empty, or not a hostname / IP literal with an optional port). Default ports
 * are dropped so `https://a.example:443` and `https://a.example` are the same variant.
 *
 * `X-Forwarded-Proto` and `X-Forwarded-Host` (first value) are read only with `trustProxy`;
 * otherwise anyone could make the card advertise their URLs.
 */
export function requestOrigin(request: AgentCardRequest<unknown>, trustProxy: boolean): string | undefined {
  const headers = request.headers;
  let proto: string | undefined;
  let host: string | undefined;
  if (trustProxy) {
    proto = first(headers['x-forwarded-proto'])?.toLowerCase();
    host = first(headers['x-forwarded-host']);
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
