/**
 * What a report says about each rule it mentions: a summary and the fix, for SARIF's rule
 * metadata (code scanning shows them as the rule's help). The one place that knows where rule
 * metadata comes from: core's rule catalogue (`getRule`).
 */
import { type Finding, getRule } from '@agent-card/core';

/** One rule as reports describe it. */
export interface RuleHelp {
  id: string;
  /** One line: what the rule checks. */
  summary: string;
  /** Everything the rule checks, when the catalogue has the rule. */
  details?: string;
  /** How to fix a finding of this rule. */
  fix: string;
}

/**
 * The help of rule `id`: its catalogue entry's summary, details and fix. For an id the catalogue
 * does not have, the first finding of this run that names it: its message (without the `where:`
 * part, which is about one place) as the summary, its hint as the fix.
 */
export function ruleHelp(id: string, findings: readonly Finding[]): RuleHelp {
  const rule = getRule(id);
  if (rule !== undefined) return { id, summary: rule.summary, details: rule.details, fix: rule.fix };
  const first = findings.find((f) => f.rule === id);
  const message = first?.message ?? id;
  const colon = message.indexOf(': ');
  const summary = colon > 0 && colon < message.length - 2 ? message.slice(colon + 2) : message;
  return { id, summary, fix: first?.hint || 'See the message of each result.' };
}
