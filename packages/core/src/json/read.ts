/**
 * The one reader of untrusted JSON text: cards, catalogs, key sets, configuration files and
 * command-line input all come in through {@link readJsonText}.
 *
 * @packageDocumentation
 */
import { parsePlain } from './parse';
import {
  firstInvalidUtf8,
  type InexactNumber,
  type JsonPath,
  jsonSyntaxErrorOffset,
  lineAndColumn,
  nestingOverflow,
  scanMembersAndNumbers,
  utf8Length,
} from './text';

/** Options of {@link readJsonText}. */
export interface JsonTextOptions {
  /**
   * Largest input read, in bytes (a string counts its UTF-8 length). Larger input is refused
   * before it is decoded or parsed.
   * @default no bound: the caller bounds what it reads from a file or the network
   */
  maxBytes?: number;
  /**
   * Deepest nesting of objects and arrays accepted; deeper text is refused (`too-deep`).
   * `Infinity` reads any depth (the value is then the one `JSON.parse` returns).
   * @default 64
   */
  maxDepth?: number;
  /**
   * Most members named twice listed in `duplicates`; 0 skips the search.
   * @default 8
   */
  duplicates?: number;
  /**
   * Most number literals that a double does not hold listed in `inexact`; 0 skips the search.
   * @default 8
   */
  inexactNumbers?: number;
}

/** Text that was read: the value and what `JSON.parse` alone would hide. */
export interface JsonTextRead {
  ok: true;
  /** The parsed value. */
  value: unknown;
  /**
   * Whether every object in `value` inherits nothing (`__proto__` and `constructor` are plain
   * members). `false` only for values past the fast path's reach (nested deeper than 64 levels,
   * over a million values, a number beyond a double), which are `JSON.parse`'s own.
   */
  plain: boolean;
  /** The decoded text, without its byte order mark. */
  text: string;
  /** Whether the text started with a byte order mark (U+FEFF), which was read past. */
  bom: boolean;
  /** Where one object names a member twice, in document order (`['skills', 0, 'id']`). */
  duplicates: JsonPath[];
  /** Number literals a double does not hold: path, literal (cut to 40 characters) and what is lost. */
  inexact: InexactNumber[];
}

/** Input that was refused, and why. */
export type JsonTextFailure =
  | { ok: false; error: 'too-large'; size: number; limit: number }
  | { ok: false; error: 'utf-8'; offset: number; byte: number }
  | {
      ok: false;
      error: 'syntax' | 'too-deep';
      /** `JSON.parse`'s message, or for `too-deep`, the nesting limit in words. */
      reason: string;
      /** Where to look: the first syntax error, or the `[`/`{` past the limit (UTF-16 offset, 1-based line and column). */
      offset: number;
      line: number;
      column: number;
      text: string;
      bom: boolean;
    };

/** What {@link readJsonText} returns. */
export type JsonTextResult = JsonTextRead | JsonTextFailure;

/** Values past which the fast path leaves a document to `JSON.parse` (the validator's copy bound). */
const FAST_VALUES = 1_000_000;
/** Nesting past which the fast path leaves a document to `JSON.parse`, bounding its recursion. */
const FAST_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads untrusted JSON text, bytes or a string, the same way everywhere. In order:
 * the size bound (`maxBytes`), strict UTF-8 (a byte that is not UTF-8 is refused with its offset,
 * never replaced by U+FFFD), a leading byte order mark (read past, and said), the RFC 8259
 * grammar (a syntax error comes with `JSON.parse`'s message and a line and column, which
 * `JSON.parse` does not always give), the nesting depth (`maxDepth`), members named twice in one
 * object and numbers a double does not hold (both listed, never refused: the caller decides).
 * Objects in the value inherit nothing, so no member name reaches `Object.prototype`. Never
 * throws.
 *
 * @param input - UTF-8 bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`) or text.
 * @returns `{ ok: true, value, text, bom, duplicates, inexact }`, or `{ ok: false, error }` with
 *   `error` one of `too-large`, `utf-8`, `syntax`, `too-deep` and where to look.
 * @example
 * ```ts
 * const read = readJsonText(await readFile('agent-card.json'));
 * if (!read.ok) throw new Error(read.error === 'syntax' ? `line ${read.line}: ${read.reason}` : read.error);
 * if (read.duplicates.length > 0) console.warn('a member is named twice');
 * ```
 */
export function readJsonText(input: string | Uint8Array | ArrayBuffer, options: JsonTextOptions = {}): JsonTextResult {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const maxDepth = options.maxDepth ?? 64;
  const limits = { duplicates: options.duplicates ?? 8, inexact: options.inexactNumbers ?? 8 };
  let text: string;
  if (typeof input === 'string') {
    // A string of n code units takes between n and 3n bytes: count only when that matters.
    const size = input.length * 3 <= maxBytes ? input.length : utf8Length(input);
    if (size > maxBytes) return { ok: false, error: 'too-large', size, limit: maxBytes };
    text = input;
  } else {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    if (bytes.byteLength > maxBytes) return { ok: false, error: 'too-large', size: bytes.byteLength, limit: maxBytes };
    try {
      text = utf8.decode(bytes);
    } catch {
      const offset = firstInvalidUtf8(bytes);
      return { ok: false, error: 'utf-8', offset, byte: bytes[offset] ?? 0 };
    }
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);

  const fast = parsePlain(text, { ...limits, depth: Math.min(maxDepth, FAST_DEPTH), values: FAST_VALUES });
  if (typeof fast === 'object') return { ok: true, plain: true, text, bom, ...fast };
  // Not JSON, or JSON past the fast path's reach: `JSON.parse` decides, and gives its message.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failure('syntax', errorMessage(error), jsonSyntaxErrorOffset(text), text, bom);
  }
  const deep = maxDepth === Number.POSITIVE_INFINITY ? undefined : nestingOverflow(text, maxDepth);
  if (deep !== undefined) return failure('too-deep', `nested deeper than ${maxDepth} levels`, deep, text, bom);
  return { ok: true, value, plain: false, text, bom, ...scanMembersAndNumbers(text, limits) };
}

function failure(
  error: 'syntax' | 'too-deep',
  reason: string,
  offset: number,
  text: string,
  bom: boolean,
): JsonTextFailure {
  return { ok: false, error, reason, offset, ...lineAndColumn(text, offset), text, bom };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
