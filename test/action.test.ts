/**
 * The repository's GitHub Action (action.yml), run as the runner runs a composite action: its
 * inputs (with their defaults) substituted into each step's `env` and `working-directory`, each
 * `run:` script given to `bash --noprofile --norc -eo pipefail`, stopping at the first step
 * that fails. The CLI is the built one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOOD_CARD } from './discovery-servers';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/dist/cli.mjs');

interface Step {
  name: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** `${{ inputs.x }}` and the `github` context the test gives, as the runner evaluates them. */
function evaluate(text: string, inputs: Record<string, string>, github: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expression: string) => {
    if (expression.startsWith('inputs.')) {
      const value = inputs[expression.slice('inputs.'.length)];
      if (value === undefined) throw new Error(`action.yml: unknown input in ${expression}`);
      return value;
    }
    const value = github[expression];
    if (value === undefined) throw new Error(`action.yml: the test gives no value for ${expression}`);
    return value;
  });
}

/** Runs the composite action's steps in `cwd` with `given` inputs; stops at the first failing step. */
function runAction(cwd: string, given: Record<string, string>, github: Record<string, string> = {}) {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = given[name] ?? evaluate(spec.default ?? '', {}, github);
  }
  const steps: { name: string; code: number; stdout: string; stderr: string }[] = [];
  for (const step of action.runs.steps) {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = evaluate(value, inputs, github);
    const dir = resolve(cwd, evaluate(step['working-directory'] ?? '.', inputs, github));
    const script = join(mkdtempSync(join(tmpdir(), 'agent-card-action-')), 'step.sh');
    writeFileSync(script, step.run);
    const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    steps.push({ name: step.name, code: run.status ?? 1, stdout: run.stdout, stderr: run.stderr });
    if (run.status !== 0) break;
  }
  return steps;
}

/** A repository with the card committed on `main`, then changed in the working tree by `change`. */
function repository(change: (card: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-action-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'agent-card.json'), `${JSON.stringify(GOOD_CARD, null, 2)}\n`);
  git('add', '.');
  git('commit', '-q', '-m', 'card');
  git('checkout', '-q', '-b', 'change');
  const card = structuredClone(GOOD_CARD) as any;
  change(card);
  writeFileSync(join(dir, 'agent-card.json'), `${JSON.stringify(card, null, 2)}\n`);
  return dir;
}

const command = `node ${bin}`;

beforeAll(() => {
  expect(readFileSync(bin, 'utf8').length, 'build the CLI first (pnpm build)').toBeGreaterThan(0);
});

describe('the GitHub Action', () => {
  it('is a composite action whose scripts read inputs from the environment only', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) expect(step.run, step.name).not.toContain('${{');
  });

  it('fails a pull request that removes a skill, with an annotation on the card', () => {
    const dir = repository((card) => {
      card.version = '2.0.0';
      card.skills = [];
      card.skills.push({ ...GOOD_CARD.skills[0], id: 'order-tracking' });
    });
    const steps = runAction(dir, { command }, { 'github.event.pull_request.base.sha': 'main' });
    expect(steps.map((s) => [s.name, s.code])).toEqual([
      ['Validate the card', 0],
      ['Compare with the base revision', 1],
    ]);
    expect(steps[1]!.stdout).toMatch(
      /^::error file=agent-card\.json,line=\d+,col=\d+,title=diff-skill-removed \/skills\[id=order-status\]::\/skills\[id=order-status\]: skill removed/m,
    );
  });

  it('passes a pull request that only rewords a description and bumps the version', () => {
    const dir = repository((card) => {
      card.version = '1.4.1';
      card.description = `${GOOD_CARD.description} Now in French too.`;
    });
    const steps = runAction(dir, { command }, { 'github.event.pull_request.base.sha': 'main' });
    expect(steps.map((s) => s.code)).toEqual([0, 0]);
    expect(steps[1]!.stdout).toContain('agent-card diff: ok');
  });

  it('fails on an invalid card before comparing, and outside a pull request only validates', () => {
    const dir = repository((card) => {
      card.skills[0].tags = [];
    });
    const pr = runAction(dir, { command }, { 'github.event.pull_request.base.sha': 'main' });
    expect(pr.map((s) => s.code)).toEqual([1]);
    expect(pr[0]!.stdout).toMatch(/^::error file=agent-card\.json,line=\d+,col=\d+,title=skill-tags-required/m);
    const valid = repository((card) => {
      card.version = '1.5.0';
    });
    const push = runAction(valid, { command }, { 'github.event.pull_request.base.sha': '' });
    expect(push.map((s) => s.code)).toEqual([0, 0]);
    expect(push[1]!.stdout).toBe('No base revision: nothing to compare the card with.\n');
  });

  it('a base or file name that is shell syntax stays a word', () => {
    const dir = repository((card) => {
      card.version = '1.5.0';
    });
    const steps = runAction(dir, { command, base: '$(touch pwned)', card: 'agent-card.json' });
    expect(steps[1]!.stdout).toContain('agent-card.json is new since $(touch pwned): nothing to compare.');
    expect(() => readFileSync(join(dir, 'pwned'))).toThrow();
  });
});
