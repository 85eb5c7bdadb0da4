import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cards, cli } from '../test/run-cli';
import { GOOD_CARD, type LocalServer, listen, serveJson } from '../../../test/discovery-servers';

type Card = Record<string, any>;
const base = (): Card => JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-diff-'));

/** Writes the base card and the card `change` makes of it (version bumped), and diffs them as JSON. */
async function judge(change: (card: Card) => void, extra: string[] = [], from: (card: Card) => void = () => {}) {
  const dir = tmp();
  const before = base();
  from(before);
  const after = structuredClone(before);
  change(after);
  after.version = '9.0.0';
  writeFileSync(join(dir, 'a.json'), JSON.stringify(before, null, 2));
  writeFileSync(join(dir, 'b.json'), JSON.stringify(after, null, 2));
  const run = await cli(['diff', 'a.json', 'b.json', '--format', 'json', ...extra], { cwd: dir });
  const report = JSON.parse(run.stdout);
  return { code: run.code, report, rules: report.findings.map((f: any) => `${f.rule}:${f.impact} ${f.path}`) };
}

const JSONRPC = 'https://support-agent.larkspur-telecom.com/a2a/v1';

describe('agent-card diff judges every change', () => {
  it.each<[string, (card: Card) => void, string, number, ((card: Card) => void)?]>([
    ['a skill removed', (c) => c.skills.splice(1, 1), 'diff-skill-removed:breaking /skills[id=explain-bill]', 1],
    [
      'an interface removed',
      (c) => c.supportedInterfaces.splice(1, 1),
      'diff-interface-removed:breaking /supportedInterfaces[url=https://support-agent.larkspur-telecom.com/a2a/rest]',
      1,
    ],
    [
      "an interface's URL changed",
      (c) => {
        c.supportedInterfaces[0].url = 'https://support-agent.larkspur-telecom.com/a2a/v2';
      },
      `diff-interface-url-changed:breaking /supportedInterfaces[url=${JSONRPC}]`,
      1,
    ],
    [
      'a protocol version changed',
      (c) => {
        c.supportedInterfaces[0].protocolVersion = '1.1';
      },
      `diff-protocol-version-changed:breaking /supportedInterfaces[url=${JSONRPC}]/protocolVersion`,
      1,
    ],
    [
      'a binding changed',
      (c) => {
        c.supportedInterfaces[0].protocolBinding = 'GRPC';
      },
      `diff-binding-changed:breaking /supportedInterfaces[url=${JSONRPC}]/protocolBinding`,
      1,
    ],
    [
      'a capability removed',
      (c) => {
        c.capabilities.streaming = false;
      },
      'diff-capability-removed:breaking /capabilities/streaming',
      1,
    ],
    [
      'a security scheme removed',
      (c) => {
        c.securitySchemes.partnerKey = { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } };
        delete c.securitySchemes.customerToken;
      },
      'diff-scheme-removed:breaking /securitySchemes/customerToken',
      1,
    ],
    [
      'a scope required in addition',
      (c) => {
        c.securityRequirements[0].schemes.customerToken.list.push('billing:read');
      },
      'diff-security-tightened:breaking /securityRequirements/0/schemes/customerToken/list/0',
      1,
    ],
    [
      'a security requirement added to a card without one',
      (c) => {
        c.securityRequirements = [{ schemes: { customerToken: { list: [] } } }];
      },
      'diff-security-tightened:breaking /securityRequirements',
      1,
      (c) => {
        delete c.securityRequirements;
      },
    ],
    [
      'another way to authenticate (loosened)',
      (c) => {
        c.securitySchemes.partnerKey = { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } };
        c.securityRequirements.push({ schemes: { partnerKey: { list: [] } } });
      },
      'diff-structural:structural /securityRequirements/1',
      0,
    ],
    [
      'a skill added',
      (c) => c.skills.push({ id: 'port-number', name: 'Port', description: 'Moves a number.', tags: ['mobile'] }),
      'diff-structural:structural /skills[id=port-number]',
      0,
    ],
    [
      'a description reworded',
      (c) => {
        c.skills[0].description = 'Runs line checks.';
      },
      'diff-descriptive:descriptive /skills[id=diagnose-connection]/description',
      0,
    ],
  ])('%s', async (_name, change, expected, code, from) => {
    const run = await judge(change, [], from);
    expect(run.rules).toContain(expected);
    expect(run.code).toBe(code);
  });

  it('reorders of skills and interfaces are no change at all', async () => {
    const run = await judge((c) => {
      c.skills.reverse();
      c.supportedInterfaces.reverse();
    });
    expect(run.rules).toEqual(['diff-descriptive:descriptive /version']);
  });

  it.each([
    ['breaking', 0],
    ['structural', 1],
    ['any', 1],
    ['none', 0],
  ])('--fail-on %s decides the exit status of a structural change', async (failOn, code) => {
    const run = await judge((c) => c.defaultInputModes.push('application/json'), ['--fail-on', failOn]);
    expect(run.report.impact).toBe('structural');
    expect(run.code).toBe(code);
  });

  it('a breaking change prints its reason and fix, and fails', async () => {
    const dir = tmp();
    const after = base();
    after.version = '4.0.0';
    after.skills.splice(2, 1);
    writeFileSync(join(dir, 'a.json'), JSON.stringify(base()));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(after));
    const run = await cli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('- /skills[id=open-ticket]: {');
    expect(run.stdout).toContain('2 differences: 1 breaking, 0 structural, 1 descriptive.');
    expect(run.stdout).toContain(
      'Breaking changes:\n  diff-skill-removed  /skills[id=open-ticket]: skill removed (was {',
    );
    expect(run.stdout).toContain('✖ failed (--fail-on breaking): 1 change(s) at or above it.');
  });
});

