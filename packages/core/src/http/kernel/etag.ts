import { sha256 } from '@noble/hashes/sha2';
import { nodeBuiltin } from '../../node-builtins';
import { encodeBase64url } from '../../sign/base64url';

/**
 * The strong entity tag of a representation: `"` + base64url(SHA-256(bytes)) + `"`. Derived only
 * from the bytes, so every replica that serves the same card sends the same tag (spec §8.6.1).
 * Hashed synchronously, once per prepared document and never per request: with `node:crypto`
 * where the runtime has it (Node, Deno, Bun), in JavaScript (`@noble/hashes`) where it has not
 * (Workers without `nodejs_compat`, Next.js's edge runtime). Both give the same tag; the native
 * hash is kept because it is a tenth of the JavaScript one's cost on a large card, which a Nest
 * app pays at boot (`bench/nest-boot.mjs`).
 *
 * @example computeEtag(new TextEncoder().encode('{}')) // '"RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"'
 */
export function computeEtag(bytes: Uint8Array): string {
  const crypto = nodeBuiltin('node:crypto');
  if (crypto !== undefined) return `"${crypto.createHash('sha256').update(bytes).digest('base64url')}"`;
  return `"${encodeBase64url(sha256(bytes))}"`;
}

/** Longest `If-None-Match` value we parse; longer values are treated as not matching. */
export const MAX_IF_NONE_MATCH_LENGTH = 8192;
/** Most repeated `If-None-Match` header lines we look at. */
const MAX_IF_NONE_MATCH_LINES = 16;

/**
 * Whether an `If-None-Match` request header matches `etag` under the weak comparison that
 * RFC 9110 §13.1.2 requires for this header: `*`, or any listed entity-tag whose opaque part
 * equals ours (a `W/` prefix is ignored). Malformed, oversized or non-string values never match
 * and never throw.
 *
 * @param etag a strong entity tag, quotes included
 */
export function ifNoneMatchMatches(value: unknown, etag: string): boolean {
  if (typeof value === 'string') {
    // Clients echo the tag they got, so the common case costs one comparison.
    if (value === etag) return true;
    return matchesList(value, etag);
  }
  if (Array.isArray(value)) {
    const n = Math.min(value.length, MAX_IF_NONE_MATCH_LINES);
    for (let i = 0; i < n; i++) {
      const line: unknown = value[i];
      if (typeof line === 'string' && (line === etag || matchesList(line, etag))) return true;
    }
  }
  return false;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function matchesList(value: string, etag: string): boolean {
  const len = value.length;
  if (len === 0 || len > MAX_IF_NONE_MATCH_LENGTH) return false;
  let i = 0;
  while (i < len && isSpace(value.charCodeAt(i))) i++;
  if (value.charCodeAt(i) === 42 /* * */) {
    let j = i + 1;
    while (j < len && isSpace(value.charCodeAt(j))) j++;
    return j === len;
  }
  while (i < len) {
    const c = value.charCodeAt(i);
    if (isSpace(c) || c === 44 /* , */) {
      i++;
      continue;
    }
    let start = i;
    if (c === 87 /* W */) {
      if (value.charCodeAt(i + 1) !== 47 /* / */) return false;
      start = i + 2;
    }
    if (value.charCodeAt(start) !== 34 /* " */) return false;
    const end = value.indexOf('"', start + 1);
    if (end === -1) return false;
    if (end + 1 - start === etag.length && value.startsWith(etag, start)) return true;
    i = end + 1;
    // After a tag only whitespace or a comma may follow.
    while (i < len && isSpace(value.charCodeAt(i))) i++;
    if (i < len && value.charCodeAt(i) !== 44) return false;
  }
  return false;
}
