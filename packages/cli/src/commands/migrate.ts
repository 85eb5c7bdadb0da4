import { migrateAgentCard, validateAgentCard } from '@agent-card/core';
import type { CliIO } from '../io';
import { createPainter } from '../io';
import { readCard, toJsonText, writeText } from '../read';
import { visible } from '../terminal';
import { formatFindings, summarize } from '../report';

export interface MigrateCommandOptions {
  output?: string;
  force?: boolean;
  json?: boolean;
}

/**
 * `agent-card migrate <file>`: v0.3 / mixed → v1.0. The card goes to stdout (or `-o`), the list
 * of changes and the validation of the result to stderr, so the output can be piped.
 */
export async function migrateCommand(io: CliIO, file: string, options: MigrateCommandOptions): Promise<number> {
  const input = await readCard(io, file);
  const { card, changes } = migrateAgentCard(input);
  const result = validateAgentCard(card, { profile: 'development' });
  if (options.json) {
    io.stdout.write(toJsonText({ card, changes, valid: result.valid, findings: result.findings }));
    return result.valid ? 0 : 1;
  }
  const painter = createPainter({ ...io, stdout: io.stderr });
  const text = toJsonText(card);
  if (options.output) {
    await writeText(io, options.output, text, { force: options.force ?? false });
  } else {
    io.stdout.write(text);
  }
  const log: string[] = [];
  log.push(
    changes.length === 0
      ? 'No changes: the card is already v1.0.'
      : `${changes.length} change${changes.length === 1 ? '' : 's'}:`,
  );
  for (const c of changes) log.push(`  ${painter.paint('cyan', visible(c.path || '/'))}: ${visible(c.change)}`);
  const errors = result.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    log.push('The migrated card still has errors to fix by hand:');
    log.push(formatFindings(errors, painter));
  }
  log.push(
    `${options.output ? `Wrote ${visible(options.output)}. ` : ''}Result: ${summarize(result.findings, painter)}`,
  );
  io.stderr.write(`${log.join('\n')}\n`);
  return result.valid ? 0 : 1;
}
