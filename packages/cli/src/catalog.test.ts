// agent-card check and validate with an AI Catalog: the multi-agent example, a catalog listing a
// card that is not there, a catalog whose names carry terminal escapes, and catalog files.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, loopbackServers, root } from '../test/run-cli';

const servers = loopbackServers();
const listen = servers.listen;
const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await servers.close();
});

const card = (origin: string, name: string) => ({
  name,
  description: `${name}, for the CLI catalog tests.`,
  version: '1.0.0',
  supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['test'] }],
});

/** A host whose catalog lists what `entries(origin)` says; `cards` maps paths to served cards. */
async function catalogHost(
  entries: (origin: string) => unknown[],
  cards: (origin: string) => Record<string, unknown>,
): Promise<string> {
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body =
      path === '/.well-known/ai-catalog.json'
        ? { specVersion: '1.0', host: { displayName: 'Test' }, entries: entries(origin) }
        : cards(origin)[path];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  origin = await listen(server);
  return origin;
}

describe('agent-card check with an AI Catalog', () => {
  it('reports both agents of examples/multi-agent, in text and in --json', async () => {
    const example = await import(pathToFileURL(join(root, 'examples/multi-agent/app.mjs')).href);
    const started = (await example.start({ port: 0, host: '127.0.0.1' })) as {
      url: string;
      close: () => Promise<void>;
    };
    closers.push(started.close);
    const run = await cli(['check', started.url, '--allow-http', '--profile', 'development']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      // Two agents, an MCP Server Card and an Agent Skills index.
      `AI Catalog: ${started.url}/.well-known/ai-catalog.json  200  4 entries  host Acme Corp  valid`,
    );
    expect(run.stdout).toContain('Agents (2):');
    expect(run.stdout).toContain(
      // The current draft leaves the name and version to the card: nothing to compare, the card's are shown.
      `✔ Acme Billing Agent 2.0.0  ${started.url}/agents/billing/.well-known/agent-card.json  200  0 errors`,
    );
    expect(run.stdout).toContain(
      `✔ Acme Support Agent 2.0.0  ${started.url}/agents/support/.well-known/agent-card.json  200  0 errors`,
    );
    expect(run.code).toBe(0);

    const json = await cli(['check', started.url, '--allow-http', '--profile', 'development', '--json']);
    const report = JSON.parse(json.stdout);
    expect(report.catalog).toMatchObject({ status: 200, found: true, valid: true, entries: 4 });
    expect(report.agents.map((a: { cardName: string; ok: boolean }) => [a.cardName, a.ok])).toEqual([
      ['Acme Billing Agent', true],
      ['Acme Support Agent', true],
    ]);
    expect(json.code).toBe(0);
  });

  it('exits 1 when the catalog lists a card that is not served', async () => {
    const origin = await catalogHost(
      (o) => [
        {
          identifier: 'urn:test:here',
          displayName: 'Here',
          mediaType: 'application/a2a-agent-card+json',
          url: `${o}/here.json`,
        },
        {
          identifier: 'urn:test:gone',
          displayName: 'Gone',
          mediaType: 'application/a2a-agent-card+json',
          url: `${o}/gone.json`,
        },
      ],
      (o) => ({ '/.well-known/agent-card.json': card(o, 'Here'), '/here.json': card(o, 'Here') }),
    );
    const run = await cli(['check', origin, '--allow-http', '--profile', 'development']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`✖ Gone  ${origin}/gone\\.json  404  \\d+ errors?`));
    expect(run.stdout).toContain('✖ error   catalog-entry-card  /entries/1/url');
    expect(run.stdout).toContain(
      `${origin}/.well-known/ai-catalog.json entries[1]: the listed card does not load ("status 404" at "${origin}/gone.json").`,
    );
    expect(run.stdout).toContain('✔ Here');
  });

  it('prints terminal escapes and bidi overrides from the catalog as text', async () => {
    const origin = await catalogHost(
      (o) => [
        {
          identifier: 'urn:test:evil',
          displayName: '\u001b]8;;https://evil.test\u0007Billing\u202e',
          mediaType: 'application/a2a-agent-card+json',
          url: `${o}/evil.json`,
        },
      ],
      (o) => ({ '/.well-known/agent-card.json': card(o, 'Evil'), '/evil.json': card(o, '\u001b[2JEvil') }),
    );
    const run = await cli(['check', origin, '--allow-http', '--profile', 'development']);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('\u202e');
    expect(run.stdout).toContain('\\u001b]8;;https://evil.test\\u0007Billing\\u202e');
    expect(run.stdout).toContain('name ✖ card says \\u001b[2JEvil');
  });

  it('--follow-catalog any fetches nothing from a private address on another origin, unless --allow-private-targets', async () => {
    let reached = 0;
    const inside = createServer((_req, res) => {
      reached++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.2', resolve));
    closers.push(() => new Promise<void>((resolve) => inside.close(() => resolve())));
    const target = `http://127.0.0.2:${(inside.address() as { port: number }).port}/.well-known/agent-card.json`;
    const origin = await catalogHost(
      () => [{ identifier: 'urn:air:test:inside', mediaType: 'application/a2a-agent-card+json', url: target }],
      (o) => ({ '/.well-known/agent-card.json': card(o, 'Support') }),
    );
    const args = ['check', origin, '--allow-http', '--follow-catalog', 'any', '--json'];
    const run = await cli(args);
    expect(reached).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.agents[0]).toMatchObject({ url: target, checked: false, skipped: 'private' });
    expect(report.findings.find((f: { rule: string }) => f.rule === 'discovery-catalog-origin')).toMatchObject({
      severity: 'warning',
      message: `${origin}/.well-known/ai-catalog.json entries[0]: not followed: another origin on a non-public address (${new URL(target).host}: 127.0.0.2 is a loopback address) at "${target}".`,
      hint: 'Check that host on its own (agent-card check <url>): a catalog may name only public hosts on other origins.',
    });
    const text = await cli(['check', origin, '--allow-http', '--follow-catalog', 'any']);
    expect(text.stdout).toContain('not followed (another origin on a non-public address)');
    expect(reached).toBe(0);

    const allowed = await cli([...args, '--allow-private-targets']);
    expect(reached).toBeGreaterThan(0);
    expect(JSON.parse(allowed.stdout).agents[0]).toMatchObject({ url: target, checked: true });
  });

  it('--follow-catalog off sends no catalog request', async () => {
    let asked = 0;
    const server = createServer((req, res) => {
      if (req.url === '/.well-known/ai-catalog.json') asked++;
      res.writeHead(404).end();
    });
    const origin = await listen(server);
    const run = await cli(['check', origin, '--allow-http', '--follow-catalog', 'off', '--json']);
    expect(asked).toBe(0);
    expect(JSON.parse(run.stdout).catalog).toBeUndefined();
  });
});

