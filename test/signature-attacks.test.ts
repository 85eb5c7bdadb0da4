// Forged cards, built as an attacker without the private key would build them: take a card that
// signAgentCard signed, change what a reader will use, keep the signatures. verifyAgentCard,
// `agent-card verify` and `agent-card check --key/--jwks` must all refuse every one, and say why.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentCard, signAgentCard, verifyAgentCard } from '@agent-card/core';
import { discoverAgentCard } from '@agent-card/discovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../packages/cli/dist/cli.mjs', import.meta.url));

const card: AgentCard = {
  name: 'Payments Agent',
  description: 'Moves money between accounts.',
  supportedInterfaces: [{ url: 'https://pay.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.2.0',
  capabilities: { streaming: true },
  securitySchemes: {
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.acme-corp.io/authorize',
            tokenUrl: 'https://auth.acme-corp.io/token',
            scopes: { pay: 'Make payments' },
          },
        },
      },
    },
  },
  securityRequirements: [{ schemes: { oauth: { list: ['pay'] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'pay', name: 'Pay', description: 'Pays an invoice.', tags: ['payments'] }],
};

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const kid = 'pay-key-1';
const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };

type Json = Record<string, unknown>;
const evilInterface = { url: 'https://evil.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };

/** Each forgery: a name, and what it does to the signed card. */
const FORGERIES: [string, (signed: Json) => Json, RegExp][] = [
  [
    'supportedInterfaces moved to supported_interfaces, an array-like object in its place',
    ({ supportedInterfaces, ...rest }) => ({
      ...rest,
      supported_interfaces: supportedInterfaces,
      supportedInterfaces: { 0: evilInterface, length: 1 },
    }),
    /names a field twice.*\/supportedInterfaces and \/supported_interfaces/,
  ],
  [
    'a v0.3 top-level url and preferredTransport',
    (signed) => ({ ...signed, url: 'https://evil.example/a2a', preferredTransport: 'JSONRPC' }),
    /does not cover \/preferredTransport, \/url/,
  ],
  [
    'v0.3 type and flows members on a security scheme',
    (signed) => {
      const forged = structuredClone(signed) as Json & { securitySchemes: Record<string, Json> };
      forged.securitySchemes.oauth = {
        ...forged.securitySchemes.oauth,
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: 'https://evil.example/token', scopes: {} } },
      };
      return forged;
    },
    /does not cover \/securitySchemes\/oauth\/flows, \/securitySchemes\/oauth\/type/,
  ],
  [
    'a second oneof member: clientCredentials with an attacker tokenUrl next to the signed authorizationCode',
    (signed) => {
      const forged = structuredClone(signed) as any;
      forged.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials = {
        tokenUrl: 'https://evil.example/token',
        scopes: { pay: 'Make payments' },
      };
      return forged;
    },
    /does not cover \/securitySchemes\/oauth\/oauth2SecurityScheme\/flows\/clientCredentials/,
  ],
  [
    'default_input_modes next to the signed defaultInputModes',
    (signed) => ({ ...signed, default_input_modes: ['image/png'] }),
    /names a field twice.*\/defaultInputModes and \/default_input_modes/,
  ],
  [
    'a snake_case twin inside a skill',
    (signed) => {
      const forged = structuredClone(signed) as any;
      forged.skills[0].input_modes = ['application/x-evil'];
      forged.skills[0].inputModes = ['text/plain'];
      return forged;
    },
    /names a field twice.*\/skills\/0\/inputModes and \/skills\/0\/input_modes/,
  ],
  [
    'a vendor member that a client might read',
    (signed) => ({ ...signed, 'x-endpoint': 'https://evil.example/a2a' }),
    /does not cover \/x-endpoint/,
  ],
  [
    'the interface URL replaced',
    (signed) => ({ ...signed, supportedInterfaces: [evilInterface] }),
    /does not match the card/,
  ],
];

let signed: Json;
beforeAll(async () => {
  signed = (await signAgentCard(card, { privateKey, kid, alg: 'ES256' })) as unknown as Json;
});

describe('verifyAgentCard refuses forged cards', () => {
  it('accepts the card as signed (the control)', async () => {
    expect((await verifyAgentCard(signed as unknown as AgentCard, { jwks: { keys: [jwk] } })).valid).toBe(true);
  });

  it.each(FORGERIES)('%s', async (_, forge, reason) => {
    const result = await verifyAgentCard(forge(signed) as unknown as AgentCard, { jwks: { keys: [jwk] } });
    expect(result.valid).toBe(false);
    for (const check of result.signatures) expect(check.reason).toMatch(reason);
  });
});

