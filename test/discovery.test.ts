import { generateKeyPairSync } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, signAgentCard } from '@agent-card/core';
import { type AgentCardOptions, createAgentCardResponder } from '@agent-card/core/http';
import { type DiscoveryOptions, type DiscoveryReport, discoverAgentCard } from '@agent-card/discovery';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GOOD_CARD,
  type LocalServer,
  listen,
  mapOrigins,
  misbehaving,
  refusedOrigin,
  status,
  wellBehaved,
} from './discovery-servers';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(handler: RequestListener): Promise<LocalServer> {
  const server = await listen(handler);
  servers.push(server);
  return server;
}

/** Discovers against a local server over http, and measures the wall time. */
async function discover(
  handler: RequestListener,
  options: DiscoveryOptions = {},
): Promise<DiscoveryReport & { wall: number }> {
  const server = await start(handler);
  const started = performance.now();
  const report = await discoverAgentCard(server.origin, { allowHttp: true, timeoutMs: 2_000, ...options });
  return { ...report, wall: performance.now() - started };
}

/** Discovers `https://acme.test` served by a local http server through a mapping fetch. */
async function discoverHttps(
  handler: RequestListener,
  options: DiscoveryOptions = {},
  httpHandler?: RequestListener,
): Promise<DiscoveryReport> {
  const server = await start(handler);
  const map: Record<string, string> = { 'https://acme.test': server.origin };
  if (httpHandler) map['http://acme.test'] = (await start(httpHandler)).origin;
  return discoverAgentCard('acme.test', { timeoutMs: 2_000, fetch: mapOrigins(map), ...options });
}

const ids = (report: DiscoveryReport, severity?: string): string[] =>
  report.findings
    .filter((f) => severity === undefined || f.severity === severity)
    .map((f) => `${f.rule}:${f.severity}`);

function finding(report: DiscoveryReport, rule: string, severity: string) {
  const found = report.findings.find((f) => f.rule === rule && f.severity === severity);
  expect(found, `${rule}:${severity} in ${JSON.stringify(ids(report))}`).toBeDefined();
  return found!;
}

