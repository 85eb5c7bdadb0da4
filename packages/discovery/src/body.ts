/**
 * Reading untrusted response bodies and header values: UTF-8, JSON, HTML sniffing, media types
 * and Cache-Control. Nothing here throws.
 */
import { readJsonBytes } from '@agent-card/core';
import { parse as parseContentType } from 'content-type';

/**
 * Outcome of reading a body: what `readJsonBytes` reads (JSON, empty, invalid UTF-8, invalid
 * JSON, too deep), or an HTML page, which SPA fallbacks and login pages send.
 */
export type ParsedBody = ReturnType<typeof readJsonBytes> | { kind: 'html'; title?: string };

const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Decodes a body as UTF-8 JSON; HTML (what SPA fallbacks and login pages send) is recognised first. */
export function parseBody(bytes: Uint8Array): ParsedBody {
  if (bytes.byteLength === 0) return { kind: 'empty' };
  if (looksLikeHtml(bytes)) {
    const title = htmlTitle(bytes);
    return title === undefined ? { kind: 'html' } : { kind: 'html', title };
  }
  return readJsonBytes(bytes);
}

/** Whether the body starts, after whitespace and a BOM, with `<` (rule `discovery-html-body`). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  // Bounded by the body length; real bodies reach `<` within a few bytes.
  for (; i < bytes.byteLength; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x3c;
  }
  return false;
}

/** The `<title>` of an HTML body (first 64 KiB), whitespace collapsed, cut to 80 characters. */
export function htmlTitle(bytes: Uint8Array): string | undefined {
  const head = lenientDecoder.decode(bytes.subarray(0, 65_536));
  // What /<title[^>]*>([^<]*)<\/title>/i finds, in one pass: every `<title` before the same `>`
  // leads to the same text, so the search moves on past that `>` (the expression retried each
  // start and took quadratic time on a body of repeated `<title`).
  const lower = head.toLowerCase();
  let raw: string | undefined;
  for (let at = lower.indexOf('<title'); at !== -1; ) {
    const open = lower.indexOf('>', at + 6);
    if (open === -1) break;
    const close = lower.indexOf('<', open + 1);
    if (close === -1) break;
    if (lower.startsWith('</title>', close)) {
      raw = head.slice(open + 1, close);
      break;
    }
    at = lower.indexOf('<title', open + 1);
  }
  const title = raw?.replace(/\s+/g, ' ').trim();
  if (!title) return undefined;
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

/** A parsed `Content-Type`: lower-case `type/subtype` and parameters. */
export interface MediaType {
  essence: string;
  charset?: string;
}

/** `type/subtype` as RFC 9110 §8.3.1 spells it: two tokens. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Parses a `Content-Type` value with `content-type` (quoted parameters, escapes, optional
 * whitespace); `undefined` when it is missing or its type is not `type/subtype`.
 */
export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  const { type, parameters } = parseContentType(value);
  if (!MEDIA_TYPE.test(type)) return undefined;
  const charset = parameters.charset;
  return charset === undefined ? { essence: type } : { essence: type, charset: charset.toLowerCase() };
}

/** Whether a media type is JSON: `application/json`, `application/a2a+json` or any `+json`. */
export function isJsonMediaType(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json');
}

/** Cache-Control directives, lower-case names; valueless directives map to `''`. */
export function parseCacheControl(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === '') continue;
    out.set(
      name,
      eq < 0
        ? ''
        : part
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, ''),
    );
  }
  return out;
}

/** Comma-separated header tokens, lower case (`Vary`, `Access-Control-Allow-Methods`). */
export function headerTokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
}
