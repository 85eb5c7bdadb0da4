import { listRules, type RuleInfo } from '@agent-card/core';
import type { CliIO, Painter } from '../io';
import { createPainter } from '../io';
import { toJsonText } from '../read';

export interface RulesCommandOptions {
  /** Print the catalogue as JSON: every member of each rule. */
  json?: boolean;
}

const STYLE = { error: 'red', warning: 'yellow', info: 'cyan' } as const;

/** One rule: number, id, severity under development / production / strict, summary. */
function ruleLine(rule: RuleInfo, width: number, painter: Painter): string {
  const severities = (['development', 'production', 'strict'] as const)
    .map((profile) => {
      const severity = rule.severity[profile];
      return painter.paint(STYLE[severity], severity.padEnd(8));
    })
    .join('');
  return `${String(rule.number).padStart(3)}  ${painter.paint('bold', rule.id.padEnd(width))}  ${severities}${rule.summary}`;
}

/** `agent-card rules`: the rule catalogue, the ids `--rule` and agent-card.config.json take. */
export function rulesCommand(io: CliIO, options: RulesCommandOptions): number {
  const rules = listRules();
  if (options.json) {
    io.stdout.write(toJsonText(rules));
    return 0;
  }
  const painter = createPainter(io);
  const width = Math.max(...rules.map((r) => r.id.length));
  const head = `  #  ${'id'.padEnd(width)}  ${'dev'.padEnd(8)}${'prod'.padEnd(8)}${'strict'.padEnd(8)}checks`;
  io.stdout.write(`${painter.paint('dim', head)}\n`);
  for (const rule of rules) io.stdout.write(`${ruleLine(rule, width, painter)}\n`);
  io.stdout.write(
    `\n${rules.length} rules. Severities are the most severe finding of each rule under the development, production and strict profiles.\nSet one with --rule <id>=off|info|warning|error, or "rules" in agent-card.config.json.\n`,
  );
  return 0;
}
