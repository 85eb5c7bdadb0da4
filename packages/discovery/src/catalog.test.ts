// discoverAgentCard reading a host's AI Catalog: what an honest multi-agent host gets, and what a
// hostile catalog cannot make the client do (issue 13).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aiCatalogDidDocument, prepareAiCatalogDidWebSigner } from '@agent-card/core';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverAgentCard } from './discover';
import type { DiscoveryReport } from './types';

interface Host {
  origin: string;
  seen: { method: string; url: string; headers: IncomingMessage['headers'] }[];
}

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

type Route = (req: IncomingMessage, res: ServerResponse) => void;

async function host(routes: (origin: string) => Record<string, Route>): Promise<Host> {
  const seen: Host['seen'] = [];
  let table: Record<string, Route> = {};
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    const route = table[(req.url ?? '/').split('?')[0] ?? '/'];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  table = routes(origin);
  return { origin, seen };
}

/** Serves JSON the way the middleware does: ETag, 304, HEAD, CORS, caching. */
function json(value: unknown, type = 'application/json'): Route {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
  return (req, res) => {
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
  };
}

function card(origin: string, name: string, version = '1.0.0') {
  return {
    name,
    description: `${name}, for the catalog tests.`,
    version,
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['test'] }],
  };
}

function entry(id: string, url: string, displayName: string, version = '1.0.0') {
  return {
    identifier: `urn:agent-card:test:${id}`,
    displayName,
    mediaType: 'application/a2a-agent-card+json',
    url,
    version,
  };
}

const catalogOf = (entries: unknown[]) => ({ specVersion: '1.0', host: { displayName: 'Test' }, entries });
const CATALOG = '/.well-known/ai-catalog.json';
const cardPath = (id: string) => `/agents/${id}/.well-known/agent-card.json`;

const discover = (origin: string, options: Parameters<typeof discoverAgentCard>[1] = {}) =>
  discoverAgentCard(origin, { allowHttp: true, profile: 'development', timeoutMs: 2_000, ...options });

/** Error and warning findings (and info ones of the discovery-catalog rules) whose rule starts with `prefix`. */
const ids = (report: DiscoveryReport, prefix: string) =>
  report.findings
    .filter((f) => f.rule.startsWith(prefix) && (f.severity !== 'info' || f.rule.startsWith('discovery-catalog')))
    .map((f) => `${f.rule}:${f.severity}`);

const requestsTo = (h: Host, path: string) => h.seen.filter((r) => r.url.split('?')[0] === path).length;

/** A host with two agents and a catalog listing them, the default one also at the root. */
function twoAgents(origin: string, entries?: unknown[]): Record<string, Route> {
  return {
    '/.well-known/agent-card.json': json(card(origin, 'Support')),
    '/.well-known/agent.json': json(card(origin, 'Support')),
    [cardPath('billing')]: json(card(origin, 'Billing')),
    [cardPath('support')]: json(card(origin, 'Support')),
    [CATALOG]: json(
      catalogOf(
        entries ?? [
          entry('billing', `${origin}${cardPath('billing')}`, 'Billing'),
          entry('support', `${origin}${cardPath('support')}`, 'Support'),
        ],
      ),
      'application/ai-catalog+json',
    ),
  };
}

