/**
 * Card shape detection (rule `card-shape-detected`) and the JSON helpers every structure rule
 * shares: reading untrusted objects safely, naming paths, previewing values.
 *
 * @packageDocumentation
 */
import { emptyObject } from '../json/plain';
import { type CardShape, isObject, type JsonObject, type RuleContext } from './context';
import { IDENTIFIER, UPPER_CASE_LETTERS } from './patterns';

/** Top-level keys of v0.3 / ≤0.2 cards that v1.0 removed or moved. */
export const LEGACY_CARD_KEYS = [
  'url',
  'preferredTransport',
  'additionalInterfaces',
  'protocolVersion',
  'security',
  'supportsAuthenticatedExtendedCard',
  'authentication',
] as const;

/** Own-property presence; never consults the prototype chain (`__proto__`, `constructor`...). */
export function has(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** Own-property read: `undefined` unless `key` is an own property. */
export function own(obj: JsonObject, key: string): unknown {
  return has(obj, key) ? obj[key] : undefined;
}

/** Sets an own data property, even for keys such as `__proto__`. */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  // Only `__proto__` is an accessor on the prototype chain of a JSON object; any other key is
  // defined by plain assignment, several times faster than defining it.
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else obj[key] = value;
}

/**
 * Human-readable location for messages: `skills[2].tags`, `securitySchemes["my scheme"]`; the
 * root is `card`.
 */
export function describePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? 'card' : out;
}

/** Short JSON rendering of a value for a message, cut to `max` characters. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    if (typeof value === 'string') text = JSON.stringify(value.length > max ? value.slice(0, max) : value);
    else if (Array.isArray(value)) text = value.length === 0 ? '[]' : `array of ${value.length}`;
    else if (isObject(value)) {
      const keys = Object.keys(value);
      text =
        keys.length === 0
          ? '{}'
          : `object with ${keys
              .slice(0, 4)
              .map((k) => JSON.stringify(k))
              .join(', ')}${keys.length > 4 ? ', …' : ''}`;
    } else text = String(JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Compact JSON for hints; very large values are cut so a hint stays readable. */
export function json(value: unknown, max = 4000): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = 'null';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** JSON type name as people say it: `string`, `array`, `object`, `null`... */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Classifies a card by generation (rule 3):
 * - `v1.0`: has `supportedInterfaces` and no v0.3 keys;
 * - `mixed`: has `supportedInterfaces` and v0.3 keys (a "superset" card);
 * - `v0.3`: top-level `url` with `protocolVersion` or `preferredTransport`, or other v0.3-only keys;
 * - `v0.2`: top-level `url` and neither `protocolVersion` nor `preferredTransport`;
 * - `unknown`: none of these (checked against v1.0).
 */
export function detectCardShape(card: JsonObject): CardShape {
  const legacy = LEGACY_CARD_KEYS.filter((k) => has(card, k));
  if (has(card, 'supportedInterfaces')) return legacy.length > 0 ? 'mixed' : 'v1.0';
  if (has(card, 'url')) {
    return has(card, 'protocolVersion') || has(card, 'preferredTransport') ? 'v0.3' : 'v0.2';
  }
  if (legacy.length === 1 && legacy[0] === 'authentication') return 'v0.2';
  return legacy.length > 0 ? 'v0.3' : 'unknown';
}

const SHAPE_TEXT: Record<CardShape, string> = {
  'v1.0': 'an A2A v1.0 card (supportedInterfaces)',
  mixed: 'an A2A v1.0 card that also carries v0.3 fields (a "superset" card)',
  'v0.3': 'an A2A v0.3 card (top-level url and protocolVersion/preferredTransport)',
  'v0.2': 'an A2A v0.2 or older card (top-level url, no protocolVersion)',
  unknown: 'neither a v1.0 nor a v0.3 card (no supportedInterfaces and no url)',
};

