// CORS of every document the responder serves: the `cors` option, checked once, and the
// per-origin variants of each prepared answer.
import type { AgentCardRequestHeaders } from './exchange';
import type { Report } from './problems';

/** Normalised CORS setting. */
export type CorsSetting =
  | { readonly mode: 'any' }
  | { readonly mode: 'off' }
  | { readonly mode: 'list'; readonly origins: readonly string[] };

/** `Access-Control-Allow-Methods` and `Allow` of every card resource. */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
/** How long browsers may cache a preflight answer (Chromium caps it at 2 hours). */
export const PREFLIGHT_MAX_AGE = '7200';
/** Request headers a browser may send to a card resource. */
export const BASE_ALLOW_HEADERS: readonly string[] = ['Accept', 'If-None-Match', 'A2A-Version', 'A2A-Extensions'];

const ORIGIN = /^https?:\/\/[^/?#\s@]+$/;

/** The `cors` option: `*` (default), a list of origins, or `false`. Problems go to `err`. */
export function resolveCors(value: unknown, err: Report): CorsSetting {
  if (value === false) return { mode: 'off' };
  if (value === undefined || value === '*') return { mode: 'any' };
  if (!Array.isArray(value)) {
    err(
      'cors',
      "must be '*', a list of origins, or false",
      value,
      "Use '*' (default), ['https://app.example.com'], or false.",
    );
    return { mode: 'any' };
  }
  const bad = value.filter((v) => typeof v !== 'string' || !ORIGIN.test(v));
  if (value.length === 0)
    err('cors', 'an empty origin list allows nobody', value, 'List origins, or use false to send no CORS headers.');
  else if (bad.length > 0)
    err(
      'cors',
      'origins must look like scheme://host[:port] without a path or trailing slash',
      bad,
      "Use e.g. ['https://app.example.com'].",
    );
  else return { mode: 'list', origins: [...new Set(value as string[])] };
  return { mode: 'any' };
}

/**
 * A value prepared once per CORS outcome: `any` when the request's `Origin` is not in the list
 * (or CORS is `*`/off), `byOrigin` for each listed origin. Selecting one is a Map lookup.
 */
export interface CorsVariants<T> {
  readonly any: T;
  readonly byOrigin?: ReadonlyMap<string, T>;
}

/** Picks the value prepared for this request's `Origin`. */
export function selectCors<T>(variants: CorsVariants<T>, headers: AgentCardRequestHeaders): T {
  const byOrigin = variants.byOrigin;
  if (byOrigin === undefined) return variants.any;
  const origin = headers.origin;
  return (typeof origin === 'string' && byOrigin.get(origin)) || variants.any;
}

/** Builds a value for each CORS outcome; `cors` holds the CORS headers to add. */
export function buildCorsVariants<T>(
  setting: CorsSetting,
  build: (cors: Record<string, string>) => T,
): CorsVariants<T> {
  if (setting.mode === 'off') return { any: build({}) };
  if (setting.mode === 'any') return { any: build({ 'access-control-allow-origin': '*' }) };
  const byOrigin = new Map<string, T>();
  for (const origin of setting.origins) byOrigin.set(origin, build({ 'access-control-allow-origin': origin }));
  return { any: build({}), byOrigin };
}