describe('agent-card diff reads hosts and git revisions', () => {
  const servers: LocalServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('diff <host> <file> compares the card the host serves, as check finds it', async () => {
    const server = await listen((req, res) => {
      if (req.url === '/.well-known/agent-card.json') serveJson(res, req, JSON.stringify(GOOD_CARD));
      else res.writeHead(404).end();
    });
    servers.push(server);
    const dir = tmp();
    const local = structuredClone(GOOD_CARD) as Card;
    local.skills = [];
    local.version = '2.0.0';
    writeFileSync(join(dir, 'card.json'), JSON.stringify(local));
    const run = await cli(['diff', server.origin, 'card.json', '--allow-http', '--format', 'json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).findings).toContainEqual(
      expect.objectContaining({
        rule: 'diff-skill-removed',
        path: '/skills[id=order-status]',
        impact: 'breaking',
      }),
    );
  });

  it('diff main:agent-card.json agent-card.json reads the committed file through git, without a shell', async () => {
    const dir = tmp();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'agent-card.json'), JSON.stringify(base(), null, 2));
    git('add', 'agent-card.json');
    git('commit', '-q', '-m', 'card');
    const changed = base();
    changed.supportedInterfaces.pop();
    writeFileSync(join(dir, 'agent-card.json'), JSON.stringify(changed, null, 2));
    const run = await cli(['diff', 'main:agent-card.json', 'agent-card.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('diff-interface-removed');
    // A revision that is shell syntax is one word to git, never a command.
    const hostile = await cli(['diff', 'main:$(touch pwned)', 'agent-card.json'], { cwd: dir });
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain('main:$(touch pwned): not a file at a git revision');
    const missing = await cli(['diff', 'nope:agent-card.json', 'agent-card.json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope:agent-card.json: not a file at a git revision (fatal: ');
    expect(() => readFileSync(join(dir, 'pwned'))).toThrow();
  });
});

describe('agent-card verify reads a host as check does', () => {
  const servers: LocalServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('verify <host> verifies the card served at the well-known path', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { signAgentCard } = await import('@agent-card/core');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(GOOD_CARD as never, { privateKey, kid: 'k1', alg: 'ES256' });
    const server = await listen((req, res) => {
      if (req.url === '/.well-known/agent-card.json') serveJson(res, req, JSON.stringify(signed));
      else res.writeHead(404).end();
    });
    servers.push(server);
    const dir = tmp();
    writeFileSync(
      join(dir, 'jwks.json'),
      JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1' }] }),
    );
    const run = await cli(['verify', server.origin, '--jwks', 'jwks.json', '--allow-http'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Valid: at least one signature verified.');
    expect(server.requests.map((r) => r.url)).toContain('/.well-known/agent-card.json');
  });
});
