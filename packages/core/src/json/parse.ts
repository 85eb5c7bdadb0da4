/**
 * A JSON parser that builds the plain tree the validator reads (objects that inherit nothing)
 * straight from the text, and notes on the way what `JSON.parse` hides: members named twice and
 * numbers a double does not hold. One pass instead of a parse, a copy and two scans.
 *
 * Kept beside `JSON.parse` and the scanners of `text.ts`, which still decide what it leaves
 * (`readJsonText`), for what `read.test.ts` holds: an ordinary document is read in this one pass
 * (`plain: true`), a `__proto__` member stays data, and a member named twice is still reported.
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
  return new PlainParser(text, limits).run();
}

/** One parse of one text: the position, the path being read and what was found. */
class PlainParser {
  private i = 0;
  private values = 0;
  private readonly n: number;
  /** The path of the value being read; each container owns one slot while it is open. */
  private readonly path: JsonPath = [];
  readonly duplicates: JsonPath[] = [];
  readonly inexact: InexactNumber[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: PlainLimits,
  ) {
    this.n = text.length;
  }

  /** The whole text as one value, or why it stopped. */
  run(): PlainParse | PlainStop {
    try {
      const result = this.value(0);
      this.space();
      if (this.i !== this.n) return 'syntax';
      return { value: result, duplicates: this.duplicates, inexact: this.inexact };
    } catch (error) {
      if (error instanceof Stop) return error.reason;
      throw error;
    }
  }

  private space(): void {
    while (this.i < this.n) {
      const c = this.text.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i++;
    }
  }

  /** A string at the position (a `"`). */
  private string(): string {
    const start = this.i + 1;
    for (this.i = start; this.i < this.n; this.i++) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x22) return this.text.slice(start, this.i++);
      if (c === 0x5c) break;
      if (c < 0x20) throw SYNTAX;
    }
    for (; this.i < this.n; this.i++) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x22) return JSON.parse(this.text.slice(start - 1, ++this.i)) as string;
      if (c === 0x5c) {
        const next = this.text.charCodeAt(this.i + 1);
        if (next === 0x75) {
          if (!isHex4(this.text, this.i + 2)) throw SYNTAX;
          this.i += 5;
        } else if (isEscape(next)) this.i++;
        else throw SYNTAX;
      } else if (c < 0x20) throw SYNTAX;
    }
    throw SYNTAX;
  }

  /** A number at the position: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private number(): number {
    const start = this.i;
    if (this.text.charCodeAt(this.i) === 0x2d) this.i++;
    const first = this.text.charCodeAt(this.i);
    if (first === 0x30) this.i++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(this.text.charCodeAt(++this.i)));
    else throw SYNTAX;
    let integer = true;
    if (this.text.charCodeAt(this.i) === 0x2e) {
      integer = false;
      if (!isDigit(this.text.charCodeAt(++this.i))) throw SYNTAX;
      while (isDigit(this.text.charCodeAt(++this.i)));
    }
    const e = this.text.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      integer = false;
      const sign = this.text.charCodeAt(++this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (!isDigit(this.text.charCodeAt(this.i))) throw SYNTAX;
      while (isDigit(this.text.charCodeAt(++this.i)));
    }
    const literal = this.text.slice(start, this.i);
    if (this.inexact.length < this.limits.inexact && !(integer && shortInteger(literal))) {
      const loss = numberLoss(literal);
      if (loss !== undefined) {
        const cut = literal.length > 40 ? `${literal.slice(0, 39)}…` : literal;
        this.inexact.push({ path: this.path.slice(), literal: cut, loss });
      }
    }
    const read = Number(literal);
    if (!Number.isFinite(read)) throw LIMIT;
    return read;
  }

  private word(literal: string, value: boolean | null): boolean | null {
    if (!this.text.startsWith(literal, this.i)) throw SYNTAX;
    this.i += literal.length;
    return value;
  }

  private value(depth: number): unknown {
    if (++this.values > this.limits.values) throw LIMIT;
    this.space();
    switch (this.text.charCodeAt(this.i)) {
      case 0x22:
        return this.string();
      case 0x7b:
        return this.object(depth);
      case 0x5b:
        return this.array(depth);
      case 0x74:
        return this.word('true', true);
      case 0x66:
        return this.word('false', false);
      case 0x6e:
        return this.word('null', null);
      default:
        return this.number();
    }
  }

  private object(depth: number): JsonObject {
    if (depth >= this.limits.depth) throw LIMIT;
    const out = emptyObject();
    this.i++;
    this.space();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return out;
    }
    const slot = this.path.length;
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.i) !== 0x22) throw SYNTAX;
      const name = this.string();
      this.space();
      if (this.text.charCodeAt(this.i++) !== 0x3a) throw SYNTAX;
      this.path[slot] = name;
      // Listed when the name is read, before anything inside its value: document order.
      if (Object.hasOwn(out, name) && this.duplicates.length < this.limits.duplicates)
        this.duplicates.push(this.path.slice());
      // Nothing is inherited, so plain assignment defines an own property, `__proto__` included.
      out[name] = this.value(depth + 1);
      this.space();
      const c = this.text.charCodeAt(this.i++);
      if (c === 0x2c) continue;
      if (c !== 0x7d) throw SYNTAX;
      this.path.length = slot;
      return out;
    }
  }

  private array(depth: number): unknown[] {
    if (depth >= this.limits.depth) throw LIMIT;
    const out: unknown[] = [];
    this.i++;
    this.space();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    const slot = this.path.length;
    for (let k = 0; ; k++) {
      this.path[slot] = k;
      out.push(this.value(depth + 1));
      this.space();
      const c = this.text.charCodeAt(this.i++);
      if (c === 0x2c) continue;
      if (c !== 0x5d) throw SYNTAX;
      this.path.length = slot;
      return out;
    }
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
