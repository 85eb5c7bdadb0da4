// discoverAgentCard against hosts that send what no card needs: nesting thousands of levels
// deep, and bodies trickled so that every request uses most of its time (issue 11, items 1, 2).
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverAgentCard } from './discover';
import { parseBody } from './body';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function serve(handler: (method: string, url: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => handler(req.method ?? 'GET', req.url ?? '/', res));
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const CARD = {
  name: 'Deep Agent',
  description: 'Serves a card for the nesting tests.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['test'] }],
};
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('nesting', () => {
  it.each([
    ['a 10 KB body nesting 5,000 arrays', deep(5000), 64],
    ['a card whose name nests 5,000 levels', JSON.stringify(CARD).replace('"Deep Agent"', deep(5000)), 71],
    [
      'a card whose extension params nest 65 objects',
      JSON.stringify({ ...CARD, x: JSON.parse(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`) }),
      0,
    ],
  ])('%s is card-json-parse, and the report serialises', async (_name, body, offset) => {
    const origin = await serve((_m, _u, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const report = await discoverAgentCard(origin, { allowHttp: true, profile: 'development', timeoutMs: 5_000 });
    expect(() => JSON.stringify(report)).not.toThrow();
    expect(report.ok).toBe(false);
    expect(report.document).toBeUndefined();
    const finding = report.findings.find((f) => f.rule === 'card-json-parse');
    expect(finding).toMatchObject({ severity: 'error', url: `${origin}/.well-known/agent-card.json` });
    expect(finding?.message).toMatch(/: body nests deeper than 64 levels \(character \d+ opens level 65\)\.$/);
    if (offset > 0) expect(finding?.message).toContain(`(character ${offset} opens level 65)`);
  });

  it('64 levels are read and validated as usual', async () => {
    const params = JSON.parse(`${'{"a":'.repeat(60)}1${'}'.repeat(60)}`);
    // card, capabilities, extensions, the extension, then 60 levels of params: 64 in all.
    const body = JSON.stringify({ ...CARD, capabilities: { extensions: [{ uri: 'urn:x', params }] } });
    expect(parseBody(new TextEncoder().encode(body)).kind).toBe('json');
    const origin = await serve((_m, _u, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const report = await discoverAgentCard(origin, { allowHttp: true, profile: 'development', timeoutMs: 5_000 });
    expect(report.findings.filter((f) => f.rule === 'card-json-parse')).toEqual([]);
    expect(report.card?.name).toBe('Deep Agent');
  });

  it('counts brackets inside strings as text, and gives up on one pass', () => {
    expect(parseBody(new TextEncoder().encode(`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`)).kind).toBe('json');
    expect(parseBody(new TextEncoder().encode(deep(100_000)))).toEqual({ kind: 'too-deep', limit: 64, offset: 64 });
    const started = performance.now();
    parseBody(new TextEncoder().encode(deep(500_000)));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('the run deadline', () => {
  it('ends within 2 x timeoutMs when every GET and its conditional replay take most of the timeout', async () => {
    const body = Buffer.from(JSON.stringify({ ...CARD, description: 'x'.repeat(600_000) }));
    const origin = await serve((method, _url, res) => {
      if (method !== 'GET') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: '"slow"', 'content-length': body.byteLength });
      // 1.6 s of the 2 s timeout per GET: the GET and then its replay would need 3.2 s + validation.
      let i = 0;
      const timer = setInterval(
        () => {
          if (res.destroyed) return clearInterval(timer);
          res.write(body.subarray(i * 40_000, (i + 1) * 40_000));
          if (++i * 40_000 >= body.byteLength) {
            clearInterval(timer);
            res.end();
          }
        },
        1_600 / Math.ceil(body.byteLength / 40_000),
      );
    });
    const started = performance.now();
    // A 600 KB card: the card size limit raised, so that the body is read to its end.
    const report = await discoverAgentCard(origin, {
      allowHttp: true,
      profile: 'development',
      timeoutMs: 2_000,
      maxCardBytes: 1_048_576,
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(4_000);
    expect(report.primary.status).toBe(200);
    expect(report.card?.name).toBe('Deep Agent');
    expect(report.primary.conditional?.failure?.kind).toBe('timeout');
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: 'discovery-conditional-get', url: `${origin}/.well-known/agent-card.json` }),
    );
  }, 15_000);
});
