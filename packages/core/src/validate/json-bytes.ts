/**
 * {@link readJsonBytes}: {@link readJsonText} for a client reading a server's body, with each
 * member named twice and each inexact number already worded as the validator's rule words it.
 *
 * @packageDocumentation
 */
import { readJsonText } from '../json/read';
import { nestingOverflow } from '../json/text';
import { duplicateMemberText, inexactNumberText } from './decode';
import { MAX_DEPTH } from './shape';

/** A member named twice in one object, as {@link readJsonBytes} reports it. */
export interface JsonDuplicateMember {
  /** The member's path, e.g. `['skills', 1, 'id']`. */
  path: (string | number)[];
  /** The text of rule `card-json-duplicate-member`: `where: what.` */
  message: string;
  hint: string;
}

/** A number literal a double does not hold exactly, as {@link readJsonBytes} reports it. */
export interface JsonInexactNumber {
  path: (string | number)[];
  /** The literal as written (cut to 40 characters). */
  literal: string;
  /** What a double loses of it. */
  loss: string;
  /** The text of rule `card-json-inexact-number`: `where: what.` */
  message: string;
  hint: string;
}

/** What {@link readJsonBytes} found in a body. */
export type JsonBytesReading =
  | {
      kind: 'json';
      value: unknown;
      /** Whether the text started with a byte order mark (read past). */
      bom: boolean;
      /** Members named twice in one object (at most 8), which readers of the body resolve differently. */
      duplicates: JsonDuplicateMember[];
      /** Number literals a double does not hold exactly (at most 8; absent when none), which readers read differently. */
      inexact?: JsonInexactNumber[];
    }
  /** No bytes, or only whitespace (after a byte order mark). */
  | { kind: 'empty' }
  /** `offset` is the first byte that breaks UTF-8, `byte` its value. */
  | { kind: 'invalid-utf8'; offset: number; byte: number }
  /** More than `limit` objects and arrays nested; `offset` is the character that opens one too many. */
  | { kind: 'too-deep'; limit: number; offset: number }
  /** `reason` is the parser's message. */
  | { kind: 'invalid-json'; reason: string };

/**
 * Reads JSON bytes from an untrusted source (a server's response, an upload) the way
 * `validateAgentCard` reads them: strict UTF-8 (the offset of the first byte that breaks it), a
 * byte order mark read past and reported, nesting deeper than the validator's 64 levels refused
 * (the fast reader stops at that depth; a body of a million `[` costs no recursion),
 * then `JSON.parse`, the members named twice and the numbers a double does not hold exactly,
 * each with the message and hint of the validator's rule (`card-json-duplicate-member`,
 * `card-json-inexact-number`). Linear in the body; never throws.
 *
 * @example
 * const read = readJsonBytes(new Uint8Array(await response.arrayBuffer()))
 * if (read.kind === 'json' && read.duplicates.length === 0) use(read.value)
 */
export function readJsonBytes(bytes: Uint8Array): JsonBytesReading {
  const read = readJsonText(bytes, { maxDepth: MAX_DEPTH });
  if (!read.ok) {
    if (read.error === 'utf-8') return { kind: 'invalid-utf8', offset: read.offset, byte: read.byte };
    if (read.error === 'too-large') return { kind: 'invalid-json', reason: 'too large' };
    // Too deep comes first, as when the depth was checked before parsing.
    const tooDeep = nestingOverflow(read.text, MAX_DEPTH);
    if (tooDeep !== undefined) return { kind: 'too-deep', limit: MAX_DEPTH, offset: tooDeep };
    return read.text.trim() === '' ? { kind: 'empty' } : { kind: 'invalid-json', reason: read.reason };
  }
  const duplicates = read.duplicates.map((path) => ({ path, ...duplicateMemberText(path) }));
  const inexact = read.inexact.map(({ path, literal, loss }) => ({
    path,
    literal,
    loss,
    ...inexactNumberText(path, literal, loss),
  }));
  return { kind: 'json', value: read.value, bom: read.bom, duplicates, ...(inexact.length > 0 ? { inexact } : {}) };
}
