// The drift gate, workflow-shaped: a repository with the reviewed card committed, a real host
// (node:http and core's responder) serving what was deployed, and `agent-card check <url>
// --against main:agent-card.json` run from the repository as a post-deploy job runs it.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostCard, hostResponder, hostSite } from '../test/card-host';
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

/** `agent-card build` of `options` into `repo/site`, committed on `main`: the reviewed side of a site's gate. */
async function commitBuiltSite(repo: string, options: object): Promise<void> {
  writeFileSync(join(repo, 'agent-card.config.mjs'), `export default ${JSON.stringify(options, null, 2)};\n`);
  const built = await cli(['build', 'agent-card.config.mjs', '--out', 'site', '--profile', 'development'], {
    cwd: repo,
  });
  expect(built.code, built.stderr).toBe(0);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'site');
}

/** A deploy of `repo/site` whose JSON document at `path` is `edit(document)`, or removed for `undefined`. */
function deployEdited<T>(repo: string, path: string, edit: (document: T) => unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-deployed-'));
  cpSync(join(repo, 'site'), dir, { recursive: true });
  const file = join(dir, path);
  const edited = edit(JSON.parse(readFileSync(file, 'utf8')) as T);
  if (edited === undefined) rmSync(file);
  else writeFileSync(file, JSON.stringify(edited));
  return dir;
}

/** The drift gate run in `repo` against `against` (a site folder, a card file or `rev:path`). */
const gate = (repo: string, url: string, against: string, ...args: string[]) =>
  cli(['check', url, '--allow-http', '--profile', 'development', '--against', against, ...args], { cwd: repo });
/** The drift gate run in `repo` against the site committed on `main`. */
const checkSite = (repo: string, url: string, ...args: string[]) => gate(repo, url, 'main:site', ...args);

/** The deployment: core's responder serving `card`. */
const deploy = (card: unknown) => hostCard(servers, card);

