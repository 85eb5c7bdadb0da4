import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getRule, signAgentCard } from '@agent-card/core';
import { GOOD_CARD, type LocalServer, listen, serveJson } from '../../../test/discovery-servers';
import { cards, cli, root } from '../test/run-cli';
import { ruleHelp } from './format/rules';

// The SARIF schema is JSON Schema draft-04: ajv-draft-04 reads it, ajv-formats checks its uri and date-time.
const require = createRequire(import.meta.url);
const Ajv04 = require('ajv-draft-04') as typeof import('ajv-draft-04').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const sarifSchema = JSON.parse(readFileSync(join(root, 'packages/cli/test/fixtures/sarif-schema-2.1.0.json'), 'utf8'));
const ajv = new Ajv04({ allErrors: true, strict: false });
addFormats(ajv);
const validSarif = ajv.compile(sarifSchema);

/** Parses SARIF output and holds it to the published schema. */
function sarif(stdout: string) {
  const log = JSON.parse(stdout);
  const ok = validSarif(log);
  expect(ok, JSON.stringify(validSarif.errors?.slice(0, 5), null, 2)).toBe(true);
  return log;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-format-'));
const broken = join('examples/cards/broken/skill-tags-required.json');
/** What a hostile card puts in its text: a forged line, a workflow command, markup and a control character. */
const FORGED = '\n::error file=.github/workflows/x.yml,line=1::pwned</failure><x a="&">\u0007]]>';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('rule help', () => {
  it("describes a rule of the CLI by its catalogue entry, and an id the catalogue lacks by the run's finding", () => {
    const finding = {
      rule: 'diff-skill-removed',
      severity: 'error' as const,
      path: '/skills/0',
      message: '/skills/0: skill removed.',
      hint: 'Keep it.',
    };
    expect(ruleHelp('diff-skill-removed', [finding])).toEqual({
      id: 'diff-skill-removed',
      summary: getRule('diff-skill-removed')?.summary,
      details: getRule('diff-skill-removed')?.details,
      fix: getRule('diff-skill-removed')?.fix,
    });
    const unknown = { ...finding, rule: 'plugin-rule' };
    expect(ruleHelp('plugin-rule', [unknown])).toEqual({
      id: 'plugin-rule',
      summary: 'skill removed.',
      fix: 'Keep it.',
    });
  });
});

describe('--format sarif', () => {
  it("validate: a result per finding at the line of the file, with each rule's catalogue summary and fix as help", async () => {
    const run = await cli(['validate', broken, '--format', 'sarif']);
    expect(run.code).toBe(1);
    const log = sarif(run.stdout);
    const [sarifRun] = log.runs;
    expect(sarifRun.tool.driver.name).toBe('agent-card');
    const rule = sarifRun.tool.driver.rules.find((r: { id: string }) => r.id === 'skill-tags-required');
    expect(rule.help.text).toBe('Give each skill tags: keywords clients search for, e.g. "tags": ["billing"].');
    expect(rule.shortDescription.text).toBe('Each skill has `tags`: an array with ≥1 non-blank string.');
    expect(rule.fullDescription.text).toBe(getRule('skill-tags-required')?.details);
    const result = sarifRun.results.find((r: { ruleId: string }) => r.ruleId === 'skill-tags-required');
    expect(result.level).toBe('error');
    const text = readFileSync(join(root, broken), 'utf8').split('\n');
    const line = result.locations[0].physicalLocation.region.startLine;
    expect(text[line - 1]).toMatch(/"tags"/);
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(broken);
    expect(result.locations[0].logicalLocations[0].fullyQualifiedName).toBe('/skills/0/tags');
  });

  it('check, verify and diff write SARIF the schema accepts, hostile text included', async () => {
    const hostile = { ...GOOD_CARD, name: `Evil${FORGED}`, skills: [{ ...GOOD_CARD.skills[0], tags: [] }] };
    const server = await listen((req, res) => {
      if (req.url === '/.well-known/agent-card.json') serveJson(res, req, JSON.stringify(hostile));
      else res.writeHead(404).end();
    });
    servers.push(server);
    const check = await cli(['check', server.origin, '--allow-http', '--format', 'sarif', '--timeout', '3000']);
    expect(check.code).toBe(1);
    const checked = sarif(check.stdout);
    expect(checked.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('skill-tags-required');

    const dir = tmp();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(GOOD_CARD as never, { privateKey, kid: 'k1', alg: 'ES256' });
    writeFileSync(join(dir, 'signed.json'), JSON.stringify({ ...signed, name: 'Changed' }, null, 2));
    writeFileSync(join(dir, 'key.json'), JSON.stringify({ ...publicKey.export({ format: 'jwk' }), kid: 'k1' }));
    const verify = await cli(['verify', 'signed.json', '--key', 'key.json', '--format', 'sarif'], { cwd: dir });
    expect(verify.code).toBe(1);
    const verified = sarif(verify.stdout);
    expect(verified.runs[0].results[0]).toMatchObject({ ruleId: 'signature-verify', level: 'error' });
    expect(verified.runs[0].results[0].locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);

    writeFileSync(join(dir, 'a.json'), JSON.stringify(GOOD_CARD, null, 2));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...hostile, version: '2.0.0', skills: [] }, null, 2));
    const diff = await cli(['diff', 'a.json', 'b.json', '--format', 'sarif'], { cwd: dir });
    expect(diff.code).toBe(1);
    const diffed = sarif(diff.stdout);
    const removed = diffed.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'diff-skill-removed');
    // A removal is located in the newer card, at the nearest member still there (/skills).
    const lines = readFileSync(join(dir, 'b.json'), 'utf8').split('\n');
    expect(removed.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'b.json' });
    expect(lines[removed.locations[0].physicalLocation.region.startLine - 1]).toMatch(/"skills": \[\]/);
    expect(removed.properties).toEqual({ impact: 'breaking' });
  });
});

