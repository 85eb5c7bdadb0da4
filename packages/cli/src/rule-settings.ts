// Per-rule settings of `validate` and `check`: `rules` of agent-card.config.json in the working
// directory, then each `--rule <id>=<setting>` (a flag wins over the file). Every problem of both
// is reported at once, before anything is read or fetched.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  applyRuleOverrides,
  checkRuleOverrides,
  type Finding,
  readJsonText,
  type RuleOverrides,
  type RuleTurnedOff,
} from '@agent-card/core';
import { InvalidArgumentError } from 'commander';
import { CliError, type CliIO, type Painter } from './io';
import { parseJson, readBytes } from './read';
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
  const bytes = await readBytes(io, CONFIG_FILE);
  // Members named twice are listed: JSON readers keep one or the other, so the file says two things.
  const read = readJsonText(bytes, { duplicates: 16, inexactNumbers: 0 });
  const config = read.ok ? read.value : parseJson(bytes, CONFIG_FILE);
  for (const path of read.ok ? read.duplicates : []) problems.push(duplicateProblem(path));
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
  // A setting is one word: anything else is said here, with its pointer, before the catalogue check.
  const words: Record<string, unknown> = {};
  for (const [id, setting] of Object.entries(rules)) {
    if (typeof setting === 'string') words[id] = setting;
    else problems.push(settingProblem(id, setting));
  }
  const { problems: found } = checkRuleOverrides(words, `${CONFIG_FILE} rules`);
  problems.push(...found);
  return words;
}

/** Where a member is in the file: its names (and array indexes) from the root. */
type JsonPath = readonly (string | number)[];

/** The settings of a rule, as the catalogue takes them. */
const RULE_SETTINGS = ['off', 'info', 'warning', 'error'] as const;

/** A JSON Pointer (RFC 6901) of a path in the configuration file. */
const pointer = (path: JsonPath) => path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** A member the configuration file names twice in one object. */
function duplicateProblem(path: JsonPath): string {
  const name = JSON.stringify(String(path.at(-1)));
  const what =
    path.length === 2 && path[0] === 'rules'
      ? `the rule ${name} is set twice, and only the last setting would apply`
      : `the member ${name} is named twice in one object`;
  return `${CONFIG_FILE} ${pointer(path)}: ${what}. Keep one of them.`;
}

/** A rule setting that is not a string (an object, an array, a number…). */
function settingProblem(id: string, setting: unknown): string {
  const kind =
    setting === null
      ? 'null'
      : Array.isArray(setting)
        ? 'an array'
        : typeof setting === 'object'
          ? 'an object'
          : `a ${typeof setting}`;
  return `${CONFIG_FILE} ${pointer(['rules', id])}: a rule setting is one of ${RULE_SETTINGS.join(', ')}, not ${kind}. Write ${JSON.stringify(id)}: "off" (or info, warning, error).`;
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