type Report = { ok: boolean; findings: { rule: string; severity: string; path: string; message: string }[] };
const drift = (report: Report) => report.findings.filter((f) => f.rule.startsWith('diff-'));
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Report;
const notCompared = (report: Report) => report.findings.filter((f) => f.rule === 'drift-not-compared');

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

  it('shows the control and bidi characters a served card puts in a drift message escaped', async () => {
    const url = await deploy({ ...reviewed, description: 'Books trips.\u001b[2J\u202e' });
    const run = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--json'], { cwd: repo });
    const messages = drift(json(run)).map((f) => f.message);
    expect(messages.find((m) => m.includes('/description'))).toContain('\\u001b[2J\\u202e');
    expect(messages.join('\n')).not.toMatch(/[\u001b\u202e]/);
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

/**
 * A site as `agent-card build` writes it (two agents, their AI Catalog and ARD manifest) committed
 * at `main:site`, and two deployments of it: the middleware for the same options, and a static
 * host of a copy of the folder, which a case changes as a faulty deploy would.
 */
describe('agent-card check --against a site: the card, the AI Catalog and the ARD manifest', () => {
  const repo = mkdtempSync(join(tmpdir(), 'agent-card-drift-site-'));
  let deployed = '';
  let origin = '';
  let middleware = '';
  const cardAt = (path: string, name: string) => ({
    ...reviewed,
    name,
    description: `${name}: answers questions about Acme orders.`,
    supportedInterfaces: [{ url: `${origin}${path}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  });
  const options = () => ({
    agents: [
      { id: 'orders', path: '/agents/orders', card: cardAt('/agents/orders', 'Orders Agent') },
      { id: 'refunds', path: '/agents/refunds', card: cardAt('/agents/refunds', 'Refunds Agent') },
    ],
    default: 'orders',
    catalog: { baseUrl: origin, publisher: 'acme-corp.dev', host: { displayName: 'Acme' } },
  });
  const refunds = 'urn:air:acme-corp.dev:agent:refunds';
  const orders = 'urn:air:acme-corp.dev:agent:orders';

  /** A deploy of the reviewed site, changed by `change` (a path under the site and its new JSON, or undefined to delete it). */
  function deploy(
    change: (read: (path: string) => Record<string, unknown>) => Record<string, unknown | undefined> = () => ({}),
  ) {
    const dir = mkdtempSync(join(tmpdir(), 'agent-card-deployed-'));
    cpSync(join(repo, 'site'), dir, { recursive: true });
    const read = (path: string) => JSON.parse(readFileSync(join(dir, path), 'utf8')) as Record<string, unknown>;
    for (const [path, value] of Object.entries(change(read))) {
      if (value === undefined) rmSync(join(dir, path));
      else writeFileSync(join(dir, path), JSON.stringify(value));
    }
    deployed = dir;
  }
  const check = (url: string, ...args: string[]) => checkSite(repo, url, ...args);

  beforeAll(async () => {
    origin = await hostSite(servers, () => deployed);
    await commitBuiltSite(repo, options());
    middleware = await hostResponder(servers, options() as never);
  });

  it('passes when the middleware or the static host serves what was built: every document compared', async () => {
    deploy();
    for (const url of [middleware, origin]) {
      const run = await check(url, '--json');
      const report = JSON.parse(run.stdout) as Report;
      expect(drift(report), url).toEqual([]);
      expect(
        report.findings.filter((f) => f.rule === 'drift-not-compared'),
        url,
      ).toEqual([]);
      expect(run.code, url).toBe(0);
    }
    // The folder on disk, as a job that ran agent-card build before the check has it.
    const local = await cli(['check', origin, '--allow-http', '--profile', 'development', '--against', 'site'], {
      cwd: repo,
    });
    expect(local.code).toBe(0);
  });

  it('fails on a catalog entry removed: diff-entry-removed, breaking, exit 1, in every format', async () => {
    deploy((read) => {
      const catalog = read('.well-known/ai-catalog.json');
      const entries = (catalog.entries as { identifier: string }[]).filter((e) => e.identifier !== refunds);
      return { '.well-known/ai-catalog.json': { ...catalog, entries } };
    });
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    const found = drift(JSON.parse(run.stdout) as Report);
    expect(found.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-entry-removed', 'error', `/entries[identifier=${refunds}]`],
    ]);
    expect(found[0]?.message).toMatch(
      /^served AI Catalog differs from main:site\/\.well-known\/ai-catalog\.json: \/entries\[identifier=urn:air:acme-corp\.dev:agent:refunds\]: entry removed \(was \{/,
    );
    expect((found[0] as { url?: string }).url).toBe(`${origin}/.well-known/ai-catalog.json`);
    const html = join(mkdtempSync(join(tmpdir(), 'agent-card-drift-html-')), 'report.html');
    for (const format of ['text', 'sarif', 'github', 'junit']) {
      const out = await check(origin, '--format', format, ...(format === 'text' ? ['--html', html] : []));
      expect(out.code, format).toBe(1);
      expect(out.stdout, format).toContain('diff-entry-removed');
    }
    expect(readFileSync(html, 'utf8')).toContain('diff-entry-removed');
    // --redact: the reviewed catalog's strings leave the report too.
    const redacted = await check(origin, '--redact', '--json');
    expect(redacted.code).toBe(1);
    expect(drift(JSON.parse(redacted.stdout) as Report).map((f) => f.rule)).toEqual(['diff-entry-removed']);
    expect(redacted.stdout).not.toContain('agent:refunds');
    expect(redacted.stdout).not.toContain('Refunds Agent');
  });

  it('a catalog the host does not serve at all: every reviewed entry gone, breaking', async () => {
    deploy(() => ({ '.well-known/ai-catalog.json': undefined }));
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    expect(drift(JSON.parse(run.stdout) as Report).map((f) => [f.rule, f.path, f.message])).toEqual([
      [
        'diff-entry-removed',
        '',
        'served AI Catalog differs from main:site/.well-known/ai-catalog.json: /: the host serves no AI Catalog (404); the reviewed one lists 2 entries.',
      ],
    ]);
  });

  it('a manifest description changed is descriptive: it fails under --fail-on any, not under structural', async () => {
    deploy((read) => {
      const ard = read('.well-known/ard.json');
      const entries = (ard.entries as { identifier: string }[]).map((e) =>
        e.identifier === orders ? { ...e, description: 'Orders Agent: now with refunds.' } : e,
      );
      return { '.well-known/ard.json': { ...ard, entries } };
    });
    const any = await check(origin, '--json');
    expect(any.code).toBe(1);
    expect(drift(JSON.parse(any.stdout) as Report).map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-descriptive', 'error', `/entries[identifier=${orders}]/description`],
    ]);
    const structural = await check(origin, '--fail-on', 'structural', '--json');
    expect(structural.code).toBe(0);
    const found = drift(JSON.parse(structural.stdout) as Report);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['diff-descriptive', 'info']]);
    expect(found[0]?.message).toBe(
      `served ARD manifest differs from main:site/.well-known/ard.json: /entries[identifier=${orders}]/description: description changed ("Orders Agent: answers questions about Acme orders." → "Orders Agent: now with refunds.").`,
    );
  });

  it('a card signed at deploy differs in signatures only: reported, passing under --fail-on structural', async () => {
    deploy((read) => ({
      '.well-known/agent-card.json': {
        ...read('.well-known/agent-card.json'),
        signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln' }],
      },
    }));
    const run = await check(origin, '--fail-on', 'structural', '--json');
    expect(drift(JSON.parse(run.stdout) as Report).map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-descriptive', 'info', '/signatures'],
    ]);
    const any = await check(origin, '--json');
    expect(any.code).toBe(1);
    expect(drift(JSON.parse(any.stdout) as Report).map((f) => [f.rule, f.severity])).toEqual([
      ['diff-descriptive', 'error'],
    ]);
  });

  it("compares each card the catalog lists on the host with the site's file at its path", async () => {
    const path = 'agents/refunds/.well-known/agent-card.json';
    deploy((read) => {
      const card = read(path);
      return { [path]: { ...card, skills: [(card.skills as unknown[])[0]] } };
    });
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    const found = drift(JSON.parse(run.stdout) as Report) as (Report['findings'][number] & { url?: string })[];
    expect(found.map((f) => [f.rule, f.severity, f.path, f.url])).toEqual([
      ['diff-skill-removed', 'error', '/skills[id=cancel]', `${origin}/${path}`],
      ['diff-version-not-bumped', 'error', '/version', `${origin}/${path}`],
    ]);
    expect(found[0]?.message).toMatch(
      /^served card differs from main:site\/agents\/refunds\/\.well-known\/agent-card\.json: /,
    );
  });

  it('a folder without a card is refused: not a site agent-card build writes', async () => {
    const run = await cli(['check', origin, '--allow-http', '--against', 'main:site/agents'], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('main:site/agents: a folder without .well-known/agent-card.json');
    const empty = mkdtempSync(join(tmpdir(), 'agent-card-empty-'));
    const local = await cli(['check', origin, '--allow-http', '--against', empty], { cwd: repo });
    expect(local.code).toBe(2);
    expect(local.stderr).toContain(
      'a folder without .well-known/agent-card.json, so not a site agent-card build writes',
    );
  });
});

describe('agent-card check --against one card: what is not compared is said', () => {
  const repo = repository();

  it('a host without a catalog: the card only is compared, and an info says so', async () => {
    const url = await deploy(reviewed);
    const run = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json', '--json'], { cwd: repo });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.findings.filter((f) => f.rule === 'drift-not-compared')).toMatchObject([
      {
        severity: 'info',
        message:
          'Compared the card with main:agent-card.json; not compared: the AI Catalog (the host serves none), the ARD manifest (the host serves none).',
      },
    ]);
    const text = await cli(['check', url, '--allow-http', '--against', 'main:agent-card.json'], { cwd: repo });
    expect(text.stdout).toContain('drift-not-compared');
  });
});

/**
 * A site whose cards are signed (`sign` with two keys, k1 and k2): `agent-card build` writes their
 * JWK Set at `.well-known/jwks.json`, and the gate compares the served key set with it, key by kid.
 */
describe('agent-card check --against a site that publishes its keys: the JWK Set', () => {
  const repo = mkdtempSync(join(tmpdir(), 'agent-card-drift-keys-'));
  const pem = () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const [first, second] = [pem(), pem()];
  let deployed = '';
  let origin = '';
  let middleware = '';
  const options = () => ({
    card: {
      ...reviewed,
      supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    },
    sign: [
      { privateKey: first, alg: 'ES256', kid: 'k1' },
      { privateKey: second, alg: 'ES256', kid: 'k2' },
    ],
  });
  type Jwk = Record<string, unknown> & { kid: string };
  /** A deploy of the reviewed site whose JWK Set is `change(keys)`, or no JWK Set for `undefined`. */
  function deploy(change: (keys: Jwk[]) => Jwk[] | undefined = (keys) => keys) {
    deployed = deployEdited<{ keys: Jwk[] }>(repo, '.well-known/jwks.json', (set) => {
      const keys = change(set.keys);
      return keys && { keys };
    });
  }
  const check = (url: string, ...args: string[]) => checkSite(repo, url, ...args);

  beforeAll(async () => {
    origin = await hostSite(servers, () => deployed);
    await commitBuiltSite(repo, options());
    middleware = await hostResponder(servers, options() as never);
  });

  it('passes when the middleware or the static host serves the same keys, and says the JWK Set was compared', async () => {
    deploy((keys) => [...keys].reverse());
    for (const url of [middleware, origin]) {
      const run = await check(url, '--json');
      const report = json(run);
      expect(drift(report), url).toEqual([]);
      expect(notCompared(report).map((f) => f.message)).toEqual([
        'Compared the card, the JWK Set with main:site; not compared: the AI Catalog (neither the host nor the site has one), the ARD manifest (neither the host nor the site has one).',
      ]);
      expect(run.code, url).toBe(0);
    }
  });

  it('fails on a key the host no longer serves: diff-key-removed, breaking, exit 1 as the other breaking changes', async () => {
    deploy((keys) => keys.filter((k) => k.kid !== 'k2'));
    for (const failOn of ['any', 'breaking']) {
      const run = await check(origin, '--fail-on', failOn, '--json');
      expect(run.code, failOn).toBe(1);
      const found = drift(json(run)) as (Report['findings'][number] & { url?: string })[];
      expect(found.map((f) => [f.rule, f.severity, f.path, f.url])).toEqual([
        ['diff-key-removed', 'error', '/keys[kid=k2]', `${origin}/.well-known/jwks.json`],
      ]);
      expect(found[0]?.message).toBe(
        'served JWK Set differs from main:site/.well-known/jwks.json: /keys[kid=k2]: key removed (kid "k2", EC P-256, ES256).',
      );
    }
    const text = await check(origin);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('diff-key-removed');
    expect(text.stdout).toContain('Signatures made with this key no longer verify.');
  });

  it('fails on a JWK Set the host does not serve at all: every reviewed key gone', async () => {
    deploy(() => undefined);
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    expect(drift(json(run)).map((f) => [f.rule, f.severity, f.path, f.message])).toEqual([
      [
        'diff-key-removed',
        'error',
        '',
        'served JWK Set differs from main:site/.well-known/jwks.json: /: the host serves no JWK Set (404); the reviewed one holds 2 keys.',
      ],
    ]);
  });

  it('fails on a kid whose key material changed: diff-key-changed, breaking', async () => {
    const other = JSON.parse(readFileSync(join(repo, 'site/.well-known/jwks.json'), 'utf8')).keys[1].x as string;
    deploy((keys) => keys.map((k) => (k.kid === 'k1' ? { ...k, x: other } : k)));
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    const found = drift(json(run));
    expect(found.map((f) => [f.rule, f.severity, f.path])).toEqual([['diff-key-changed', 'error', '/keys[kid=k1]/x']]);
    expect(found[0]?.message).toMatch(
      /^served JWK Set differs from main:site\/\.well-known\/jwks\.json: \/keys\[kid=k1\]\/x: key x changed \("[\w-]+" → "[\w-]+"\)\.$/,
    );
  });

  it('a key added, or its use changed, is structural: it fails under --fail-on any, not under breaking', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const added = { ...(publicKey.export({ format: 'jwk' }) as Jwk), kid: 'k3', alg: 'ES256' };
    deploy((keys) => [...keys.map((k) => (k.kid === 'k2' ? { ...k, use: 'enc' } : k)), added]);
    const any = await check(origin, '--json');
    expect(any.code).toBe(1);
    expect(drift(json(any)).map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-structural', 'error', '/keys[kid=k2]/use'],
      ['diff-structural', 'error', '/keys[kid=k3]'],
    ]);
    const breaking = await check(origin, '--fail-on', 'breaking', '--json');
    expect(breaking.code).toBe(0);
    expect(drift(json(breaking)).map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'diff-structural',
        'warning',
        'served JWK Set differs from main:site/.well-known/jwks.json: /keys[kid=k2]/use: use changed ("sig" → "enc").',
      ],
      [
        'diff-structural',
        'warning',
        'served JWK Set differs from main:site/.well-known/jwks.json: /keys[kid=k3]: key added (kid "k3", EC P-256, ES256).',
      ],
    ]);
  });

  it('a served kid with control characters is reported with them escaped', async () => {
    deploy((keys) => [...keys, { ...keys[0]!, kid: 'k\u001b[2J\u202eevil' }]);
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    const found = drift(json(run));
    expect(found.map((f) => f.rule)).toEqual(['diff-structural']);
    expect(found[0]?.message).toContain('key added (kid "k\\u001b[2J\\u202eevil", EC P-256, ES256)');
    expect(found[0]?.message).not.toMatch(/[\u001b\u202e]/);
    const text = await check(origin, '--fail-on', 'breaking');
    expect(text.stdout).not.toContain('\u001b[2J');
  });

  it('a site without a JWK Set: the key set the host serves is named as not compared', async () => {
    deploy();
    const site = mkdtempSync(join(tmpdir(), 'agent-card-site-nokeys-'));
    cpSync(join(repo, 'site'), site, { recursive: true });
    rmSync(join(site, '.well-known/jwks.json'));
    const run = await gate(repo, origin, site, '--json');
    const report = json(run);
    expect(drift(report)).toEqual([]);
    expect(notCompared(report).map((f) => [f.severity, f.message])).toEqual([
      [
        'info',
        `Compared the card with ${site}; not compared: the AI Catalog (neither the host nor the site has one), the ARD manifest (neither the host nor the site has one), the JWK Set (the site has none).`,
      ],
    ]);
    expect(run.code).toBe(0);
    // One card: the key set the host serves is named too.
    const card = await gate(repo, origin, `${site}/.well-known/agent-card.json`, '--json');
    expect(notCompared(json(card))[0]?.message).toMatch(
      /, the JWK Set \(--against is one card; pass the folder agent-card build writes\)\.$/,
    );
  });
});

/**
 * A site whose catalog declares two MCP servers: `agent-card build` writes the MCP catalog (the AI
 * Catalog's MCP Server Card entries) at `.well-known/mcp/catalog.json`, and the gate compares the
 * served one with it, entry by identifier, as it compares the ARD manifest.
 */
describe('agent-card check --against a site that lists MCP servers: the MCP catalog', () => {
  const repo = mkdtempSync(join(tmpdir(), 'agent-card-drift-mcp-'));
  const path = '.well-known/mcp/catalog.json';
  const weather = 'urn:air:acme-corp.dev:mcp:weather';
  const orders = 'urn:air:acme-corp.dev:mcp:orders';
  let deployed = '';
  let origin = '';
  let middleware = '';
  const options = () => ({
    agents: [
      {
        id: 'travel',
        path: '/agents/travel',
        card: {
          ...reviewed,
          supportedInterfaces: [
            { url: `${origin}/agents/travel/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
        },
      },
    ],
    default: 'travel',
    catalog: {
      baseUrl: origin,
      publisher: 'acme-corp.dev',
      host: { displayName: 'Acme' },
      entries: [
        { identifier: weather, type: 'application/mcp-server-card+json', url: 'https://mcp.acme.example/weather' },
        { identifier: orders, type: 'application/mcp-server-card+json', url: 'https://mcp.acme.example/orders' },
      ],
    },
  });
  type Entry = Record<string, unknown> & { identifier: string };
  /** A deploy of the reviewed site whose MCP catalog lists `change(entries)`, or no MCP catalog for `undefined`. */
  function deploy(change: (entries: Entry[]) => Entry[] | undefined = (entries) => entries) {
    deployed = deployEdited<{ entries: Entry[] }>(repo, path, (catalog) => {
      const entries = change(catalog.entries);
      return entries && { ...catalog, entries };
    });
  }
  const check = (url: string, ...args: string[]) => checkSite(repo, url, ...args);

  beforeAll(async () => {
    origin = await hostSite(servers, () => deployed);
    await commitBuiltSite(repo, options());
    middleware = await hostResponder(servers, options() as never);
  });

  it('passes when the middleware or the static host serves the same MCP catalog, and no info names it', async () => {
    deploy();
    for (const url of [middleware, origin]) {
      const run = await check(url, '--json');
      const report = json(run);
      expect(drift(report), url).toEqual([]);
      expect(notCompared(report), url).toEqual([]);
      expect(run.code, url).toBe(0);
    }
    // Without the AI Catalog, the info says what was compared: the MCP catalog among them.
    const off = await check(origin, '--follow-catalog', 'off', '--json');
    expect(notCompared(json(off)).map((f) => f.message)).toEqual([
      'Compared the card, the ARD manifest, the MCP catalog with main:site; not compared: the AI Catalog (not requested: --follow-catalog off).',
    ]);
    expect(off.code).toBe(0);
  });

  it('fails on an MCP server the host no longer lists: diff-entry-removed, breaking, exit 1', async () => {
    deploy((entries) => entries.filter((e) => e.identifier !== weather));
    for (const failOn of ['any', 'breaking']) {
      const run = await check(origin, '--fail-on', failOn, '--json');
      expect(run.code, failOn).toBe(1);
      const found = drift(json(run)) as (Report['findings'][number] & { url?: string })[];
      expect(found.map((f) => [f.rule, f.severity, f.path, f.url])).toEqual([
        ['diff-entry-removed', 'error', `/entries[identifier=${weather}]`, `${origin}/${path}`],
      ]);
      expect(found[0]?.message).toBe(
        `served MCP catalog differs from main:site/${path}: /entries[identifier=${weather}]: entry removed (was {"identifier":"${weather}","type":"application/mcp-ser…).`,
      );
    }
    const text = await check(origin);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('diff-entry-removed');
  });

  it('fails on an MCP catalog the host does not serve at all: every reviewed entry gone', async () => {
    deploy(() => undefined);
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    expect(drift(json(run)).map((f) => [f.rule, f.severity, f.path, f.message])).toEqual([
      [
        'diff-entry-removed',
        'error',
        '',
        `served MCP catalog differs from main:site/${path}: /: the host serves no MCP catalog (404); the reviewed one lists 2 entries.`,
      ],
    ]);
  });

  it("fails on an MCP server's url changed: diff-entry-url-changed, breaking", async () => {
    deploy((entries) =>
      entries.map((e) => (e.identifier === orders ? { ...e, url: 'https://mcp.acme.example/v2' } : e)),
    );
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    expect(run.code).toBe(1);
    const found = drift(json(run));
    expect(found.map((f) => [f.rule, f.severity, f.path, f.message])).toEqual([
      [
        'diff-entry-url-changed',
        'error',
        `/entries[identifier=${orders}]/url`,
        `served MCP catalog differs from main:site/${path}: /entries[identifier=${orders}]/url: entry url changed ("https://mcp.acme.example/orders" → "https://mcp.acme.example/v2").`,
      ],
    ]);
  });

  it('an MCP server added is structural, its description descriptive: they fail under --fail-on any only', async () => {
    const added = {
      identifier: 'urn:air:acme-corp.dev:mcp:maps',
      type: 'application/mcp-server-card+json',
      url: 'https://mcp.acme.example/maps',
    };
    deploy((entries) => [
      ...entries.map((e) => (e.identifier === weather ? { ...e, description: 'Forecasts.' } : e)),
      added,
    ]);
    const any = await check(origin, '--json');
    expect(any.code).toBe(1);
    expect(drift(json(any)).map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['diff-descriptive', 'error', `/entries[identifier=${weather}]/description`],
      ['diff-structural', 'error', `/entries[identifier=${added.identifier}]`],
    ]);
    const breaking = await check(origin, '--fail-on', 'breaking', '--json');
    expect(breaking.code).toBe(0);
    expect(drift(json(breaking)).map((f) => [f.rule, f.severity])).toEqual([
      ['diff-descriptive', 'info'],
      ['diff-structural', 'warning'],
    ]);
  });

  it('a served url with control and bidi characters is reported with them escaped', async () => {
    deploy((entries) =>
      entries.map((e) => (e.identifier === orders ? { ...e, url: 'https://x\u001b[2J\u202e.example' } : e)),
    );
    const run = await check(origin, '--fail-on', 'breaking', '--json');
    const found = drift(json(run));
    expect(found.map((f) => f.rule)).toEqual(['diff-entry-url-changed']);
    expect(found[0]?.message).toContain('→ "https://x\\u001b[2J\\u202e.example"');
    expect(found[0]?.message).not.toMatch(/[\u001b\u202e]/);
    const text = await check(origin, '--fail-on', 'breaking');
    expect(text.stdout).not.toContain('\u001b[2J');
  });

  it('a site without the MCP catalog while the host serves one: unreviewed, structural, as the ARD manifest', async () => {
    deploy();
    const site = mkdtempSync(join(tmpdir(), 'agent-card-site-nomcp-'));
    cpSync(join(repo, 'site'), site, { recursive: true });
    rmSync(join(site, path));
    const against = (...args: string[]) =>
      cli(['check', origin, '--allow-http', '--profile', 'development', '--against', site, '--json', ...args], {
        cwd: repo,
      });
    const any = await against();
    expect(any.code).toBe(1);
    expect(drift(json(any)).map((f) => [f.rule, f.severity, f.path, f.message])).toEqual([
      [
        'diff-structural',
        'error',
        '',
        `served MCP catalog differs from ${site}: /: the host serves an MCP catalog that the reviewed site does not have.`,
      ],
    ]);
    expect(notCompared(json(any))).toEqual([]);
    const breaking = await against('--fail-on', 'breaking');
    expect(breaking.code).toBe(0);
    expect(drift(json(breaking)).map((f) => [f.rule, f.severity])).toEqual([['diff-structural', 'warning']]);
    // One card: the MCP catalog the host serves is named as not compared.
    const card = await gate(repo, origin, `${site}/.well-known/agent-card.json`, '--json');
    expect(notCompared(json(card))[0]?.message).toContain(
      ', the MCP catalog (--against is one card; pass the folder agent-card build writes)',
    );
  });
});
