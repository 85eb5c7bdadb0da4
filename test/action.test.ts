/**
 * The repository's GitHub Action (action.yml), run as the runner runs a composite action: its
 * inputs (with their defaults) substituted into each step's `env` and `working-directory`, each
 * `run:` script given to `bash --noprofile --norc -eo pipefail`, stopping at the first step
 * that fails. The CLI is the built one.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(steps.map((s) => s.code)).toEqual([0, 0, 0]);
    expect(steps[1]!.stdout).toContain('agent-card diff: ok');
    expect(steps[2]!.stdout).toBe('No url: no deployed agent to check.\n');
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
    expect(push.map((s) => s.code)).toEqual([0, 0, 0]);
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

/**
 * A deployment in its own process (the action's steps run synchronously): core's responder
 * serving `card` on a loopback port.
 */
const deployments: ChildProcess[] = [];
afterAll(() => {
  for (const child of deployments) child.kill();
});
async function deploy(card: unknown): Promise<string> {
  const core = join(root, 'packages/core/dist/http.mjs');
  const script = `
    import { createServer } from 'node:http';
    import { createAgentCardResponder } from ${JSON.stringify(core)};
    const responder = createAgentCardResponder({ card: ${JSON.stringify(card)}, profile: 'development', logger: { warn() {} } });
    const server = createServer(async (req, res) => {
      const answer = await responder.respond({ method: req.method, path: req.url, headers: req.headers });
      if (!answer) { res.writeHead(404, { 'content-type': 'application/json' }).end('{}'); return; }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  deployments.push(child);
  const port = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (data: Buffer) => done(String(data).trim()));
    child.once('exit', (code) => fail(new Error(`the deployment exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}`;
}

describe('the GitHub Action after a deploy: url, against and redact', () => {
  /** The repository after the merge: the reviewed card on main, nothing changed. */
  const merged = () => repository(() => {});

  it('passes when production serves the merged card', async () => {
    const url = await deploy(GOOD_CARD);
    const steps = runAction(merged(), {
      command,
      url,
      against: 'main:agent-card.json',
      'allow-http': 'true',
      base: '',
    });
    expect(steps.map((s) => [s.name, s.code])).toEqual([
      ['Validate the card', 0],
      ['Compare with the base revision', 0],
      ['Check the deployed agent', 0],
    ]);
  }, 30_000);

  it("fails when production serves something else, and redacts another party's card by default", async () => {
    const url = await deploy({ ...GOOD_CARD, skills: [{ ...GOOD_CARD.skills[0], id: 'order-tracking' }] });
    const given = { command, url, against: 'main:agent-card.json', 'allow-http': 'true', base: '' };
    const other = runAction(merged(), given);
    expect(other.map((s) => s.code)).toEqual([0, 0, 1]);
    expect(other[2]!.stdout).toMatch(/^::error .*title=diff-skill-removed /m);
    // 127.0.0.1 is not among own-hosts: the skill's id is not repeated.
    expect(other[2]!.stdout).not.toContain('order-status');
    const own = runAction(merged(), { ...given, 'own-hosts': 'acme.io, 127.0.0.1' });
    expect(own.map((s) => s.code)).toEqual([0, 0, 1]);
    expect(own[2]!.stdout).toMatch(/^::error .*title=diff-skill-removed \/skills\[id=order-status\]/m);
    const forced = runAction(merged(), { ...given, 'own-hosts': '127.0.0.1', redact: 'true' });
    expect(forced[2]!.stdout).not.toContain('order-status');
  }, 60_000);

  it('takes the folder agent-card build writes as against: the documents the deployment must serve', async () => {
    const repo = merged();
    execFileSync(process.execPath, [bin, 'build', '--out', 'site'], { cwd: repo, stdio: 'ignore' });
    const given = { command, against: 'site', 'allow-http': 'true', base: '', 'own-hosts': '127.0.0.1' };
    const same = runAction(repo, { ...given, url: await deploy(GOOD_CARD) });
    expect(same.map((s) => s.code)).toEqual([0, 0, 0]);
    // The host serves no AI Catalog and no ARD manifest, and neither does the site: said, not failed.
    expect(same[2]!.stdout).toMatch(/^::notice .*title=drift-not-compared/m);
    const url = await deploy({ ...GOOD_CARD, skills: [{ ...GOOD_CARD.skills[0], id: 'order-tracking' }] });
    const lost = runAction(repo, { ...given, url });
    expect(lost.map((s) => s.code)).toEqual([0, 0, 1]);
    expect(lost[2]!.stdout).toMatch(/^::error .*title=diff-skill-removed \/skills\[id=order-status\]/m);
  }, 60_000);
});
