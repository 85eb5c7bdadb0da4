// A hostile AI Catalog against the checker: with followCatalog 'any', a catalog on the checked
// host lists cards and catalogs on other origins that are this machine or its network (loopback
// literals, the cloud metadata address, IPv6 loopback, names that resolve to 127.0.0.1, a name
// that answers a public address to the check and 127.0.0.1 to the connection). Servers listen
// where each entry points and count every TCP connection: they must get none, and each entry must
// say why. A DNS server over UDP answers the names (`dns.setServers`), as in core's rebinding test.
import { createHash } from 'node:crypto';
import { type Socket, createSocket } from 'node:dgram';
import dns from 'node:dns';
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http';
import { type AddressInfo, type Server, createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgentCard } from './discover';
import type { DiscoveryFetch, DiscoveryReport } from './types';

/** An address ipaddr.js calls unicast, that nothing in these tests connects to. */
const PUBLIC = '93.184.215.14';

/** The A records the DNS server answers for the nth A query (from 0) of a name. */
const answers: Record<string, (nth: number) => string[]> = {
  'inside.test': () => ['127.0.0.1'],
  // Public to the first query of the name, this machine to every later one.
  'rebind.test': (nth) => (nth === 0 ? [PUBLIC] : ['127.0.0.1']),
};
const asked = new Map<string, number>();

/** The question section's end: labels up to the root, then QTYPE and QCLASS. */
function questionEnd(query: Buffer): number {
  let at = 12;
  while (at < query.length && query[at] !== 0) at += (query[at] ?? 0) + 1;
  return at + 5;
}

function answer(query: Buffer): Buffer {
  const end = questionEnd(query);
  const labels: string[] = [];
  for (let at = 12; query[at] !== 0; at += (query[at] ?? 0) + 1)
    labels.push(query.subarray(at + 1, at + 1 + (query[at] ?? 0)).toString('latin1'));
  const name = labels.join('.').toLowerCase();
  let records: string[] = [];
  if (query.readUInt16BE(end - 4) === 1) {
    const nth = asked.get(name) ?? 0;
    asked.set(name, nth + 1);
    records = answers[name]?.(nth) ?? [];
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8580, 2); // a response, authoritative, recursion desired and available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const rrs = records.map((address) => {
    const rr = Buffer.alloc(16);
    rr.writeUInt16BE(0xc00c, 0); // the name of the question
    rr.writeUInt16BE(1, 2); // A
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL 0
    rr.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet), 12 + i));
    return rr;
  });
  return Buffer.concat([header, query.subarray(12, end), ...rrs]);
}

/** A TCP server on `address` that counts connections and answers none. */
interface Counter {
  server: Server;
  port: number;
  connections: number;
}

async function counter(address: string): Promise<Counter> {
  const c: Counter = { server: createServer(), port: 0, connections: 0 };
  c.server.on('connection', (socket) => {
    c.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => c.server.listen(0, address, resolve));
  c.port = (c.server.address() as AddressInfo).port;
  return c;
}

let udp: Socket;
let servers: string[] = [];
let loopback2: Counter;
let loopback6: Counter;
let loopback: Counter;
const web = createHttpServer();
let origin = '';
const seen: string[] = [];

const CATALOG = '/.well-known/ai-catalog.json';
const CARD = '/.well-known/agent-card.json';
const BILLING = '/agents/billing/.well-known/agent-card.json';

function card(name: string) {
  return {
    name,
    description: `${name}, for the private-address tests.`,
    version: '1.0.0',
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['test'] }],
  };
}

const entry = (id: string, url: string, mediaType = 'application/a2a-agent-card+json') => ({
  identifier: `urn:agent-card:test:${id}`,
  displayName: 'Support',
  mediaType,
  url,
  version: '1.0.0',
});

/** The hostile entries, in catalog order: what each names. */
let hostile: string[] = [];

