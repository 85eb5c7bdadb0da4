export { showValue } from './util';
import { KEY_SEPARATORS } from './validate/patterns';

/** Edit distance of two strings, capped: anything above 2 is reported as 3. */
function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The known name an unknown one was probably meant to be: the same letters in another case or
 * without `-`/`_` (`cache_control` → `cacheControl`), else one at most two edits away.
 */
export function closest(key: string, known: Iterable<string>): string | undefined {
  const names = [...known];
  const lower = key.toLowerCase().replace(KEY_SEPARATORS, '');
  return (
    names.find((k) => k.toLowerCase() === lower) ??
    (key.length >= 3 ? names.find((k) => levenshtein(k.toLowerCase(), key.toLowerCase()) <= 2) : undefined)
  );
}

/** Longest list of names an unknown-option message spells out; a longer one is left to the docs. */
const LISTED_NAMES = 6;

/**
 * `where: unknown option.` and the fix: the nearest known name when there is one, else the known
 * names when they are few, else where they are documented. Never a list of twenty.
 */
export function unknownOption(where: string, key: string, known: Iterable<string>, docs: string): string {
  const names = [...known];
  const guess = closest(key, names);
  if (guess !== undefined) return `${where}: unknown option. Did you mean "${guess}"?`;
  const fix =
    names.length <= LISTED_NAMES
      ? `Remove it or fix the spelling (known: ${names.join(', ')}).`
      : `Remove it or fix the spelling (the ${names.length} options are listed in ${docs}).`;
  return `${where}: unknown option. ${fix}`;
}
