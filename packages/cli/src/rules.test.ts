import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRules } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { cards, cli, loopbackServers } from '../test/run-cli';
import { hostCard } from '../test/card-host';

const localhostCard = join(cards, 'broken/url-localhost.json');

/** A working directory holding `agent-card.config.json` with this content. */
function projectWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-rules-'));
  writeFileSync(join(dir, 'agent-card.config.json'), config);
  return dir;
}

describe('agent-card rules', () => {
  it('lists every rule with its severity under each profile and what it checks', async () => {
    const run = await cli(['rules']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}# {2}id +dev {5}prod {4}strict {2}checks\n/);
    expect(run.stdout).toMatch(/\n 34 {2}url-localhost +info {4}error {3}error {3}Host is `localhost`/);
    expect(run.stdout).toContain(`\n${listRules().length} rules.`);
  });

  it('--json prints the catalogue, fix included', async () => {
    const run = await cli(['rules', '--json']);
    const rules = JSON.parse(run.stdout) as { id: string; fix: string }[];
    expect(rules.find((r) => r.id === 'skill-tags-required')?.fix).toMatch(/^Give each skill tags/);
    expect(rules).toHaveLength(listRules().length);
  });
});

describe('rule settings of validate', () => {
  it('--rule lowers an error; the verdict follows', async () => {
    expect((await cli(['validate', localhostCard])).code).toBe(1);
    const run = await cli(['validate', localhostCard, '--rule', 'url-localhost=warning']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('⚠ warning url-localhost');
    expect(run.stdout).toContain('✔ valid: 0 errors, 1 warning');
  });

  it("a rule turned off is named in the report as the user's decision, in text and JSON", async () => {
    const run = await cli([
      'validate',
      localhostCard,
      '--rule',
      'url-localhost=off',
      '--rule',
      'card-shape-detected=off',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Turned off by your settings: url-localhost (1 finding), card-shape-detected (1 finding).\n✔ valid: 0 errors, 0 warnings, 0 info',
    );
    const json = JSON.parse((await cli(['validate', localhostCard, '--rule', 'url-localhost=off', '--json'])).stdout);
    expect(json.turnedOff).toEqual([{ rule: 'url-localhost', findings: 1 }]);
  });

  it('reads "rules" of agent-card.config.json in the working directory; a flag wins over it', async () => {
    const cwd = projectWith('{"rules": {"url-localhost": "info"}}');
    const run = await cli(['validate', localhostCard], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ℹ info    url-localhost');
    expect((await cli(['validate', localhostCard, '--rule', 'url-localhost=error'], { cwd })).code).toBe(1);
  });

  it('a misspelt rule id is a usage error (exit 2) naming the nearest id, from the flag and the file alike', async () => {
    const cwd = projectWith('{"rules": {"url-localhst": "off"}, "rule": {}}');
    const run = await cli(['validate', localhostCard, '--rule', 'metadata-qualty=off', '--rule', 'url-https=warn'], {
      cwd,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        'agent-card: agent-card.config.json: unknown member "rule". Only "rules" is read; remove it.',
        'agent-card: agent-card.config.json rules["url-localhst"]: unknown rule ("url-localhst"). Did you mean "url-localhost"?',
        'agent-card: --rule["metadata-qualty"]: unknown rule ("metadata-qualty"). Did you mean "metadata-quality"?',
        'agent-card: --rule["url-https"]: unknown setting ("warn"). Use one of off, info, warning, error.',
        '',
      ].join('\n'),
    );
  });

  it('an object where a setting belongs is a usage error naming the file, the pointer and the fix, not a crash', async () => {
    const cwd = projectWith('{"rules": {"secrets-in-card": {"toString": "off"}, "url-localhost": ["off"]}}');
    const run = await cli(['validate', localhostCard], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        'agent-card: agent-card.config.json /rules/secrets-in-card: a rule setting is one of off, info, warning, error, not an object. Write "secrets-in-card": "off" (or info, warning, error).',
        'agent-card: agent-card.config.json /rules/url-localhost: a rule setting is one of off, info, warning, error, not an array. Write "url-localhost": "off" (or info, warning, error).',
        '',
      ].join('\n'),
    );
  });

  it('a rule set twice in the file is a usage error, as a card naming a member twice is refused', async () => {
    const cwd = projectWith('{"rules": {"url-localhost": "off", "metadata-quality": "off", "url-localhost": "error"}}');
    const run = await cli(['validate', localhostCard], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'agent-card: agent-card.config.json /rules/url-localhost: the rule "url-localhost" is set twice, and only the last setting would apply. Keep one of them.\n',
    );
    const twice = await cli(['validate', localhostCard], { cwd: projectWith('{"rules": {}, "rules": {}}') });
    expect(twice.stderr).toBe(
      'agent-card: agent-card.config.json /rules: the member "rules" is named twice in one object. Keep one of them.\n',
    );
  });

  it('--rule without a setting is a usage error', async () => {
    const run = await cli(['validate', localhostCard, '--rule', 'url-localhost']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Expected <rule-id>=<off|info|warning|error>, e.g. metadata-quality=off.');
  });
});

describe('rule settings of check', () => {
  const servers = loopbackServers();
  let origin = '';

  beforeAll(async () => {
    // An init template served as it is: production reports template-content.
    const card = JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8'));
    origin = await hostCard(servers, card);
  });

  afterAll(() => servers.close());

  it("applies the settings to the served card's findings and to the verdict, and names the rules turned off", async () => {
    const plain = await cli(['check', origin, '--allow-http', '--follow-catalog', 'off', '--json']);
    expect(plain.code).toBe(1);
    expect(JSON.parse(plain.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('template-content');
    const cwd = projectWith('{"rules": {"template-content": "off"}}');
    const run = await cli(['check', origin, '--allow-http', '--follow-catalog', 'off'], { cwd });
    expect(run.stdout).not.toContain('template-content  ');
    expect(run.stdout).toMatch(/Turned off by your settings: template-content \(\d+ findings?\)\.\n$/);
    expect(run.code).toBe(0);
  });

  it("counts the catalog's agents with the settings too", async () => {
    // The same template card, also listed in an AI Catalog of the host.
    const catalog = (self: string) =>
      JSON.stringify({
        specVersion: '1.0',
        host: { displayName: 'Fernhill' },
        entries: [
          {
            identifier: 'urn:air:acme.example:agents:shop',
            displayName: 'Fernhill Market Shopping Assistant',
            mediaType: 'application/a2a-agent-card+json',
            url: `${self}/agents/shop/.well-known/agent-card.json`,
          },
        ],
      });
    const card = JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8'));
    const responder = createAgentCardResponder({ card, profile: 'development', logger: { warn() {} } });
    let self = '';
    self = await servers.listen(
      createServer(async (req, res) => {
        if (req.url === '/.well-known/ai-catalog.json')
          return void res.writeHead(200, { 'content-type': 'application/ai-catalog+json' }).end(catalog(self));
        const path = req.url?.startsWith('/agents/shop/') ? req.url.slice('/agents/shop'.length) : (req.url ?? '/');
        const answer = await responder.respond({ method: req.method ?? 'GET', path, headers: req.headers });
        if (!answer) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        res.writeHead(answer.status, answer.headers).end(answer.body);
      }),
    );
    const agentOf = (stdout: string) => JSON.parse(stdout).agents[0];
    const plain = await cli(['check', self, '--allow-http', '--json']);
    expect(agentOf(plain.stdout)).toMatchObject({ checked: true, ok: false });
    expect(agentOf(plain.stdout).errors).toBeGreaterThan(0);
    expect(JSON.parse(plain.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('catalog-entry-card');
    const cwd = projectWith('{"rules": {"template-content": "off"}}');
    const run = await cli(['check', self, '--allow-http', '--json'], { cwd });
    expect(agentOf(run.stdout)).toMatchObject({ checked: true, ok: true, errors: 0 });
    expect(JSON.parse(run.stdout).findings.map((f: { rule: string }) => f.rule)).not.toContain('catalog-entry-card');
  });
});