function send(req: IncomingMessage, res: ServerResponse, value: unknown, type = 'application/json'): void {
  const body = JSON.stringify(value);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
  const headers = {
    'content-type': type,
    etag,
    'cache-control': 'public, max-age=600',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    vary: 'A2A-Version',
  };
  if (req.method === 'OPTIONS')
    return void res.writeHead(204, { ...headers, 'access-control-allow-methods': 'GET, HEAD, OPTIONS' }).end();
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
  res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

beforeAll(async () => {
  udp = createSocket('udp4');
  udp.on('message', (query, from) => udp.send(answer(query), from.port, from.address));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  servers = dns.getServers();
  dns.setServers([`127.0.0.1:${udp.address().port}`]);
  loopback2 = await counter('127.0.0.2');
  loopback6 = await counter('::1');
  loopback = await counter('127.0.0.1');
  web.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    seen.push(`${req.method} ${path}`);
    if (path === CARD || path === '/.well-known/agent.json' || path === BILLING) return send(req, res, card('Support'));
    if (path === CATALOG)
      return send(
        req,
        res,
        {
          specVersion: '1.0',
          host: { displayName: 'Hostile' },
          entries: [
            ...hostile.map((url, i) =>
              entry(`h${i}`, url, url.endsWith('catalog.json') ? 'application/ai-catalog+json' : undefined),
            ),
            entry('billing', `${origin}${BILLING}`),
          ],
        },
        'application/ai-catalog+json',
      );
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  hostile = [
    `http://127.0.0.2:${loopback2.port}${CARD}`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    `http://[::1]:${loopback6.port}${CARD}`,
    `http://inside.test:${loopback.port}${CARD}`,
    `http://[::ffff:127.0.0.1]:${loopback.port}${CARD}`,
    `http://localhost:${loopback.port}${CARD}`,
    `http://10.0.0.1:${loopback.port}/catalog.json`,
    `http://inside.test:${loopback.port}/catalog.json`,
  ];
});

afterAll(async () => {
  dns.setServers(servers);
  udp.close();
  web.closeAllConnections();
  await Promise.all(
    [web, loopback2.server, loopback6.server, loopback.server].map((s) => new Promise((r) => s.close(r))),
  );
});

beforeEach(() => {
  asked.clear();
  seen.length = 0;
  for (const c of [loopback2, loopback6, loopback]) c.connections = 0;
});

const discover = (options: Parameters<typeof discoverAgentCard>[1] = {}) =>
  discoverAgentCard(origin, {
    allowHttp: true,
    profile: 'development',
    timeoutMs: 3_000,
    followCatalog: 'any',
    probeHttp: false,
    ...options,
  });

const connections = () => [loopback2.connections, loopback6.connections, loopback.connections];

/** Each refusal, in entry order (checks end in any order): its pointer, severity, message after the catalog URL. */
function refusals(report: DiscoveryReport): [string, string, string][] {
  return report.findings
    .filter((f) => f.rule === 'discovery-catalog-origin')
    .map((f): [string, string, string] => [f.path, f.severity, f.message.replace(`${origin}${CATALOG} `, '')])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

const expected = (): [string, string, string][] => {
  const p = loopback.port;
  return [
    [
      '/entries/0',
      'warning',
      `entries[0]: not followed: another origin on a non-public address (127.0.0.2:${loopback2.port}: 127.0.0.2 is a loopback address) at "${hostile[0]}".`,
    ],
    [
      '/entries/1',
      'warning',
      `entries[1]: not followed: another origin on a non-public address (169.254.169.254: 169.254.169.254 is a link-local address) at "${hostile[1]}".`,
    ],
    [
      '/entries/2',
      'warning',
      `entries[2]: not followed: another origin on a non-public address ([::1]:${loopback6.port}: ::1 is a loopback address) at "${hostile[2]}".`,
    ],
    [
      '/entries/3',
      'warning',
      `entries[3]: not followed: another origin on a non-public address (inside.test:${p} resolves to 127.0.0.1 is a loopback address) at "${hostile[3]}".`,
    ],
    [
      '/entries/4',
      'warning',
      `entries[4]: not followed: another origin on a non-public address ([::ffff:7f00:1]:${p}: 127.0.0.1 is a loopback address) at "http://[::ffff:7f00:1]:${p}${CARD}".`,
    ],
    [
      '/entries/5',
      'warning',
      `entries[5]: not followed: another origin on a non-public address (localhost:${p}: localhost is a loopback name) at "${hostile[5]}".`,
    ],
    [
      '/entries/6',
      'warning',
      `entries[6]: nested catalog not followed: another origin on a non-public address (10.0.0.1:${p}: 10.0.0.1 is a private address) at "${hostile[6]}".`,
    ],
    [
      '/entries/7',
      'warning',
      `entries[7]: nested catalog not followed: another origin on a non-public address (inside.test:${p} resolves to 127.0.0.1 is a loopback address) at "${hostile[7]}".`,
    ],
  ];
};

describe("followCatalog 'any' reaches only public addresses on other origins", () => {
  it('refuses loopback, link-local, IPv6 and mapped loopback, localhost, private and resolved names: 0 connections, a finding each', async () => {
    const report = await discover();
    expect(connections()).toEqual([0, 0, 0]);
    expect(refusals(report)).toEqual(expected());
    expect(report.agents?.map((a) => [a.url, a.checked, a.skipped])).toEqual([
      [hostile[0], false, 'private'],
      [hostile[1], false, 'private'],
      [hostile[2], false, 'private'],
      [hostile[3], false, 'private'],
      [`http://[::ffff:7f00:1]:${loopback.port}${CARD}`, false, 'private'],
      [hostile[5], false, 'private'],
      [`${origin}${BILLING}`, true, undefined],
    ]);
    expect(report.agents?.[0]?.refused).toBe(`127.0.0.2:${loopback2.port}: 127.0.0.2 is a loopback address`);
    expect(report.findings.find((f) => f.path === '/entries/0')?.hint).toBe(
      'Check that host on its own (agent-card check <url>): a catalog may name only public hosts on other origins.',
    );
    // The same-origin entry on the checked loopback host is still followed.
    expect(report.agents?.at(-1)).toMatchObject({ checked: true, ok: true });
    expect(seen).toContain(`GET ${BILLING}`);
  });

  it('a name public to the check and 127.0.0.1 to the connection (DNS rebinding): 0 connections, the card does not load', async () => {
    const url = `http://rebind.test:${loopback.port}${CARD}`;
    hostile.push(url);
    try {
      const report = await discover();
      expect(connections()).toEqual([0, 0, 0]);
      const agent = report.agents?.find((a) => a.url === url);
      expect(agent).toMatchObject({ checked: true, ok: false });
      expect(agent?.card?.failure).toEqual({
        kind: 'network',
        code: 'ERR_AGENT_CARD_NON_PUBLIC_TARGET',
        message: 'rebind.test resolves to 127.0.0.1 is a loopback address',
      });
      expect(report.findings.find((f) => f.url === url && f.rule === 'catalog-entry-card')?.message).toBe(
        `${origin}${CATALOG} entries[8]: the listed card does not load ("network: rebind.test resolves to 127.0.0.1 is a loopback address" at "${url}").`,
      );
    } finally {
      hostile.pop();
    }
  });

  it("with the caller's own fetch, the same targets are refused before it is called", async () => {
    const called: string[] = [];
    const fetch: DiscoveryFetch = (url, init) => {
      called.push(String(url));
      return globalThis.fetch(url, init);
    };
    const report = await discover({ fetch });
    expect(connections()).toEqual([0, 0, 0]);
    expect(refusals(report)).toEqual(expected());
    expect(called.filter((u) => !u.startsWith(origin))).toEqual([]);
    expect(called).toContain(`${origin}${BILLING}`);
  });

  it('allowPrivateTargets follows them (an internal network the user trusts)', async () => {
    hostile = hostile.slice(0, 1);
    const report = await discover({ allowPrivateTargets: true });
    expect(loopback2.connections).toBeGreaterThan(0);
    expect(report.agents?.[0]).toMatchObject({ url: `http://127.0.0.2:${loopback2.port}${CARD}`, checked: true });
    expect(refusals(report)).toEqual([]);
  });
});
