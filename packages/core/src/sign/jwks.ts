import type { JSONWebKeySet, JWK } from 'jose';
import { readCapped } from '../bytes';
import { type JsonTextFailure, readJsonText } from '../json/read';
import { quoteUntrusted } from '../util';

/** Default time a JWKS request may take, headers and body together. */
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;
/** Default largest JWKS body read; a real key set is a few kilobytes. */
export const DEFAULT_JWKS_MAX_BYTES = 256 * 1024;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Checks that a JWKS URL (`jwksUrl` or a header's `jku`) may be fetched: `https:` only, or
 * `http:` to a loopback host when `allowInsecure` is set (local tests). Returns the parsed URL
 * or what is wrong.
 */
export function checkKeySetUrl(value: unknown, allowInsecure: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return `is not an absolute URL (${quoteUntrusted(String(value))})`;
  }
  if (url.username || url.password) return `must not carry credentials (${url.origin})`;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowInsecure && LOOPBACK.has(url.hostname)) return url;
  if (url.protocol === 'http:' && allowInsecure) {
    return `is not https (${url.href}); allowInsecureJwksUrl only admits http to 127.0.0.1, [::1] or localhost`;
  }
  return `is not https (${url.href})`;
}

/** Options of {@link fetchKeySet}. */
export interface FetchKeySetOptions {
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  /** The time limit named in messages, when `timeoutMs` is what is left of a larger budget. */
  budgetMs?: number;
  maxBytes?: number;
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as JSONWebKeySet).keys) &&
    (value as JSONWebKeySet).keys.every((key: JWK) => typeof key === 'object' && key !== null && !Array.isArray(key))
  );
}

/** Why untrusted bytes (a key set, a protected header) are not JSON: the parser's message, or the byte that is not UTF-8. */
export function notJsonReason(read: JsonTextFailure): string {
  if (read.error === 'utf-8')
    return `byte 0x${read.byte.toString(16).padStart(2, '0')} at offset ${read.offset} is not UTF-8`;
  if (read.error === 'too-large') return `larger than ${read.limit} bytes`;
  return read.reason;
}

/**
 * Fetches a JWKS. Redirects are not followed (a redirect could leave https), the whole exchange
 * is bounded by `timeoutMs` even when a custom `fetch` ignores the abort signal, and the body is
 * read up to `maxBytes`. Resolves to the key set or rejects with an `Error` whose message says
 * what went wrong (used as a signature's failure reason).
 */
export async function fetchKeySet(url: URL, options: FetchKeySetOptions = {}): Promise<JSONWebKeySet> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_JWKS_MAX_BYTES;
  const limitMs = options.budgetMs ?? timeoutMs;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`JWKS ${url.href} did not answer within ${limitMs} ms`));
    }, timeoutMs);
  });
  const exchange = (async () => {
    const response = await fetchImpl(url, {
      redirect: 'manual',
      signal: controller.signal,
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    if (response.status >= 300 && response.status < 400) {
      throw new Error(`JWKS ${url.href} redirects (${response.status}); configure the final URL`);
    }
    if (response.status !== 200) throw new Error(`JWKS ${url.href} answered HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      throw new Error(`JWKS ${url.href} is larger than ${maxBytes} bytes (${declared})`);
    }
    const bytes = await readCapped(response.body, maxBytes);
    if (!bytes) throw new Error(`JWKS ${url.href} is larger than ${maxBytes} bytes`);
    // Key sets are read as every other untrusted JSON: strict UTF-8, at most 64 levels deep.
    const read = readJsonText(bytes, { duplicates: 0, inexactNumbers: 0 });
    if (!read.ok) throw new Error(`JWKS ${url.href} is not JSON (${notJsonReason(read)})`);
    if (!isKeySet(read.value)) throw new Error(`JWKS ${url.href} has no "keys" array of JWK objects`);
    return read.value;
  })();
  // A rejection after the race is settled must not surface as an unhandled rejection.
  exchange.catch(() => undefined);
  try {
    return await Promise.race([exchange, timeout]);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`JWKS ${url.href} did not answer within ${limitMs} ms`);
    if ((error as Error).message.startsWith('JWKS ')) throw error;
    throw new Error(`JWKS ${url.href} could not be fetched (${(error as Error).message})`);
  } finally {
    clearTimeout(timer);
  }
}
