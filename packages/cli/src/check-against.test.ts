// The drift gate, workflow-shaped: a repository with the reviewed card committed, a real host
// (node:http and core's responder) serving what was deployed, and `agent-card check <url>
// --against main:agent-card.json` run from the repository as a post-deploy job runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentCardResponder } from '@agent-card/core/http';
import { cli, loopbackServers } from '../test/run-cli';

const servers = loopbackServers();
afterAll(() => servers.close());

const reviewed = {
  name: 'Acme Travel',
  description: 'Books trips.',
  version: '1.2.0',
  supportedInterfaces: [{ url: 'https://acme.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    { id: 'book', name: 'Book', description: 'Books a trip.', tags: ['travel'] },
    { id: 'cancel', name: 'Cancel', description: 'Cancels a trip.', tags: ['travel'] },
  ],
};

/** A repository whose `main` has the reviewed card, as actions/checkout leaves it. */
function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-drift-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'agent-card.json'), `${JSON.stringify(reviewed, null, 2)}\n`);
  git('add', '.');
  git('commit', '-q', '-m', 'card');
  return dir;
}

/** The deployment: core's responder serving `card`. */
function deploy(card: unknown): Promise<string> {
  const responder = createAgentCardResponder({ card: card as never, profile: 'development', logger: { warn() {} } });
  return servers.listen(
    createServer(async (req, res) => {
      const answer = await responder.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
      });
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    }),
  );
}

type Report = { ok: boolean; findings: { rule: string; severity: string; path: string; message: string }[] };
const drift = (report: Report) => report.findings.filter((f) => f.rule.startsWith('diff-'));

describe('agent-card check --against (the drift gate)', () => {
  const repo = repository();

  it('passes when production serves what was merged', async () => {
    const url = await deploy(reviewed);
    const run = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--json'], { cwd: repo });
    expect(drift(JSON.parse(run.stdout) as Report)).toEqual([]);
    expect(run.code).toBe(0);
    const file = await cli(['check', url, '--allow-http', '--against', 'agent-card.json'], { cwd: repo });
    expect(file.code).toBe(0);
  });

  it('fails when production lost a skill: diff-skill-removed, breaking, exit 1, in every format', async () => {
    const url = await deploy({ ...reviewed, skills: [reviewed.skills[0]] });
    const run = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--json'], { cwd: repo });
    expect(run.code).toBe(1);
    const found = drift(JSON.parse(run.stdout) as Report);
    // The same version with other content is said too: what is served is not what was reviewed.
    expect(found.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-skill-removed', 'error', '/skills[id=cancel]'],
      ['diff-version-not-bumped', 'error', '/version'],
    ]);
    expect(found[0]?.message).toMatch(/^served card differs from main:agent-card\.json: /);
    for (const format of ['text', 'sarif', 'github', 'junit']) {
      const out = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--format', format], {
        cwd: repo,
      });
      expect(out.code, format).toBe(1);
      expect(out.stdout, format).toContain('diff-skill-removed');
    }
  });

  it('a descriptive change fails under the default --fail-on any, not under --fail-on structural', async () => {
    const url = await deploy({ ...reviewed, description: 'Books trips, now faster.' });
    const any = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--json'], { cwd: repo });
    expect(any.code).toBe(1);
    expect(drift(JSON.parse(any.stdout) as Report).map((f) => [f.rule, f.severity])).toEqual([
      ['diff-descriptive', 'error'],
      ['diff-version-not-bumped', 'error'],
    ]);
    const structural = await cli(
      ['check', url, '--allow-http', '--against', 'main:agent-card.json', '--fail-on', 'structural', '--json'],
      { cwd: repo },
    );
    expect(drift(JSON.parse(structural.stdout) as Report).map((f) => [f.rule, f.severity])).toEqual([
      ['diff-descriptive', 'info'],
      ['diff-version-not-bumped', 'error'],
    ]);
    // Under --fail-on none nothing fails the gate; the differences are still reported.
    const none = await cli(
      ['check', url, '--allow-http', '--against', 'main:agent-card.json', '--fail-on', 'none', '--json'],
      {
        cwd: repo,
      },
    );
    expect(none.code).toBe(0);
    expect(drift(JSON.parse(none.stdout) as Report)).toHaveLength(2);
  });

  it('a difference in signatures only is reported, not hidden', async () => {
    const signed = { ...reviewed, signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln' }] };
    const body = JSON.stringify(signed);
    const url = await servers.listen(
      createServer((req, res) => {
        if (req.url === '/.well-known/agent-card.json')
          res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        else res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      }),
    );
    const run = await cli(
      ['check', url, '--allow-http', '--against', 'main:agent-card.json', '--fail-on', 'structural', '--json'],
      { cwd: repo },
    );
    const found = drift(JSON.parse(run.stdout) as Report);
    expect(found.map((f) => [f.rule, f.path])).toContainEqual(['diff-descriptive', '/signatures']);
  });

  it('a revision that could be an option is refused before git runs', async () => {
    const url = await deploy(reviewed);
    const run = await cli(['check', url, '--allow-http', '--against', '--output=x:agent-card.json'], { cwd: repo });
    expect(run.code).toBe(2);
    const alone = await cli(['check', url, '--allow-http', '--fail-on', 'breaking'], { cwd: repo });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fail-on applies to --against');
  });
});
