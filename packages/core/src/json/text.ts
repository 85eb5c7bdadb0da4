/**
 * Scanning JSON text: where a syntax error is, where a line and column are, which members are
 * named twice and which numbers a double does not hold. Used by {@link readJsonText} and, for
 * values the fast reader leaves to `JSON.parse`, by the validator.
 *
 * @see packages/core/RULES.md §6.1 (rule 1)
 * @packageDocumentation
 */
import { NodeBuffer } from '../bytes';

/** 1-based line and column of a UTF-16 offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const OBJECT = 0;
const ARRAY = 1;

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The offset of the first syntax error of `text` under the RFC 8259 grammar (the grammar
 * `JSON.parse` implements), or `text.length` when there is none. `JSON.parse` does not always
 * report a position (Node 20: "Unexpected end of JSON input", "… is not valid JSON"), and an error
 * must say where to look. An explicit stack instead of recursion: nesting depth is the input's to
 * choose.
 * @example jsonSyntaxErrorOffset('{"name": "x",}') // 13
 */
export function jsonSyntaxErrorOffset(text: string): number {
  const n = text.length;
  const stack: number[] = [];
  let i = 0;

  const space = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      i++;
    }
  };
  /** A string starting at `i` (a `"`); `false` with `i` at the defect. */
  const string = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c === 0x5c) {
        const next = text.charCodeAt(i + 1);
        // " \ / b f n r t
        if (
          next === 0x22 ||
          next === 0x5c ||
          next === 0x2f ||
          next === 0x62 ||
          next === 0x66 ||
          next === 0x6e ||
          next === 0x72 ||
          next === 0x74
        ) {
          i += 2;
          continue;
        }
        if (
          next === 0x75 &&
          isHex(text.charCodeAt(i + 2)) &&
          isHex(text.charCodeAt(i + 3)) &&
          isHex(text.charCodeAt(i + 4)) &&
          isHex(text.charCodeAt(i + 5))
        ) {
          i += 6;
          continue;
        }
        return false;
      }
      if (c < 0x20) return false;
      i++;
    }
    return false;
  };
  /** `true`, `false`, `null` or a number at `i`; `false` with `i` unchanged when none. */
  const scalar = (): boolean => {
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return true;
      }
    }
    // -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?, the longest prefix that matches
    let j = i;
    if (text.charCodeAt(j) === 0x2d) j++;
    const first = text.charCodeAt(j);
    if (first === 0x30) j++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(text.charCodeAt(j))) j++;
    else return false;
    if (text.charCodeAt(j) === 0x2e && isDigit(text.charCodeAt(j + 1))) {
      j += 2;
      while (isDigit(text.charCodeAt(j))) j++;
    }
    const e = text.charCodeAt(j);
    if (e === 0x65 || e === 0x45) {
      let k = j + 1;
      const sign = text.charCodeAt(k);
      if (sign === 0x2b || sign === 0x2d) k++;
      if (isDigit(text.charCodeAt(k))) {
        while (isDigit(text.charCodeAt(k))) k++;
        j = k;
      }
    }
    i = j;
    return true;
  };
  /** `"name":` at `i` (after space); `false` with `i` at the defect. */
  const member = (): boolean => {
    space();
    if (text.charCodeAt(i) !== 0x22 || !string()) return false;
    space();
    if (text.charCodeAt(i) !== 0x3a) return false;
    i++;
    return true;
  };

  for (;;) {
    // A value is expected at `i`.
    space();
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      space();
      if (text.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) i++;
      else {
        stack.push(c === 0x7b ? OBJECT : ARRAY);
        if (c === 0x7b && !member()) return i;
        continue;
      }
    } else if (c === 0x22) {
      if (!string()) return i;
    } else if (!scalar()) return i;
    // A value ended: close containers until one expects another value.
    for (;;) {
      space();
      if (stack.length === 0) return i;
      const top = stack[stack.length - 1];
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (top === OBJECT && !member()) return i;
        break;
      }
      if (d === (top === OBJECT ? 0x7d : 0x5d)) {
        i++;
        stack.pop();
        continue;
      }
      return i;
    }
  }
}

