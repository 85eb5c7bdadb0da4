/**
 * The rule catalogue: every rule of the card validator, `validateAiCatalog`, discovery,
 * `validateArdManifest` and the CLI's own findings (verify, diff), one entry each ({@link RuleInfo}). Findings are reported by the ids of these entries (the report
 * functions take {@link CardRuleId}, {@link CatalogRuleId} or {@link DiscoveryRuleId}, so an id
 * missing here does not compile), `RULES.md` is generated from them, and users turn rules off or
 * change their severity by these ids ({@link RuleOverrides}).
 *
 * @packageDocumentation
 */
import { AgentCardError } from '../errors';
import type { Finding, Severity } from '../findings';
import { closest } from '../nearest';
import { ARD_RULES } from './ard';
import { CARD_RULES } from './card';
import { CATALOG_RULES } from './catalog';
import { CLI_RULES } from './cli';
import { DISCOVERY_RULES } from './discovery';
import type { RuleEntry, RuleInfo } from './entry';

export type { PerProfile, RuleInfo, RuleSection } from './entry';

/** The id of a rule of the card validator (`validateAgentCard`, `defineAgentCard`, the middleware, Nest). */
export type CardRuleId = keyof typeof CARD_RULES;
/** The id of a rule of `validateAiCatalog`. */
export type CatalogRuleId = keyof typeof CATALOG_RULES;
/** The id of a rule `discoverAgentCard` reports about what a host serves. */
export type DiscoveryRuleId = keyof typeof DISCOVERY_RULES;
/** The id of a rule of `validateArdManifest`. */
export type ArdRuleId = keyof typeof ARD_RULES;
/** The id of a finding of the CLI itself: `agent-card verify` and `agent-card diff`. */
export type CliRuleId = keyof typeof CLI_RULES;
/** The id of any rule of the catalogue. */
export type RuleId = CardRuleId | CatalogRuleId | DiscoveryRuleId | ArdRuleId | CliRuleId;

/** What a user sets a rule to: `off` leaves its findings out, a severity replaces theirs. */
export type RuleSetting = 'off' | Severity;

/**
 * Per-rule settings, by rule id, as ESLint and Spectral take them:
 * `{ 'metadata-quality': 'off', 'url-private-host': 'error' }`. A rule turned off is the user's
 * decision: the result says which rules were off and how many findings they would have made.
 */
export type RuleOverrides = { readonly [id in RuleId]?: RuleSetting };

/** The settings a user can give a rule. */
export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];

function withIds(entries: Record<string, RuleEntry>): RuleInfo[] {
  return Object.entries(entries).map(([id, entry]) => Object.freeze({ id, ...entry }));
}

const RULES: readonly RuleInfo[] = Object.freeze(
  [
    ...withIds(CARD_RULES),
    ...withIds(DISCOVERY_RULES),
    ...withIds(CATALOG_RULES),
    ...withIds(ARD_RULES),
    ...withIds(CLI_RULES),
  ].sort((a, b) => a.number - b.number),
);
const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

/**
 * Every rule of the catalogue, in rule-number order: id, number, section, summary, fix and the
 * severity under each profile.
 *
 * @example
 * ```ts
 * import { listRules } from '@agent-card/core';
 *
 * for (const rule of listRules()) console.log(rule.id, rule.severity.production, rule.summary);
 * ```
 */
export function listRules(): readonly RuleInfo[] {
  return RULES;
}

/**
 * The catalogue entry of a rule id, or `undefined` when no rule has that id.
 *
 * @example
 * ```ts
 * import { getRule } from '@agent-card/core';
 *
 * getRule('skill-tags-required')?.fix; // 'Give each skill tags: …'
 * ```
 */
export function getRule(id: string): RuleInfo | undefined {
  return BY_ID.get(id);
}

/** The rule id nearest to an unknown one, for "did you mean". */
export function nearestRuleId(id: string): string | undefined {
  return closest(id, BY_ID.keys());
}

/** Rule settings after checking: a frozen map from rule id to setting. */
export type ResolvedRuleOverrides = ReadonlyMap<string, RuleSetting>;

