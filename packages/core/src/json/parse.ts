/**
 * A JSON parser that builds the plain tree the validator reads (objects that inherit nothing)
 * straight from the text, and notes on the way what `JSON.parse` hides: members named twice and
 * numbers a double does not hold. One pass instead of a parse, a copy and two scans.
 *
 * @packageDocumentation
 */
import { emptyObject, type JsonObject } from './plain';
import { type InexactNumber, isDigit, type JsonPath, numberLoss } from './text';

/** Limits of {@link parsePlain}. */
export interface PlainLimits {
  /** Most repeated members and inexact numbers listed. */
  duplicates: number;
  inexact: number;
  /** Containers nested this deep (the root is at 0) stop the parse. */
  depth: number;
  /** Values past this count stop the parse. */
  values: number;
}

/** What {@link parsePlain} read: the value and, in document order, what `JSON.parse` hides. */
export interface PlainParse {
  value: unknown;
  duplicates: JsonPath[];
  inexact: InexactNumber[];
}

/**
 * Why {@link parsePlain} stopped: the text is not JSON, or it is JSON the fast path leaves to
 * `JSON.parse` and a careful copy (nested past `limits.depth`, more than `limits.values` values,
 * or a number beyond a double, which JSON cannot write back).
 */
export type PlainStop = 'syntax' | 'limit';

class Stop {
  constructor(readonly reason: PlainStop) {}
}
const SYNTAX = new Stop('syntax');
const LIMIT = new Stop('limit');

/** Whether a number literal without fraction or exponent is held exactly by a double. */
function shortInteger(literal: string): boolean {
  // 15 digits or fewer are exact; `-0` reads as 0.
  return literal.length <= 15 && literal !== '-0';
}

/**
 * Parses RFC 8259 JSON text (what `JSON.parse` accepts, without a byte order mark) into objects
 * made by {@link emptyObject}, arrays, strings, numbers, booleans and null: the value
 * `JSON.parse` returns, copied into objects that inherit nothing (a repeated member keeps its
 * last value in its first place, as `JSON.parse` does). Recursion is bounded by `limits.depth`.
 * @returns the value with its repeated members and inexact numbers, or why it stopped.
 */
export function parsePlain(text: string, limits: PlainLimits): PlainParse | PlainStop {
  const n = text.length;
  const duplicates: JsonPath[] = [];
  const inexact: InexactNumber[] = [];
  /** The path of the value being read; each container owns one slot while it is open. */
  const path: JsonPath = [];
  let i = 0;
  let values = 0;

  const space = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      i++;
    }
  };

  /** A string at `i` (a `"`). */
  const string = (): string => {
    const start = i + 1;
    for (i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return text.slice(start, i++);
      if (c === 0x5c) break;
      if (c < 0x20) throw SYNTAX;
    }
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return JSON.parse(text.slice(start - 1, ++i)) as string;
      if (c === 0x5c) {
        const next = text.charCodeAt(i + 1);
        if (next === 0x75) {
          if (!isHex4(text, i + 2)) throw SYNTAX;
          i += 5;
        } else if (isEscape(next)) i++;
        else throw SYNTAX;
      } else if (c < 0x20) throw SYNTAX;
    }
    throw SYNTAX;
  };

  /** A number at `i`: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  const number = (): number => {
    const start = i;
    if (text.charCodeAt(i) === 0x2d) i++;
    const first = text.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(text.charCodeAt(++i)));
    else throw SYNTAX;
    let integer = true;
    if (text.charCodeAt(i) === 0x2e) {
      integer = false;
      if (!isDigit(text.charCodeAt(++i))) throw SYNTAX;
      while (isDigit(text.charCodeAt(++i)));
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      integer = false;
      const sign = text.charCodeAt(++i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) throw SYNTAX;
      while (isDigit(text.charCodeAt(++i)));
    }
    const literal = text.slice(start, i);
    if (inexact.length < limits.inexact && !(integer && shortInteger(literal))) {
      const loss = numberLoss(literal);
      if (loss !== undefined) {
        const cut = literal.length > 40 ? `${literal.slice(0, 39)}…` : literal;
        inexact.push({ path: path.slice(), literal: cut, loss });
      }
    }
    const read = Number(literal);
    if (!Number.isFinite(read)) throw LIMIT;
    return read;
  };

  const word = (literal: string, value: boolean | null): boolean | null => {
    if (!text.startsWith(literal, i)) throw SYNTAX;
    i += literal.length;
    return value;
  };

  const value = (depth: number): unknown => {
    if (++values > limits.values) throw LIMIT;
    space();
    switch (text.charCodeAt(i)) {
      case 0x22:
        return string();
      case 0x7b:
        return object(depth);
      case 0x5b:
        return array(depth);
      case 0x74:
        return word('true', true);
      case 0x66:
        return word('false', false);
      case 0x6e:
        return word('null', null);
      default:
        return number();
    }
  };

  const object = (depth: number): JsonObject => {
    if (depth >= limits.depth) throw LIMIT;
    const out = emptyObject();
    i++;
    space();
    if (text.charCodeAt(i) === 0x7d) {
      i++;
      return out;
    }
    const slot = path.length;
    for (;;) {
      space();
      if (text.charCodeAt(i) !== 0x22) throw SYNTAX;
      const name = string();
      space();
      if (text.charCodeAt(i++) !== 0x3a) throw SYNTAX;
      path[slot] = name;
      // Listed when the name is read, before anything inside its value: document order.
      if (Object.hasOwn(out, name) && duplicates.length < limits.duplicates) duplicates.push(path.slice());
      // Nothing is inherited, so plain assignment defines an own property, `__proto__` included.
      out[name] = value(depth + 1);
      space();
      const c = text.charCodeAt(i++);
      if (c === 0x2c) continue;
      if (c !== 0x7d) throw SYNTAX;
      path.length = slot;
      return out;
    }
  };

  const array = (depth: number): unknown[] => {
    if (depth >= limits.depth) throw LIMIT;
    const out: unknown[] = [];
    i++;
    space();
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return out;
    }
    const slot = path.length;
    for (let k = 0; ; k++) {
      path[slot] = k;
      out.push(value(depth + 1));
      space();
      const c = text.charCodeAt(i++);
      if (c === 0x2c) continue;
      if (c !== 0x5d) throw SYNTAX;
      path.length = slot;
      return out;
    }
  };

  try {
    const result = value(0);
    space();
    if (i !== n) return 'syntax';
    return { value: result, duplicates, inexact };
  } catch (error) {
    if (error instanceof Stop) return error.reason;
    throw error;
  }
}

/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`: the characters a backslash may escape besides `u`. */
function isEscape(c: number): boolean {
  return c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;
}

function isHex4(text: string, at: number): boolean {
  for (let k = at; k < at + 4; k++) {
    const c = text.charCodeAt(k);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