/** A path in a JSON value: member names and array indexes, from the root. */
export type JsonPath = (string | number)[];

/** A number literal a double does not hold: where, the literal (cut to 40 characters), and what is lost. */
export interface InexactNumber {
  path: JsonPath;
  literal: string;
  loss: string;
}

/** A container being scanned by {@link scanMembersAndNumbers}. */
interface Frame {
  /** The enclosing container, and this container's name or index in it. */
  parent: Frame | undefined;
  key: string | number;
  /** Whether this is an object (else an array). */
  object: boolean;
  /** The first member name, and the others once there are two (most objects have one member). */
  first: string | undefined;
  names: Set<string> | undefined;
  /** The next array index, or the name of the object member whose value comes next. */
  at: string | number;
}

/** The path of `last` in `frame`, built only for a finding: O(depth) once, not per container. */
function pathTo(frame: Frame, last: string | number): JsonPath {
  const path: JsonPath = [last];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}

/** The value of the JSON string token `text[start, end)`, quotes included. */
function stringToken(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : inner;
}

/** Records a member name in `top`, and its path when the object already had it. */
function memberName(top: Frame, name: string, duplicates: JsonPath[]): void {
  if (top.first === undefined) top.first = name;
  else if (top.first === name || top.names?.has(name) === true) duplicates.push(pathTo(top, name));
  else {
    top.names ??= new Set();
    top.names.add(name);
  }
  top.at = name;
}

/** Records the number literal `literal` at `top` when a double does not hold it. */
function numberLiteral(top: Frame | undefined, literal: string, inexact: InexactNumber[]): void {
  const loss = numberLoss(literal);
  if (loss === undefined) return;
  const cut = literal.length > 40 ? `${literal.slice(0, 39)}…` : literal;
  inexact.push({ path: top === undefined ? [] : pathTo(top, top.at), literal: cut, loss });
}

/**
 * One pass over valid JSON text for what `JSON.parse` hides, in document order:
 * - `duplicates`: where one object names a member twice, at most `limits.duplicates` places (the
 *   path of the repeated member, `['skills', 0, 'id']`). RFC 8259 §4 only says names SHOULD be
 *   unique, and parsers disagree about a repeat: `JSON.parse` keeps the last value, others keep
 *   the first or refuse. Two readers of such a card read two different cards, so a signature can
 *   cover the one a client does not use. Names compare after unescaping (`"\u0069d"` is `"id"`).
 * - `inexact`: number literals that do not survive a double ({@link numberLoss}), at most
 *   `limits.inexact` of them.
 *
 * An explicit stack instead of recursion, linear in the text; call it on text `JSON.parse`
 * accepted (on other text it stops early without throwing).
 * @example scanMembersAndNumbers('{"url": "https://a.test", "url": 1e400}').duplicates // [['url']]
 */
export function scanMembersAndNumbers(
  text: string,
  limits: { duplicates: number; inexact: number },
): { duplicates: JsonPath[]; inexact: InexactNumber[] } {
  const duplicates: JsonPath[] = [];
  const inexact: InexactNumber[] = [];
  let top: Frame | undefined;
  const n = text.length;
  /** Whether the next string in the innermost object is a member name. */
  let expectName = false;
  for (let i = 0; i < n && (duplicates.length < limits.duplicates || inexact.length < limits.inexact); i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (expectName && top?.object === true) {
        const name = stringToken(text, start, i + 1);
        if (duplicates.length < limits.duplicates) memberName(top, name, duplicates);
        else top.at = name;
        expectName = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      top = { parent: top, key: top?.at ?? '', object: c === 0x7b, first: undefined, names: undefined, at: 0 };
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      top = top?.parent;
      expectName = false;
    } else if (c === 0x2c) {
      if (top === undefined) break;
      if (!top.object) top.at = (top.at as number) + 1;
      else expectName = true;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i;
      while (i + 1 < n && isNumberPart(text.charCodeAt(i + 1))) i++;
      if (inexact.length < limits.inexact) numberLiteral(top, text.slice(start, i + 1), inexact);
    }
  }
  return { duplicates, inexact };
}

