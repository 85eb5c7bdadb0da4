import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_CARD, type LocalServer, listen, serveJson } from '../../../test/discovery-servers';
import { cli } from '../test/run-cli';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A host that serves a card requiring a bearer token, and an A2A endpoint that lets anyone in. */
async function lyingHost(): Promise<LocalServer> {
  let origin = '';
  const server = await listen((req, res) => {
    if (req.url === '/.well-known/agent-card.json') {
      const card = {
        ...GOOD_CARD,
        supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      };
      return serveJson(res, req, JSON.stringify(card));
    }
    if (req.url === '/a2a' && req.method === 'POST') {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":"agent-card-probe","error":{"code":-32001,"message":"Task not found"}}');
    }
    res.writeHead(404).end();
  });
  origin = server.origin;
  servers.push(server);
  return server;
}

describe('agent-card check --probe', () => {
  it('without --probe the agent is never called; with it, an endpoint that ignores the declared security fails the check', async () => {
    const host = await lyingHost();
    const args = ['check', host.origin, '--allow-http', '--profile', 'development', '--follow-catalog', 'off'];
    const plain = await cli([...args, '--format', 'json']);
    expect(host.requests.some((r) => r.url === '/a2a')).toBe(false);
    expect(JSON.parse(plain.stdout).probe).toBeUndefined();

    const probed = await cli([...args, '--probe']);
    expect(probed.code).toBe(1);
    expect(host.requests.filter((r) => r.url === '/a2a').map((r) => r.method)).toEqual(['POST']);
    expect(probed.stdout).toContain('probe-security-enforced');
    expect(probed.stdout).toContain(
      `JSONRPC interface "${host.origin}/a2a": answered a caller without credentials (HTTP 200, error "-32001" "Task not found"), though the card requires credentials.`,
    );
    expect(probed.stdout).toMatch(/Probe \(--probe\):\n {2}answers {2}JSONRPC {2}http:\/\/127\.0\.0\.1:\d+\/a2a/);
  });

  it.each([
    [
      ['--probe-header', 'Authorization: Bearer x'],
      '--probe-header and --probe-origin: only with --probe. Add --probe.',
    ],
    [
      ['--probe', '--probe-header', 'no colon'],
      '--probe-header "no colon": expected "Name: value", e.g. "Authorization: Bearer …".',
    ],
    [
      ['--probe', '--probe-origin', 'https://api.acme.io/a2a'],
      '--probe-origin "https://api.acme.io/a2a": expected an origin, e.g. https://api.acme.io.',
    ],
  ])('%j is a usage error before any request', async (extra, message) => {
    const host = await lyingHost();
    const run = await cli(['check', host.origin, '--allow-http', ...extra]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`agent-card: ${message}\n`);
    expect(host.requests).toEqual([]);
  });
});
