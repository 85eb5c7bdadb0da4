/**
 * Every string value of a card with where it sits, listed once per card and shared by the rules
 * that read card text as a model would (`hidden-instructions`, `system-prompt-text`) and the one
 * that reads every URL (`url-private-host`). Iterative and bounded, whatever the nesting.
 */
import { type CardStrings, type JsonObject, keysOf, type RuleContext } from '../context';

export type { CardStrings };

/** Most nodes of a card visited (strings, lists and objects together). */
export const MAX_CARD_NODES = 100_000;

/**
 * The strings of `card` (see {@link CardStrings}): one walk per validation, however many rules
 * ask (kept in the rule context: the tree never changes during one validation).
 */
export function cardStrings(card: JsonObject, ctx: RuleContext): CardStrings {
  const known = ctx.shared.strings;
  if (known !== undefined) return known;
  // Each visited node keeps its parent's index and its own segment: a path is built only when
  // a rule reports, so a deeply nested card costs no more than a flat one.
  const parents: number[] = [];
  const segments: (string | number)[] = [];
  const values: string[] = [];
  const keys: (string | number)[] = [];
  const at: number[] = [];
  // One frame per open list or object, as parallel lists: the container, its member names (none
  // for a list), the next member to read and the container's own node index. The stack is as
  // deep as the card, never as long as its lists, so a list of a million items costs only the
  // items read before the bound.
  const containers: unknown[] = [card];
  const members: (readonly string[] | undefined)[] = [keysOf(card)];
  const next: number[] = [0];
  const owners: number[] = [-1];
  let depth = 1;
  let truncated = false;
  while (depth > 0) {
    const d = depth - 1;
    const container = containers[d] as JsonObject | unknown[];
    const names = members[d];
    const i = next[d]!;
    if (i >= (names === undefined ? (container as unknown[]).length : names.length)) {
      containers[d] = undefined;
      members[d] = undefined;
      depth = d;
      continue;
    }
    next[d] = i + 1;
    const segment = names === undefined ? i : names[i]!;
    const node = names === undefined ? (container as unknown[])[i] : (container as JsonObject)[segment as string];
    const isString = typeof node === 'string';
    if (!isString && (typeof node !== 'object' || node === null)) continue;
    if (parents.length >= MAX_CARD_NODES) {
      truncated = true;
      break;
    }
    const index = parents.length;
    parents.push(owners[d]!);
    segments.push(segment);
    if (isString) {
      values.push(node);
      keys.push(segment);
      at.push(index);
      continue;
    }
    containers[depth] = node;
    members[depth] = Array.isArray(node) ? undefined : keysOf(node);
    next[depth] = 0;
    owners[depth] = index;
    depth++;
  }
  const result: CardStrings = {
    values,
    keys,
    truncated,
    path(i) {
      const path: (string | number)[] = [];
      for (let n = at[i] ?? -1; n !== -1; n = parents[n]!) path.push(segments[n]!);
      return path.reverse();
    },
  };
  ctx.shared.strings = result;
  return result;
}