/** One problem of a `rules` option: `where: what is wrong (value). How to fix.` */
function ruleProblem(where: string, id: string, value: unknown): string | undefined {
  if (!BY_ID.has(id)) {
    const guess = nearestRuleId(id);
    const fix = guess
      ? `Did you mean "${guess}"?`
      : 'Use an id of the rule catalogue (`agent-card rules` lists them, and RULES.md).';
    return `${where}["${id}"]: unknown rule (${JSON.stringify(id)}). ${fix}`;
  }
  if (!(RULE_SETTINGS as readonly unknown[]).includes(value)) {
    // An object may have no usable toString (a JSON object read without a prototype): named by kind.
    const shown =
      typeof value === 'string'
        ? JSON.stringify(value)
        : typeof value === 'object' && value !== null
          ? Array.isArray(value)
            ? 'an array'
            : 'an object'
          : String(value);
    return `${where}["${id}"]: unknown setting (${shown.slice(0, 80)}). Use one of ${RULE_SETTINGS.join(', ')}.`;
  }
  return undefined;
}

/**
 * Checks a `rules` option: an object whose keys are rule ids and whose values are `off`, `info`,
 * `warning` or `error`. Returns the settings and every problem, one line each, naming the nearest
 * rule id for an unknown one; `where` names the option (e.g. `options.rules`).
 */
export function checkRuleOverrides(
  value: unknown,
  where = 'rules',
): { overrides: ResolvedRuleOverrides | undefined; problems: string[] } {
  if (value === undefined) return { overrides: undefined, problems: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      overrides: undefined,
      problems: [`${where}: must be an object of rule ids and settings. Use e.g. { "metadata-quality": "off" }.`],
    };
  }
  const problems: string[] = [];
  const overrides = new Map<string, RuleSetting>();
  for (const id of Object.keys(value)) {
    const setting = (value as Record<string, unknown>)[id];
    const problem = ruleProblem(where, id, setting);
    if (problem === undefined) overrides.set(id, setting as RuleSetting);
    else problems.push(problem);
  }
  return { overrides: overrides.size > 0 ? overrides : undefined, problems };
}

/**
 * {@link checkRuleOverrides} that throws an `AgentCardError` (`ERR_AGENT_CARD_OPTIONS`) listing every problem: for functions that
 * have no start-up of their own (`validateAgentCard`, `defineAgentCard`).
 */
export function resolveRuleOverrides(value: unknown, where = 'rules'): ResolvedRuleOverrides | undefined {
  const { overrides, problems } = checkRuleOverrides(value, where);
  if (problems.length > 0) {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `Invalid rule settings:\n  - ${problems.join('\n  - ')}`);
  }
  return overrides;
}

/** A rule the user turned off, and how many findings it would have made. */
export interface RuleTurnedOff {
  /** The rule id. */
  rule: string;
  /** Findings of the rule left out (0 when the card gave it nothing to report). */
  findings: number;
}

/**
 * Applies rule settings to findings: drops the findings of rules set to `off` (counted per rule),
 * and gives the findings of the others the severity set. Findings of other rules are kept as they
 * are, in their order.
 */
export function applyRuleOverrides<F extends Finding>(
  findings: readonly F[],
  overrides: ResolvedRuleOverrides | undefined,
): { findings: F[]; turnedOff: RuleTurnedOff[] } {
  if (overrides === undefined) return { findings: [...findings], turnedOff: [] };
  const off = new Map<string, number>();
  for (const [rule, setting] of overrides) if (setting === 'off') off.set(rule, 0);
  const kept: F[] = [];
  for (const finding of findings) {
    const setting = overrides.get(finding.rule);
    if (setting === undefined || setting === finding.severity) kept.push(finding);
    else if (setting === 'off') off.set(finding.rule, off.get(finding.rule)! + 1);
    else kept.push({ ...finding, severity: setting });
  }
  return { findings: kept, turnedOff: [...off].map(([rule, count]) => ({ rule, findings: count })) };
}
