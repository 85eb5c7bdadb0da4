/**
 * The validator entry point: decodes the input, classifies the card and runs every rule of the
 * catalogue (structure, legacy, semantics, publishing readiness).
 *
 * @packageDocumentation
 */
import type { Finding, Severity, ValidationProfile } from '../findings';
import { AgentCardSchema, type AgentCard, type AgentSkill } from '../model';
import {
  createRuleContext,
  isObject,
  keysOf,
  type CardShape,
  type JsonObject,
  type RuleCheck,
  type RuleContext,
} from './context';
import { checkHiddenInstructions } from './rules/hidden-instructions';
import { checkRegistrySize } from './rules/registry-size';
import { checkInternalHosts } from './rules/internal-hosts';
import { checkLegacy } from './rules/legacy';
import { findQuietSkills } from './rules/quiet-skills';
import { checkPublishing, createPublishingCheck } from './rules/publishing';
import { replaceSdkShapeFindings } from './rules/sdk-shape';
import { checkSemantics } from './rules/semantics';
import { checkStructure } from './rules/structure';
import { checkSystemPromptText } from './rules/system-prompt';
import { checkTemplateContent } from './rules/template-content';
import { decode } from './decode';
import { ARRAY_INDEX, BAD_POINTER_ESCAPE } from './patterns';
import { emptyObject } from '../json/plain';
import {
  applyRuleOverrides,
  type ResolvedRuleOverrides,
  type RuleOverrides,
  type RuleTurnedOff,
  resolveRuleOverrides,
} from '../rules';
import { checkShape, detectCardShape, errorText, preview, toJsonTree, typeName } from './shape';

export type { CardShape } from './context';

/** Options of {@link validateAgentCard}. */
export interface ValidationOptions {
  /**
   * Which rule set and severities to apply.
   * @default 'production' when `process.env.NODE_ENV === 'production'`, else 'development'
   */
  profile?: ValidationProfile;
  /**
   * Severity of `skills-non-empty` (an empty `skills` array). Ignored by the `strict` profile,
   * where it stays an error.
   * @default 'error'
   */
  skillsNonEmpty?: 'error' | 'warning';
  /**
   * The URL the card was fetched from. When given, `interface-origin-mismatch` (rule 38)
   * compares every interface host with it; checks of a local file leave it out.
   * @example 'https://acme.io/.well-known/agent-card.json'
   */
  cardUrl?: string;
  /**
   * Per-rule settings by rule id: `'off'` leaves the rule's findings out, `'info'`, `'warning'`
   * or `'error'` gives them that severity whatever the profile says. Turning a rule off is your
   * decision, and the result says so ({@link ValidationResult.turnedOff}). An unknown rule id or
   * setting throws an `AgentCardError` (`ERR_AGENT_CARD_OPTIONS`) naming the nearest id.
   * @example { 'metadata-quality': 'off', 'url-private-host': 'error' }
   */
  rules?: RuleOverrides;
}

