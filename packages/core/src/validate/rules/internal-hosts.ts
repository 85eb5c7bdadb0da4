/**
 * Rule 35 `url-private-host` (RULES.md §6.3): a URL anywhere in the card whose host only resolves
 * or routes inside a private network: RFC 1918 and RFC 6598 addresses, link-local and unique-local
 * addresses, single-label hosts (`keycloak`, `api`) and private suffixes (`.internal`, `.local`,
 * `.lan`, `.corp`, `.svc`, `.cluster.local`, `.home.arpa`). Loopback hosts are rule 34's
 * (`url-localhost`, in `publishing.ts`).
 *
 * Every string of the card that is an absolute URL with an authority (`https://…`, `wss://…`, a
 * custom binding's `grpc://…`), every `host:port` under a `url` member (a gRPC interface), and the
 * `jku` of each signature's protected header. A published card that names an internal host tells
 * every client the layout of the network behind it, and points them at a host they cannot reach.
 */
import type { Severity } from '../../findings';
import type { JsonObject, RuleCheck, RuleContext } from '../context';
import { isObject } from '../context';
import { BASE64URL, SCHEME_AUTHORITY } from '../patterns';
import { classifyHost, parseAbsoluteUrl, parseHostPort } from '../urls';
import { cardStrings } from './card-strings';
import { decodeJwsHeader } from './jws-header';
import { own, quote, where } from './read-json';

const RULE = 'url-private-host';
/** Severity per profile: a card for internal clients only is still fine to develop with. */
const SEVERITY: Record<RuleContext['profile'], Severity> = {
  development: 'warning',
  production: 'error',
  strict: 'error',
};
const HINT =
  'Use a public DNS name that clients outside your network can resolve. A card meant only for clients inside your network is checked with the development profile, where this is a warning.';
/** URLs and protected headers longer than this are not read (no URL of a card is near it). */
const MAX_URL = 8192;
const MAX_PROTECTED = 16_384;
/** `[a-z0-9.-]`: a character of a host name the URL parser leaves as it is. */
function isPlainHostChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

/** The host a string names, when it is a URL with an authority or a `url`'s `host:port`. */
function hostIn(value: string, key: string | number): string | undefined {
  if (value.length > MAX_URL) return undefined;
  // Most strings of a card are not URLs: one search for "://" before the scheme is read.
  const separator = value.indexOf('://');
  if (separator > 0 && SCHEME_AUTHORITY.test(value)) {
    // Most URLs name a plain DNS host: read it off the text. Anything else (an IP address, a
    // port, userinfo, percent-encoding, non-ASCII) is left to the URL parser's normal form.
    const start = separator + 3;
    let end = start;
    while (end < value.length && isPlainHostChar(value.charCodeAt(end))) end++;
    const next = value.charCodeAt(end);
    const first = value.charCodeAt(start);
    const plain = end > start && (end === value.length || next === 47 || next === 63 || next === 35);
    if (plain && !(first >= 48 && first <= 57) && value.charCodeAt(end - 1) !== 46) return value.slice(start, end);
    const host = parseAbsoluteUrl(value)?.hostname;
    return host === '' ? undefined : host;
  }
  return key === 'url' ? parseHostPort(value)?.host : undefined;
}

/** The `jku` of a base64url protected header, when it names one. */
function jkuOf(value: string): string | undefined {
  if (value.length > MAX_PROTECTED || !BASE64URL.test(value)) return undefined;
  const header = decodeJwsHeader(value);
  const jku = isObject(header) ? own(header, 'jku') : undefined;
  return typeof jku === 'string' ? jku : undefined;
}

/**
 * Reports every URL of the card on a private-network host: a warning in `development`, an error
 * in `production` and `strict`.
 * @see packages/core/RULES.md §6.3
 */
export const checkInternalHosts: RuleCheck = (card: JsonObject, ctx: RuleContext) => {
  const severity = SEVERITY[ctx.profile];
  const strings = cardStrings(card, ctx);
  const { values, keys } = strings;
  for (let i = 0; i < values.length; i++) {
    const key = keys[i]!;
    const jku = key === 'protected' ? jkuOf(values[i]!) : undefined;
    const host = hostIn(jku ?? values[i]!, jku === undefined ? key : 'jku');
    if (host === undefined) continue;
    const hostClass = classifyHost(host);
    if (hostClass.kind !== 'private' || ctx.overflows(RULE, severity)) continue;
    const path = strings.path(i);
    const label = jku === undefined ? where(path) : `${where(path)} (jku)`;
    ctx.report(RULE, severity, path, `${label}: host is ${hostClass.reason} (${quote(host)}).`, HINT);
  }
};