const SHAPE_HINT: Record<CardShape, string> = {
  'v1.0': 'Checked against the A2A v1.0 rules.',
  mixed:
    'Checked against the v1.0 rules; the v0.3 fields are reported as legacy-fields-present. Run `agent-card migrate` for a plain v1.0 card.',
  'v0.3':
    'Checked against the v0.3 required fields; each legacy field has a finding with its v1.0 replacement. Run `agent-card migrate` to rewrite the whole card.',
  'v0.2':
    'Checked against the v0.3 required fields (without protocolVersion); each legacy field has a finding with its v1.0 replacement. Run `agent-card migrate` to rewrite the whole card.',
  unknown: 'Checked against the A2A v1.0 rules: add "supportedInterfaces" and the other required fields.',
};

/** Rule 3 `card-shape-detected` (info): says which generation the card looks like. */
export function checkShape(card: JsonObject, ctx: RuleContext): void {
  const legacy = LEGACY_CARD_KEYS.filter((k) => has(card, k));
  const detail = legacy.length > 0 ? ` (v0.3 keys: ${legacy.join(', ')})` : '';
  ctx.report(
    'card-shape-detected',
    'info',
    [],
    `card: looks like ${SHAPE_TEXT[ctx.shape]}${ctx.shape === 'mixed' || ctx.shape === 'v0.3' || ctx.shape === 'v0.2' ? detail : ''}.`,
    SHAPE_HINT[ctx.shape],
  );
}

/** Deepest nesting accepted; real cards stay under 10 levels (extension `params` included). */
export const MAX_DEPTH = 64;
/** Most values copied from one input; guards against object graphs that share references. */
export const MAX_NODES = 1_000_000;
/** Longest list whose copy is allocated at its full length before it is filled. */
const PRESIZE_LIMIT = 65_536;

/** A problem met while copying a programmatic value into plain JSON. */
export interface TreeProblem {
  path: (string | number)[];
  message: string;
  hint: string;
}

/** A value `toJsonTree` copies as it is: a string, boolean, finite number or null. */
function isPlainScalar(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    default:
      return value === null;
  }
}

/** Whether `obj` is one of the first `depth` entries of `ancestors`. */
function isAncestor(ancestors: readonly (object | undefined)[], obj: object, depth: number): boolean {
  for (let d = 0; d < depth; d++) if (ancestors[d] === obj) return true;
  return false;
}

/** Marks a value JSON leaves out (`undefined`, a function, a symbol). */
const OMIT = Symbol('omit');

/**
 * One copy of one value (see {@link toJsonTree}): the problems met, the values read, and where
 * the copy is. The objects on the way down are kept one per level (at most MAX_DEPTH of them),
 * so a scan finds a cycle without giving every copied object an identity hash, as a set would.
 * The path is grown and shrunk as the copy descends, and a problem takes a snapshot of it; an
 * exception thrown below aborts the whole copy, so an unbalanced path is never read again.
 */
class TreeCopy {
  readonly problems: TreeProblem[] = [];
  nodes = 0;
  private budgetReported = false;
  private readonly ancestors: (object | undefined)[] = [];
  private readonly path: (string | number)[] = [];

  private problem(path: (string | number)[], what: string, hint: string): void {
    this.problems.push({ path, message: `${describePath(path)}: ${what}`, hint });
  }

  copy(input: unknown, depth: number): unknown {
    const path = this.path;
    this.nodes += 1;
    if (this.nodes > MAX_NODES) {
      if (!this.budgetReported) {
        this.budgetReported = true;
        this.problem(
          path.slice(),
          `the value has more than ${MAX_NODES} nested values (shared references?).`,
          'Pass a plain JSON card; a card has at most a few thousand values.',
        );
      }
      return null;
    }
    switch (typeof input) {
      case 'string':
      case 'boolean':
        return input;
      case 'number':
        if (Number.isFinite(input)) return input;
        this.problem(
          path.slice(),
          `not representable in JSON (${String(input)}).`,
          'Use a finite number, or a string.',
        );
        return null;
      case 'bigint':
        this.problem(path.slice(), `not representable in JSON (bigint ${String(input)}).`, 'Use a number or a string.');
        return null;
      case 'undefined':
      case 'function':
      case 'symbol':
        return OMIT;
      default:
        break;
    }
    if (input === null) return null;
    const obj = input as object;
    if (isAncestor(this.ancestors, obj, depth)) {
      this.problem(
        path.slice(),
        'circular reference (the value contains itself).',
        'Pass a tree: JSON cannot represent cycles.',
      );
      return null;
    }
    if (depth >= MAX_DEPTH) {
      this.problem(
        path.slice(),
        `nested deeper than ${MAX_DEPTH} levels.`,
        `Flatten the value; an Agent Card needs fewer than ${MAX_DEPTH} levels.`,
      );
      return null;
    }
    this.ancestors[depth] = obj;
    try {
      return Array.isArray(obj) ? this.array(obj, depth) : this.object(obj, depth);
    } finally {
      this.ancestors[depth] = undefined;
    }
  }

