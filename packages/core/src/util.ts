// Small helpers every part of core shares: how a value is quoted in a message, deep freezing,
// and telling a promise from a value. One copy each, so messages read alike everywhere.

/** Longest rendering of a value quoted in a start-up message. */
const SHOWN_CHARACTERS = 60;

/**
 * A value as a start-up message quotes it: JSON, cut to 60 characters (a whole card passed as a
 * string or an object is recognisable from its start); a function as `a function`.
 */
export function showValue(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS - 1)}… (${text.length} characters)` : text;
}

/** A string quoted for a message, shortened so a huge value cannot flood the report. */
export function quote(value: string, max = 80): string {
  const short = value.length > max ? `${value.slice(0, max - 1)}…` : value;
  return JSON.stringify(short);
}

/**
 * A value read from a document as a finding names it: a string quoted (80 characters at most), an
 * array or an object by its kind, anything else as written.
 */
export function showFound(value: unknown): string {
  if (typeof value === 'string') return quote(value, 80);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

/**
 * A string from a remote party quoted for a message: control characters shown as `?` (a hostile
 * header or URL cannot move the cursor or forge a line), then shortened and quoted.
 */
export function quoteUntrusted(value: string, max = 120): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this masks.
  return quote(value.replace(/[\u0000-\u001f\u007f]/g, '?'), max);
}

/** Freezes a JSON-like value and everything it holds, so a shared copy cannot be changed. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Whether a value is a promise (or any thenable) rather than a value ready now. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