/** A character of a number literal after its first: a digit, `e`, `E`, `.`, `+` or `-`. */
function isNumberPart(c: number): boolean {
  return isDigit(c) || c === 0x65 || c === 0x45 || c === 0x2e || c === 0x2b || c === 0x2d;
}

/**
 * Where valid JSON text names a member twice in one object, in document order, at most `limit`
 * places ({@link scanMembersAndNumbers}).
 * @example duplicateMembers('{"url": "https://a.test", "url": "https://b.test"}') // [['url']]
 */
export function duplicateMembers(text: string, limit = 8): JsonPath[] {
  return scanMembersAndNumbers(text, { duplicates: limit, inexact: 0 }).duplicates;
}

/**
 * Number literals of valid JSON text that do not survive a double, in document order, at most
 * `limit` of them ({@link scanMembersAndNumbers}).
 */
export function inexactNumbers(text: string, limit = 8): InexactNumber[] {
  return scanMembersAndNumbers(text, { duplicates: 0, inexact: limit }).inexact;
}

/** A decimal value as digits without leading or trailing zeros and the point's place: `0.{digits} × 10^point`. */
function decimalOf(literal: string): { negative: boolean; digits: string; point: number } {
  const negative = literal.startsWith('-');
  const body = negative ? literal.slice(1) : literal;
  const e = body.search(/[eE]/);
  const mantissa = e === -1 ? body : body.slice(0, e);
  const exponent = e === -1 ? 0 : Number(body.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const whole = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const all = dot === -1 ? mantissa : whole + mantissa.slice(dot + 1);
  const lead = all.search(/[1-9]/);
  if (lead === -1) return { negative, digits: '', point: 0 };
  return { negative, digits: all.slice(lead).replace(/0+$/, ''), point: whole.length - lead + exponent };
}

/**
 * Why the JSON number `literal` does not survive a double, or `undefined` when it does: its
 * decimal value must be the value of the double it reads as, written the shortest way (what
 * RFC 8785 writes and signs). `1.0`, `1e2` and `0.1` pass (they read back as 1, 100 and 0.1);
 * `9007199254740993`, `1.00000000000000001`, `1e400`, `1e-400` and `-0` do not: a reader that
 * keeps exact numbers (Python's int, Go's json.Number) reads a value nobody signed.
 * @see RFC 7493 §2.2 (I-JSON numbers), RFC 8785 §3.2.2.3
 */
export function numberLoss(literal: string): string | undefined {
  const value = Number(literal);
  if (!Number.isFinite(value)) return 'is beyond the range of a double (it reads as Infinity)';
  const exact = decimalOf(literal);
  if (value === 0) {
    if (exact.digits !== '') return 'is too small for a double (it reads as 0)';
    return exact.negative ? 'is negative zero, which reads as 0 once serialized (RFC 8785 writes 0)' : undefined;
  }
  const read = decimalOf(String(value));
  if (read.negative === exact.negative && read.digits === exact.digits && read.point === exact.point) return undefined;
  return `is not exactly a double (it reads as ${String(value)})`;
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

/** The UTF-8 length of `text` in bytes (a lone surrogate counts 3, as an encoder replaces it). */
export function utf8Length(text: string): number {
  // Node and Bun count natively: about 40 times faster than countUtf8 on the 216 KB card of
  // bench/nest-boot.mjs, whose card-registry-size check measures the whole card (target ≤ 0.3).
  return NodeBuffer !== undefined ? NodeBuffer.byteLength(text, 'utf8') : countUtf8(text);
}

/** {@link utf8Length} where the runtime has no `Buffer` (Deno, Cloudflare Workers). */
export function countUtf8(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2;
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
