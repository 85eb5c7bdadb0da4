/**
 * What a report says about each rule it mentions: a summary and the fix, for SARIF's rule
 * metadata (code scanning shows them as the rule's help). The one place that knows where rule
 * metadata comes from.
 */
import type { Finding } from '@agent-card/core';

/** One rule as reports describe it. */
export interface RuleHelp {
  id: string;
  /** One line: what the rule checks. */
  summary: string;
  /** How to fix a finding of this rule. */
  fix: string;
}

/**
 * The help of rule `id`, from the findings of this run that name it: the first finding's
 * message (without the `where:` part, which is about one place) as the summary, its hint as the
 * fix.
 */
export function ruleHelp(id: string, findings: readonly Finding[]): RuleHelp {
  const first = findings.find((f) => f.rule === id);
  const message = first?.message ?? id;
  const colon = message.indexOf(': ');
  const summary = colon > 0 && colon < message.length - 2 ? message.slice(colon + 2) : message;
  return { id, summary, fix: first?.hint || 'See the message of each result.' };
}
