import type { JWK, JSONWebKeySet } from 'jose';
import { AgentCardError } from '../errors';
import { checkKeySetUrl, DEFAULT_JWKS_TIMEOUT_MS, fetchKeySet } from './jwks';
import { quote } from '../util';

/*
 * Which key sets one verification may fetch. The card names its own `jku`s, so whoever can
 * change the card chooses them: each fetch is therefore bounded by the caller's allow-list (host,
 * port, query), by count (one key set per allowed entry, and the trusted `jwksUrl`), and by one
 * time budget shared by every fetch of the verification.
 */

/** One `allowJkuHosts` entry, parsed once per verification. */
export interface AllowedJku {
  /** How the caller wrote it, for messages. */
  entry: string;
  hostname: string;
  /** The port the entry names, `''` for the scheme's default. */
  port: string;
  /** The exact URL when the entry is one; otherwise any path without a query. */
  href?: string;
}

function verifyOptionError(what: string, how: string): AgentCardError {
  return new AgentCardError('ERR_AGENT_CARD_SIGNATURE', `verifyAgentCard: ${what}. ${how}`);
}

/** Parses `allowJkuHosts`: `keys.example.com`, `keys.example.com:8443` or an exact `https://` URL. */
export function parseAllowedJkus(entries: readonly string[], allowInsecure: boolean): AllowedJku[] {
  const out: AllowedJku[] = [];
  const problems: string[] = [];
  for (const raw of entries) {
    const entry = String(raw).trim();
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      const url = checkKeySetUrl(entry, allowInsecure);
      if (typeof url === 'string') problems.push(`allowJkuHosts entry ${quote(entry)} ${url}`);
      else out.push({ entry, hostname: url.hostname, port: url.port, href: url.href });
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(`https://${entry}`);
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      entry === '' ||
      url.pathname !== '/' ||
      url.search !== '' ||
      url.username !== '' ||
      entry.includes('/')
    ) {
      problems.push(`allowJkuHosts entry ${quote(entry)} is not a host, host:port or https URL`);
      continue;
    }
    out.push({ entry, hostname: url.hostname, port: url.port });
  }
  if (problems.length > 0) {
    throw verifyOptionError(
      problems.join('; '),
      'List host names ("keys.example.com"), host:port, or exact https:// key-set URLs.',
    );
  }
  return out;
}

/** The allow-list entry that admits `jku`, or why none does. */
export function admitJku(jku: URL, allowed: readonly AllowedJku[]): AllowedJku | string | undefined {
  const sameHost = allowed.filter((a) => a.hostname === jku.hostname.toLowerCase());
  if (sameHost.length === 0) return undefined;
  const exact = sameHost.find((a) => a.href === jku.href);
  if (exact) return exact;
  const hostEntry = sameHost.find((a) => a.href === undefined && a.port === jku.port);
  if (hostEntry === undefined) {
    return jku.port !== '' && !sameHost.some((a) => a.port === jku.port)
      ? `jku ${jku.href} uses port ${jku.port}, which no allowJkuHosts entry names`
      : `jku ${jku.href} is not the key-set URL allowJkuHosts names for ${jku.hostname}`;
  }
  if (jku.search !== '') return `jku ${jku.href} carries a query string, which only an exact allowJkuHosts URL may`;
  return hostEntry;
}

export type KeySource = { name: string; keys: readonly JWK[] } | { name: string; error: string };

/** Fetches key sets for one verification: each URL once, one per allowed entry, one time budget. */
export function createKeySetFetcher(options: {
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  maxBytes?: number;
}): (url: URL, entry?: AllowedJku) => Promise<KeySource> {
  const budget = options.timeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  const byUrl = new Map<string, Promise<KeySource>>();
  const byEntry = new Map<AllowedJku, string>();
  return (url, entry) => {
    const pending = byUrl.get(url.href);
    if (pending) return pending;
    if (entry !== undefined) {
      const earlier = byEntry.get(entry);
      if (earlier !== undefined) {
        return Promise.resolve({
          name: url.href,
          error: `jku ${url.href} was not fetched: allowJkuHosts entry ${quote(entry.entry)} already gave ${earlier}, and one verification fetches one key set per entry`,
        });
      }
      byEntry.set(entry, url.href);
    }
    const left = deadline - Date.now();
    const result: Promise<KeySource> =
      left <= 0
        ? Promise.resolve({
            name: url.href,
            error: `JWKS ${url.href} was not fetched: the ${budget} ms budget of this verification is spent`,
          })
        : fetchKeySet(url, {
            fetch: options.fetch,
            timeoutMs: left,
            budgetMs: budget,
            maxBytes: options.maxBytes,
          }).then(
            (set: JSONWebKeySet) => ({ name: url.href, keys: set.keys }),
            (error: Error) => ({ name: url.href, error: error.message }),
          );
    byUrl.set(url.href, result);
    return result;
  };
}
