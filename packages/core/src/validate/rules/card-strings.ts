/**
 * Every string value of a card with where it sits, listed once per card and shared by the rules
 * that read card text as a model would (`hidden-instructions`, `system-prompt-text`) and the one
 * that reads every URL (`url-private-host`). Iterative and bounded, whatever the nesting.
 */
import { keysOf, type JsonObject } from '../context';
import type { Segments } from './read-json';

/** Most nodes of a card visited (strings, lists and objects together). */
export const MAX_CARD_NODES = 100_000;

/** The strings of a card, in document order, with a lazily built path for each. */
export interface CardStrings {
  /** Each string value, in document order. */
  readonly values: readonly string[];
  /** The member name (or list index) each string sits under. */
  readonly keys: readonly (string | number)[];
  /** The path of `values[i]`, built on demand: most strings never need one. */
  path(i: number): Segments;
  /** Whether the walk stopped at {@link MAX_CARD_NODES} before the end of the card. */
  readonly truncated: boolean;
}

/** Per validation (its rule context): the tree never changes during one, and a new one walks again. */
const listed = new WeakMap<object, CardStrings>();

/**
 * The strings of `card` (see {@link CardStrings}): one walk per validation, however many rules
 * ask. `validation` is the rule context of the run.
 */
export function cardStrings(card: JsonObject, validation: object): CardStrings {
  const known = listed.get(validation);
  if (known !== undefined) return known;
  // Each visited node keeps its parent's index and its own segment: a path is built only when
  // a rule reports, so a deeply nested card costs no more than a flat one.
  const parents: number[] = [];
  const segments: (string | number)[] = [];
  const values: string[] = [];
  const keys: (string | number)[] = [];
  const at: number[] = [];
  // The stack as three parallel lists: no tuple per node.
  const nodes: unknown[] = [];
  const owners: number[] = [];
  const names: (string | number)[] = [];
  const top = keysOf(card);
  for (let k = top.length - 1; k >= 0; k--) {
    nodes.push(card[top[k]!]);
    owners.push(-1);
    names.push(top[k]!);
  }
  while (nodes.length > 0 && parents.length < MAX_CARD_NODES) {
    const node = nodes.pop();
    const parent = owners.pop()!;
    const segment = names.pop()!;
    if (typeof node !== 'string' && (typeof node !== 'object' || node === null)) continue;
    const index = parents.length;
    parents.push(parent);
    segments.push(segment);
    if (typeof node === 'string') {
      values.push(node);
      keys.push(segment);
      at.push(index);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        nodes.push(node[i]);
        owners.push(index);
        names.push(i);
      }
    } else {
      const members = keysOf(node);
      for (let i = members.length - 1; i >= 0; i--) {
        nodes.push((node as JsonObject)[members[i]!]);
        owners.push(index);
        names.push(members[i]!);
      }
    }
  }
  const result: CardStrings = {
    values,
    keys,
    truncated: nodes.length > 0,
    path(i) {
      const path: (string | number)[] = [];
      for (let n = at[i] ?? -1; n !== -1; n = parents[n]!) path.push(segments[n]!);
      return path.reverse();
    },
  };
  listed.set(validation, result);
  return result;
}
