import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type ProbeAgentCardOptions, type ProbeReport, probeAgentCard } from '@agent-card/discovery';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_CARD, type LocalServer, listen } from './discovery-servers';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(handler: RequestListener): Promise<LocalServer> {
  const server = await listen(handler);
  servers.push(server);
  return server;
}

const TOKEN = 'Bearer let-me-in';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** What a well-behaved agent does, with `flaws` switched on one at a time. */
interface Flaws {
  /** The JSON-RPC endpoint handles calls without credentials. */
  openJsonRpc?: boolean;
  /** The JSON-RPC URL serves the marketing site. */
  htmlAtJsonRpc?: boolean;
  /** The REST endpoint answers 404 text, not A2A's error. */
  plainRest404?: boolean;
  /** Behind the 401, the JSON-RPC URL serves a web page to signed-in callers. */
  pageBehindAuth?: boolean;
  /** The extended card is served to anyone. */
  extendedToAnyone?: boolean;
  /** The extended card is refused even with credentials. */
  extendedToNobody?: boolean;
}

function agent(flaws: Flaws = {}): RequestListener {
  return async (req, res) => {
    const authorized = req.headers.authorization === TOKEN;
    const challenge = { 'www-authenticate': 'Bearer realm="agent"' };
    if (req.url === '/a2a/jsonrpc' && req.method === 'POST') {
      const call = JSON.parse((await readBody(req)) || '{}');
      if (flaws.htmlAtJsonRpc) return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>');
      if (!authorized && !flaws.openJsonRpc) return json(res, 401, { error: 'unauthenticated' }, challenge);
      if (flaws.pageBehindAuth)
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Dashboard</html>');
      return json(res, 200, { jsonrpc: '2.0', id: call.id, error: { code: -32001, message: 'Task not found' } });
    }
    if (req.url?.startsWith('/a2a/rest/extendedAgentCard')) {
      if ((authorized && !flaws.extendedToNobody) || flaws.extendedToAnyone) {
        return json(res, 200, { ...GOOD_CARD, name: 'Acme (extended)' });
      }
      return json(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Sign in' } }, challenge);
    }
    if (req.url?.startsWith('/a2a/rest/tasks/')) {
      if (flaws.plainRest404) return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      if (!authorized)
        return json(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Sign in' } }, challenge);
      return json(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'Task not found' } });
    }
    res.writeHead(404).end();
  };
}

/** The card of an agent served at `origin`: JSON-RPC, HTTP+JSON and gRPC, bearer auth, an extended card. */
const cardAt = (origin: string, extra: Record<string, unknown> = {}) => ({
  ...GOOD_CARD,
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: 'grpc.acme.io:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, extendedAgentCard: true },
  ...extra,
});

async function probe(flaws: Flaws, options: Partial<ProbeAgentCardOptions> = {}) {
  const server = await start(agent(flaws));
  const report = await probeAgentCard(cardAt(server.origin), {
    origin: server.origin,
    allowHttp: true,
    timeoutMs: 2_000,
    headers: { authorization: TOKEN },
    ...options,
  });
  return { server, report };
}

const ids = (report: ProbeReport) => report.findings.map((f) => `${f.rule}:${f.severity}`);

