/**
 * URL and host classification used by the publishing-readiness rules.
 *
 * Everything here takes untrusted strings and never throws.
 * @see packages/core/RULES.md §6.3 (rules 33–38)
 */
import { HOST_PORT, IPV4, IPV6_CHARACTERS, IPV6_GROUP, trimTrailing, URL_USERINFO_PASSWORD } from './patterns';

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
  const match = IPV4.exec(host);
  if (!match) return undefined;
  const octets = [match[1], match[2], match[3], match[4]].map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets as [number, number, number, number];
}

/**
 * Parses an IPv6 address (brackets and a zone id allowed) into eight 16-bit groups.
 * Handles `::` compression and an embedded IPv4 tail (`::ffff:127.0.0.1`).
 * @example parseIPv6('[::1]') // [0, 0, 0, 0, 0, 0, 0, 1]
 */
export function parseIPv6(host: string): number[] | undefined {
  let text = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (text.length === 0 || text.length > 45 || !IPV6_CHARACTERS.test(text)) return undefined;

  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4 || lastColon === -1) return undefined;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    text = text.slice(0, lastColon + 1);
    // "::ffff:" keeps its trailing colon only as part of "::"
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }

  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parseGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    if (groups.some((g) => !IPV6_GROUP.test(g))) return undefined;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parseGroups(halves[0] ?? '');
  if (!head) return undefined;
  if (halves.length === 1) {
    const all = [...head, ...tail];
    return all.length === 8 ? all : undefined;
  }
  const rest = parseGroups(halves[1] ?? '');
  if (!rest) return undefined;
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...rest, ...tail];
}

const PLACEHOLDER_DOMAINS = ['example.com', 'example.net', 'example.org'];
const PLACEHOLDER_TLDS = ['example', 'test', 'invalid'];
// RFC 6762 (.local), RFC 8375 (.home.arpa), ICANN-reserved .internal, and common cluster/home suffixes.
const PRIVATE_SUFFIXES = ['internal', 'local', 'lan', 'corp', 'svc', 'cluster.local', 'home.arpa'];

function classifyIPv4(o: readonly [number, number, number, number]): HostClass {
  const [a, b, c] = o;
  if (a === 127) return { kind: 'loopback', reason: 'a loopback address (127.0.0.0/8)' };
  if (a === 0) return { kind: 'loopback', reason: 'the unspecified address (0.0.0.0)' };
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return { kind: 'private', reason: 'an RFC 1918 private address' };
  }
  if (a === 100 && b >= 64 && b <= 127)
    return { kind: 'private', reason: 'an RFC 6598 shared address (100.64.0.0/10)' };
  if (a === 169 && b === 254) return { kind: 'private', reason: 'a link-local address (169.254.0.0/16)' };
  if (
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) {
    return { kind: 'placeholder', reason: 'an RFC 5737 documentation address' };
  }
  return { kind: 'public', reason: 'a public address' };
}

function classifyIPv6(g: readonly number[]): HostClass {
  const first = g[0] ?? 0;
  const zeroPrefix = g.slice(0, 5).every((x) => x === 0);
  if (zeroPrefix && g[5] === 0 && g[6] === 0 && g[7] === 1)
    return { kind: 'loopback', reason: 'the IPv6 loopback address (::1)' };
  if (g.every((x) => x === 0)) return { kind: 'loopback', reason: 'the unspecified address (::)' };
  // IPv4-mapped addresses reach the IPv4 host, so they get its classification.
  if (zeroPrefix && g[5] === 0xffff) {
    const v4 = [(g[6] ?? 0) >> 8, (g[6] ?? 0) & 0xff, (g[7] ?? 0) >> 8, (g[7] ?? 0) & 0xff] as const;
    return classifyIPv4(v4);
  }
  if ((first & 0xffc0) === 0xfe80) return { kind: 'private', reason: 'an IPv6 link-local address (fe80::/10)' };
  if ((first & 0xfe00) === 0xfc00) return { kind: 'private', reason: 'an IPv6 unique local address (fc00::/7)' };
  if (first === 0x2001 && g[1] === 0x0db8) return { kind: 'placeholder', reason: 'an RFC 3849 documentation address' };
  return { kind: 'public', reason: 'a public address' };
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
  const v4 = parseIPv4(host);
  if (v4) return classifyIPv4(v4);
  if (host.includes(':')) {
    const v6 = parseIPv6(host);
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
