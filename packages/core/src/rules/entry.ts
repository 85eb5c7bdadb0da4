import type { Severity, ValidationProfile } from '../findings';

/**
 * Where a rule sits in the catalogue (`RULES.md` §6.1–6.7): the card's structure, cross-field
 * semantics, publishing readiness, discovery over HTTP, findings outside the numbered rules, the
 * AI Catalog of a host, AI Catalog documents, ARD manifests (§6.8) and the CLI's diff (§6.9).
 */
export type RuleSection =
  | 'structure'
  | 'semantics'
  | 'publishing'
  | 'discovery'
  | 'other'
  | 'host-catalog'
  | 'catalog'
  | 'ard'
  | 'diff';

/** One value per validation profile. */
export type PerProfile<T> = Readonly<Record<ValidationProfile, T>>;

/** One rule of the catalogue, as {@link listRules} and {@link getRule} return it. */
export interface RuleInfo {
  /** The id every finding of the rule carries, e.g. `skill-tags-required`. */
  readonly id: string;
  /** The rule's number in `RULES.md`; stable, never reused. */
  readonly number: number;
  /** Where the rule sits in the catalogue. */
  readonly section: RuleSection;
  /** What the rule checks, in one sentence. */
  readonly summary: string;
  /** How to fix what it reports, in general (each finding's `hint` says it for the value found). */
  readonly fix: string;
  /**
   * The most severe finding the rule makes under each profile. A rule may make milder findings
   * too (see {@link RuleInfo.severityNote}); a user's override sets every finding of the rule.
   */
  readonly severity: PerProfile<Severity>;
  /** How the severity varies within a profile, where it does, e.g. `error; BOM: warning`. */
  readonly severityNote?: PerProfile<string>;
  /** Everything the rule checks, as `RULES.md` lists it. */
  readonly details: string;
  /** Where the rule comes from (spec section, an existing tool, a bug report); numbered rules only. */
  readonly source?: string;
  /** What reports it, as Markdown (names in backticks), e.g. `` `validateAgentCard` ``. */
  readonly reportedBy: string;
}

/** A catalogue entry as written: its id is its key in the catalogue. */
export type RuleEntry = Omit<RuleInfo, 'id'>;

/** The same value under every profile, or one value per profile. */
export function profiles<T>(development: T, production: T = development, strict: T = production): PerProfile<T> {
  return { development, production, strict };
}