  private array(obj: unknown[], depth: number): unknown[] {
    const path = this.path;
    const length = obj.length;
    // Sized up front (a list copied item by item would grow its storage several times); cut
    // back below if the value budget runs out part-way.
    const sized = typeof length === 'number' && Number.isInteger(length) && length > 0 && length <= PRESIZE_LIMIT;
    const out: unknown[] = sized ? new Array<unknown>(length) : [];
    let i = 0;
    for (; i < length && this.nodes <= MAX_NODES; i++) {
      let raw: unknown;
      try {
        raw = obj[i];
      } catch (error) {
        this.problem([...path, i], `reading the value threw (${errorText(error)}).`, 'Pass plain JSON data.');
        raw = null;
      }
      // A string, boolean, finite number or null within the budget is copied as `copy`
      // would, without the call.
      if (isPlainScalar(raw) && this.nodes < MAX_NODES) {
        this.nodes += 1;
        out[i] = raw;
        continue;
      }
      path.push(i);
      const item = this.copy(raw, depth + 1);
      path.pop();
      out[i] = item === OMIT ? null : item;
    }
    if (i < length) out.length = i;
    return out;
  }

  private object(obj: object, depth: number): unknown {
    const path = this.path;
    const toJSON = readProperty(obj, 'toJSON');
    if (typeof toJSON === 'function' && !(obj instanceof Uint8Array)) {
      let converted: unknown;
      try {
        converted = (toJSON as (key: string) => unknown).call(obj, '');
      } catch (error) {
        this.problem(path.slice(), `toJSON() threw (${errorText(error)}).`, 'Pass plain JSON data.');
        return null;
      }
      if (converted !== obj) return this.copy(converted, depth + 1);
    }
    // Nothing is inherited, so plain assignment defines an own property for every key,
    // `__proto__` included, without reaching `Object.prototype`.
    const out = emptyObject();
    // `for…in` with an own-property test lists what `Object.keys` lists, in the same order,
    // without a new array of keys per object (an object with an enumeration cache gives its
    // names as they are). Only the listing's own failures are caught here: a copy below that
    // throws aborts the whole copy, as everywhere else.
    let below = false;
    try {
      for (const key in obj) {
        if (this.nodes > MAX_NODES) break;
        if (!Object.hasOwn(obj, key)) continue;
        let raw: unknown;
        try {
          raw = (obj as Record<string, unknown>)[key];
        } catch (error) {
          this.problem(
            [...path, key],
            `reading the value threw (${errorText(error)}).`,
            'Pass plain JSON data: replace the getter by its value.',
          );
          continue;
        }
        if (isPlainScalar(raw) && this.nodes < MAX_NODES) {
          this.nodes += 1;
          out[key] = raw;
          continue;
        }
        path.push(key);
        below = true;
        const item = this.copy(raw, depth + 1);
        below = false;
        path.pop();
        if (item !== OMIT) out[key] = item;
      }
    } catch (error) {
      if (below) throw error;
      this.problem(
        path.slice(),
        `its keys cannot be listed (${errorText(error)}).`,
        'Pass plain JSON data, not a proxy.',
      );
      return null;
    }
    return out;
  }
}