describe('discoverAgentCard against a well-behaved server', () => {
  it('reports no error, a working 304, HEAD, preflight and consistent paths', async () => {
    const report = await discoverHttps(wellBehaved(), {}, misbehaving.httpsUpgrade);
    expect(ids(report, 'error')).toEqual([]);
    expect(ids(report, 'warning')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.origin).toBe('https://acme.test');
    expect(report.primary).toMatchObject({
      url: 'https://acme.test/.well-known/agent-card.json',
      status: 200,
      contentType: 'application/json',
      redirects: [],
      valid: true,
      shape: 'v1.0',
      conditional: { status: 304, sameEtag: true, bodyEmpty: true },
      head: { status: 200, differs: [], bodyEmpty: true },
      preflight: { status: 204, ok: true },
      versioned: { status: 200, sameBody: true, shape: 'v1.0' },
    });
    expect(report.primary.bytes).toBe(Buffer.byteLength(JSON.stringify(GOOD_CARD)));
    expect(report.primary.headers.etag).toMatch(/^"/);
    expect(report.pathsConsistent).toBe(true);
    expect(report.consistency).toEqual({ sameDocument: true, sameBytes: true, sameEtag: true, method: 'jcs' });
    expect(report.card).toEqual(GOOD_CARD);
    expect(report.document).toEqual(GOOD_CARD);
    expect(report.cardUrl).toBe('https://acme.test/.well-known/agent-card.json');
    expect(report.httpProbe).toMatchObject({ outcome: 'redirects-to-https', status: 301 });
    // 2 paths × (GET, A2A-Version GET, HEAD, OPTIONS, conditional GET) + the http:// probe + the
    // AI Catalog GET (404 here: no catalog, no finding).
    expect(report.requests).toBe(12);
    expect(report.catalog).toMatchObject({ status: 404, found: false });
    finding(report, 'discovery-version-negotiation', 'info');
  });

  it('sends the header-less and the A2A-Version requests the rules describe', async () => {
    const server = await start(wellBehaved());
    await discoverAgentCard(server.origin, { allowHttp: true, headers: { 'User-Agent': 'agent-card-check' } });
    const gets = server.requests.filter((r) => r.method === 'GET' && r.url === '/.well-known/agent-card.json');
    expect(gets).toHaveLength(3);
    expect(
      gets.filter((r) => r.headers['a2a-version'] === undefined && r.headers['if-none-match'] === undefined),
    ).toHaveLength(1);
    expect(
      gets.filter((r) => r.headers['a2a-version'] === '1.0' && r.headers.origin === 'https://example.org'),
    ).toHaveLength(1);
    expect(gets.filter((r) => r.headers['if-none-match'] !== undefined)).toHaveLength(1);
    expect(
      gets.every((r) => r.headers.accept === 'application/json' && r.headers['user-agent'] === 'agent-card-check'),
    ).toBe(true);
    const preflight = server.requests.find((r) => r.method === 'OPTIONS');
    expect(preflight?.headers).toMatchObject({ origin: 'https://example.org', 'access-control-request-method': 'GET' });
    expect(server.requests.filter((r) => r.method === 'HEAD')).toHaveLength(2);
  });

  it('notes plain http as info when allowHttp is set', async () => {
    const report = await discover(wellBehaved());
    expect(report.ok).toBe(true);
    finding(report, 'discovery-https', 'info');
    expect(report.httpProbe).toBeUndefined();
  });
});

/** The core responder on node:http, as every adapter serves it. */
function responderServer(options: AgentCardOptions): RequestListener {
  const responder = createAgentCardResponder({ profile: 'production', ...options });
  return (req, res) => {
    Promise.resolve(responder.respond({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers }))
      .then((answer) => {
        if (!answer) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{}');
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  };
}

describe('discoverAgentCard against the core responder', () => {
  it('finds nothing to fix in what the middleware serves', async () => {
    const report = await discoverHttps(responderServer({ card: GOOD_CARD as AgentCard }), {}, misbehaving.httpsUpgrade);
    expect(ids(report, 'error')).toEqual([]);
    expect(ids(report, 'warning')).toEqual([]);
    expect(report.primary).toMatchObject({
      status: 200,
      contentType: 'application/a2a+json',
      conditional: { status: 304, sameEtag: true, bodyEmpty: true },
      head: { status: 200, differs: [] },
      preflight: { ok: true },
    });
    expect(report.pathsConsistent).toBe(true);
    expect(report.consistency?.sameBytes).toBe(true);
    expect(report.card).toEqual(GOOD_CARD);
  });

  it('reports the v0.3 legacy alias as a different document', async () => {
    const report = await discoverHttps(responderServer({ card: GOOD_CARD as AgentCard, legacy: 'v0.3' }));
    expect(report.legacy.shape).toBe('mixed');
    expect(report.pathsConsistent).toBe(false);
    finding(report, 'discovery-paths-consistent', 'warning');
  });

  it('reports a card served without CORS', async () => {
    const report = await discoverHttps(responderServer({ card: GOOD_CARD as AgentCard, cors: false }));
    finding(report, 'discovery-cors', 'warning');
  });
});

describe('signature status', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;

  it.each([
    [
      'the signing key',
      { 'card-key': publicKey },
      'verified',
      'info',
      /signature verified \(#0 \(kid "card-key", ES256\) verified with keys\["card-key"\] over the pruned form, which does not cover \/securityRequirements \(members at their default value\); #1 \(kid "card-key", ES256\) verified with keys\["card-key"\] over the served-as-is form\)/,
    ],
    ['another key', { 'card-key': other }, 'failed', 'error', /no signature verified/],
    ['no key with that kid', { 'other-kid': publicKey }, 'failed', 'error', /no signature verified/],
  ] as const)('verifies a signed card with %s', async (_name, keys, status, severity, message) => {
    const signed = await signAgentCard(GOOD_CARD as AgentCard, { privateKey, kid: 'card-key', alg: 'ES256' });
    const report = await discover(wellBehaved(signed), { keys });
    expect(report.primary.signature?.status).toBe(status);
    expect(finding(report, 'discovery-signature', severity).message).toMatch(message);
  });

  it('fetches a jwksUrl with the fetch and time limit the run was given', async () => {
    const signed = await signAgentCard(GOOD_CARD as AgentCard, { privateKey, kid: 'card-key', alg: 'ES256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'card-key', alg: 'ES256', use: 'sig' };
    const keyServer = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    // keys.acme.test resolves nowhere: only the injected fetch can reach the key set.
    const cardServer = await start(wellBehaved(signed));
    const report = await discoverAgentCard('acme.test', {
      timeoutMs: 2_000,
      jwksUrl: 'https://keys.acme.test/jwks.json',
      fetch: mapOrigins({ 'https://acme.test': cardServer.origin, 'https://keys.acme.test': keyServer.origin }),
    });
    expect(report.primary.signature?.status).toBe('verified');
    expect(finding(report, 'discovery-signature', 'info').message).toMatch(
      /verified with https:\/\/keys\.acme\.test\/jwks\.json/,
    );
  });

  it('an unsigned card is an error when keys are given, and unchecked otherwise', async () => {
    const report = await discover(wellBehaved(), { keys: { 'card-key': publicKey } });
    expect(report.primary.signature).toMatchObject({ status: 'unsigned' });
    finding(report, 'discovery-signature', 'error');
    const without = await discover(wellBehaved());
    expect(without.primary.signature).toBeUndefined();
    expect(without.findings.some((f) => f.rule === 'discovery-signature')).toBe(false);
  });
});

describe('discoverAgentCard against misbehaving servers', () => {
  it.each([
    ['redirect loop', misbehaving.redirectLoop, 'discovery-redirect', 'error', /redirect loop/],
    ['more than maxRedirects hops', misbehaving.redirectChain, 'discovery-redirect', 'error', /more than 3 redirects/],
    [
      'same-origin redirect to a login page',
      misbehaving.redirectToLoginSameOrigin,
      'discovery-redirect',
      'error',
      /login page titled "Sign in – Acme"/,
    ],
    [
      'one same-origin redirect',
      misbehaving.redirectOnce,
      'discovery-redirect',
      'warning',
      /redirects before the card \(301 →/,
    ],
    ['endless body', misbehaving.endlessBody, 'discovery-size', 'error', /over the 262144-byte card size limit/],
    ['huge body (Content-Length)', misbehaving.hugeBody, 'discovery-size', 'error', /5242880 bytes declared/],
    ['huge chunked body', misbehaving.hugeChunkedBody, 'discovery-size', 'error', /card size limit/],
    [
      'slow body (one byte per second)',
      misbehaving.slowBody,
      'discovery-status',
      'error',
      /body not complete within 1500 ms/,
    ],
    ['slow headers', misbehaving.slowHeaders, 'discovery-status', 'error', /no response within 1500 ms/],
    [
      'invalid UTF-8',
      misbehaving.invalidUtf8,
      'card-json-parse',
      'error',
      /not valid UTF-8 \(byte 0xff at offset \d+\)/,
    ],
    ['not JSON', misbehaving.invalidJson, 'card-json-parse', 'error', /not JSON/],
    [
      'HTML with status 200',
      misbehaving.spaFallback,
      'discovery-html-body',
      'error',
      /title "Acme Dashboard".*single-page-app fallback/,
    ],
    ['HTML labelled as JSON', misbehaving.htmlLabelledJson, 'discovery-html-body', 'error', /title "502 Bad Gateway"/],
    ['JSON labelled text/html', misbehaving.jsonAsHtml, 'discovery-content-type', 'error', /served as HTML/],
    ['text/plain', misbehaving.textPlain, 'discovery-content-type', 'warning', /not a JSON media type/],
    [
      '401',
      status(401),
      'discovery-status',
      'error',
      /card requires auth: public discovery will fail \(status 401 Unauthorized\)/,
    ],
    ['403', status(403), 'discovery-status', 'error', /card requires auth.*403 Forbidden/],
    ['404', status(404), 'discovery-status', 'error', /card not published \(status 404 Not Found\)/],
    ['500', status(500), 'discovery-status', 'error', /server error \(status 500 Internal Server Error\)/],
    ['503', status(503), 'discovery-status', 'error', /server error \(status 503/],
    [
      'connection dropped before a response',
      misbehaving.abruptClose,
      'discovery-status',
      'error',
      /connection closed before a response/,
    ],
    ['connection dropped mid-body', misbehaving.abruptCloseMidBody, 'discovery-status', 'error', /body cut off/],
  ] as const)('%s → $2 ($3), within the timeout', async (_name, handler, rule, severity, message) => {
    const report = await discover(handler, { timeoutMs: 1_500 });
    const f = finding(report, rule, severity);
    expect(f.message).toMatch(message);
    expect(f.hint.length).toBeGreaterThan(10);
    expect(f.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    if (severity === 'error') expect(report.ok).toBe(false);
    // Requests run concurrently; only the conditional replay waits for its GET.
    expect(report.wall).toBeLessThan(2 * 1_500 + 1_000);
  });

  it('stops reading an endless body at the cap, long before the timeout', async () => {
    const report = await discover(misbehaving.endlessBody, { timeoutMs: 10_000, maxBytes: 256 * 1024 });
    expect(report.primary.failure?.kind).toBe('too-large');
    expect(report.primary.truncated).toBe(true);
    expect(report.primary.bytes).toBeGreaterThan(256 * 1024);
    expect(report.primary.bytes).toBeLessThan(256 * 1024 + 65_536 + 16);
    expect(report.wall).toBeLessThan(5_000);
  });

  it('refuses a 300 KiB card at the 256 KiB card size limit, naming the option that raises it', async () => {
    const report = await discover(misbehaving.cardOverLimit);
    expect(report.primary.failure?.kind).toBe('too-large');
    const f = finding(report, 'discovery-size', 'error');
    expect(f.message).toMatch(/body over the 262144-byte card size limit \(\d+ bytes declared\); reading stopped\.$/);
    expect(f.hint).toMatch(/raise the limit \(maxCardBytes\)\.$/);
    expect(report.document).toBeUndefined();
  });

  it('reads the same card with maxCardBytes raised: a size warning, no error', async () => {
    const report = await discover(misbehaving.cardOverLimit, { maxCardBytes: 512 * 1024 });
    expect(report.primary.failure).toBeUndefined();
    expect(finding(report, 'discovery-size', 'warning').message).toMatch(/larger than 128 KiB/);
    expect(ids(report, 'error')).not.toContain('discovery-size:error');
    expect(report.document).toBeDefined();
  });

  it('refuses a maxCardBytes that is not a positive integer', async () => {
    await expect(discoverAgentCard('acme.test', { maxCardBytes: 0 })).rejects.toThrow(
      /maxCardBytes must be an integer/,
    );
  });

  it('warns for a card over 128 KiB', async () => {
    const report = await discover(misbehaving.largeCard);
    const f = finding(report, 'discovery-size', 'warning');
    expect(f.message).toMatch(/larger than 128 KiB \(\d+ bytes\)/);
  });

  it('warns for a BOM but still parses the card', async () => {
    const report = await discover(misbehaving.bom);
    finding(report, 'card-json-parse', 'warning');
    expect(report.document).toEqual(GOOD_CARD);
  });

  it('reports connection refused', async () => {
    const origin = await refusedOrigin();
    const report = await discoverAgentCard(origin, { allowHttp: true, timeoutMs: 1_500 });
    expect(finding(report, 'discovery-status', 'error').message).toMatch(/connection refused \(.*ECONNREFUSED/);
    expect(report.primary.failure?.kind).toBe('refused');
    expect(report.ok).toBe(false);
  });

  it('reports a DNS failure for a host under .invalid', async () => {
    const started = performance.now();
    const report = await discoverAgentCard('nonexistent.invalid', { timeoutMs: 3_000 });
    expect(report.origin).toBe('https://nonexistent.invalid');
    expect(finding(report, 'discovery-status', 'error').message).toMatch(
      /host name does not resolve \(.*ENOTFOUND nonexistent\.invalid/,
    );
    expect(report.primary.failure?.kind).toBe('dns');
    expect(performance.now() - started).toBeLessThan(2 * 3_000 + 1_000);
  });

  it('reports a TLS failure when the port does not speak TLS', async () => {
    const server = await start(wellBehaved());
    const report = await discoverAgentCard(`https://127.0.0.1:${server.port}`, { timeoutMs: 2_000, probeHttp: false });
    const f = finding(report, 'discovery-https', 'error');
    expect(f.message).toMatch(/TLS handshake failed/);
    expect(report.primary.failure?.kind).toBe('tls');
    expect(report.findings.some((x) => x.rule === 'discovery-status')).toBe(false);
  });

  it('says that an http:// target was checked at its https origin, and how to check it as it is', async () => {
    const server = await start(wellBehaved());
    const http = `http://127.0.0.1:${server.port}`;
    const https = `https://127.0.0.1:${server.port}`;
    const report = await discoverAgentCard(`${http}/`, { timeoutMs: 2_000, probeHttp: false });
    expect(report.origin).toBe(https);
    const fix =
      'To check the http:// service as it is (local development), pass allowHttp: true (agent-card check --allow-http).';
    const notes = report.findings.filter((x) => x.rule === 'discovery-https');
    expect(notes.map((x) => [x.severity, x.message, x.hint])).toEqual([
      [
        'error',
        expect.stringMatching(
          new RegExp(
            `^${https}/\\.well-known/agent-card\\.json: TLS handshake failed \\(.+\\): the target was ${http} \\(http\\), checked here over https\\.$`,
          ),
        ),
        `${fix} To publish it, serve it over https with a certificate from a public CA.`,
      ],
      [
        'info',
        `${https}/.well-known/agent-card.json: the target was ${http} (http); it was checked at ${https} instead, as clients will.`,
        fix,
      ],
    ]);
    // Nothing listening: the refusal names the http target too.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await discoverAgentCard(`http://127.0.0.1:${port}`, { timeoutMs: 2_000, probeHttp: false });
    const status = finding(refused, 'discovery-status', 'error');
    expect(status.message).toMatch(
      new RegExp(
        `connection refused \\(.+\\): the target was http://127\\.0\\.0\\.1:${port} \\(http\\), checked here over https\\.$`,
      ),
    );
    expect(status.hint).toBe(fix);
    // An https target, or allowHttp, is checked as given: no such note.
    const asIs = await discoverAgentCard(http, { timeoutMs: 2_000, allowHttp: true });
    expect(asIs.findings.some((x) => x.message.includes('the target was'))).toBe(false);
  });

  it('records a downgrade redirect and does not follow it', async () => {
    const report = await discoverHttps(misbehaving.redirectToHttp);
    expect(finding(report, 'discovery-redirect', 'error').message).toMatch(/downgrades https to http/);
    expect(report.primary.redirects).toEqual([
      {
        url: 'https://acme.test/.well-known/agent-card.json',
        status: 301,
        location: 'http://acme.test/.well-known/agent-card.json',
        sameOrigin: false,
        schemeChange: 'https->http',
        followed: false,
      },
    ]);
  });

  it('records a cross-origin redirect to a login page and does not follow it', async () => {
    const report = await discoverHttps(misbehaving.redirectToLogin);
    expect(finding(report, 'discovery-redirect', 'error').message).toMatch(
      /looks like a login page \(302 → https:\/\/sso\.acme-auth\.test\/login/,
    );
    expect(report.primary.redirects).toHaveLength(1);
    expect(report.primary.redirects[0]).toMatchObject({ sameOrigin: false, followed: false });
  });

  it('follows at most maxRedirects same-origin hops and records each', async () => {
    const report = await discover(misbehaving.redirectChain, { maxRedirects: 2 });
    expect(report.primary.redirects.map((r) => [r.status, new URL(r.location ?? '').pathname, r.followed])).toEqual([
      [301, '/hop/1', true],
      [301, '/hop/2', true],
      [301, '/hop/3', false],
    ]);
    expect(finding(report, 'discovery-redirect', 'error').message).toMatch(/more than 2 redirects/);
  });

  it('notes an http:// origin that serves the card instead of redirecting', async () => {
    const report = await discoverHttps(wellBehaved(), {}, wellBehaved());
    expect(report.httpProbe?.outcome).toBe('serves');
    expect(finding(report, 'discovery-https', 'info').message).toMatch(
      /^http:\/\/acme\.test\/\.well-known\/agent-card\.json: plain http answers without redirecting/,
    );
  });
});

describe("the caller's headers", () => {
  const secrets = {
    authorization: 'Bearer staging-token',
    cookie: 'session=s3cret',
    'x-api-key': 'k-123',
    'user-agent': 'agent-card-check',
  };

  it('never go out on the plain-http probe of an https target', async () => {
    const https = await start(wellBehaved());
    const http = await start(wellBehaved());
    await discoverAgentCard('acme.test', {
      timeoutMs: 2_000,
      headers: secrets,
      fetch: mapOrigins({ 'https://acme.test': https.origin, 'http://acme.test': http.origin }),
    });
    expect(http.requests.length).toBeGreaterThan(0);
    for (const r of http.requests) {
      for (const name of Object.keys(secrets))
        expect(r.headers[name], `${name} over http`).not.toBe(secrets[name as keyof typeof secrets]);
    }
    // The target itself still gets them.
    expect(https.requests.every((r) => r.headers.authorization === secrets.authorization)).toBe(true);
  });

  it('never go to another origin a redirect names', async () => {
    const other = await start(wellBehaved());
    const target = await start((req, res) => {
      res.writeHead(302, { location: `${other.origin}${req.url ?? '/'}` });
      res.end();
    });
    await discoverAgentCard(target.origin, { allowHttp: true, timeoutMs: 2_000, headers: secrets });
    expect(target.requests.length).toBeGreaterThan(0);
    expect(
      other.requests.filter((r) =>
        Object.keys(secrets).some(
          (name) => r.headers[name] !== undefined && r.headers[name] === secrets[name as keyof typeof secrets],
        ),
      ),
    ).toEqual([]);
  });
});

describe('discovery rules on headers and paths', () => {
  it('legacy-only card is an error', async () => {
    const report = await discover(misbehaving.legacyOnly);
    finding(report, 'discovery-legacy-path', 'error');
    finding(report, 'discovery-status', 'error');
    expect(report.cardUrl).toMatch(/\/\.well-known\/agent\.json$/);
    expect(report.document).toEqual(GOOD_CARD);
  });

  it('a missing legacy path is info only', async () => {
    const server = await start((req, res) =>
      req.url === '/.well-known/agent.json' ? status(404)(req, res) : wellBehaved()(req, res),
    );
    const report = await discoverAgentCard(server.origin, { allowHttp: true });
    expect(finding(report, 'discovery-legacy-path', 'info').message).toMatch(/not served \(status 404 Not Found\)/);
    expect(report.ok).toBe(true);
    expect(report.pathsConsistent).toBeUndefined();
  });

  it('a legacy path that redirects to agent-card.json is consistent and quiet', async () => {
    const report = await discover((req, res) => {
      if (req.url === '/.well-known/agent.json') {
        res.writeHead(301, { location: '/.well-known/agent-card.json' });
        res.end();
      } else wellBehaved()(req, res);
    });
    expect(report.legacy.redirects).toMatchObject([{ status: 301, sameOrigin: true, followed: true }]);
    expect(report.legacy.finalUrl).toMatch(/\/\.well-known\/agent-card\.json$/);
    expect(report.pathsConsistent).toBe(true);
    expect(ids(report, 'warning')).toEqual([]);
    expect(report.findings.some((f) => f.rule === 'discovery-legacy-path' || f.rule === 'discovery-redirect')).toBe(
      false,
    );
  });

  it('a stale legacy copy gives paths-consistent and legacy-path warnings', async () => {
    const report = await discover(misbehaving.stalePaths);
    expect(finding(report, 'discovery-paths-consistent', 'warning').message).toMatch(/version "1.4.0" vs "1.3.0"/);
    finding(report, 'discovery-legacy-path', 'warning');
    expect(report.pathsConsistent).toBe(false);
    expect(report.consistency).toMatchObject({ sameDocument: false, sameBytes: false, sameEtag: false, method: 'jcs' });
  });

  it('compares canonical JSON, not bytes, and flags differing ETags', async () => {
    const report = await discover(misbehaving.reformattedLegacy);
    expect(report.consistency).toEqual({ sameDocument: true, sameBytes: false, sameEtag: false, method: 'jcs' });
    expect(report.pathsConsistent).toBe(false);
    expect(finding(report, 'discovery-paths-consistent', 'warning').message).toMatch(
      /same document but a different ETag/,
    );
    expect(report.findings.some((f) => f.rule === 'discovery-legacy-path')).toBe(false);
  });

  it('a bare static host gets caching, ETag, CORS, preflight and HEAD findings', async () => {
    const report = await discover(misbehaving.bareStatic);
    expect(ids(report, 'error')).toEqual([]);
    for (const [rule, severity] of [
      ['discovery-cache-control', 'warning'],
      ['discovery-etag', 'warning'],
      ['discovery-cors', 'warning'],
      ['discovery-cors', 'info'],
      ['discovery-content-type', 'info'],
      ['discovery-methods', 'info'],
    ] as const) {
      finding(report, rule, severity);
    }
    expect(finding(report, 'discovery-methods', 'info').message).toMatch(/HEAD answered 405 without an Allow header/);
    expect(report.primary.conditional).toBeUndefined();
  });

  it('flags immutable caching, * with credentials and an ETag that changes per request', async () => {
    const report = await discover(misbehaving.badHeaders);
    expect(finding(report, 'discovery-cors', 'error').message).toMatch(
      /\* with Access-Control-Allow-Credentials: true/,
    );
    const cache = report.findings.filter((f) => f.rule === 'discovery-cache-control').map((f) => f.message);
    expect(cache.some((m) => /immutable/.test(m))).toBe(true);
    expect(cache.some((m) => /longer than one day/.test(m))).toBe(true);
    expect(finding(report, 'discovery-conditional-get', 'warning').message).toMatch(/different ETag for the same body/);
    expect(report.primary.conditional).toMatchObject({ status: 200, sameEtag: false, bodyEmpty: false });
  });

  it('a v0.3 card to header-less requests warns and needs Vary: A2A-Version', async () => {
    const report = await discover(misbehaving.versionNegotiation);
    expect(finding(report, 'discovery-version-negotiation', 'warning').message).toMatch(
      /header-less request got v0\.3, A2A-Version: 1\.0 got v1\.0/,
    );
    expect(finding(report, 'discovery-vary', 'warning').message).toMatch(/depends on A2A-Version but Vary lacks it/);
    expect(report.primary.versioned).toMatchObject({ status: 200, sameBody: false, shape: 'v1.0' });
  });

  it('an echoed Origin without Vary: Origin warns', async () => {
    const report = await discover(misbehaving.echoOrigin);
    expect(finding(report, 'discovery-vary', 'warning').message).toMatch(
      /echoes the request Origin without Vary: Origin/,
    );
  });

  it('validates the card with the profile and lists its findings with the card URL', async () => {
    const report = await discover(
      wellBehaved({
        ...GOOD_CARD,
        supportedInterfaces: [{ url: 'http://localhost:3000/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
    );
    const localhost = finding(report, 'url-localhost', 'error');
    expect(localhost.path).toBe('/supportedInterfaces/0/url');
    expect(localhost.url).toMatch(/\/\.well-known\/agent-card\.json$/);
    expect(report.primary.valid).toBe(false);
    expect(report.card).toBeUndefined();
    expect(report.document).toBeDefined();
    const dev = await discover(
      wellBehaved({
        ...GOOD_CARD,
        supportedInterfaces: [{ url: 'http://localhost:3000/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
      { profile: 'development' },
    );
    expect(dev.findings.some((f) => f.rule === 'url-localhost' && f.severity === 'error')).toBe(false);
  });

  it('sorts findings errors first', async () => {
    const report = await discover(misbehaving.spaFallback);
    const order = { error: 0, warning: 1, info: 2 };
    const severities = report.findings.map((f) => order[f.severity]);
    expect(severities).toEqual([...severities].sort((a, b) => a - b));
  });
});

describe('discoverAgentCard input and options', () => {
  it.each([
    ['acme.test', 'https://acme.test'],
    ['https://acme.test/.well-known/agent-card.json', 'https://acme.test'],
    ['https://acme.test/.well-known/agent.json?x=1', 'https://acme.test'],
    ['http://acme.test', 'https://acme.test'],
    ['  ACME.test:8443  ', 'https://acme.test:8443'],
  ])('%s is checked at %s', async (input, origin) => {
    const seen: string[] = [];
    const report = await discoverAgentCard(input, {
      probeHttp: false,
      fetch: async (url) => {
        seen.push(url);
        return new Response('{}', { status: 404 });
      },
    });
    expect(report.origin).toBe(origin);
    expect(new Set(seen.map((u) => new URL(u).origin))).toEqual(new Set([origin]));
  });

  it.each([
    ['', {}],
    ['ftp://acme.test', {}],
    ['https://', {}],
    ['acme.test', { timeoutMs: 0 }],
    ['acme.test', { maxBytes: -1 }],
    ['acme.test', { maxRedirects: 1.5 }],
    ['acme.test', { profile: 'loose' }],
    ['acme.test', { corsOrigin: 'https://example.org/path' }],
    ['acme.test', { headers: { 'x-bad': 'a\r\nb' } }],
    ['acme.test', { jwksUrl: 'http://keys.acme.test/jwks.json' }],
  ])('rejects %j with %j before any request', async (input, options) => {
    await expect(discoverAgentCard(input, options as DiscoveryOptions)).rejects.toMatchObject({
      name: 'AgentCardError',
      code: 'ERR_AGENT_CARD_OPTIONS',
      message: expect.stringMatching(/^discoverAgentCard: .+\. .+/),
    });
  });

  it('ends pending requests when the signal aborts', async () => {
    const server = await start(misbehaving.slowHeaders);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const report = await discoverAgentCard(server.origin, {
      allowHttp: true,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(report.primary.failure?.kind).toBe('aborted');
    expect(report.ok).toBe(false);
  });
});