/** Runs the built CLI in a child process. */
function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('the CLI and the discovery client refuse forged cards', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-forged-'));
  const servers: Server[] = [];
  const origins: string[] = [];
  let control = '';

  /** One server per card: discovery reads the well-known paths at the origin's root. */
  const serve = async (body: string): Promise<string> => {
    const server = createServer((req, res) => {
      if (!req.url?.startsWith('/.well-known/agent')) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/a2a+json' }).end(body);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [jwk] }));
    writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(dir, 'signed.json'), JSON.stringify(signed));
    control = await serve(JSON.stringify(signed));
    for (const [i, [, forge]] of FORGERIES.entries()) {
      const text = JSON.stringify(forge(signed));
      writeFileSync(join(dir, `forged-${i}.json`), text);
      origins.push(await serve(text));
    }
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('agent-card verify accepts the card as signed', async () => {
    const run = await cli(['verify', 'signed.json', '--jwks', 'jwks.json'], dir);
    expect(run.stdout).toContain('Valid: at least one signature verified.');
    expect(run.code).toBe(0);
  });

  it.each(FORGERIES.map(([name, , reason], i) => [name, i, reason] as const))(
    'agent-card verify: %s → Invalid, exit 1, with the reason',
    async (_, i, reason) => {
      const run = await cli(['verify', `forged-${i}.json`, '--key', 'key.pub.pem', '--kid', kid], dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('Invalid: no signature verified.');
      expect(run.stdout).not.toContain('Valid: at least');
      expect(run.stdout).toMatch(reason);
    },
  );

  it.each(FORGERIES.map(([name, , reason], i) => [name, i, reason] as const))(
    'discoverAgentCard and agent-card check --jwks: %s → signature failed',
    async (_, i, reason) => {
      const report = await discoverAgentCard(origins[i] as string, {
        allowHttp: true,
        profile: 'development',
        jwks: { keys: [jwk] },
      });
      expect(report.primary.signature?.status).toBe('failed');
      expect(report.primary.signature?.details.join('\n')).toMatch(reason);

      const run = await cli(
        ['check', origins[i] as string, '--allow-http', '--profile', 'development', '--jwks', 'jwks.json'],
        dir,
      );
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('signature: verified');
      expect(run.stdout).toMatch(/no signature verified/);
    },
  );

  /**
   * The signed card's text with an attacker URL inserted before the signed one, in the same
   * object: JSON.parse keeps the last value, so the signature still verifies over what it reads,
   * while a client whose parser keeps the first value calls the attacker.
   */
  const twice = (): string => {
    const text = JSON.stringify(signed);
    const at = text.indexOf('"url":"https://pay.acme-corp.io/a2a"');
    expect(at).toBeGreaterThan(0);
    return `${text.slice(0, at)}"url":"https://evil.example/a2a",${text.slice(at)}`;
  };

  it('discoverAgentCard does not verify a body that names a member twice, and reports it', async () => {
    const origin = await serve(twice());
    const report = await discoverAgentCard(origin, { allowHttp: true, profile: 'development', jwks: { keys: [jwk] } });
    expect(report.primary.signature?.status).toBe('failed');
    expect(report.primary.signature?.details).toEqual([
      'not verified: the body names /supportedInterfaces/0/url twice, so it is not one card a signature could cover',
    ]);
    expect(report.primary.findings).toContainEqual(
      expect.objectContaining({
        rule: 'card-json-duplicate-member',
        severity: 'error',
        path: '/supportedInterfaces/0/url',
      }),
    );

    const run = await cli(['check', origin, '--allow-http', '--profile', 'development', '--jwks', 'jwks.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('signature: verified');
    expect(run.stdout).toContain('signature: failed');
    expect(run.stdout).toContain('card-json-duplicate-member');
  });

  it('agent-card verify refuses a file that names a member twice', async () => {
    writeFileSync(join(dir, 'twice.json'), twice());
    const run = await cli(['verify', 'twice.json', '--jwks', 'jwks.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('supportedInterfaces[0].url: named twice in one object');
    expect(run.stdout).not.toContain('Valid: at least');
  });

  /**
   * A card whose only requirement is an API key without scopes (all default values, so the
   * pruned form leaves it out), signed, then served without the requirement: the pruned-form
   * signature matches the stripped card as served byte for byte.
   */
  const withoutRequirement = async (): Promise<string> => {
    const guarded = { ...card, securityRequirements: [{ schemes: { oauth: { list: [] } } }] };
    const twoForms = await signAgentCard(guarded, { privateKey, kid, alg: 'ES256' });
    expect(twoForms.signatures).toHaveLength(2);
    const { securityRequirements: _, ...stripped } = twoForms;
    return JSON.stringify(stripped);
  };

  it('agent-card verify --form served-as-is refuses a pruned-form signature on a card stripped of a requirement', async () => {
    writeFileSync(join(dir, 'stripped.json'), await withoutRequirement());
    const strict = await cli(['verify', 'stripped.json', '--jwks', 'jwks.json', '--form', 'served-as-is'], dir);
    expect(strict.stdout).toContain(
      'the signature covers the pruned form, which this verification does not accept (forms: served-as-is)',
    );
    expect(strict.stdout).toContain('Invalid: no signature verified.');
    expect(strict.code).toBe(1);
    // Both forms accepted: it verifies, and says that only the pruned form did.
    const lenient = await cli(['verify', 'stripped.json', '--jwks', 'jwks.json'], dir);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain(
      'only the pruned form verified: no signature covers the members at their default value, so one could have been added or removed since signing',
    );
  });

  it('agent-card check --form served-as-is refuses the same card served by a host', async () => {
    const origin = await serve(await withoutRequirement());
    const args = ['check', origin, '--allow-http', '--profile', 'development', '--jwks', 'jwks.json'];
    const strict = await cli([...args, '--form', 'served-as-is'], dir);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('signature: failed');
    expect(strict.stdout).toContain('the signature covers the pruned form, which this verification does not accept');
    const lenient = await cli(args, dir);
    expect(lenient.stdout).toContain('signature: verified');
    expect(lenient.stdout).toContain('only the pruned form verified');
  });

  it('agent-card verify names the default-valued members a pruned-form signature leaves uncovered', async () => {
    const guarded = { ...card, securityRequirements: [{ schemes: { oauth: { list: [] } } }] };
    writeFileSync(
      join(dir, 'guarded.json'),
      JSON.stringify(await signAgentCard(guarded, { privateKey, kid, alg: 'ES256' })),
    );
    const run = await cli(['verify', 'guarded.json', '--jwks', 'jwks.json', '--form', 'pruned'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'over the pruned form, which does not cover /securityRequirements (members at their default value)',
    );
    expect(run.stdout).toContain(
      'only the pruned form verified: no signature covers the members at their default value (/securityRequirements)',
    );
  });

  /**
   * The card signed with a limit of 2^53 in an extension's params, then the literal changed to
   * 2^53 + 1: JSON.parse reads the same double, so the signature still matches, while a reader
   * that keeps exact numbers (Python int, Go json.Number) reads 9007199254740993.
   */
  const biggerLimit = async (): Promise<string> => {
    const limited = {
      ...card,
      capabilities: {
        ...card.capabilities,
        extensions: [{ uri: 'https://acme-corp.io/ext/limits', params: { maxAmount: 9007199254740992 } }],
      },
    };
    const text = JSON.stringify(await signAgentCard(limited, { privateKey, kid, alg: 'ES256' }));
    expect(text).toContain('"maxAmount":9007199254740992');
    return text.replace('"maxAmount":9007199254740992', '"maxAmount":9007199254740993');
  };

  it('agent-card verify refuses a card whose number a double does not hold exactly', async () => {
    writeFileSync(join(dir, 'bigger.json'), await biggerLimit());
    const run = await cli(['verify', 'bigger.json', '--jwks', 'jwks.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      'capabilities.extensions[0].params.maxAmount: the number 9007199254740993 is not exactly a double (it reads as 9007199254740992).',
    );
    expect(run.stdout).not.toContain('Valid: at least');
  });

  it('discoverAgentCard and agent-card check do not verify such a body, and report the number', async () => {
    const origin = await serve(await biggerLimit());
    const report = await discoverAgentCard(origin, { allowHttp: true, profile: 'development', jwks: { keys: [jwk] } });
    expect(report.primary.signature?.status).toBe('failed');
    expect(report.primary.signature?.details).toEqual([
      'not verified: the body holds numbers a double does not hold exactly (/capabilities/extensions/0/params/maxAmount: 9007199254740993), so readers that keep exact numbers read values no signature covers',
    ]);
    expect(report.primary.findings).toContainEqual(
      expect.objectContaining({
        rule: 'card-json-inexact-number',
        severity: 'error',
        path: '/capabilities/extensions/0/params/maxAmount',
      }),
    );
    const run = await cli(['check', origin, '--allow-http', '--profile', 'development', '--jwks', 'jwks.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('signature: failed');
    expect(run.stdout).toContain('card-json-inexact-number');
  });

  it('agent-card check --jwks reports the signed control as verified', async () => {
    const run = await cli(['check', control, '--allow-http', '--profile', 'development', '--jwks', 'jwks.json'], dir);
    expect(run.stdout).toMatch(/signature verified/);
  });
});
