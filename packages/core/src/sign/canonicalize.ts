import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { isObject } from '../validate/context';
import { showValue } from '../util';
import { isIndexName, jcsOfOrdered, jcs as rfc8785, scalarProblem } from './jcs';

/*
 * What an Agent Card signature covers, read from the JSON itself: never through a model that
 * renames, drops or picks members, because whatever such a reading leaves out is content a
 * plain JSON reader (or an SDK in its legacy mode) still uses, and nothing would vouch for it.
 *
 * Two readings are in use (upstream A2A#2122), and both start from the JSON as received, less
 * its top-level `signatures`:
 * - served-as-is: RFC 8785 of that JSON (a2a-go);
 * - pruned: members at their default value removed first, recursively: `""`, `null`, `[]`, `{}`
 *   (an array element that becomes empty too), and `false` on the two booleans without
 *   presence (`AgentExtension.required`, `AuthorizationCodeOAuthFlow.pkceRequired`); then
 *   RFC 8785 (@a2a-js/sdk 1.3.0 and a2a-python, whose model round trip equals this on a card
 *   that holds only v1.0 members under their JSON names).
 * Neither renames a member, nor drops one with a value, nor drops one for being outside v1.0.
 */

type Json = unknown;

/** The canonical forms a signature may cover. */
export type AgentCardCanonicalForm = 'served-as-is' | 'pruned';

/**
 * The protected-header parameter in which a signature names the canonical form it covers
 * (`"agentCardForm": "pruned"`). Not listed in `crit`: verifiers that do not know it ignore it.
 */
export const FORM_HEADER_PARAMETER = 'agentCardForm';

/** Every canonical form, in the order a signer emits and a verifier tries them. */
export const AGENT_CARD_CANONICAL_FORMS: readonly AgentCardCanonicalForm[] = ['pruned', 'served-as-is'];

/**
 * How deep a card may nest before it is refused: a real card nests about eight levels (the
 * deepest is an OAuth scope), extension `params` a few more.
 */
export const MAX_SIGNED_DEPTH = 64;

type JsonObject = Record<string, Json>;

function fail(what: string, how: string, cause?: unknown): never {
  throw new AgentCardError('ERR_AGENT_CARD_SIGNATURE', `canonicalizeAgentCard: ${what}. ${how}`, { cause });
}

/**
 * How deep `value` nests, counted without recursion; stops counting past `limit`. Only objects and
 * arrays are stacked, with their depth alongside, so a card of many scalars allocates nothing.
 */