describe('agent-card validate with an AI Catalog file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-catalog-'));
  const write = (name: string, value: unknown) => {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
    return name;
  };
  const entry = (id: string) => ({
    identifier: `urn:acme:agent:${id}`,
    displayName: id,
    mediaType: 'application/a2a-agent-card+json',
    url: `https://acme.test/agents/${id}/.well-known/agent-card.json`,
  });

  it('detects a catalog by specVersion and entries, and reports a repeated identifier (exit 1)', async () => {
    // Entries of the current draft: a previous-draft catalog also gets catalog-previous-draft infos.
    const current = (id: string) => ({
      identifier: `urn:air:acme.test:agent:${id}`,
      type: 'application/a2a-agent-card+json',
      url: `https://acme.test/agents/${id}/.well-known/agent-card.json`,
    });
    const file = write('dup.json', { specVersion: '1.0', entries: [current('billing'), current('billing')] });
    const run = await cli(['validate', file, '--json'], { cwd: dir });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ kind: 'ai-catalog', valid: false });
    expect(result.findings.map((f: { rule: string; path: string }) => [f.rule, f.path])).toEqual([
      ['catalog-identifier-unique', '/entries/1/identifier'],
    ]);
    const text = await cli(['validate', file], { cwd: dir });
    expect(text.stdout).toContain('dup.json: AI Catalog, profile production');
    expect(text.stdout).toContain('catalog-identifier-unique');
  });

  it('passes a valid catalog (exit 0)', async () => {
    const file = write('ok.json', { specVersion: '1.0', entries: [entry('billing'), entry('support')] });
    const run = await cli(['validate', file], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('✔ valid');
  });

  it('refuses the entry URLs the middleware refuses in its own catalog: credentials, data: (exit 1)', async () => {
    const file = write('partner.json', {
      specVersion: '1.0',
      entries: [
        { ...entry('billing'), url: 'https://user:s3cret@acme.test/agents/billing/.well-known/agent-card.json' },
        { ...entry('support'), url: 'data:text/html,<script>alert(1)</script>' },
      ],
    });
    const run = await cli(['validate', file, '--json'], { cwd: dir });
    expect(run.code).toBe(1);
    const errors = JSON.parse(run.stdout).findings.filter((f: { severity: string }) => f.severity === 'error');
    expect(errors.map((f: { rule: string; path: string }) => `${f.rule} ${f.path}`)).toEqual([
      'catalog-url-format /entries/0/url',
      'catalog-url-format /entries/1/url',
    ]);
    expect(run.stdout).not.toContain('s3cret');
  });

  it('--catalog reads any file as a catalog: a card is missing specVersion and entries', async () => {
    const file = write('card.json', card('https://acme.test', 'Acme'));
    const run = await cli(['validate', file, '--catalog', '--json'], { cwd: dir });
    expect(run.code).toBe(1);
    const rules = JSON.parse(run.stdout).findings.map((f: { rule: string; path: string }) => `${f.rule} ${f.path}`);
    expect(rules).toContain('catalog-required-fields /specVersion');
    expect(rules).toContain('catalog-required-fields /entries');
  });

  it('--catalog on text that is not JSON is catalog-json-parse (exit 1)', async () => {
    const run = await cli(['validate', write('broken.json', '{"specVersion": '), '--catalog', '--json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings[0].rule).toBe('catalog-json-parse');
  });
});
