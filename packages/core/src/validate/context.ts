import type { Finding, Severity, ValidationProfile } from '../findings';
import { toPointer } from '../findings';
import type { CardRuleId } from '../rules';

/** The card generation a document looks like (rule `card-shape-detected`). */
export type CardShape = 'v1.0' | 'v0.3' | 'v0.2' | 'mixed' | 'unknown';

/** A JSON object as read from untrusted input: never trust its prototype or its types. */
export type JsonObject = Record<string, unknown>;

/** A non-null, non-array object: a JSON object. Untrusted: read it through own properties only. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects of at least this many keys keep their key list for the next rule that asks. */
const SHARED_KEYS = 64;
const sharedKeys = new WeakMap<object, readonly string[]>();

/**
 * `Object.keys(obj)`, listed once per large object and shared by every rule that asks: an object
 * of 40,000 members (unknown fields, a map of schemes) is otherwise listed again by each rule, and
 * listing an object that large costs more than the checks. Objects of the card tree are never
 * changed once built, so a list stays true; the list is read-only.
 */
export function keysOf(obj: object): readonly string[] {
  const shared = sharedKeys.get(obj);
  if (shared !== undefined) return shared;
  const keys = Object.keys(obj);
  if (keys.length >= SHARED_KEYS) sharedKeys.set(obj, keys);
  return keys;
}

/** What every rule receives besides the card. */
export interface RuleContext {
  readonly profile: ValidationProfile;
  readonly shape: CardShape;
  /**
   * Skills (nodes of the card being checked) that no rule looking inside a single skill would
   * report anything about; such rules may pass over them. Rules about several skills at once
   * still read them. See `isQuietSkill`.
   */
  readonly quietSkills?: ReadonlySet<unknown>;
  /**
   * Records a finding. `path` is a list of segments (turned into a JSON Pointer).
   * `message` reads `where: what is wrong (value).`; `hint` says how to fix it.
   */
  report(rule: CardRuleId, severity: Severity, path: readonly (string | number)[], message: string, hint: string): void;
  /**
   * Whether a finding of `rule` would be left out because the rule already listed
   * {@link MAX_FINDINGS_PER_RULE}; when so, the finding is counted as left out. A rule asks this
   * only when it is about to report, so past the bound it builds no message (no preview, no
   * "did you mean" search) for a finding nobody will read.
   */
  overflows(rule: CardRuleId, severity: Severity): boolean;
  /**
   * What the rules of one validation compute once and share, on first use: the card's strings
   * (`rules/card-strings.ts`). A field of the context rather than a map keyed on it: a weak map
   * entry per validation costs the garbage collector more than the walk it saves.
   */
  readonly shared: { strings?: CardStrings };
}

/**
 * The strings of a card that a rule reading card text may report, in document order, with a
 * lazily built path for each (`rules/card-strings.ts`).
 */
export interface CardStrings {
  /** Each string value, in document order. */
  readonly values: readonly string[];
  /** The member name (or list index) each string sits under. */
  readonly keys: readonly (string | number)[];
  /** The path of `values[i]`, built on demand: most strings never need one. */
  path(i: number): (string | number)[];
  /** Whether the walk stopped at its node bound with a string, list or object left unread. */
  readonly truncated: boolean;
}

/**
 * Most findings one rule lists for a card. Past it, the rule's findings are only counted, and one
 * finding at the end says how many were left out; the card's verdict is the same as if all were
 * listed. A card of many small mistakes would otherwise cost seconds in messages nobody reads.
 */
export const MAX_FINDINGS_PER_RULE = 100;

/** A rule module: inspects the raw card and reports findings. Must never throw. */
export type RuleCheck = (card: JsonObject, ctx: RuleContext) => void;

/** Collects findings; used by the validator. */
export function createRuleContext(
  profile: ValidationProfile,
  shape: CardShape,
  quietSkills?: ReadonlySet<unknown>,
): RuleContext & { findings: Finding[]; closeBounds(): void } {
  const findings: Finding[] = [];
  // One tally per rule (a single map look-up per report: a card of many small mistakes asks
  // hundreds of thousands of times), and the rules that hit the bound in the order they did.
  const tallies = new Map<string, Tally>();
  const bounded: { rule: string; tally: Tally }[] = [];
  const tallyOf = (rule: string): Tally => {
    let tally = tallies.get(rule);
    if (tally === undefined) {
      tally = { listed: 0, left: 0, severity: 'info' };
      tallies.set(rule, tally);
    }
    return tally;
  };
  const overflows = (rule: string, severity: Severity): boolean => {
    const tally = tallyOf(rule);
    if (tally.listed < MAX_FINDINGS_PER_RULE) return false;
    if (tally.left === 0) {
      bounded.push({ rule, tally });
      tally.severity = severity;
    } else if (SEVERITY_RANK[severity] < SEVERITY_RANK[tally.severity]) tally.severity = severity;
    tally.left++;
    return true;
  };
  return {
    profile,
    shape,
    ...(quietSkills === undefined ? {} : { quietSkills }),
    findings,
    overflows,
    shared: {},
    report(rule, severity, path, message, hint) {
      if (overflows(rule, severity)) return;
      tallyOf(rule).listed++;
      findings.push({ rule, severity, path: toPointer(path), message, hint });
    },
    closeBounds() {
      // One finding per rule that hit the bound, as severe as the worst one left out, so the
      // verdict stays that of the whole list.
      for (const { rule, tally } of bounded) {
        findings.push({
          rule,
          severity: tally.severity,
          path: '',
          message: `card: ${rule} stopped reporting after ${MAX_FINDINGS_PER_RULE} findings; ${thousands(tally.left)} more were not listed.`,
          hint: 'Fix the findings listed above and validate again to see the rest.',
        });
        tally.left = 0;
      }
      bounded.length = 0;
    },
  };
}

/** Findings of one rule: listed, and left out past the bound with the worst severity among them. */
interface Tally {
  listed: number;
  left: number;
  severity: Severity;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** `12,345`: as `toLocaleString('en-US')` writes it, without building a number format each time. */
function thousands(n: number): string {
  const digits = String(n);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}
