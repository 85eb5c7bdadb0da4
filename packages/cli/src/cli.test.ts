import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAgentCard } from '@agent-card/core';
import { UNTRUSTED as UNTRUSTED_NOTE } from './commands/check';
import { hostCard } from '../test/card-host';
import { cards, cli, cliBinary, loopbackServers, requireBuiltCli, root } from '../test/run-cli';

const legacySample = join(root, 'test/fixtures/spec/examples/legacy-v0.3.0-spec-5.7-sample-agent-card.json');

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-cli-'));
const ANSI = /\x1b\[/;

beforeAll(() => {
  requireBuiltCli();
});

describe('agent-card --help', () => {
  it.each(['check', 'validate', 'view', 'init', 'migrate', 'diff', 'sign', 'verify'])(
    '%s --help shows usage and an example',
    async (command) => {
      const run = await cli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: agent-card ${command}`);
      expect(run.stdout).toMatch(/Examples:\n\s+\$ agent-card /);
    },
  );

  it('an unknown command is a usage error (exit 2) without a stack trace', async () => {
    const run = await cliBinary(['bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'bogus'");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('agent-card validate', () => {
  it('accepts a valid card (exit 0) with no colour when piped', async () => {
    // The example cards are init's templates: valid in development, with the template warnings.
    const run = await cliBinary(['validate', join(cards, 'support.json'), '--profile', 'development']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Larkspur Telecom Support Agent 3.4.1 (v1.0)');
    expect(run.stdout).toContain('✔ valid: 0 errors, 12 warnings');
    expect(run.stdout).not.toMatch(ANSI);
  });

  it('colours the report when FORCE_COLOR is set', async () => {
    const run = await cliBinary(['validate', join(cards, 'support.json')], { env: { FORCE_COLOR: '1' } });
    expect(run.stdout).toMatch(ANSI);
  });

  it('exits 1 and names the rule for a broken card', async () => {
    const run = await cliBinary(['validate', join(cards, 'broken/skill-tags-required.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('skill-tags-required');
    expect(run.stdout).toContain('/skills/0/tags');
    expect(run.stdout).toContain('✖ invalid: 1 error');
  });

  it('reads stdin with - and prints JSON with --json', async () => {
    const input = readFileSync(join(cards, 'booking.json'), 'utf8');
    const run = await cliBinary(['validate', '-', '--json', '--profile', 'development'], { input });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ file: 'stdin', profile: 'development', valid: true, shape: 'v1.0' });
    expect(Array.isArray(result.findings)).toBe(true);
  });

  it('reports invalid JSON as a card-json-parse finding', async () => {
    const run = await cli(['validate', '-'], { input: '{"name": ' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('card-json-parse');
  });

  it('names fromA2aJsCard for a card saved in the in-memory shape of @a2a-js/sdk', async () => {
    // JSON.stringify(AgentCard.fromJSON(card)) of the SDK: each scheme as { scheme: { $case, value } }.
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    card.securitySchemes = Object.fromEntries(
      Object.entries(card.securitySchemes as Record<string, Record<string, unknown>>).map(([name, scheme]) => {
        const [$case, value] = Object.entries(scheme)[0] ?? [];
        return [name, { scheme: { $case, value } }];
      }),
    );
    const dir = tmp();
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card));
    const run = await cli(['validate', 'card.json', '--profile', 'development'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '  ✖ error   sdk-in-memory-shape  /securitySchemes/customerToken/scheme',
        '    securitySchemes.customerToken: is in the in-memory shape of @a2a-js/sdk ({"scheme": {"$case": "httpAuthSecurityScheme", "value": …}}), not the JSON of an Agent Card.',
        '    → Convert the card first: fromA2aJsCard(card) from @agent-card/a2a-js (it runs AgentCard.toJSON of @a2a-js/sdk).',
      ].join('\n'),
    );
    // The one finding that says what happened, instead of the generic shape error and unknown field.
    expect(run.stdout).not.toContain('security-scheme-shape');
    expect(run.stdout).not.toContain('unknown-field');
    expect(run.stdout).toContain('✖ invalid: 1 error');
    const json = await cli(['validate', 'card.json', '--json', '--profile', 'development'], { cwd: dir });
    expect(json.code).toBe(1);
    const errors = JSON.parse(json.stdout).findings.filter((f: { severity: string }) => f.severity === 'error');
    expect(errors).toMatchObject([{ rule: 'sdk-in-memory-shape', path: '/securitySchemes/customerToken/scheme' }]);
  });

  it('--strict turns unknown fields into errors', async () => {
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    card.mascot = 'owl';
    const dir = tmp();
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card));
    expect((await cli(['validate', 'card.json', '--profile', 'development'], { cwd: dir })).code).toBe(0);
    const strict = await cli(['validate', 'card.json', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('unknown-field');
  });

  it('a missing file is one line on stderr, exit 2', async () => {
    const run = await cli(['validate', 'nope.json'], { cwd: tmp() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('agent-card: nope.json: no such file. Check the path.\n');
  });

  it('rejects an unknown profile', async () => {
    const run = await cli(['validate', join(cards, 'support.json'), '--profile', 'lenient']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Allowed choices are development, production, strict');
  });
});

describe('agent-card init', () => {
  it.each(['support', 'booking', 'shopping', 'coding', 'research', 'workflow'])(
    'writes a valid starter card from the %s template',
    async (template) => {
      const dir = tmp();
      const run = await cli(
        ['init', '--template', template, '--name', 'Orders Agent', '--url', 'https://orders.acme-corp.io/a2a'],
        { cwd: dir },
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Wrote agent-card.json from the "${template}" template.`);
      const card = JSON.parse(readFileSync(join(dir, 'agent-card.json'), 'utf8'));
      expect(card.name).toBe('Orders Agent');
      expect(card.supportedInterfaces).toEqual([
        { url: 'https://orders.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ]);
      expect(validateAgentCard(card, { profile: 'development' }).valid).toBe(true);
    },
  );

  it('refuses to overwrite without --force', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'agent-card.json'), '{}');
    const run = await cli(['init'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('agent-card.json: already exists. Pass --force to overwrite it.');
    expect(readFileSync(join(dir, 'agent-card.json'), 'utf8')).toBe('{}');
    expect((await cli(['init', '--force'], { cwd: dir })).code).toBe(0);
  });

  it('rejects a URL that is not absolute', async () => {
    const run = await cli(['init', '--url', 'orders/a2a'], { cwd: tmp() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--url: not an absolute URL');
  });
});

describe('agent-card migrate', () => {
  it('turns the v0.3 sample into a valid v1.0 card and lists the changes', async () => {
    const run = await cli(['migrate', legacySample]);
    expect(run.code).toBe(0);
    const card = JSON.parse(run.stdout);
    expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC' });
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('protocolVersion');
    expect(run.stderr).toMatch(/\d+ changes:/);
    expect(run.stderr).toContain('/url: moved to supportedInterfaces[0]');
    expect(run.stderr).toContain('/security: moved to securityRequirements');
    expect(validateAgentCard(card, { profile: 'development' }).valid).toBe(true);
  });

  it('writes the result with -o', async () => {
    const dir = tmp();
    const run = await cli(['migrate', legacySample, '-o', 'v1.json'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'v1.json'), 'utf8')).supportedInterfaces).toBeDefined();
  });
});

describe('agent-card diff', () => {
  const write = (dir: string, name: string, card: unknown) => writeFileSync(join(dir, name), JSON.stringify(card));
  const base = () => JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));

  it('says so when the cards are equal', async () => {
    const run = await cli(['diff', join(cards, 'support.json'), join(cards, 'support.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('No differences.\n');
  });

  it('warns (exit 1) when content changed but version did not', async () => {
    const dir = tmp();
    const changed = base();
    changed.skills[0].description = 'Runs line checks.';
    write(dir, 'a.json', base());
    write(dir, 'b.json', changed);
    const run = await cli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('~ /skills[id=diagnose-connection]/description');
    expect(run.stdout).toContain('The content changed but "version" did not.');
  });

  it('accepts the change when version was bumped, and matches skills by id', async () => {
    const dir = tmp();
    const changed = base();
    changed.version = '3.5.0';
    changed.skills.reverse();
    changed.skills.push({ id: 'port-number', name: 'Port a number', description: 'Moves a number.', tags: ['mobile'] });
    write(dir, 'a.json', base());
    write(dir, 'b.json', changed);
    const run = await cli(['diff', 'a.json', 'b.json', '--json'], { cwd: dir });
    expect(run.code).toBe(0);
    const diff = JSON.parse(run.stdout);
    expect(diff.versionNotBumped).toBe(false);
    expect(diff.changes).toEqual([
      { kind: 'changed', path: '/version', before: '3.4.1', after: '3.5.0' },
      { kind: 'added', path: '/skills[id=port-number]', after: expect.objectContaining({ id: 'port-number' }) },
    ]);
  });
});

describe('agent-card sign / verify', () => {
  it.each([
    ['ES256', 'ec', { namedCurve: 'P-256' }],
    ['RS256', 'rsa', { modulusLength: 2048 }],
    ['EdDSA', 'ed25519', {}],
  ] as const)('signs and verifies with %s keys (PEM), and detects tampering', async (alg, type, params) => {
    const dir = tmp();
    const { privateKey, publicKey } = generateKeyPairSync(type as 'ec', params as { namedCurve: string });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const signed = await cli(
      ['sign', join(cards, 'coding.json'), '--key', 'key.pem', '--kid', 'k1', '--alg', alg, '-o', 'signed.json'],
      { cwd: dir },
    );
    expect(signed.stderr).toContain(
      `Signed with ${alg} (kid "k1"), 2 signatures (one per canonical form); wrote signed.json.`,
    );
    expect(signed.code).toBe(0);
    const card = JSON.parse(readFileSync(join(dir, 'signed.json'), 'utf8'));
    // coding.json has default-valued members (scope-less requirements), so its pruned and its
    // served-as-is forms differ: one signature each.
    expect(card.signatures).toHaveLength(2);

    const ok = await cli(['verify', 'signed.json', '--key', 'key.pub.pem', '--kid', 'k1'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Valid: at least one signature verified.');

    card.description += ' ';
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(card));
    const bad = await cli(['verify', 'tampered.json', '--key', 'key.pub.pem', '--kid', 'k1'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('Invalid: no signature verified.');
  });

  it('verifies with a JWK Set file and reports an unknown kid', async () => {
    const dir = tmp();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(
      join(dir, 'key.json'),
      JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid: 'jwk-1', alg: 'ES256' }),
    );
    expect(
      (await cli(['sign', join(cards, 'research.json'), '--key', 'key.json', '-o', 'signed.json'], { cwd: dir })).code,
    ).toBe(0);
    writeFileSync(
      join(dir, 'jwks.json'),
      JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'jwk-1' }] }),
    );
    const ok = await cli(['verify', 'signed.json', '--jwks', 'jwks.json', '--json'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      valid: true,
      signatures: [{ index: 0, kid: 'jwk-1', alg: 'ES256', valid: true }],
    });
    writeFileSync(
      join(dir, 'other.json'),
      JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'other' }] }),
    );
    const unknown = await cli(['verify', 'signed.json', '--jwks', 'other.json'], { cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('jwk-1');
  });

  it.each([
    ['ES256', 'ec', { namedCurve: 'P-256' }],
    ['ES384', 'ec', { namedCurve: 'P-384' }],
    ['EdDSA', 'ed25519', {}],
  ] as const)(
    'signs with a %s key when --alg is left out, and verify finds the key by its thumbprint',
    async (alg, type, params) => {
      // The user's mistake: no --alg and no --kid, on sign and on verify.
      const dir = tmp();
      const { privateKey, publicKey } = generateKeyPairSync(type as 'ec', params as { namedCurve: string });
      writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
      const signed = await cli(['sign', join(cards, 'research.json'), '--key', 'key.pem', '-o', 'signed.json'], {
        cwd: dir,
      });
      expect(signed.code).toBe(0);
      expect(signed.stderr).toMatch(new RegExp(`^Signed with ${alg} \\(kid "[A-Za-z0-9_-]{43}"\\)`));
      const ok = await cli(['verify', 'signed.json', '--key', 'key.pub.pem'], { cwd: dir });
      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('Valid: at least one signature verified.');
    },
  );

  it('still asks for --alg with an RSA key, which fits several algorithms', async () => {
    const dir = tmp();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const run = await cli(['sign', join(cards, 'research.json'), '--key', 'key.pem'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--alg: missing, and the key fits more than one algorithm. Pass one of ES256,');
  });

  it('signs without --kid under the key thumbprint (RFC 7638)', async () => {
    const dir = tmp();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const run = await cli(['sign', join(cards, 'coding.json'), '--key', 'key.pem', '--alg', 'ES256'], { cwd: dir });
    expect(run.code).toBe(0);
    const kid = JSON.parse(Buffer.from(JSON.parse(run.stdout).signatures[0].protected, 'base64url').toString()).kid;
    expect(kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('agent-card check', () => {
  const servers = loopbackServers();
  const listen = servers.listen;
  let good = '';
  let html = '';

  beforeAll(async () => {
    const card = JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8'));
    good = await hostCard(servers, card);
    html = await listen(
      createServer((_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><head><title>Sign in</title></head><body></body></html>');
      }),
    );
  });

  afterAll(() => servers.close());

  it('reports a well-served card and exits 0', async () => {
    const run = await cliBinary(['check', good, '--allow-http', '--profile', 'development']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('/.well-known/agent-card.json  200  application/a2a+json');
    expect(run.stdout).toContain('If-None-Match → 304');
    expect(run.stdout).toContain('Both paths: same document');
    expect(run.stdout).toContain('✔ ok');
    expect(run.stdout).not.toMatch(ANSI);
  });

  it('says once that the card text is untrusted input for a model', async () => {
    const run = await cli(['check', good, '--allow-http', '--profile', 'development']);
    expect(run.stdout.split(UNTRUSTED_NOTE).length - 1).toBe(1);
    expect(run.stdout).toContain('checked over plain http (allowed by --allow-http).');
  });

  it('reports a refused connection once, not also as an unread catalog, and names --allow-http for a local service', async () => {
    // The user's mistake: the local service is down (or on another port), and the target has no scheme.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const run = await cli(['check', `127.0.0.1:${closed}`, '--timeout', '5000']);
    expect(run.code).toBe(1);
    expect(run.stdout.match(/connection refused/g)).toHaveLength(1);
    expect(run.stdout).not.toContain('discovery-catalog');
    expect(run.stdout).not.toContain('AI Catalog');
    expect(run.stdout).toContain(
      `If it is a local service without TLS: agent-card check --allow-http http://127.0.0.1:${closed}\n`,
    );
    expect(run.stdout).toContain('✖ failed: 1 error, 0 warnings');
    expect(run.stdout).not.toContain(UNTRUSTED_NOTE);
  });

  it('prints the report as JSON with --json', async () => {
    const run = await cli(['check', good, '--allow-http', '--profile', 'development', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      ok: true,
      primary: { status: 200 },
      legacy: { status: 200 },
      pathsConsistent: true,
    });
  });

  it('asks for --kid with a PEM key, as verify does, instead of guessing one', async () => {
    const dir = tmp();
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const run = await cli(['check', good, '--allow-http', '--profile', 'development', '--key', 'key.pub.pem'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--kid: missing.');
  });

  it('says that an http:// target was checked over https, and that --allow-http checks it as it is', async () => {
    // A local service without TLS: the https handshake with its plain-http port fails.
    const run = await cli(['check', good, '--profile', 'development', '--timeout', '5000']);
    expect(run.code).toBe(1);
    const https = good.replace('http:', 'https:');
    expect(run.stdout).toContain(`Checking ${https} (profile development)`);
    expect(run.stdout).toContain(
      `${https}/.well-known/agent-card.json: the target was ${good} (http); it was checked at ${https} instead, as clients will.`,
    );
    expect(run.stdout).toContain(`the target was ${good} (http), checked here over https.`);
    expect(run.stdout).toContain(
      '→ To check the http:// service as it is (local development), pass allowHttp: true (agent-card check --allow-http).',
    );
    expect(run.stdout).not.toContain('Install a certificate');
    const asIs = await cli(['check', good, '--allow-http', '--profile', 'development']);
    expect(asIs.code).toBe(0);
    expect(asIs.stdout).not.toContain('the target was');
  });

  it('fails (exit 1) on an HTML page served with status 200', async () => {
    const run = await cli(['check', html, '--allow-http', '--profile', 'development']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('discovery-html-body');
    expect(run.stdout).toContain('Sign in');
    expect(run.stdout).toContain('✖ failed');
  });
});

/** The rows of the CLI README's exit-status table: status → meaning. */
function exitStatusTable(): Map<number, string> {
  const readme = readFileSync(join(root, 'packages/cli/README.md'), 'utf8');
  const table = /^\| exit status \| meaning \|\n\| --- \| --- \|\n((?:\|.*\|\n)+)/m.exec(readme);
  if (!table) throw new Error('packages/cli/README.md: no exit-status table');
  return new Map(
    table[1]!
      .trim()
      .split('\n')
      .map((row) => /^\| (\d+) \| (.+) \|$/.exec(row)!)
      .map((m) => [Number(m[1]), m[2]!]),
  );
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the exit-status table of the README', () => {
  const dir = tmp();
  const own = {
    name: 'Acme Meter Reader',
    description: 'Reads the smart water meters of Acme Utilities customers and reports their consumption.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: 'https://meters.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    provider: { organization: 'Acme Utilities', url: 'https://acme-corp.io' },
    documentationUrl: 'https://acme-corp.io/docs/meters',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'read-meter',
        name: 'Read a meter',
        description: 'Reads a meter and reports the daily use.',
        tags: ['meters'],
        examples: ['How much water did I use?'],
      },
    ],
  };
  writeFileSync(join(dir, 'own.json'), JSON.stringify(own));
  writeFileSync(join(dir, 'changed.json'), JSON.stringify({ ...own, description: `${own.description} Daily.` }));
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(dir, 'key.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'key.pub.pem'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
  const signed = async () => {
    const sign = await cli(
      ['sign', 'own.json', '--key', 'key.pem', '--kid', 'k1', '--alg', 'ES256', '-o', 'signed.json', '--force'],
      {
        cwd: dir,
      },
    );
    expect(sign.code, sign.stderr).toBe(0);
    return ['verify', 'signed.json', '--key', 'key.pub.pem', '--kid', 'k1'];
  };

  /** Each scenario names the words of the table row it belongs to; the row gives the status. */
  const scenarios: [words: string, args: () => Promise<string[]>][] = [
    ['a valid card or catalog (`validate`)', async () => ['validate', 'own.json']],
    ['cards equal or version bumped (`diff`)', async () => ['diff', 'own.json', 'own.json']],
    ['a file written (`init`)', async () => ['init', '-o', `new-${Date.now()}.json`]],
    ['an invalid card (`validate`)', async () => ['validate', join(cards, 'broken/skill-tags-required.json')]],
    ['an untouched template is an invalid card (`validate`)', async () => ['validate', join(cards, 'support.json')]],
    [
      'an unreachable host included (`check` reports a refused connection',
      async () => ['check', `http://127.0.0.1:${await closedPort()}`, '--allow-http', '--timeout', '5000'],
    ],
    ['content changed without a version bump (`diff`)', async () => ['diff', 'own.json', 'changed.json']],
    ['a signature verified (`verify`)', signed],
    ['no signature verified (`verify`)', async () => ['verify', 'own.json', '--key', 'key.pub.pem', '--kid', 'k1']],
    ['usage error (unknown command', async () => ['frobnicate']],
    ['usage error (unknown command or option', async () => ['validate', 'own.json', '--frobnicate']],
    ['bad option value', async () => ['init', '--binding', 'REST']],
    ['unreadable file', async () => ['validate', 'missing.json']],
    [
      'a URL given as input that cannot be fetched (`diff`',
      async () => ['diff', 'own.json', `http://127.0.0.1:${await closedPort()}/card.json`, '--allow-http'],
    ],
  ];

  const table = exitStatusTable();
  const rowOf = (words: string) => {
    // "an untouched template is an invalid card" is the row of "an invalid card".
    const key = words.replace('an untouched template is ', '');
    const rows = [...table].filter(([, meaning]) => meaning.includes(key));
    expect(rows, `exactly one row of the table says "${key}"`).toHaveLength(1);
    return rows[0]![0];
  };

  it('has the rows 0, 1 and 2, each with a scenario', () => {
    expect([...table.keys()]).toEqual([0, 1, 2]);
    const covered = new Set(scenarios.map(([words]) => rowOf(words)));
    expect([...covered].sort()).toEqual([0, 1, 2]);
  });

  it.each(scenarios)('%s: exits with the status of its row', async (words, args) => {
    const run = await cli(await args(), { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(rowOf(words));
  });
});
