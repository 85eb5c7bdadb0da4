/**
 * Reading JSON text, shared by the validator (rule 1, `card-json-parse`) and the config loader:
 * one way to treat a byte order mark, one way to say where a syntax error is.
 *
 * @see packages/core/RULES.md §6.1 (rule 1)
 * @packageDocumentation
 */

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
