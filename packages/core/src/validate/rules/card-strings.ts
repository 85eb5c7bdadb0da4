/**
 * The strings of a card that a rule reading card text may report, with where each sits, listed
 * once per validation and shared by those rules: `hidden-instructions` and `system-prompt-text`
 * (text a model reads), `url-private-host` (every URL) and `template-content` (the templates'
 * distinctive values). Bounded in nodes and depth, whatever the card.
 */
import type { CardStrings, JsonObject, RuleContext } from '../context';
import { CARD_TEXT_HINT } from '../patterns';
import { mayBeDistinctive } from '../templates';

/** The length of the shortest text `INJECTION_PHRASE` matches ("forget all rules"): shorter ones are not searched. */
export const INJECTION_PHRASE_MIN_LENGTH = 16;

/** Most nodes of a card visited (strings, lists and objects together). */
export const MAX_CARD_NODES = 100_000;

/**
 * Whether a rule reading card text could report `value` under member `key`: the union of the
 * cheap tests each of them makes before its own search, so that a string none would read (an
 * id, a tag, a media type) is never listed. Each rule still makes its own tests.
 */
export function mayMatter(value: string, key: string | number): boolean {
  // system-prompt-text reads descriptions; url-private-host a `url`'s host:port and a `jku`.
  if (key === 'description' || key === 'url' || key === 'protected') return true;
  // hidden-instructions: a phrase, which has spaces.
  if (value.length >= INJECTION_PHRASE_MIN_LENGTH && value.includes(' ')) return true;
  // url-private-host: a URL with an authority; hidden-instructions: markup or an invisible
  // character; template-content: the templates' distinctive values.
  return CARD_TEXT_HINT.test(value) || mayBeDistinctive(value);
}

/** Deepest list or object read: the validator's tree is never deeper than 64 levels. */
export const MAX_CARD_DEPTH = 256;

/**
 * The strings of `card` that a rule reading card text may report (see {@link mayMatter} and
 * {@link CardStrings}): one walk per validation, however many rules ask (kept in the rule
 * context: the tree never changes during one validation).
 */
export function cardStrings(card: JsonObject, ctx: RuleContext): CardStrings {
  const known = ctx.shared.strings;
  if (known !== undefined) return known;
  // A path is built only when a rule reports. For that, each listed string keeps its list or
  // object, and each such container its parent and its own segment; a container is numbered
  // only when a string under it is listed, so a card of ids and tags costs no bookkeeping.
  const parents: number[] = [];
  const segments: (string | number)[] = [];
  const values: string[] = [];
  const keys: (string | number)[] = [];
  const owners: number[] = [];
  // Per open level: the segment its container sits under, and the container's number (-1 until
  // a string under it is listed). Level 0 is the card itself.
  const levelSegments: (string | number)[] = [''];
  const numbers: number[] = [-1];
  let visited = 0;
  let truncated = false;

  /** Reads one member; false once the walk must stop. */
  const visit = (node: unknown, segment: string | number, level: number): boolean => {
    const isString = typeof node === 'string';
    if (!isString && (typeof node !== 'object' || node === null)) return true;
    if (visited >= MAX_CARD_NODES || (!isString && level + 1 >= MAX_CARD_DEPTH)) {
      truncated = true;
      return false;
    }
    visited++;
    if (!isString) {
      levelSegments[level + 1] = segment;
      numbers[level + 1] = -1;
      return walk(node as object, level + 1);
    }
    if (!mayMatter(node, segment)) return true;
    // Number the open containers that are not yet, from the outermost such one in.
    let from = level;
    while (from > 0 && numbers[from] === -1) from--;
    for (let l = from + 1; l <= level; l++) {
      numbers[l] = parents.length;
      parents.push(numbers[l - 1]!);
      segments.push(levelSegments[l]!);
    }
    values.push(node);
    keys.push(segment);
    owners.push(numbers[level]!);
    return true;
  };
  // Recursion as deep as the card, which MAX_CARD_DEPTH bounds; `for…in` over own members
  // (the tree's objects are plain) reads an object without a list of its keys.
  const walk = (container: object, level: number): boolean => {
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) if (!visit(container[i], i, level)) return false;
      return true;
    }
    for (const name in container) {
      if (!Object.hasOwn(container, name)) continue;
      if (!visit((container as JsonObject)[name], name, level)) return false;
    }
    return true;
  };
  walk(card, 0);

  const result: CardStrings = {
    values,
    keys,
    truncated,
    path(i) {
      const path: (string | number)[] = [keys[i]!];
      for (let n = owners[i] ?? -1; n !== -1; n = parents[n]!) path.push(segments[n]!);
      return path.reverse();
    },
  };
  ctx.shared.strings = result;
  return result;
}