/**
 * Copies an untrusted value into plain JSON made of objects that inherit nothing, arrays, strings,
 * finite numbers, booleans and null, the way `JSON.stringify` would see it. Never throws:
 * cycles, over-deep nesting, throwing getters or proxies, `bigint`, `NaN` and the like become
 * `null` plus a {@link TreeProblem}; `undefined`, functions and symbols are left out as JSON does.
 * `nodes` counts the values read (at least the number of values in `tree`).
 */
export function toJsonTree(value: unknown): { tree: unknown; problems: TreeProblem[]; nodes: number } {
  const copy = new TreeCopy();
  let tree: unknown;
  try {
    tree = copy.copy(value, 0);
  } catch (error) {
    // Only reachable through exotic host objects; the caller reports it like any other problem.
    copy.problems.push({
      path: [],
      message: `card: cannot be read (${errorText(error)}).`,
      hint: 'Pass plain JSON data.',
    });
    tree = null;
  }
  return { tree: tree === OMIT ? undefined : tree, problems: copy.problems, nodes: copy.nodes };
}

function readProperty(obj: object, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** The message of anything thrown, without trusting it to be an Error. */
export function errorText(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return 'unknown error';
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the zod model: the structure rules and the migration take field names, optionality,
// types and non-empty constraints from `model.ts` instead of restating them.

/** The zod 4 definition fields this module reads. */
interface SchemaDef {
  type: string;
  innerType?: ModelSchema;
  element?: ModelSchema;
  valueType?: ModelSchema;
  shape?: Record<string, ModelSchema>;
  entries?: Record<string, string>;
  /** Refinements such as `.min(1)`: `{ _zod: { def: { check: 'min_length', minimum: 1 } } }`. */
  checks?: readonly { _zod: { def: { check: string; minimum?: unknown } } }[];
}

/** A schema from `model.ts`, seen through its zod definition. */
export interface ModelSchema {
  _zod: { def: SchemaDef };
  safeParse(value: unknown): { success: boolean };
}

/** The schema without its `.optional()` wrapper, and whether it had one. */
export function unwrap(schema: ModelSchema): { schema: ModelSchema; optional: boolean } {
  let current = schema;
  let optional = false;
  while (current._zod.def.type === 'optional' && current._zod.def.innerType) {
    optional = true;
    current = current._zod.def.innerType;
  }
  return { schema: current, optional };
}

/** The zod kind after unwrapping: `string`, `boolean`, `enum`, `array`, `object`, `record`, `unknown`... */
export function kindOf(schema: ModelSchema): string {
  return unwrap(schema).schema._zod.def.type;
}

/** Field schemas of an object message, in declaration (and so output) order. */
export function fieldsOf(schema: ModelSchema): Record<string, ModelSchema> {
  return unwrap(schema).schema._zod.def.shape ?? {};
}

/** Item schema of an array, value schema of a record. */
export function itemOf(schema: ModelSchema): ModelSchema | undefined {
  const def = unwrap(schema).schema._zod.def;
  return def.element ?? def.valueType;
}

/** Allowed values of an enum field. */
export function enumValuesOf(schema: ModelSchema): string[] {
  return Object.values(unwrap(schema).schema._zod.def.entries ?? {});
}

/**
 * Whether the model requires a set value: a non-empty string or an array with ≥1 element, read
 * from the schema's `min_length` check (the model says it with `.min(1)`). Reading the check
 * rather than parsing `''` or `[]` keeps zod from compiling its parsers during the first
 * validation of a process; a test holds the two answers equal for every schema of the model.
 */
export function requiresNonEmpty(schema: ModelSchema): boolean {
  const def = unwrap(schema).schema._zod.def;
  if (def.type !== 'string' && def.type !== 'array') return false;
  return (def.checks ?? []).some(
    (check) =>
      check._zod.def.check === 'min_length' &&
      typeof check._zod.def.minimum === 'number' &&
      check._zod.def.minimum >= 1,
  );
}

/** `defaultInputModes` → `default_input_modes`: the proto field name ProtoJSON parsers also accept. */
export function snakeCase(camel: string): string {
  return camel.replace(UPPER_CASE_LETTERS, (c) => `_${c.toLowerCase()}`);
}
