/**
 * Readers for values of unknown shape: a page renders whatever part of a card is well formed and
 * skips the rest, so none of these throws, whatever it is given (getters that throw included).
 */

/** A plain object's members, or `undefined`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An own member of an object, or `undefined` (never an inherited one, never a throw). */
export function member(value: unknown, key: string): unknown {
  const record = asRecord(value);
  if (record === undefined) return undefined;
  try {
    return Object.hasOwn(record, key) ? record[key] : undefined;
  } catch {
    return undefined;
  }
}

/** A non-empty string member, or `undefined`. */
export function text(value: unknown, key: string): string | undefined {
  const found = member(value, key);
  return typeof found === 'string' && found.length > 0 ? found : undefined;
}

/** A boolean member, or `undefined`. */
export function flag(value: unknown, key: string): boolean | undefined {
  const found = member(value, key);
  return typeof found === 'boolean' ? found : undefined;
}

/** Most items a page lists from one array; the rest are counted, not shown. */
export const MAX_ITEMS = 500;

/** The items of an array member (at most {@link MAX_ITEMS}), or `[]`. */
export function list(value: unknown, key: string): unknown[] {
  const found = member(value, key);
  return Array.isArray(found) ? found.slice(0, MAX_ITEMS) : [];
}

/** The non-empty strings of an array member. */
export function strings(value: unknown, key: string): string[] {
  return list(value, key).filter((item): item is string => typeof item === 'string' && item.length > 0);
}

/** The own entries of an object member (at most {@link MAX_ITEMS}). */
export function entries(value: unknown, key: string): [string, unknown][] {
  const record = asRecord(member(value, key));
  if (record === undefined) return [];
  try {
    return Object.entries(record).slice(0, MAX_ITEMS);
  } catch {
    return [];
  }
}
