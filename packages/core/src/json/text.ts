/**
 * Reading JSON text, shared by the validator (rule 1, `card-json-parse`) and the config loader:
 * one way to treat a byte order mark, one way to say where a syntax error is.
 *
 * @see packages/core/RULES.md §6.1 (rule 1)
 * @packageDocumentation
 */
import { describePath, preview } from './shape';

/** The finding text for a byte order mark (rule 1, a warning wherever JSON text is read). */
export const BYTE_ORDER_MARK = {
  message: 'starts with a byte order mark (U+FEFF).',
  hint: 'Save the file as UTF-8 without BOM; RFC 8259 §8.1 forbids adding one and some parsers reject it.',
} as const;

/** `text` without a leading byte order mark, and whether it had one. */
export function stripByteOrderMark(text: string): { text: string; bom: boolean } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), bom: true } : { text, bom: false };
}

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

function isDigit(c: number): boolean {
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

/** A container being scanned by {@link duplicateMembers}. */
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

/** The path of `name` in `frame`, built only for a finding: O(depth) once, not per container. */
function pathTo(frame: Frame, name: string): (string | number)[] {
  const path: (string | number)[] = [name];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}

/** The value of the JSON string token `text[start, end)`, quotes included. */
function stringToken(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : inner;
}

/**
 * Where valid JSON text names a member twice in one object, in document order, at most `limit`
 * places: the path of the repeated member (`['skills', 0, 'id']`). RFC 8259 §4 only says names
 * SHOULD be unique, and parsers disagree about a repeat: `JSON.parse` keeps the last value, others
 * keep the first or refuse. Two readers of such a card read two different cards, so a signature
 * can cover the one a client does not use. Names compare after unescaping (`"\u0069d"` is `"id"`).
 * An explicit stack instead of recursion, linear in the text; call it on text `JSON.parse`
 * accepted (on other text it stops early without throwing).
 * @example duplicateMembers('{"url": "https://a.test", "url": "https://b.test"}') // [['url']]
 */
export function duplicateMembers(text: string, limit = 8): (string | number)[][] {
  const found: (string | number)[][] = [];
  const stack: Frame[] = [];
  const n = text.length;
  /** Whether the next string in the innermost object is a member name. */
  let expectName = false;
  for (let i = 0; i < n && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (expectName && top?.object === true) {
        const name = stringToken(text, start, i + 1);
        if (top.first === undefined) top.first = name;
        else if (top.first === name || top.names?.has(name) === true) found.push(pathTo(top, name));
        else {
          top.names ??= new Set();
          top.names.add(name);
        }
        top.at = name;
        expectName = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      const parent = stack[stack.length - 1];
      stack.push({ parent, key: parent?.at ?? '', object: c === 0x7b, first: undefined, names: undefined, at: 0 });
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectName = false;
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      if (!top.object) top.at = (top.at as number) + 1;
      else expectName = true;
    }
  }
  return found;
}

/** The finding text for a member named twice (rule `card-json-duplicate-member`, an error in every profile). */
export function duplicateMemberText(path: readonly (string | number)[]): { message: string; hint: string } {
  const name = path[path.length - 1];
  return {
    message: `${describePath(path)}: named twice in one object; JSON parsers disagree about which value applies.`,
    hint: `Keep one ${preview(String(name))} member. Parsers that keep the first value and parsers that keep the last read two different cards, so a signature can cover one while a client reads the other.`,
  };
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
 * Number literals of valid JSON text that do not survive a double ({@link numberLoss}), in
 * document order, at most `limit` of them: the path (`['capabilities', 'extensions', 0,
 * 'params', 'max']`), the literal (cut to 40 characters) and what is lost. Linear in the text,
 * an explicit stack; call it on text `JSON.parse` accepted.
 */
export function inexactNumbers(
  text: string,
  limit = 8,
): { path: (string | number)[]; literal: string; loss: string }[] {
  const found: { path: (string | number)[]; literal: string; loss: string }[] = [];
  /** Per open container: the name or index of the value being read. */
  const at: (string | number)[] = [];
  const objects: boolean[] = [];
  let expectName = false;
  const n = text.length;
  for (let i = 0; i < n && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (expectName && objects[objects.length - 1] === true) {
        at[at.length - 1] = stringToken(text, start, i + 1);
        expectName = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      objects.push(c === 0x7b);
      at.push(c === 0x7b ? '' : 0);
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      objects.pop();
      at.pop();
      expectName = false;
    } else if (c === 0x2c) {
      const top = at.length - 1;
      if (top < 0) break;
      if (objects[top] === false) at[top] = (at[top] as number) + 1;
      else expectName = true;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i;
      while (i + 1 < n && /[0-9eE.+-]/.test(text[i + 1] as string)) i++;
      const literal = text.slice(start, i + 1);
      const loss = numberLoss(literal);
      if (loss !== undefined) {
        found.push({ path: [...at], literal: literal.length > 40 ? `${literal.slice(0, 39)}…` : literal, loss });
      }
    }
  }
  return found;
}

/** The finding text for such a number (rule `card-json-inexact-number`, an error in every profile). */
export function inexactNumberText(
  path: readonly (string | number)[],
  literal: string,
  loss: string,
): { message: string; hint: string } {
  return {
    message: `${describePath(path)}: the number ${literal} ${loss}.`,
    hint: 'Write a number a double holds exactly (as a double reads it back), or a string when it must stay exact. RFC 8785 canonicalizes and signs the double, while readers that keep exact numbers (Python int, Go json.Number) read the literal: two values, one signature.',
  };
}