/** What {@link validateAgentCard} returns. */
export interface ValidationResult {
  /** `true` when no finding has severity `error`. */
  valid: boolean;
  /**
   * The parsed card, typed. Present only when there is no error finding and the card matches
   * {@link AgentCardSchema} exactly (so not when unknown or legacy fields were reported).
   */
  card?: AgentCard;
  /** The generation the card looks like (rule `card-shape-detected`). */
  shape: CardShape;
  /** Every finding: errors first, then warnings, then infos; each group in document order. */
  findings: Finding[];
  /**
   * The rules turned off by {@link ValidationOptions.rules}, each with the number of findings it
   * would have listed. Present only when `rules` turns a rule off.
   */
  turnedOff?: RuleTurnedOff[];
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Profile used when none is given. */
export function defaultProfile(): ValidationProfile {
  try {
    if (typeof process !== 'undefined' && process.env?.NODE_ENV === 'production') return 'production';
  } catch {
    // A sandbox without `process.env` behaves like development.
  }
  return 'development';
}

/** The profile `validateAgentCard` applies for a requested one: itself when known, else the default. */
export function resolveProfile(requested: unknown): ValidationProfile {
  return requested === 'development' || requested === 'production' || requested === 'strict'
    ? requested
    : defaultProfile();
}

/** Runs a rule module, turning an exception into a finding instead of a crash. */
function runRule(rule: RuleCheck, name: string, card: JsonObject, ctx: RuleContext): void {
  try {
    rule(card, ctx);
  } catch (error) {
    ctx.report(
      'internal-error',
      'error',
      [],
      `card: the ${name} rules stopped on this card (${errorText(error)}).`,
      'This is a bug in the validator; please report it with the card. The card was not fully checked.',
    );
  }
}

/**
 * Where a finding's pointer sits in the tree, as the child index taken at each level down to the
 * deepest node that exists (a missing field sorts with the object that lacks it). Comparing two
 * such lists element by element, a prefix first, gives the pre-order: document order, without
 * naming every node of the card.
 */
function treePosition(tree: unknown, pointer: string, keyIndex: KeyIndex, keyOrder?: KeyOrder): number[] {
  const position: number[] = [];
  // Pointers come from `toPointer`: empty, or "/" before each escaped segment.
  if (pointer === '' || pointer.charCodeAt(0) !== 47) return position;
  let node = tree;
  let start = 1;
  for (;;) {
    const slash = pointer.indexOf('/', start);
    let segment = slash === -1 ? pointer.slice(start) : pointer.slice(start, slash);
    let index = -1;
    if (Array.isArray(node)) {
      if (ARRAY_INDEX.test(segment)) {
        const i = Number(segment);
        if (i < node.length) index = i;
      }
    } else if (isObject(node)) {
      // A malformed escape names no key, as in the pointer text it stands for.
      if (!segment.includes('~')) index = keyIndexOf(node, segment, keyIndex, keyOrder);
      else if (!BAD_POINTER_ESCAPE.test(segment)) {
        segment = segment.replaceAll('~1', '/').replaceAll('~0', '~');
        index = keyIndexOf(node, segment, keyIndex, keyOrder);
      }
    }
    if (index === -1) return position;
    position.push(index);
    node = Array.isArray(node) ? node[index] : (node as JsonObject)[segment];
    if (slash === -1) return position;
    start = slash + 1;
  }
}

/** The keys of an object in document order, when that is not the order of `Object.keys`. */
type KeyOrder = (node: object) => readonly string[] | undefined;

/**
 * Per object of more than a few keys: its keys in document order, the keys findings name in it,
 * and, once every finding has named its keys, where each of those sits. Indexing only the named
 * keys costs one pass over the keys, where indexing all of them (40 k members, say) would cost
 * far more than the findings that need them.
 */
interface KeyPositions {
  keys: readonly string[];
  wanted: Set<string>;
  index?: Map<string, number>;
}

/**
 * Key positions by object. While `collecting`, a lookup only records the key it asks for (and
 * answers a placeholder index, never read); afterwards each object's named keys are indexed in
 * one pass.
 */
interface KeyIndex {
  objects: Map<object, KeyPositions>;
  collecting: boolean;
}

function keyIndexOf(node: JsonObject, key: string, cache: KeyIndex, keyOrder?: KeyOrder): number {
  if (!Object.hasOwn(node, key)) return -1;
  let entry = cache.objects.get(node);
  if (!entry) {
    const keys = keyOrder?.(node) ?? keysOf(node);
    // A message has a few keys; only a big map (many schemes, say) is worth an index.
    if (keys.length <= 16) return keys.indexOf(key);
    entry = { keys, wanted: new Set() };
    cache.objects.set(node, entry);
  }
  if (cache.collecting) {
    entry.wanted.add(key);
    return 0;
  }
  let index = entry.index;
  if (!index) {
    index = new Map();
    const { keys, wanted } = entry;
    for (let i = 0; i < keys.length && index.size < wanted.size; i++) {
      if (wanted.has(keys[i]!)) index.set(keys[i]!, i);
    }
    entry.index = index;
  }
  return index.get(key) ?? -1;
}

function comparePositions(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * Findings by severity, then document order, then as they were made. Each rule lists a bounded
 * number of findings (see MAX_FINDINGS_PER_RULE), so placing each one costs its depth, however
 * large the card.
 */
function sortFindings(findings: Finding[], tree: unknown): Finding[] {
  if (findings.length < 2) return findings;
  return sortInTreeOrder(findings, tree);
}

function sortInTreeOrder(findings: readonly Finding[], tree: unknown, keyOrder?: KeyOrder): Finding[] {
  // A map that lives as long as the sort: a weak map would only cost the garbage collector more.
  const keyIndex: KeyIndex = { objects: new Map(), collecting: true };
  // First every finding names the keys it needs, then each big object is indexed once.
  for (let i = 0; i < findings.length; i++) treePosition(tree, findings[i]!.path, keyIndex, keyOrder);
  keyIndex.collecting = false;
  return findings
    .map((finding, index) => ({
      finding,
      index,
      severity: SEVERITY_ORDER[finding.severity],
      position: treePosition(tree, finding.path, keyIndex, keyOrder),
    }))
    .sort((a, b) => a.severity - b.severity || comparePositions(a.position, b.position) || a.index - b.index)
    .map((x) => x.finding);
}

/**
 * Orders findings as {@link validateAgentCard} does (severity, then document order, then as they
 * were made), for a document whose objects list their keys in the order `keyOrder` gives (or
 * `Object.keys` where it gives none). Internal: `defineAgentCard` validates the card in proto key
 * order and lists the findings in the order the definition was written.
 */
export function sortFindingsInKeyOrder(findings: readonly Finding[], tree: unknown, keyOrder: KeyOrder): Finding[] {
  try {
    return sortInTreeOrder(findings, tree, keyOrder);
  } catch {
    return [...findings];
  }
}

/**
 * Validates an A2A Agent Card against the rule catalogue and returns every finding at once.
 * It never throws, whatever the input: JSON text, bytes, or any JavaScript value (cycles,
 * throwing getters, `__proto__` keys and 100 000-level nesting included).
 *
 * - A string is parsed as JSON, a `Uint8Array`/`Buffer` is decoded as UTF-8 first
 *   (`card-json-parse`); the root must be an object (`card-root-object`).
 * - The card is classified (`card-shape-detected`): v0.3 and ≤0.2 cards get findings with the
 *   exact v1.0 JSON to use instead (the same conversion as {@link migrateAgentCard}).
 * - Structure (rules 4–18), legacy (31–32), cross-field (19–30) and publishing (33–41) rules run
 *   with the profile's severities.
 *
 * @param value - the card: JSON text, UTF-8 bytes, or a parsed value.
 * @param options - profile and `skills-non-empty` severity.
 * @returns `valid` (no error), the typed `card` when it matches the model exactly, the detected
 *   `shape`, and the findings sorted by severity then document order.
 * @example
 * ```ts
 * import { validateAgentCard, formatFindings } from '@agent-card/core';
 *
 * const result = validateAgentCard(await readFile('agent-card.json'), { profile: 'production' });
 * if (!result.valid) console.error(formatFindings(result.findings));
 * ```
 * @see https://a2a-protocol.org/latest/specification/#441-agentcard
 */
export function validateAgentCard(value: unknown, options: ValidationOptions = {}): ValidationResult {
  return run(value, options, true, true);
}

/**
 * {@link validateAgentCard} for callers that read only `valid`, `shape` and `findings` (the
 * responder, `defineAgentCard`): the same findings, without the zod parse that builds the typed
 * `card`. Internal to the package.
 */
export function validateAgentCardFindings(
  value: unknown,
  options: ValidationOptions = {},
): Omit<ValidationResult, 'card'> {
  return run(value, options, false, true);
}

/**
 * {@link validateAgentCard} with every rule walking every skill, quiet ones included (see
 * `isQuietSkill`). Gives the same result, only slower; internal, for the tests that hold the
 * two paths to that.
 */
export function validateAgentCardInFull(value: unknown, options: ValidationOptions = {}): ValidationResult {
  return run(value, options, true, false);
}

function run(value: unknown, options: ValidationOptions, typed: boolean, skipQuiet: boolean): ValidationResult {
  // A mistake in the settings is the caller's, not the card's: it throws, before any card is read.
  const overrides = isObject(options) ? resolveRuleOverrides(options.rules, 'options.rules') : undefined;
  const done = (findings: Finding[], card: JsonObject | undefined, tree: unknown) =>
    finish(findings, card, shape, tree, typed, overrides);
  let profile: ValidationProfile = 'development';
  let shape: CardShape = 'unknown';
  let tree: unknown;
  let ctx = createRuleContext(profile, shape);
  try {
    profile = resolveProfile(isObject(options) ? options.profile : undefined);
    const skillsNonEmpty = isObject(options) && options.skillsNonEmpty === 'warning' ? 'warning' : 'error';

    const intake = createRuleContext(profile, shape);
    const decoded = decode(value, intake);
    if (!decoded.ok) {
      intake.closeBounds();
      return done(intake.findings, undefined, undefined);
    }

    // Text comes parsed into the plain tree already; any other value is copied into one.
    const copied = decoded.plain ? { tree: decoded.value, problems: [] } : toJsonTree(decoded.value);
    tree = copied.tree;
    if (!isObject(tree)) {
      intake.report(
        'card-root-object',
        'error',
        [],
        `card: expected a JSON object, got ${typeName(tree)} (${preview(tree)}).`,
        'The card is one JSON object: {"name": …, "supportedInterfaces": […], …}.',
      );
      intake.closeBounds();
      return done(intake.findings, undefined, tree);
    }
    for (const problem of copied.problems) {
      intake.report('card-json-parse', 'error', problem.path, problem.message, problem.hint);
    }
    intake.closeBounds();

    shape = detectCardShape(tree);
    ctx = createRuleContext(profile, shape, skipQuiet ? findQuietSkills(tree) : undefined);
    ctx.findings.push(...intake.findings);
    const card = tree;
    runRule(checkShape, 'shape', card, ctx);
    runRule((c, x) => checkStructure(c, x, { skillsNonEmpty }), 'structure', card, ctx);
    runRule(checkLegacy, 'legacy', card, ctx);
    runRule(checkSemantics, 'cross-field', card, ctx);
    const cardUrl = isObject(options) && typeof options.cardUrl === 'string' ? options.cardUrl : undefined;
    runRule(cardUrl === undefined ? checkPublishing : createPublishingCheck({ cardUrl }), 'publishing', card, ctx);
    runRule(checkInternalHosts, 'internal-host', card, ctx);
    runRule(checkTemplateContent, 'template', card, ctx);
    runRule(checkSystemPromptText, 'system-prompt', card, ctx);
    runRule(checkHiddenInstructions, 'hidden-instruction', card, ctx);
    runRule((c, x) => checkRegistrySize(c, x, value), 'registry-size', card, ctx);
    runRule((c) => replaceSdkShapeFindings(c, ctx), 'sdk-shape', card, ctx);
    ctx.closeBounds();
    return done(ctx.findings, card, tree);
  } catch (error) {
    ctx.report(
      'internal-error',
      'error',
      [],
      `card: validation stopped (${errorText(error)}).`,
      'This is a bug in the validator; please report it with the card.',
    );
    ctx.closeBounds();
    return done(ctx.findings, undefined, tree);
  }
}

function finish(
  findings: Finding[],
  card: JsonObject | undefined,
  shape: CardShape,
  tree: unknown,
  typed: boolean,
  overrides: ResolvedRuleOverrides | undefined,
): ValidationResult {
  const { findings: kept, turnedOff } =
    overrides === undefined ? { findings, turnedOff: [] } : applyRuleOverrides(findings, overrides);
  let sorted: Finding[];
  try {
    sorted = sortFindings(kept, tree);
  } catch {
    sorted = kept;
  }
  const valid = !sorted.some((f) => f.severity === 'error');
  const result: ValidationResult = { valid, shape, findings: sorted };
  if (turnedOff.length > 0) result.turnedOff = turnedOff;
  // zod's messages are strict objects: a member the structure rules call unknown makes it reject
  // the card, so it is not asked (for a card of many unknown members, the parse would cost more
  // than all the rules together).
  if (typed && valid && card && !findings.some((f) => f.rule === 'unknown-field' || f.rule === 'json-camelcase')) {
    try {
      const parsed = parseTyped(card);
      if (parsed !== undefined) result.card = parsed;
    } catch {
      // A card zod cannot read is simply not returned typed.
    }
  }
  return result;
}

/** A list of strings: a fresh copy, as zod returns it; `undefined` for anything else. */
function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return undefined;
  return value.slice() as string[];
}

/**
 * What `AgentSkillSchema.parse` returns for a skill made only of non-empty `id`, `name` and
 * `description` strings, a non-empty `tags` string list and optional `examples`, `inputModes`
 * and `outputModes` string lists (a skill it always accepts): a plain object with those fields in
 * model order and fresh lists. `undefined` for any other skill.
 */
function plainSkill(skill: unknown): AgentSkill | undefined {
  if (!isObject(skill)) return undefined;
  const { id, name, description } = skill;
  if (typeof id !== 'string' || id === '' || !Object.hasOwn(skill, 'id')) return undefined;
  if (typeof name !== 'string' || name === '' || !Object.hasOwn(skill, 'name')) return undefined;
  if (typeof description !== 'string' || description === '' || !Object.hasOwn(skill, 'description')) return undefined;
  const tags = Object.hasOwn(skill, 'tags') ? stringList(skill.tags) : undefined;
  if (tags === undefined || tags.length === 0) return undefined;
  const out: AgentSkill = { id, name, description, tags };
  let fields = 4;
  if (Object.hasOwn(skill, 'examples')) {
    const examples = stringList(skill.examples);
    if (examples === undefined) return undefined;
    out.examples = examples;
    fields++;
  }
  if (Object.hasOwn(skill, 'inputModes')) {
    const inputModes = stringList(skill.inputModes);
    if (inputModes === undefined) return undefined;
    out.inputModes = inputModes;
    fields++;
  }
  if (Object.hasOwn(skill, 'outputModes')) {
    const outputModes = stringList(skill.outputModes);
    if (outputModes === undefined) return undefined;
    out.outputModes = outputModes;
    fields++;
  }
  // Any other key (securityRequirements, an unknown field) takes the full parse.
  return Object.keys(skill).length === fields ? out : undefined;
}

/**
 * `AgentCardSchema.safeParse(card).data`, or `undefined` when zod rejects the card. When every
 * skill is a plain one (see {@link plainSkill}), zod parses the card with its first skill only, and
 * the skills list is built without it: the other skills cannot change zod's verdict, and their
 * parsed form is known, so a long list costs a copy instead of a parse.
 */
function parseTyped(card: JsonObject): AgentCard | undefined {
  const skills = Object.hasOwn(card, 'skills') ? card.skills : undefined;
  if (Array.isArray(skills) && skills.length > 1) {
    const parsedSkills: AgentSkill[] = [];
    for (let i = 0; i < skills.length; i++) {
      const skill = plainSkill(skills[i]);
      if (skill === undefined) break;
      parsedSkills.push(skill);
    }
    if (parsedSkills.length === skills.length) {
      const head = emptyObject();
      const keys = Object.keys(card);
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]!;
        head[key] = key === 'skills' ? [skills[0]] : card[key];
      }
      const parsed = AgentCardSchema.safeParse(head);
      if (!parsed.success) return undefined;
      parsed.data.skills = parsedSkills;
      return parsed.data;
    }
  }
  const parsed = AgentCardSchema.safeParse(card);
  return parsed.success ? parsed.data : undefined;
}
