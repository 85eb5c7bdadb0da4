import { parseForwardedHeader } from './forwarded';
import type { ProxyTrust } from './trust';
import type { AgentCardRequest } from './exchange';

const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** Longest `Forwarded` header value read; a longer one is unusable as a whole. */
const MAX_FORWARDED_LENGTH = 4096;

/** What a proxy says about the request it forwarded. */
interface ProxyView {
  proto?: string;
  host?: string;
}
/** What an absent header gives: shared, so such a request allocates nothing here. */
const NOTHING: Readonly<ProxyView> = Object.freeze({});
/** What a trusted peer's `Forwarded` that is too long or does not parse gives. */
const UNUSABLE: Readonly<ProxyView> = Object.freeze({});

/** One header value; repeated headers (an array) are one list, in order. */
function joined(value: string | string[] | undefined): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.join(',') : undefined;
}

/**
 * The `n`-th comma-separated element counted from the right (1 is the last), or the leftmost
 * when the list is shorter: every element to its right was added by a trusted proxy too.
 */
function elementFromRight(list: string, n: number): string {
  let end = list.length;
  for (let i = 1; i < n; i++) {
    const comma = list.lastIndexOf(',', end - 1);
    if (comma === -1 || end === 0) break;
    end = comma;
  }
  const comma = end === 0 ? -1 : list.lastIndexOf(',', end - 1);
  return list.slice(comma + 1, end).trim();
}

/** An address as a trust check compares it: no brackets, no port, no quotes. */
function bareAddress(value: string | undefined): string {
  if (value === undefined) return '';
  const v = value.trim();
  if (v.startsWith('[')) {
    const close = v.indexOf(']');
    return close === -1 ? v : v.slice(1, close);
  }
  const colon = v.indexOf(':');
  // `192.0.2.1:4711` carries a port; an IPv6 address has more than one colon.
  return colon !== -1 && colon === v.lastIndexOf(':') ? v.slice(0, colon) : v;
}

/**
 * How many proxies the `X-Forwarded-For` chain shows to be trusted: the peer (hop 0), then each
 * entry from the right, stopping at the first untrusted one. The leftmost entry is whoever
 * connected to the outermost proxy, never a proxy that wrote headers.
 */
function trustedForwardedForHops(trust: ProxyTrust, peer: string, forwardedFor: string | undefined): number {
  if (!trust.trusts(peer, 0)) return 0;
  let hops = 1;
  if (forwardedFor === undefined) return hops;
  let end = forwardedFor.length;
  while (hops < trust.maxHops && end > 0) {
    const comma = forwardedFor.lastIndexOf(',', end - 1);
    if (comma === -1) break;
    if (!trust.trusts(bareAddress(forwardedFor.slice(comma + 1, end)), hops)) break;
    hops++;
    end = comma;
  }
  return hops;
}

/** The `X-Forwarded-Proto` / `X-Forwarded-Host` values the outermost trusted proxy wrote. */
function fromXForwarded(request: AgentCardRequest<unknown>, trust: ProxyTrust, peer: string): Readonly<ProxyView> {
  const headers = request.headers;
  const hostList = joined(headers['x-forwarded-host']);
  const protoList = joined(headers['x-forwarded-proto']);
  if (hostList === undefined && protoList === undefined) return NOTHING;
  const hops = trustedForwardedForHops(trust, peer, joined(headers['x-forwarded-for']));
  if (hops === 0) return NOTHING;
  const out: ProxyView = {};
  if (hostList !== undefined) out.host = elementFromRight(hostList, hops);
  if (protoList !== undefined) out.proto = elementFromRight(protoList, hops);
  return out;
}

/**
 * The `proto` and `host` of the `Forwarded` element (RFC 7239 §4) the outermost trusted proxy
 * added: each proxy appends one element whose `for` is whoever connected to it, so the walk goes
 * from the right, starting with the peer, while the proxies are trusted. A header that is too
 * long or does not parse gives {@link UNUSABLE}: a client can break the header its proxy appends
 * to (`for="`, padding), and what the proxy wrote is then unknown.
 */
function fromForwarded(value: string | string[] | undefined, trust: ProxyTrust, peer: string): Readonly<ProxyView> {
  const text = joined(value);
  if (text === undefined || !trust.trusts(peer, 0)) return NOTHING;
  if (text.length > MAX_FORWARDED_LENGTH) return UNUSABLE;
  const elements = parseForwardedHeader(text);
  if (elements === undefined) return UNUSABLE;
  const m = elements.length;
  if (m === 0) return NOTHING;
  let hops = 1;
  while (hops < trust.maxHops && hops < m && trust.trusts(bareAddress(elements[m - hops]!.for), hops)) hops++;
  const element = elements[m - hops]!;
  const out: ProxyView = {};
  if (Object.hasOwn(element, 'proto')) out.proto = element.proto;
  if (Object.hasOwn(element, 'host')) out.host = element.host;
  return out;
}

function differ(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() !== b.toLowerCase();
}

/**
 * What the trusted proxies say: `Forwarded` first, a parameter it leaves out from
 * `X-Forwarded-*`. When both say something different, one of them came from the client (a proxy
 * writes one family and passes the other through), so neither is used. An unusable `Forwarded`
 * counts as a disagreement: the proxy may have appended to it, so `X-Forwarded-*` may be the
 * client's.
 */
function proxyView(request: AgentCardRequest<unknown>, trust: ProxyTrust): Readonly<ProxyView> {
  const peer = bareAddress(request.remoteAddress);
  const f = fromForwarded(request.headers.forwarded, trust, peer);
  if (f === UNUSABLE) return NOTHING;
  const x = fromXForwarded(request, trust, peer);
  if (x === NOTHING) return f;
  if (f === NOTHING) return x;
  if (differ(f.host, x.host) || differ(f.proto, x.proto)) return NOTHING;
  return { proto: f.proto ?? x.proto, host: f.host ?? x.host };
}

/**
 * The `scheme://host[:port]` a client used, or `undefined` when the request carries no usable
 * host (missing, empty, or not a hostname / IP literal with an optional port). Default ports
 * are dropped so `https://a.example:443` and `https://a.example` are the same variant.
 *
 * Proxy headers are read only when `trust` trusts the peer (otherwise anyone could make the card
 * advertise their URLs), and then only the element the outermost trusted proxy added; see
 * `trustProxy` in docs/serving.md for exactly what each setting trusts.
 */
export function requestOrigin(request: AgentCardRequest<unknown>, trust: ProxyTrust | undefined): string | undefined {
  let proto: string | undefined;
  let host: string | undefined;
  if (trust !== undefined) {
    const view = proxyView(request, trust);
    proto = view.proto?.toLowerCase();
    host = view.host;
    if (proto !== undefined && proto !== 'http' && proto !== 'https') proto = undefined;
    if (host === '') host = undefined;
  }
  if (host === undefined) {
    const h = joined(request.headers.host);
    host = h === undefined ? undefined : h.trim();
  }
  proto ??= request.encrypted ? 'https' : 'http';
  if (host === undefined || host.length > 260 || !HOST.test(host)) return undefined;
  host = host.toLowerCase();
  if ((proto === 'https' && host.endsWith(':443')) || (proto === 'http' && host.endsWith(':80'))) {
    host = host.slice(0, host.lastIndexOf(':'));
  }
  return `${proto}://${host}`;
}
