/**
 * `--format` of `validate`, `check`, `verify` and `diff`: the machine-readable reports. `text`
 * (each command's terminal report) and `json` (its `--json` document) stay with the command.
 */
import { Option } from 'commander';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { toGithub } from './github';
import { toJunit } from './junit';
import { type FormatReport, OUTPUT_FORMATS, type OutputFormat } from './report';
import { toSarif } from './sarif';

export type { FormatReport, OutputFormat, ReportArtifact, ReportFinding } from './report';
export { OUTPUT_FORMATS } from './report';

/** The `--format` option of a command. */
export const formatOption = () =>
  new Option(
    '--format <format>',
    'text (the report for people), json, sarif (SARIF 2.1.0, for code scanning), github (workflow annotations) or junit (JUnit XML)',
  )
    .choices(OUTPUT_FORMATS)
    .default('text');

/**
 * The format a command prints: `--format`, or `json` for the older `--json`. Both at once, with
 * different values, is a usage error.
 */
export function outputFormat(options: { format?: OutputFormat; json?: boolean }): OutputFormat {
  const format = options.format ?? 'text';
  if (options.json && format !== 'text' && format !== 'json') {
    throw new CliError(`--json and --format ${format}: pick one (--json is --format json).`);
  }
  return options.json ? 'json' : format;
}

/** Writes `report` to stdout in a machine-readable `format` (not `text` or `json`). */
export function writeFormatted(io: CliIO, format: Exclude<OutputFormat, 'text' | 'json'>, report: FormatReport): void {
  if (format === 'github') {
    // The annotations' own `::` starts each line: the one place the CLI writes workflow commands.
    const text = toGithub(report);
    if (io.stdout.commands) io.stdout.commands(text);
    else io.stdout.write(text);
  } else io.stdout.write(format === 'sarif' ? toSarif(report) : toJunit(report));
}
