/**
 * Reading untrusted response bodies and header values: UTF-8, JSON, HTML sniffing, media types
 * and Cache-Control. Nothing here throws.
 */
import { duplicateMembers, inexactNumbers } from '../json/text';
import { MAX_DEPTH } from '../validate/shape';

/** Outcome of decoding and parsing a body as a JSON document. */
export type ParsedBody =
  | {
      kind: 'json';
      value: unknown;
      bom: boolean;
      /** Members named twice in one object (their paths), which readers of the body resolve differently. */
      duplicates: (string | number)[][];
      /** Number literals a double does not hold exactly, which readers of the body read differently (when any). */
      inexact?: ReturnType<typeof inexactNumbers>;
    }
  | { kind: 'html'; title?: string }
  | { kind: 'empty' }
  | { kind: 'invalid-utf8'; offset: number; byte: number }
  | { kind: 'invalid-json'; reason: string }
  /** More than `limit` objects and arrays nested; `offset` is the character that opens one too many. */
  | { kind: 'too-deep'; limit: number; offset: number };

/**
 * Deepest nesting of objects and arrays a body may have: the validator's limit, so a body it
 * would reject is never parsed into a tree that only recursion could print or compare.
 */
export const MAX_BODY_DEPTH = MAX_DEPTH;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Decodes a body as UTF-8 JSON; HTML (what SPA fallbacks and login pages send) is recognised first. */
export function parseBody(bytes: Uint8Array): ParsedBody {
  if (bytes.byteLength === 0) return { kind: 'empty' };
  if (looksLikeHtml(bytes)) {
    const title = htmlTitle(bytes);
    return title === undefined ? { kind: 'html' } : { kind: 'html', title };
  }
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return { kind: 'invalid-utf8', offset, byte: bytes[offset] ?? 0 };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  if (text.trim() === '') return { kind: 'empty' };
  const tooDeep = nestingOverflow(text, MAX_BODY_DEPTH);
  if (tooDeep !== undefined) return { kind: 'too-deep', limit: MAX_BODY_DEPTH, offset: tooDeep };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid-json', reason: error instanceof Error ? error.message : String(error) };
  }
  const inexact = inexactNumbers(text);
  return { kind: 'json', value, bom, duplicates: duplicateMembers(text), ...(inexact.length > 0 ? { inexact } : {}) };
}

/**
 * Offset of the `[` or `{` that nests more than `limit` levels deep, or `undefined`. One linear
 * pass over the text, strings skipped; the text need not be valid JSON.
 */
export function nestingOverflow(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
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

/** Byte offset of the first byte that breaks UTF-8 (RFC 3629), or the length when valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.byteLength) {
    const b = bytes[i] ?? 0;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return i;
}

/** A parsed `Content-Type`: lower-case `type/subtype` and parameters. */
export interface MediaType {
  essence: string;
  charset?: string;
}

/** Parses a `Content-Type` value; `undefined` when it is missing or malformed. */
export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  const [essence = '', ...params] = value.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/.test(type)) return undefined;
  const out: MediaType = { essence: type };
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() === 'charset') {
      out.charset = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '')
        .toLowerCase();
    }
  }
  return out;
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

/** A short, safe rendering of a header or URL value for messages. */
export function show(value: string, max = 120): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this masks.
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return JSON.stringify(clean.length > max ? `${clean.slice(0, max - 1)}…` : clean);
}