function depthExceeds(value: Json, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const items: object[] = [value];
  const depths: number[] = [1];
  while (items.length > 0) {
    const item = items.pop() as Record<string, Json>;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const child = item[i];
        if (typeof child === 'object' && child !== null) {
          items.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key of Object.keys(item)) {
        const child = item[key];
        if (typeof child === 'object' && child !== null) {
          items.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** Members whose `false` is their default: booleans without presence in a2a.proto. */
function isPresenceless(path: readonly string[]): boolean {
  const n = path.length;
  const at = (i: number, ...names: string[]) => names.includes(path[n - i] as string);
  if (n === 4 && at(4, 'capabilities') && at(3, 'extensions') && at(1, 'required')) return true;
  return (
    n === 6 &&
    at(6, 'securitySchemes', 'security_schemes') &&
    at(4, 'oauth2SecurityScheme', 'oauth2_security_scheme') &&
    at(3, 'flows') &&
    at(2, 'authorizationCode', 'authorization_code') &&
    at(1, 'pkceRequired', 'pkce_required')
  );
}

const DROPPED = Symbol('dropped');

/**
 * What a pruning walk carries: the path (for the presenceless booleans), whether the copy's
 * members came out in RFC 8785 order (no array-index names, see jcs.ts), and the first value
 * RFC 8785 cannot write.
 */
interface Pruning {
  path: string[];
  /** Copy members in sorted order (for the text), or in the card's order (for diagnoses). */
  sorted: boolean;
  ordered: boolean;
  problem: string | undefined;
}

/**
 * Removes default-valued members recursively; `DROPPED` means the whole value goes. With
 * `sorted`, members are copied in sorted order, so that the copy's JSON.stringify text is already
 * RFC 8785 unless `ordered` turned false.
 */
function prune(value: Json, state: Pruning): Json | typeof DROPPED {
  if (value === '' || value === null) return DROPPED;
  if (value === false) return isPresenceless(state.path) ? DROPPED : false;
  if (Array.isArray(value)) {
    const list: Json[] = [];
    state.path.push('*');
    for (let i = 0; i < value.length; i++) {
      const item = prune(value[i], state);
      if (item !== DROPPED) list.push(item);
    }
    state.path.pop();
    return list.length > 0 ? list : DROPPED;
  }
  if (typeof value === 'object') {
    // A null-prototype object keeps an own `__proto__` member as the plain member it is.
    const out: JsonObject = Object.create(null);
    let kept = 0;
    const keys = Object.keys(value);
    for (const key of state.sorted ? keys.sort() : keys) {
      state.path.push(key);
      const item = prune((value as JsonObject)[key], state);
      state.path.pop();
      if (item !== DROPPED) {
        if (isIndexName(key)) state.ordered = false;
        state.problem ??= scalarProblem(key);
        out[key] = item;
        kept++;
      }
    }
    return kept > 0 ? out : DROPPED;
  }
  state.problem ??= scalarProblem(value);
  return value;
}

function withoutSignatures(card: JsonObject): JsonObject {
  const out: JsonObject = Object.create(null);
  for (const key of Object.keys(card)) if (key !== 'signatures') out[key] = card[key];
  return out;
}

function unserializable(reason: string, cause?: unknown): never {
  return fail(
    `the card cannot be serialized with RFC 8785 (${reason})`,
    'Remove lone UTF-16 surrogates, NaN and Infinity from the card.',
    cause,
  );
}

function jcs(value: Json): string {
  try {
    return rfc8785(value);
  } catch (error) {
    return unserializable((error as Error).message, error);
  }
}

/** The checks every form starts with: an object, plain JSON, not nested past the limit. */
function signedContent(card: unknown): JsonObject {
  if (!isObject(card)) {
    fail(
      `the card is ${Array.isArray(card) ? 'an array' : card === null ? 'null' : typeof card}, not an object`,
      'Pass the card as a JSON object.',
    );
  }
  if (depthExceeds(card, MAX_SIGNED_DEPTH)) {
    fail(
      `the card nests deeper than ${MAX_SIGNED_DEPTH} levels`,
      'A real card nests about eight levels: flatten the nested values.',
    );
  }
  return withoutSignatures(card);
}

/** Options of {@link canonicalizeAgentCard}. */
export interface CanonicalizeAgentCardOptions {
  /**
   * Which canonical form: `pruned` (default-valued members removed, what `@a2a-js/sdk` and
   * `a2a-sdk` sign and verify) or `served-as-is` (the JSON as served, what a2a-go signs).
   * @default 'pruned'
   */
  form?: AgentCardCanonicalForm;
}

/**
 * The exact text an Agent Card signature covers: the card as JSON, without `signatures`, in one
 * of the two canonical forms (see {@link AgentCardCanonicalForm}), serialized with RFC 8785.
 * Neither form renames a member, drops one that has a value, or drops one because it is outside
 * the v1.0 model: every value a reader of the card can see is covered.
 *
 * @param card - The card, signed or not (`signatures` is ignored). Plain JSON values only.
 * @returns The canonical JSON text; sign its UTF-8 bytes.
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` when the card is not an object, nests
 *   deeper than {@link MAX_SIGNED_DEPTH} levels, or holds a string with a lone UTF-16 surrogate
 *   or a non-finite number (RFC 8785 cannot represent these).
 * @example
 * canonicalizeAgentCard({ name: 'Example Agent', description: '', capabilities: { streaming: false } })
 * // → '{"capabilities":{"streaming":false},"name":"Example Agent"}'
 * canonicalizeAgentCard({ name: 'Example Agent', description: '' }, { form: 'served-as-is' })
 * // → '{"description":"","name":"Example Agent"}'
 * @see spec §8.4.1 (canonicalization), RFC 8785, A2A#2122
 */
export function canonicalizeAgentCard(
  card: AgentCard | Omit<AgentCard, 'signatures'>,
  options: CanonicalizeAgentCardOptions = {},
): string {
  const form = options.form ?? 'pruned';
  if (form !== 'pruned' && form !== 'served-as-is') {
    fail(`form ${showValue(form)} is not a canonical form`, 'Use "pruned" or "served-as-is".');
  }
  return canonicalForms(card)[form];
}

/** Both canonical forms of a card at once (the checks and the copy are shared). */
export function canonicalForms(card: unknown): Record<AgentCardCanonicalForm, string> {
  const of = canonicalFormsOf(card);
  return { 'served-as-is': of.text('served-as-is'), pruned: of.text('pruned') };
}

/** The canonical forms of one card, each computed the first time it is asked for. */
export interface CanonicalForms {
  /** The signed content as received (the card less `signatures`). */
  readonly content: JsonObject;
  /** The pruned content as a value, members in RFC 8785 order. */
  pruned(): Json;
  /**
   * The pruned content with members in the card's order, for saying what another reading leaves
   * out in the order a reader of the card meets it (diagnoses only: it is a second copy).
   */
  prunedInCardOrder(): Json;
  /** The RFC 8785 text of `form`. */
  text(form: AgentCardCanonicalForm): string;
}

/**
 * The card's canonical forms, computed lazily and at most once each: a 1 MiB card costs tens of
 * milliseconds per form, and a signature that names its form needs only that one.
 * @throws {AgentCardError} as {@link canonicalizeAgentCard}: at once for a card that is not an
 *   object or nests too deep, from `text` for one RFC 8785 cannot represent.
 */
export function canonicalFormsOf(card: unknown): CanonicalForms {
  const content = signedContent(card);
  let pruned: Json | undefined;
  let inCardOrder: Json | undefined;
  const pruning: Pruning = { path: [], sorted: true, ordered: true, problem: undefined };
  const texts: Partial<Record<AgentCardCanonicalForm, string>> = {};
  const prunedValue = () => {
    if (pruned === undefined) {
      const value = prune(content, pruning);
      pruned = value === DROPPED ? {} : value;
    }
    return pruned;
  };
  const prunedText = () => {
    const value = prunedValue();
    if (pruning.problem !== undefined) unserializable(pruning.problem);
    return jcsOfOrdered(value, pruning.ordered);
  };
  const prunedInCardOrder = () => {
    if (inCardOrder === undefined) {
      const value = prune(content, { path: [], sorted: false, ordered: false, problem: undefined });
      inCardOrder = value === DROPPED ? {} : value;
    }
    return inCardOrder;
  };
  return {
    content,
    pruned: prunedValue,
    prunedInCardOrder,
    text: (form) => {
      texts[form] ??= form === 'served-as-is' ? jcs(content) : prunedText();
      return texts[form];
    },
  };
}
