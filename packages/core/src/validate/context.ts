import type { Finding, Severity, ValidationProfile } from '../findings';
import { toPointer } from '../findings';

/** The card generation a document looks like (rule `card-shape-detected`). */
export type CardShape = 'v1.0' | 'v0.3' | 'v0.2' | 'mixed' | 'unknown';

/** A JSON object as read from untrusted input: never trust its prototype or its types. */
export type JsonObject = Record<string, unknown>;

/** A non-null, non-array object: a JSON object. Untrusted: read it through own properties only. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  report(rule: string, severity: Severity, path: readonly (string | number)[], message: string, hint: string): void;
}

/** A rule module: inspects the raw card and reports findings. Must never throw. */
export type RuleCheck = (card: JsonObject, ctx: RuleContext) => void;

/** Collects findings; used by the validator. */
export function createRuleContext(
  profile: ValidationProfile,
  shape: CardShape,
  quietSkills?: ReadonlySet<unknown>,
): RuleContext & { findings: Finding[] } {
  const findings: Finding[] = [];
  return {
    profile,
    shape,
    ...(quietSkills === undefined ? {} : { quietSkills }),
    findings,
    report(rule, severity, path, message, hint) {
      findings.push({ rule, severity, path: toPointer(path), message, hint });
    },
  };
}
