// Per-rule settings of `validate` and `check`: `rules` of agent-card.config.json in the working
// directory, then each `--rule <id>=<setting>` (a flag wins over the file). Every problem of both
// is reported at once, before anything is read or fetched.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  applyRuleOverrides,
  checkRuleOverrides,
  type Finding,
  type RuleOverrides,
  type RuleTurnedOff,
} from '@agent-card/core';
import { InvalidArgumentError } from 'commander';
import { CliError, type CliIO, type Painter } from './io';
import { readJson } from './read';
import { visible } from './terminal';

/** The configuration file `validate` and `check` read from the working directory, when it exists. */
export const CONFIG_FILE = 'agent-card.config.json';

/** Members of the configuration file. */
const CONFIG_MEMBERS = ['rules'];

/** Parses one `--rule <id>=<setting>` and adds it to the ones before (commander's collector). */
export function collectRule(value: string, previous: string[] | undefined): string[] {
  if (!/^[^=\s]+=[^=\s]+$/.test(value)) {
    throw new InvalidArgumentError('Expected <rule-id>=<off|info|warning|error>, e.g. metadata-quality=off.');
  }
  return [...(previous ?? []), value];
}

/** `rules` of {@link CONFIG_FILE}, or `undefined` when there is no such file. */
async function configRules(io: CliIO, problems: string[]): Promise<Record<string, unknown> | undefined> {
  const path = resolve(io.cwd, CONFIG_FILE);
  try {
    if (!(await stat(path)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const config = await readJson(io, CONFIG_FILE);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    problems.push(`${CONFIG_FILE}: must be a JSON object such as {"rules": {"metadata-quality": "off"}}.`);
    return undefined;
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_MEMBERS.includes(key)) {
      problems.push(`${CONFIG_FILE}: unknown member "${visible(key)}". Only "rules" is read; remove it.`);
    }
  }
  const rules = (config as Record<string, unknown>).rules;
  if (rules === undefined) return undefined;
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    problems.push(`${CONFIG_FILE}: "rules" must be an object such as {"metadata-quality": "off"}.`);
    return undefined;
  }
  const { problems: found } = checkRuleOverrides(rules, `${CONFIG_FILE} rules`);
  problems.push(...found);
  return rules as Record<string, unknown>;
}

/**
 * The rule settings of a run: the configuration file's, then the `--rule` flags'. An unknown rule
 * id or setting in either is a usage error (exit 2) naming the nearest id, listed with every other.
 */
export async function resolveRuleSettings(
  io: CliIO,
  flags: readonly string[] | undefined,
): Promise<RuleOverrides | undefined> {
  const problems: string[] = [];
  const merged: Record<string, unknown> = { ...(await configRules(io, problems)) };
  const fromFlags: Record<string, string> = {};
  for (const flag of flags ?? []) {
    const at = flag.indexOf('=');
    fromFlags[flag.slice(0, at)] = flag.slice(at + 1);
  }
  problems.push(...checkRuleOverrides(fromFlags, '--rule').problems);
  if (problems.length > 0) {
    // One line each, as every CLI error is printed; the last one ends the run with exit code 2.
    for (const problem of problems.slice(0, -1)) io.stderr.write(`agent-card: ${visible(problem)}\n`);
    throw new CliError(problems.at(-1)!);
  }
  Object.assign(merged, fromFlags);
  return Object.keys(merged).length > 0 ? (merged as RuleOverrides) : undefined;
}

/** Findings after the settings, and the rules turned off (for a report that was not made with them). */
export function applySettings<F extends Finding>(
  findings: readonly F[],
  settings: RuleOverrides | undefined,
): { findings: F[]; turnedOff: RuleTurnedOff[] } {
  return applyRuleOverrides(findings, checkRuleOverrides(settings).overrides);
}

/**
 * `Turned off by your settings: metadata-quality (1 finding), secrets-in-card (0 findings).`, or
 * nothing when no rule is off: a rule left out is the user's decision, and the report says so.
 */
export function turnedOffLine(turnedOff: readonly RuleTurnedOff[] | undefined, painter: Painter): string {
  if (turnedOff === undefined || turnedOff.length === 0) return '';
  const rules = turnedOff.map((r) => `${r.rule} (${r.findings} finding${r.findings === 1 ? '' : 's'})`);
  return `${painter.paint('dim', `Turned off by your settings: ${rules.join(', ')}.`)}\n`;
}