describe('--format github', () => {
  it('one workflow command per finding with file and line; a card cannot forge another command', async () => {
    const dir = tmp();
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    card.skills[0].tags = [];
    card.skills[0].id = `x${FORGED}`;
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card, null, 2));
    const run = await cli(['validate', 'card.json', '--format', 'github'], { cwd: dir });
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    // Every line is a command of ours, or the summary: the forged "::error file=…" stays inside a message.
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^::(error|warning|notice) file=card\.json,/);
    expect(lines.at(-1)).toMatch(/^agent-card validate: failed \(\d+ failing of \d+ findings\)$/);
    const tags = lines.find((l) => l.includes('title=skill-tags-required'));
    const at =
      readFileSync(join(dir, 'card.json'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"tags"')) + 1;
    expect(tags).toContain(`file=card.json,line=${at},col=`);
    expect(tags).toMatch(/::skills\[0\]\.tags: empty \(required, at least one tag\)\.%0AFix: Add at least one tag/);
    expect(run.stdout).not.toMatch(/\n::error file=\.github/);
  });
});

describe('--format junit', () => {
  it('failures for errors, everything escaped, no control character', async () => {
    const dir = tmp();
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    card.skills[0].tags = [];
    card.name = `Evil${FORGED}`;
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card, null, 2));
    const run = await cli(['validate', 'card.json', '--format', 'junit', '--profile', 'development'], {
      cwd: dir,
    });
    expect(run.code).toBe(1);
    expect(run.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-card"')).toBe(true);
    expect(run.stdout).toMatch(
      /<failure message="skills\[0\]\.tags: empty \(required, at least one tag\)\." type="skill-tags-required">/,
    );
    // Only our own tags: every < starts one of them, and no character XML 1.0 forbids.
    for (const tag of run.stdout.match(/<[^>]*>/g) ?? []) {
      expect(tag).toMatch(/^<(\?xml |\/?testsuites|\/?testsuite|\/?testcase|\/?failure|\/?system-out)/);
    }
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(run.stdout).not.toContain('pwned</failure>');
  });

  it('a card without findings is one passing test case', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.json'), JSON.stringify(GOOD_CARD));
    const run = await cli(['diff', 'a.json', 'a.json', '--format', 'junit'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tests="1" failures="0"');
    expect(run.stdout).toContain('<testcase classname="agent-card diff a.json" name="diff a.json"/>');
  });
});

describe('--json and --format', () => {
  it('--json is --format json; --json with another format is a usage error', async () => {
    const json = await cli(['validate', broken, '--json']);
    const format = await cli(['validate', broken, '--format', 'json']);
    expect(format.stdout).toBe(json.stdout);
    const both = await cli(['validate', broken, '--json', '--format', 'sarif']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('agent-card: --json and --format sarif: pick one (--json is --format json).\n');
  });
});
