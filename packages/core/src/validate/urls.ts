/**
 * URL and host classification used by the publishing-readiness rules.
 *
 * Everything here takes untrusted strings and never throws.
 * @see packages/core/RULES.md §6.3 (rules 33–38)
 */
import ipaddr from 'ipaddr.js';
import { HOST_PORT, IPV6_CHARACTERS, trimTrailing, URL_USERINFO_PASSWORD } from './patterns';

/** What a host name or address tells a client about reachability. */
export type HostKind = 'loopback' | 'private' | 'placeholder' | 'public';

/** A host classification with a short human reason, e.g. `an RFC 1918 private address`. */
export interface HostClass {
  readonly kind: HostKind;
  /** Why the host got its kind, phrased to follow "is …" in a message. */
  readonly reason: string;
}

/**
 * Parses an absolute URL (one with a scheme). Returns `undefined` for relative or malformed input.
 * @example parseAbsoluteUrl('https://api.acme.io/a2a')?.hostname // 'api.acme.io'
 */
export function parseAbsoluteUrl(value: string): URL | undefined {
  if (typeof value !== 'string' || value.length > 8192) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a string is an absolute `https://` URL with a host.
 * @example isHttpsUrl('https://api.acme.io') // true
 */
export function isHttpsUrl(value: string): boolean {
  const url = parseAbsoluteUrl(value);
  return url !== undefined && url.protocol === 'https:' && url.hostname !== '';
}

/** A gRPC target in `host:port` form. */
export interface HostPort {
  /** Normalised host: lower case, IPv4 in dotted decimal, IPv6 in brackets. */
  readonly host: string;
  readonly port: number;
}

/**
 * Parses the gRPC `host:port` (or `[v6]:port`) form of `AgentInterface.url`.
 * Returns `undefined` when the value is not of that form (for example an absolute URL).
 * @example parseHostPort('grpc.acme.io:443') // { host: 'grpc.acme.io', port: 443 }
 * @see proto `AgentInterface.url` (A2A#1997: gRPC uses "hostname:port")
 */
export function parseHostPort(value: string): HostPort | undefined {
  if (typeof value !== 'string' || value.length > 1024) return undefined;
  const match = HOST_PORT.exec(value);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  // The WHATWG parser normalises odd IPv4 spellings (0x7f.1, 2130706433) the way clients will.
  const url = parseAbsoluteUrl(`https://${match[1] ?? ''}/`);
  if (!url || url.hostname === '') return undefined;
  return { host: url.hostname, port };
}

/**
 * Parses a dotted-decimal IPv4 address into four octets.
 * @example parseIPv4('10.0.0.1') // [10, 0, 0, 1]
 */
export function parseIPv4(host: string): [number, number, number, number] | undefined {
  // Four decimal parts only: the WHATWG parser has already turned other spellings into these.
  if (host.length > 15 || !ipaddr.IPv4.isValidFourPartDecimal(host)) return undefined;
  return ipaddr.IPv4.parse(host).octets as [number, number, number, number];
}

/**
 * Parses an IPv6 address (brackets and a zone id allowed) into eight 16-bit groups.
 * Handles `::` compression and an embedded IPv4 tail (`::ffff:127.0.0.1`).
 * @example parseIPv6('[::1]') // [0, 0, 0, 0, 0, 0, 0, 1]
 */
export function parseIPv6(host: string): number[] | undefined {
  const address = ipv6Of(host);
  return address && [...address.parts];
}

function ipv6Of(host: string): ipaddr.IPv6 | undefined {
  let text = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  // Bounded and reduced to the address alphabet before the library's parser sees it.
  if (text.length === 0 || text.length > 45 || !IPV6_CHARACTERS.test(text) || !ipaddr.IPv6.isValid(text)) {
    return undefined;
  }
  return ipaddr.IPv6.parse(text);
}

const PLACEHOLDER_DOMAINS = ['example.com', 'example.net', 'example.org'];
const PLACEHOLDER_TLDS = ['example', 'test', 'invalid'];
// RFC 6762 (.local), RFC 8375 (.home.arpa), ICANN-reserved .internal, and common cluster/home suffixes.
const PRIVATE_SUFFIXES = ['internal', 'local', 'lan', 'corp', 'svc', 'cluster.local', 'home.arpa'];

type Range<A> = readonly [A, number, HostClass];
const range = <A extends ipaddr.IPv4 | ipaddr.IPv6>(cidr: string, kind: HostKind, reason: string): Range<A> => {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  return [address as A, bits, { kind, reason }];
};

/** IPv4 ranges a client should not be sent to, first match wins. */
const IPV4_RANGES: readonly Range<ipaddr.IPv4>[] = [
  range('127.0.0.0/8', 'loopback', 'a loopback address (127.0.0.0/8)'),
  range('0.0.0.0/8', 'loopback', 'the unspecified address (0.0.0.0)'),
  range('10.0.0.0/8', 'private', 'an RFC 1918 private address'),
  range('172.16.0.0/12', 'private', 'an RFC 1918 private address'),
  range('192.168.0.0/16', 'private', 'an RFC 1918 private address'),
  range('100.64.0.0/10', 'private', 'an RFC 6598 shared address (100.64.0.0/10)'),
  range('169.254.0.0/16', 'private', 'a link-local address (169.254.0.0/16)'),
  range('192.0.2.0/24', 'placeholder', 'an RFC 5737 documentation address'),
  range('198.51.100.0/24', 'placeholder', 'an RFC 5737 documentation address'),
  range('203.0.113.0/24', 'placeholder', 'an RFC 5737 documentation address'),
];

/** IPv6 ranges, first match wins; IPv4-mapped addresses are classified as the IPv4 host they reach. */
const IPV6_RANGES: readonly Range<ipaddr.IPv6>[] = [
  range('::1/128', 'loopback', 'the IPv6 loopback address (::1)'),
  range('::/128', 'loopback', 'the unspecified address (::)'),
  range('fe80::/10', 'private', 'an IPv6 link-local address (fe80::/10)'),
  range('fc00::/7', 'private', 'an IPv6 unique local address (fc00::/7)'),
  range('2001:db8::/32', 'placeholder', 'an RFC 3849 documentation address'),
];

const PUBLIC_ADDRESS: HostClass = { kind: 'public', reason: 'a public address' };

function classifyIPv4(address: ipaddr.IPv4): HostClass {
  return IPV4_RANGES.find(([base, bits]) => address.match(base, bits))?.[2] ?? PUBLIC_ADDRESS;
}

function classifyIPv6(address: ipaddr.IPv6): HostClass {
  if (address.isIPv4MappedAddress()) return classifyIPv4(address.toIPv4Address());
  return IPV6_RANGES.find(([base, bits]) => address.match(base, bits))?.[2] ?? PUBLIC_ADDRESS;
}

/**
 * Classifies a host name or IP address (as found in `URL.hostname`, with or without brackets).
 * Order of precedence: loopback, placeholder, private, public.
 * @example classifyHost('keycloak').kind // 'private' (single-label host)
 * @example classifyHost('[fd00::1]').kind // 'private'
 * @see packages/core/RULES.md rules 34 (`url-localhost`), 35 (`url-private-host`), 36 (`url-placeholder`)
 */
export function classifyHost(hostname: string): HostClass {
  if (typeof hostname !== 'string' || hostname === '') return { kind: 'public', reason: 'a host' };
  let known = CLASSIFIED.get(hostname);
  if (known === undefined) {
    // A card names the same few hosts many times over, and several rules ask about each.
    if (CLASSIFIED.size >= MAX_CLASSIFIED) CLASSIFIED.clear();
    known = Object.freeze(classify(hostname));
    CLASSIFIED.set(hostname, known);
  }
  return known;
}

/** Hosts classified lately: the answer depends on the name alone. Bounded, and emptied when full. */
const CLASSIFIED = new Map<string, HostClass>();
const MAX_CLASSIFIED = 512;

function classify(hostname: string): HostClass {
  const host = trimTrailing(hostname.toLowerCase(), '.');
  if (parseIPv4(host)) return classifyIPv4(ipaddr.IPv4.parse(host));
  if (host.includes(':')) {
    const v6 = ipv6Of(host);
    return v6 ? classifyIPv6(v6) : { kind: 'public', reason: 'a host' };
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain') {
    return { kind: 'loopback', reason: 'a loopback host name' };
  }
  for (const domain of PLACEHOLDER_DOMAINS) {
    if (host === domain || host.endsWith(`.${domain}`)) {
      return { kind: 'placeholder', reason: `under ${domain}, an RFC 2606 example domain` };
    }
  }
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (PLACEHOLDER_TLDS.includes(tld))
    return { kind: 'placeholder', reason: `under the reserved .${tld} TLD (RFC 2606)` };
  if (!host.includes('.'))
    return { kind: 'private', reason: 'a single-label host that only resolves inside a private network' };
  for (const suffix of PRIVATE_SUFFIXES) {
    if (host.endsWith(`.${suffix}`)) return { kind: 'private', reason: `under .${suffix}, a private-network suffix` };
  }
  return { kind: 'public', reason: 'a public host' };
}

/** The host of an absolute URL or a gRPC `host:port`, normalised; `undefined` if neither. */
export function hostOf(value: string): string | undefined {
  const hp = parseHostPort(value);
  if (hp) return hp.host;
  const url = parseAbsoluteUrl(value);
  return url && url.hostname !== '' ? url.hostname : undefined;
}

/**
 * Replaces the password in a URL's userinfo with `***`, so messages never echo credentials.
 * Works on the raw string, so it also covers values the URL parser rejects.
 * @example redactUrl('https://bob:hunter2@api.acme.io/') // 'https://bob:***@api.acme.io/'
 */
export function redactUrl(value: string): string {
  return value.replace(URL_USERINFO_PASSWORD, '$1***@');
}