describe('discoverAgentCard and the AI Catalog', () => {
  it('checks every agent the catalog lists, with the per-card report', async () => {
    const h = await host((o) => twoAgents(o));
    const report = await discover(h.origin);
    expect(report.catalog).toMatchObject({ url: `${h.origin}${CATALOG}`, status: 200, found: true, valid: true });
    expect(report.catalog?.entries).toBe(2);
    expect(report.agents?.map((a) => [a.displayName, a.checked, a.nameMatches, a.versionMatches, a.ok])).toEqual([
      ['Billing', true, true, true, true],
      ['Support', true, true, true, true],
    ]);
    expect(report.agents?.[0]?.card).toMatchObject({ status: 200, valid: true, conditional: { status: 304 } });
    expect(report.agents?.[0]?.entry).toBe('/entries/0');
    expect(ids(report, 'catalog-')).toEqual([]);
    expect(report.ok).toBe(true);
    // GET, versioned GET, HEAD, preflight and the conditional GET per card URL.
    expect(requestsTo(h, cardPath('billing'))).toBe(5);
    expect(() => JSON.stringify(report)).not.toThrow();
  });

  it("applies the caller's rule settings to each listed card: its counts, its ok, and the catalog's summary of it", async () => {
    const untagged = (origin: string) => {
      const billing = card(origin, 'Billing');
      return { ...billing, skills: [{ ...billing.skills[0]!, tags: [] }] };
    };
    const h = await host((o) => ({ ...twoAgents(o), [cardPath('billing')]: json(untagged(o)) }));
    const plain = await discover(h.origin);
    const billing = plain.agents?.[0];
    expect(billing?.findings.some((f) => f.rule === 'skill-tags-required' && f.severity === 'error')).toBe(true);
    expect([billing?.errors, billing?.ok]).toEqual([1, false]);
    expect(ids(plain, 'catalog-entry-card')).toEqual(['catalog-entry-card:error']);

    const eased = await discover(h.origin, { rules: { 'skill-tags-required': 'warning' } });
    const after = eased.agents?.[0];
    expect(after?.findings.find((f) => f.rule === 'skill-tags-required')?.severity).toBe('warning');
    expect([after?.errors, after?.ok]).toEqual([0, true]);
    expect(ids(eased, 'catalog-entry-card')).toEqual([]);
    expect(ids(eased, 'discovery-catalog-deadline')).toEqual([]);

    const off = await discover(h.origin, { rules: { 'skill-tags-required': 'off' } });
    expect(off.agents?.[0]?.findings.some((f) => f.rule === 'skill-tags-required')).toBe(false);
    expect(off.agents?.[0]?.ok).toBe(true);
  });

  it("applies the caller's rule settings to the host's own findings too: its findings, its ok and turnedOff", async () => {
    const untagged = (origin: string) => {
      const support = card(origin, 'Support');
      return { ...support, skills: [{ ...support.skills[0]!, tags: [] }] };
    };
    const h = await host((o) => ({
      '/.well-known/agent-card.json': json(untagged(o)),
      '/.well-known/agent.json': json(untagged(o)),
    }));
    const plain = await discover(h.origin);
    expect(ids(plain, 'skill-tags-required')).toEqual(['skill-tags-required:error']);
    expect(plain.ok).toBe(false);
    expect(plain.turnedOff).toBeUndefined();

    const off = await discover(h.origin, { rules: { 'skill-tags-required': 'off' } });
    expect(off.findings.some((f) => f.rule === 'skill-tags-required')).toBe(false);
    expect(off.findings.some((f) => f.severity === 'error')).toBe(false);
    expect(off.ok).toBe(true);
    expect(off.turnedOff).toEqual([{ rule: 'skill-tags-required', findings: 1 }]);

    const eased = await discover(h.origin, { rules: { 'skill-tags-required': 'warning' } });
    expect(ids(eased, 'skill-tags-required')).toEqual(['skill-tags-required:warning']);
    expect(eased.ok).toBe(true);
    expect(eased.turnedOff).toEqual([]);
  });

  it('refuses an unknown rule id in the settings before any request', async () => {
    const h = await host((o) => twoAgents(o));
    await expect(discover(h.origin, { rules: { 'skill-tag-required': 'off' } as never })).rejects.toThrow(
      /skill-tag-required.*skill-tags-required/,
    );
    expect(h.seen).toEqual([]);
  });

  it('treats a 404 catalog as none: no finding, no agents, the single-card report unchanged', async () => {
    const h = await host((o) => ({ '/.well-known/agent-card.json': json(card(o, 'Solo')) }));
    const report = await discover(h.origin);
    expect(report.catalog).toMatchObject({ status: 404, found: false });
    expect(report.agents).toBeUndefined();
    expect(report.findings.filter((f) => /catalog/.test(f.rule))).toEqual([]);
    expect(report.card?.name).toBe('Solo');
  });

  it('sends no catalog request with followCatalog: false', async () => {
    const h = await host((o) => twoAgents(o));
    const report = await discover(h.origin, { followCatalog: false });
    expect(requestsTo(h, CATALOG)).toBe(0);
    expect(report.catalog).toBeUndefined();
    expect(report.agents).toBeUndefined();
  });

  it('reports a listed card that is missing as catalog-entry-card, and fails the run', async () => {
    const h = await host((o) =>
      twoAgents(o, [
        entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
        entry('gone', `${o}${cardPath('gone')}`, 'Gone'),
      ]),
    );
    const report = await discover(h.origin);
    expect(report.ok).toBe(false);
    const missing = report.findings.find((f) => f.rule === 'catalog-entry-card');
    expect(missing).toMatchObject({ severity: 'error', path: '/entries/1/url', url: `${h.origin}${cardPath('gone')}` });
    expect(missing?.message).toBe(
      `${h.origin}${CATALOG} entries[1]: the listed card does not load ("status 404" at "${h.origin}${cardPath('gone')}").`,
    );
    expect(report.agents?.[1]).toMatchObject({ checked: true, ok: false, card: { status: 404 } });
    expect(report.agents?.[0]?.ok).toBe(true);
  });

  it('a card that lies about its name and version: catalog-entry-name, catalog-entry-version', async () => {
    const h = await host((o) => ({
      ...twoAgents(o),
      [cardPath('billing')]: json(card(o, 'Totally Legit Bank', '9.9.9')),
    }));
    const report = await discover(h.origin);
    const billing = report.agents?.[0];
    expect(billing).toMatchObject({
      cardName: 'Totally Legit Bank',
      cardVersion: '9.9.9',
      nameMatches: false,
      versionMatches: false,
    });
    expect(ids(report, 'catalog-')).toEqual(['catalog-entry-version:error', 'catalog-entry-name:warning']);
    expect(report.findings.find((f) => f.rule === 'catalog-entry-name')?.message).toBe(
      `${h.origin}${CATALOG} entries[0]: displayName "Billing" is not the card's name ("Totally Legit Bank").`,
    );
    expect(report.ok).toBe(false);
  });

  it('a catalog with 10,000 entries: at most maxCatalogEntries cards fetched, and findings say so', async () => {
    // Short relative URLs keep the 10,000 entries under the 1 MiB read cap.
    const many = (_o: string) =>
      Array.from({ length: 10_000 }, (_, i) => ({
        identifier: `urn:a:${i}`,
        displayName: 'A',
        mediaType: 'application/a2a+json',
        url: `/a/${i}`,
      }));
    const h = await host((o) => twoAgents(o, many(o)));
    const started = performance.now();
    const report = await discover(h.origin);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(report.catalog).toMatchObject({ found: true, entries: 10_000, truncated: false });
    const fetched = new Set(h.seen.filter((r) => r.url.startsWith('/a/')).map((r) => r.url));
    expect(fetched.size).toBe(16);
    expect(report.agents).toHaveLength(16);
    expect(report.findings.find((f) => f.rule === 'discovery-catalog-limit')).toMatchObject({
      severity: 'warning',
      message: `${h.origin}${CATALOG}: more than 1000 entries: the rest were not read; 16 entries followed.`,
    });
    // validateAiCatalog reads 1000 entries, and says so too.
    expect(ids(report, 'catalog-entries-limit')).toEqual(['catalog-entries-limit:error']);
    expect(() => JSON.stringify(report)).not.toThrow();
  });

  it('maxCatalogEntries cuts a small catalog too, with the count left out', async () => {
    const h = await host((o) => twoAgents(o));
    const report = await discover(h.origin, { maxCatalogEntries: 1 });
    expect(requestsTo(h, cardPath('support'))).toBe(0);
    expect(report.findings.find((f) => f.rule === 'discovery-catalog-limit')?.message).toBe(
      `${h.origin}${CATALOG}: 1 more entry not followed: at most 1 are followed per run.`,
    );
  });

  it('never follows entries to another port or host unless followCatalog is "any"', async () => {
    const other = await host((o) => ({ [cardPath('x')]: json(card(o, 'Other')) }));
    const otherHost = other.origin.replace('127.0.0.1', 'localhost');
    const h = await host((o) =>
      twoAgents(o, [
        entry('port', `${other.origin}${cardPath('x')}`, 'Other'),
        entry('host', `${otherHost}${cardPath('x')}`, 'Other'),
        entry('file', 'file:///etc/passwd', 'Other'),
        entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
      ]),
    );
    const report = await discover(h.origin, { headers: { authorization: 'Bearer secret' } });
    expect(other.seen).toEqual([]);
    expect(report.agents?.map((a) => [a.checked, a.skipped])).toEqual([
      [false, 'origin'],
      [false, 'origin'],
      [false, 'scheme'],
      [true, undefined],
    ]);
    expect(ids(report, 'discovery-catalog-origin')).toEqual([
      'discovery-catalog-origin:warning',
      'discovery-catalog-origin:warning',
      'discovery-catalog-origin:info',
    ]);

    // The other origin is on loopback too: followed only when private targets are allowed.
    const opened = await discover(h.origin, {
      followCatalog: 'any',
      allowPrivateTargets: true,
      headers: { authorization: 'Bearer secret' },
    });
    expect(opened.agents?.[0]).toMatchObject({ checked: true, ok: true });
    expect(other.seen.length).toBeGreaterThan(0);
    // The caller's credentials stay on the origin being checked.
    expect(other.seen.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(h.seen.filter((r) => r.url === cardPath('billing')).every((r) => r.headers.authorization)).toBe(true);
  });

  it('with followCatalog "any", sends none of the caller\'s headers to another origin, API keys included', async () => {
    const secrets = {
      authorization: 'Bearer secret',
      'x-api-key': 'k-1',
      'x-goog-api-key': 'k-2',
      'api-key': 'k-3',
      'x-tenant-token': 'k-4',
    };
    const other = await host((o) => ({
      [cardPath('x')]: json(card(o, 'Other')),
      '/catalogs/other.json': json(catalogOf([]), 'application/ai-catalog+json'),
    }));
    const h = await host((o) => ({
      ...twoAgents(o, [
        entry('port', `${other.origin}${cardPath('x')}`, 'Other'),
        {
          identifier: 'urn:agent-card:test:nested',
          mediaType: 'application/ai-catalog+json',
          url: `${other.origin}/catalogs/other.json`,
        },
        entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
        entry('moved', `${o}${cardPath('moved')}`, 'Other'),
      ]),
      // A listed card on the checked origin that redirects to the other one.
      [cardPath('moved')]: (_req, res) =>
        void res.writeHead(302, { location: `${other.origin}${cardPath('x')}` }).end(),
    }));
    const report = await discover(h.origin, { followCatalog: 'any', allowPrivateTargets: true, headers: secrets });
    expect(report.agents?.[0]).toMatchObject({ checked: true, ok: true });
    expect(requestsTo(other, cardPath('x'))).toBeGreaterThan(0);
    expect(requestsTo(other, '/catalogs/other.json')).toBe(1);
    const leaked = other.seen.flatMap((r) =>
      Object.keys(secrets)
        .filter((name) => r.headers[name] !== undefined)
        .map((name) => `${r.method} ${r.url} ${name}`),
    );
    expect(leaked).toEqual([]);
    // The checked origin still gets them.
    const billing = h.seen.filter((r) => r.url === cardPath('billing'));
    expect(billing.every((r) => r.headers['x-api-key'] === 'k-1' && r.headers['api-key'] === 'k-3')).toBe(true);
  });

  it('a slow entry cannot hold the run: it ends within 2 x timeoutMs and the others are checked', async () => {
    const h = await host((o) => ({
      ...twoAgents(o, [
        entry('slow', `${o}${cardPath('slow')}`, 'Slow'),
        entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
        entry('support', `${o}${cardPath('support')}`, 'Support'),
      ]),
      [cardPath('slow')]: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"name":');
      },
    }));
    const started = performance.now();
    const report = await discover(h.origin, { timeoutMs: 1_000 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(report.agents?.map((a) => a.ok)).toEqual([false, true, true]);
    const slow = report.findings.find((f) => f.rule === 'catalog-entry-card');
    expect(slow?.message).toMatch(/entries\[0\]: the listed card does not load \("status 200, timeout" at /);
  });

  it('a slow catalog: the run still ends within 2 x timeoutMs', async () => {
    const h = await host((o) => ({
      ...twoAgents(o),
      [CATALOG]: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/ai-catalog+json' });
        res.write('{"specVersion":"1.0","entries":[');
      },
    }));
    const started = performance.now();
    const report = await discover(h.origin, { timeoutMs: 1_000 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(report.catalog?.failure?.kind).toBe('timeout');
    expect(ids(report, 'discovery-catalog')).toEqual(['discovery-catalog:warning']);
  });

  it('a catalog of 16 cards of 80,000 unknown members each: the run, validation included, ends within 2 x timeoutMs', async () => {
    const hostile = (o: string, i: number) => ({
      ...card(o, `Agent ${i}`),
      ...Object.fromEntries(Array.from({ length: 80_000 }, (_, k) => [`x${k}`, 0])),
    });
    const h = await host((o) => {
      const routes: Record<string, Route> = {
        ...twoAgents(o),
        [CATALOG]: json(
          catalogOf(Array.from({ length: 16 }, (_, i) => entry(`a${i}`, `${o}${cardPath(`a${i}`)}`, `Agent ${i}`))),
          'application/ai-catalog+json',
        ),
      };
      for (let i = 0; i < 16; i++) routes[cardPath(`a${i}`)] = json(hostile(o, i));
      return routes;
    });
    const started = performance.now();
    const report = await discover(h.origin, { timeoutMs: 3_000 });
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(report.agents).toHaveLength(16);
    for (const agent of report.agents ?? []) {
      // A validated card lists 100 unknown members and the finding that says how many more.
      const unknown = agent.findings.filter((f) => f.rule === 'unknown-field');
      expect(unknown.length === 0 || unknown.length === 101).toBe(true);
      if (agent.ok) expect(unknown).toHaveLength(101);
    }
    // Every card left unvalidated, unfetched or unread is named at the top level.
    const unchecked = (report.agents ?? []).filter((a) => !a.ok).length;
    const named = report.findings.filter(
      (f) => f.rule === 'discovery-catalog-deadline' || f.rule === 'catalog-entry-card',
    );
    expect(named).toHaveLength(unchecked);
  }, 60_000);

  it('follows a nested catalog one level deep, never the catalogs it nests', async () => {
    const nested = (o: string, id: string) => ({
      identifier: `urn:agent-card:test:${id}`,
      displayName: id,
      mediaType: 'application/ai-catalog+json',
      url: `${o}/catalogs/${id}.json`,
    });
    const h = await host((o) => ({
      ...twoAgents(o, [nested(o, 'one')]),
      '/catalogs/one.json': json(
        catalogOf([entry('billing', `${o}${cardPath('billing')}`, 'Billing'), nested(o, 'two')]),
      ),
      '/catalogs/two.json': json(catalogOf([entry('support', `${o}${cardPath('support')}`, 'Support')])),
    }));
    const report = await discover(h.origin);
    expect(requestsTo(h, '/catalogs/one.json')).toBe(1);
    expect(requestsTo(h, '/catalogs/two.json')).toBe(0);
    expect(report.catalog?.nested?.map((c) => [c.url, c.found])).toEqual([[`${h.origin}/catalogs/one.json`, true]]);
    expect(report.agents?.map((a) => [a.catalogUrl, a.displayName, a.ok])).toEqual([
      [`${h.origin}/catalogs/one.json`, 'Billing', true],
    ]);
    expect(report.findings.find((f) => f.rule === 'discovery-catalog-nested')?.message).toBe(
      `${h.origin}/catalogs/one.json: 1 nested catalog not read: catalogs referenced by URL are followed one level deep.`,
    );
  });

  it('an HTML page at the catalog path (a single-page-app fallback) is read as no catalog', async () => {
    const h = await host((o) => ({
      ...twoAgents(o),
      [CATALOG]: (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title>'),
    }));
    const report = await discover(h.origin);
    expect(report.catalog?.found).toBe(false);
    expect(report.agents).toBeUndefined();
    expect(ids(report, 'discovery-catalog')).toEqual(['discovery-catalog:info']);
    expect(report.ok).toBe(true);
  });

  it('validates the catalog: a repeated identifier is catalog-identifier-unique', async () => {
    const h = await host((o) =>
      twoAgents(o, [
        entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
        entry('billing', `${o}${cardPath('support')}`, 'Support'),
      ]),
    );
    const report = await discover(h.origin);
    const dup = report.findings.find((f) => f.rule === 'catalog-identifier-unique');
    expect(dup).toMatchObject({ severity: 'error', path: '/entries/1/identifier', url: `${h.origin}${CATALOG}` });
    expect(report.catalog?.valid).toBe(false);
    expect(report.ok).toBe(false);
  });

  it('reads a urn:ai: identifier as urn:air: (a warning) and follows an entry whose type is another spelling (an info)', async () => {
    const h = await host((o) =>
      twoAgents(o, [
        {
          ...entry('billing', `${o}${cardPath('billing')}`, 'Billing'),
          identifier: 'urn:ai:acme.com:agents:billing',
          mediaType: 'Application/A2A-Agent-Card; charset=utf-8',
        },
        entry('support', `${o}${cardPath('support')}`, 'Support'),
      ]),
    );
    const report = await discover(h.origin);
    expect(report.agents?.map((a) => [a.identifier, a.checked, a.ok])).toEqual([
      ['urn:air:acme.com:agents:billing', true, true],
      ['urn:agent-card:test:support', true, true],
    ]);
    const spellings = ['catalog-identifier-urn-ai', 'catalog-entry-type-spelling'];
    expect(report.findings.filter((f) => spellings.includes(f.rule))).toEqual([
      expect.objectContaining({
        rule: 'catalog-identifier-urn-ai',
        severity: 'warning',
        message: expect.stringContaining('is spelled urn:ai:, read as "urn:air:acme.com:agents:billing"'),
      }),
      expect.objectContaining({
        rule: 'catalog-entry-type-spelling',
        severity: 'info',
        message: expect.stringContaining('is read as application/a2a-agent-card+json'),
      }),
    ]);
    expect(requestsTo(h, cardPath('billing'))).toBe(5);
  });
});

describe('a catalog signed with a did:web Signature object', () => {
  const SIGNER = 'did:web:agents.example.com';
  const keyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signer = prepareAiCatalogDidWebSigner(
    { privateKey: keyPair.privateKey, alg: 'ES256', kid: 'catalog-1' },
    { signer: SIGNER, issuedAt: new Date(Date.now() - 60_000) },
  );
  /** The run's fetch: the DID document where did:web puts it, everything else from the test hosts. */
  const fetchWithDid: typeof fetch = async (input, init) =>
    String(input) === 'https://agents.example.com/.well-known/did.json'
      ? new Response(JSON.stringify(aiCatalogDidDocument([signer])))
      : fetch(input, init);

  async function signedHost(edit?: (catalog: Record<string, any>) => void, swapCard = false) {
    return host((origin) => {
      const billing = JSON.stringify(card(origin, 'Billing'));
      const signed: Record<string, any> = signer.sign({
        specVersion: '1.0',
        host: { displayName: 'Test' },
        entries: [
          {
            identifier: 'urn:air:agents.example.com:agent:billing',
            type: 'application/a2a-agent-card+json',
            url: `${origin}${cardPath('billing')}`,
            digest: `sha256:${createHash('sha256').update(billing).digest('hex')}`,
          },
        ],
      });
      edit?.(signed);
      return {
        '/.well-known/agent-card.json': json(card(origin, 'Billing')),
        [cardPath('billing')]: json(swapCard ? JSON.stringify(card(origin, 'Billing', '6.6.6')) : billing),
        [CATALOG]: json(signed),
      };
    });
  }

  it('verifies its signature and the digest of the card it lists: no finding', async () => {
    const h = await signedHost();
    const report = await discover(h.origin, { fetch: fetchWithDid });
    expect(ids(report, 'catalog-signature')).toEqual([]);
  });

  it('reports a tampered catalog as catalog-signature-verify', async () => {
    const h = await signedHost((c) => {
      c.entries[0].identifier = 'urn:air:agents.example.com:agent:evil';
    });
    const report = await discover(h.origin, { fetch: fetchWithDid });
    expect(ids(report, 'catalog-signature')).toEqual(['catalog-signature-verify:error']);
    expect(report.findings.find((f) => f.rule === 'catalog-signature-verify')).toMatchObject({
      path: '/signature',
      message: expect.stringContaining('the signature does not match'),
    });
  });

  it('reports a card that differs from the signed digest', async () => {
    const h = await signedHost(undefined, true);
    const report = await discover(h.origin, { fetch: fetchWithDid });
    expect(ids(report, 'catalog-signature')).toEqual(['catalog-signature-verify:error']);
    expect(report.findings.find((f) => f.rule === 'catalog-signature-verify')).toMatchObject({
      path: '/entries/0/digest',
      message: expect.stringContaining('the bytes do not match the digest'),
    });
  });
});