describe('probeAgentCard: does the card tell the truth?', () => {
  it('an agent that does what its card says: each binding answers, security is enforced, the extended card is for callers with credentials', async () => {
    const { report } = await probe({});
    expect(ids(report).filter((id) => id.endsWith(':error') || id.endsWith(':warning'))).toEqual([]);
    expect(report.interfaces.map((i) => `${i.binding} ${i.outcome}`)).toEqual([
      'JSONRPC refused',
      'HTTP+JSON refused',
      'GRPC not-probed',
    ]);
    expect(report.extended).toMatchObject({ withoutCredentials: 401, withCredentials: 200 });
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: 'probe-not-probed',
        message: 'GRPC interface "grpc.acme.io:443": gRPC is not probed.',
      }),
    );
  });

  it('a card whose JSON-RPC URL is the marketing site: probe-interface-binding', async () => {
    const { server, report } = await probe({ htmlAtJsonRpc: true });
    const found = report.findings.find((f) => f.rule === 'probe-interface-binding');
    expect(found).toMatchObject({
      severity: 'error',
      url: `${server.origin}/a2a/jsonrpc`,
      message: `JSONRPC interface "${server.origin}/a2a/jsonrpc": GetTask of a task that does not exist got HTTP 200, not a JSON-RPC error.`,
      hint: 'Point the interface at the A2A endpoint itself (not a page or a proxy), with the binding it speaks.',
    });
  });

  it('a 401 in front of a web page is not a JSON-RPC endpoint: the credentials given show it', async () => {
    const { server, report } = await probe({ pageBehindAuth: true });
    expect(report.interfaces[0]).toMatchObject({
      outcome: 'refused',
      detail: expect.stringContaining('HTTP 401 without credentials; HTTP 200 with them'),
    });
    expect(report.findings.find((f) => f.rule === 'probe-interface-binding')?.message).toBe(
      `JSONRPC interface "${server.origin}/a2a/jsonrpc": GetTask of a task that does not exist with the credentials given got HTTP 200, not a JSON-RPC error.`,
    );
  });

  it('a card that requires a bearer token while the endpoint serves anyone: probe-security-enforced', async () => {
    const { report } = await probe({ openJsonRpc: true });
    const found = report.findings.find((f) => f.rule === 'probe-security-enforced');
    expect(found?.severity).toBe('error');
    expect(found?.message).toContain(
      'answered a caller without credentials (HTTP 200, error "-32001" "Task not found")',
    );
  });

  it('an HTTP+JSON endpoint that answers plain-text 404s: probe-interface-binding', async () => {
    const { report } = await probe({ plainRest404: true });
    expect(ids(report)).toContain('probe-interface-binding:error');
    expect(report.interfaces[1]).toMatchObject({ outcome: 'wrong', status: 404 });
  });

  it('an extended card served to anyone: probe-extended-card', async () => {
    const { report } = await probe({ extendedToAnyone: true });
    expect(report.findings.find((f) => f.rule === 'probe-extended-card')?.message).toMatch(
      /served the extended card to a caller without credentials\.$/,
    );
  });

  it('an extended card refused even with the credentials given: probe-extended-card', async () => {
    const { report } = await probe({ extendedToNobody: true });
    expect(report.findings.find((f) => f.rule === 'probe-extended-card' && f.severity === 'error')?.message).toMatch(
      /did not serve the extended card with the credentials given \(HTTP 401\)\.$/,
    );
  });

  it('a card that points its interfaces at another origin gets no request there, and never the credentials', async () => {
    const harvester = await start(agent({ openJsonRpc: true, extendedToAnyone: true }));
    const host = await start(agent({}));
    const card = cardAt(harvester.origin);
    const options = { origin: host.origin, allowHttp: true, timeoutMs: 2_000, headers: { authorization: TOKEN } };
    const refused = await probeAgentCard(card, options);
    expect(harvester.requests).toEqual([]);
    expect(refused.interfaces.slice(0, 2).map((i) => i.outcome)).toEqual(['not-probed', 'not-probed']);
    expect(refused.findings[0]?.message).toContain(
      `not probed, another origin than the checked host (${harvester.origin}); allow it with --probe-origin ${harvester.origin}.`,
    );
    // Allowed: called, but without the credentials meant for the checked host.
    const allowed = await probeAgentCard(card, { ...options, allowOrigins: [harvester.origin] });
    expect(harvester.requests.length).toBeGreaterThan(0);
    expect(harvester.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(ids(allowed)).toContain('probe-security-enforced:error');
  });

  it('an endpoint that never answers: every probe ends within the one time budget', async () => {
    const stall = await start(() => undefined);
    const started = performance.now();
    const report = await probeAgentCard(cardAt(stall.origin), {
      origin: stall.origin,
      allowHttp: true,
      timeoutMs: 500,
    });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(report.interfaces.slice(0, 2).map((i) => i.outcome)).toEqual(['unreachable', 'unreachable']);
  });
});
