/**
 * Rule 1 and its neighbours: the card's bytes or text are read with {@link readJsonText}, and
 * what it finds becomes findings (`card-json-parse`, `card-json-duplicate-member`,
 * `card-json-inexact-number`).
 *
 * @see packages/core/RULES.md §6.1 (rule 1)
 * @packageDocumentation
 */
import { readJsonText } from '../json/read';
import type { JsonPath } from '../json/text';
import type { RuleContext } from './context';
import { describePath, preview } from './shape';

/** The finding text for a byte order mark (rule 1, a warning wherever JSON text is read). */
export const BYTE_ORDER_MARK = {
  message: 'starts with a byte order mark (U+FEFF).',
  hint: 'Save the file as UTF-8 without BOM; RFC 8259 §8.1 forbids adding one and some parsers reject it.',
} as const;

/** The finding text for a member named twice (rule `card-json-duplicate-member`, an error in every profile). */
export function duplicateMemberText(path: readonly (string | number)[]): { message: string; hint: string } {
  const name = path[path.length - 1];
  return {
    message: `${describePath(path)}: named twice in one object; JSON parsers disagree about which value applies.`,
    hint: `Keep one ${preview(String(name))} member. Parsers that keep the first value and parsers that keep the last read two different cards, so a signature can cover one while a client reads the other.`,
  };
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

/**
 * The card as a value: `plain` when it is already the plain tree the rules read (objects that
 * inherit nothing), else the value still to be copied into one.
 */
export type Decoded = { ok: true; value: unknown; plain: boolean } | { ok: false };

/** Rule 1: bytes and text are JSON; a BOM is a warning. Any other value is the card itself. */
export function decode(input: unknown, ctx: RuleContext): Decoded {
  if (typeof input !== 'string' && !(input instanceof Uint8Array) && !(input instanceof ArrayBuffer)) {
    return { ok: true, value: input, plain: false };
  }
  // Any depth is read: the copy into the rules' tree reports each value nested too deep.
  const read = readJsonText(input, { maxDepth: Number.POSITIVE_INFINITY });
  if (!read.ok && read.error !== 'syntax') {
    // Only `utf-8` is possible without a size or depth bound.
    ctx.report(
      'card-json-parse',
      'error',
      [],
      'card: not valid UTF-8.',
      'Save and serve the card as UTF-8 (spec §14.1: UTF-8 MUST be used).',
    );
    return { ok: false };
  }
  if (read.bom) ctx.report('card-json-parse', 'warning', [], `card: ${BYTE_ORDER_MARK.message}`, BYTE_ORDER_MARK.hint);
  if (!read.ok) {
    reportSyntax(read.text, read.reason, read.line, read.column, ctx);
    return { ok: false };
  }
  reportHidden(read.duplicates, read.inexact, ctx);
  return { ok: true, value: read.value, plain: read.plain };
}

function reportSyntax(text: string, message: string, line: number, column: number, ctx: RuleContext): void {
  const reason = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  const where = ` at line ${line}, column ${column}`;
  const trimmed = text.trimStart();
  ctx.report(
    'card-json-parse',
    'error',
    [],
    `card: not valid JSON${where} (${reason}).`,
    trimmed.startsWith('<')
      ? 'The body is HTML, not JSON: serve the card file itself (check for a login page or an SPA fallback).'
      : trimmed === ''
        ? 'The body is empty: serve the card JSON.'
        : `Fix the JSON syntax${where}; JSON allows no comments, trailing commas or single quotes.`,
  );
}

function reportHidden(
  duplicates: readonly JsonPath[],
  inexact: readonly { path: JsonPath; literal: string; loss: string }[],
  ctx: RuleContext,
): void {
  for (const path of duplicates) {
    const { message, hint } = duplicateMemberText(path);
    ctx.report('card-json-duplicate-member', 'error', path, message, hint);
  }
  for (const { path, literal, loss } of inexact) {
    const { message, hint } = inexactNumberText(path, literal, loss);
    ctx.report('card-json-inexact-number', 'error', path, message, hint);
  }
}
