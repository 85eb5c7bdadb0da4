// agent-card build: the files and headers a static host serves are the middleware's, byte for
// byte and ETag for ETag; served by Debian's nginx with the snippet it writes, `agent-card check`
// passes. Each case builds from a configuration module, as a user would, then asks the
// middleware (core's Node bridge over a real socket) and nginx for every document.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentCardOptions, createAgentCardNodeHandler, createAgentCardResponder } from '@agent-card/core/http';
import { cli, loopbackServers } from '../test/run-cli';
import { freePort, nginxMissing, nginxTest, startNginx } from '../test/nginx';

const servers = loopbackServers();
const dirs: string[] = [];
afterAll(async () => {
  await servers.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-build-'));
  dirs.push(dir);
  return dir;
}

const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const sign = { privateKey, alg: 'ES256', kid: 'site-2026' };

/** A card whose endpoint is on `origin` under `path`. */
const cardAt = (origin: string, path: string, name: string) => ({
  name,
  description: `${name}: answers questions about Acme orders.`,
  version: '1.0.0',
  supportedInterfaces: [{ url: `${origin}${path}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

/** The configurations built, each as the options the middleware takes for the site at `origin`. */
const configurations: [string, (origin: string) => Record<string, unknown>][] = [
  ['one signed card with its page', (origin) => ({ card: cardAt(origin, '', 'Orders Agent'), sign, viewer: true })],
  [
    'two agents, a default, the AI Catalog and a JWK Set',
    (origin) => ({
      agents: [
        { id: 'orders', path: '/agents/orders', card: cardAt(origin, '/agents/orders', 'Orders Agent') },
        { id: 'refunds', path: '/agents/refunds', card: cardAt(origin, '/agents/refunds', 'Refunds Agent') },
      ],
      default: 'orders',
      catalog: { baseUrl: origin },
      sign,
    }),
  ],
  [
    'two agents, the AI Catalog with an MCP server, its MCP catalog and the ARD manifest',
    (origin) => ({
      agents: [
        { id: 'orders', path: '/agents/orders', card: cardAt(origin, '/agents/orders', 'Orders Agent') },
        { id: 'refunds', path: '/agents/refunds', card: cardAt(origin, '/agents/refunds', 'Refunds Agent') },
      ],
      default: 'orders',
      catalog: {
        baseUrl: origin,
        publisher: 'acme-corp.dev',
        host: { displayName: 'Acme' },
        entries: [
          {
            identifier: 'urn:air:acme-corp.dev:mcp:orders',
            type: 'application/mcp-server-card+json',
            url: `${origin}/mcp/server-card.json`,
          },
        ],
      },
      legacy: false,
    }),
  ],
];

/** Writes `options` as a configuration module and runs `agent-card build` on it. */
async function build(options: Record<string, unknown>, extra: string[] = []) {
  const dir = tmp();
  writeFileSync(join(dir, 'agent-card.config.mjs'), `export default ${JSON.stringify(options, null, 2)};\n`);
  const run = await cli(['build', 'agent-card.config.mjs', '--out', 'site', '--profile', 'development', ...extra], {
    cwd: dir,
  });
  return { dir, site: join(dir, 'site'), run };
}

/** The middleware for the same options, on a real socket. */
async function middleware(options: Record<string, unknown>): Promise<string> {
  const handle = createAgentCardNodeHandler(
    createAgentCardResponder({ profile: 'development', ...(options as AgentCardOptions) }),
  );
  return servers.listen(
    createServer((req, res) =>
      handle(req, res, () => {
        res.statusCode = 404;
        res.end();
      }),
    ),
  );
}

/** The headers both must send alike (the host adds its own Date, Server, Last-Modified…). */
const COMPARED = [
  'content-type',
  'etag',
  'cache-control',
  'access-control-allow-origin',
  'x-content-type-options',
  'link',
  'vary',
  'content-security-policy',
];
const picked = (response: Response) => Object.fromEntries(COMPARED.map((name) => [name, response.headers.get(name)]));

/** The document paths `build` wrote: every file under site/ but the headers files. */
function writtenPaths(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.replace(/^site/, '').replaceAll('\\', '/'))
    .filter((path) => path.includes('/.well-known/'));
}

describe('agent-card build', () => {
  it('writes the ARD manifest and the MCP catalog a multi-agent host serves', async () => {
    const { run } = await build(configurations[2]![1]('https://agents.acme-corp.dev'));
    expect(run.code, run.stderr).toBe(0);
    expect(writtenPaths(run.stdout)).toEqual([
      '/agents/orders/.well-known/agent-card.json',
      '/agents/refunds/.well-known/agent-card.json',
      '/.well-known/agent-card.json',
      '/.well-known/ai-catalog.json',
      '/.well-known/mcp/catalog.json',
      '/.well-known/ard.json',
    ]);
  });

  it.each(configurations)('%s: every file is the bytes the middleware serves', async (_name, configure) => {
    const options = configure('https://agents.acme-corp.dev');
    const { dir, site, run } = await build(options);
    expect(run.code, run.stderr).toBe(0);
    const paths = writtenPaths(run.stdout);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    const served = await middleware(options);
    for (const path of paths) {
      const response = await fetch(served + path);
      expect(response.status, path).toBe(200);
      expect(new Uint8Array(readFileSync(join(site, path))), path).toEqual(
        new Uint8Array(await response.arrayBuffer()),
      );
    }
    const headers = readFileSync(join(site, '_headers'), 'utf8');
    const vercel = JSON.parse(readFileSync(join(dir, 'vercel.json'), 'utf8')) as {
      headers: { source: string; headers: { key: string; value: string }[] }[];
    };
    expect(vercel.headers.map((h) => h.source)).toEqual(paths);
    for (const path of paths) {
      const response = await fetch(served + path);
      const expected = Object.entries(picked(response)).filter(([name, value]) => value !== null && name !== 'etag');
      const rule = vercel.headers.find((h) => h.source === path)!;
      const block = headers.split('\n\n').find((b) => b.split('\n').includes(path))!;
      for (const [name, value] of expected) {
        expect(rule.headers.find((h) => h.key.toLowerCase() === name)?.value, `${path} ${name}`).toBe(value);
        expect(block.split('\n').map((l) => l.trim().toLowerCase())).toContain(`${name}: ${value}`.toLowerCase());
      }
    }
  });

  it.skipIf(nginxMissing !== undefined).each(configurations)(
    '%s: served by nginx with the snippet, the same bytes, ETags, 304, 204 and 405, and check passes',
    async (_name, configure) => {
      const port = await freePort();
      const options = configure(`http://127.0.0.1:${port}`);
      const { dir, site, run } = await build(options);
      expect(run.code, run.stderr).toBe(0);
      const nginx = await startNginx(site, join(dir, 'agent-card.nginx.conf'), port);
      try {
        const served = await middleware(options);
        for (const path of writtenPaths(run.stdout)) {
          const [ours, theirs] = await Promise.all([fetch(nginx.base + path), fetch(served + path)]);
          expect([ours.status, picked(ours)], path).toEqual([theirs.status, picked(theirs)]);
          expect(new Uint8Array(await ours.arrayBuffer())).toEqual(new Uint8Array(await theirs.arrayBuffer()));
          const etag = ours.headers.get('etag')!;
          for (const inm of [etag, `"other", W/${etag}`, '*']) {
            const again = await fetch(nginx.base + path, { headers: { 'if-none-match': inm } });
            expect([again.status, again.headers.get('etag'), await again.text()], `${path} ${inm}`).toEqual([
              304,
              etag,
              '',
            ]);
          }
          const stale = await fetch(nginx.base + path, { headers: { 'if-none-match': '"stale"' } });
          expect(stale.status).toBe(200);
          const asked = {
            method: 'OPTIONS',
            headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
          };
          const [preflight, expected] = await Promise.all([
            fetch(nginx.base + path, asked),
            fetch(served + path, asked),
          ]);
          const cors = (r: Response) =>
            [
              'allow',
              'access-control-allow-origin',
              'access-control-allow-methods',
              'access-control-allow-headers',
              'access-control-max-age',
            ].map((name) => r.headers.get(name));
          expect([preflight.status, ...cors(preflight)], `${path} OPTIONS`).toEqual([204, ...cors(expected)]);
          const post = await fetch(nginx.base + path, { method: 'POST' });
          expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
        }
        const check = await cli(['check', nginx.base, '--allow-http', '--profile', 'development', '--json'], {
          timeoutMs: 60_000,
        });
        const report = JSON.parse(check.stdout) as { findings: { severity: string; rule: string; message: string }[] };
        expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
        expect(check.code).toBe(0);
      } finally {
        await nginx.stop();
      }
    },
    60_000,
  );

  /** The file `build` listed on stdout whose name is `name`, resolved in `dir`. */
  const listed = (dir: string, stdout: string, name: string) =>
    join(dir, stdout.split('\n').find((line) => line.endsWith(name))!);

  // Every character an agent path may hold besides letters and digits (core's AGENT_PATH), and a
  // regular expression: nginx reads `;` as the end of a directive, Netlify's `_headers` reads `*` as
  // a splat and `:x` as a placeholder, Vercel's `source` reads `:x`, `(…)`, `*` and `+` as patterns.
  const agentPaths = [...`-._~!$&'()*+,;=:@`].map((c) => `/agents/a${c}xb`).concat('/agents/a(.*)b');
  it.skipIf(nginxMissing !== undefined).each(agentPaths)(
    'agent path %s: refused with the character named, or written so that nginx, Netlify and Vercel read it literally',
    async (path) => {
      const origin = 'https://agents.acme-corp.dev';
      const { dir, site, run } = await build({
        agents: [{ id: 'orders', path, card: cardAt(origin, path, 'Orders') }],
      });
      if (run.code !== 0) {
        expect(run.code).toBe(2);
        const [, character] = /has "(.)", which/.exec(run.stderr) ?? [];
        expect(path, run.stderr).toContain(character);
        expect(run.stderr).toContain(`${path}/.well-known/agent-card.json: has "${character}", which`);
        expect(existsSync(site)).toBe(false);
        return;
      }
      const snippet = listed(dir, run.stdout, 'agent-card.nginx.conf');
      const tested = nginxTest(site, snippet);
      expect(tested.ok, tested.output).toBe(true);
      const headers = readFileSync(listed(dir, run.stdout, '_headers'), 'utf8');
      const pathLines = headers.split('\n').filter((line) => line.startsWith('/'));
      expect(pathLines).toContain(`${path}/.well-known/agent-card.json`);
      for (const line of pathLines) expect(line).not.toMatch(/[*:]/);
      const vercel = JSON.parse(readFileSync(listed(dir, run.stdout, 'vercel.json'), 'utf8')) as {
        headers: { source: string }[];
      };
      for (const { source } of vercel.headers) expect(source).not.toMatch(/[*:()+?{}\\]/);
      const nginx = await startNginx(site, snippet);
      try {
        const served = await fetch(`${nginx.base}${path}/.well-known/agent-card.json`);
        expect([served.status, served.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
      } finally {
        await nginx.stop();
      }
    },
    30_000,
  );

  it.skipIf(nginxMissing !== undefined)(
    'writes no server configuration nginx would serve from the web root',
    async () => {
      const { dir, site, run } = await build(configurations[1]![1]('https://agents.acme-corp.dev'));
      expect(run.code, run.stderr).toBe(0);
      const nginx = await startNginx(site, listed(dir, run.stdout, 'agent-card.nginx.conf'));
      try {
        for (const file of ['/agent-card.nginx.conf', '/vercel.json', '/_headers']) {
          const response = await fetch(nginx.base + file);
          const body = await response.text();
          expect([file, response.status, body.includes('agent-card build')]).toEqual([file, 404, false]);
        }
      } finally {
        await nginx.stop();
      }
    },
    30_000,
  );

  it('refuses a card function, which the middleware builds per request, and writes nothing', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'agent-card.config.mjs'),
      `export default { card: () => (${JSON.stringify(cardAt('https://agents.acme-corp.dev', '', 'Orders Agent'))}), dynamic: { allowedOrigins: ['https://agents.acme-corp.dev'] } };\n`,
    );
    const run = await cli(['build', 'agent-card.config.mjs', '--out', 'site'], { cwd: dir });
    expect([run.code, run.stderr]).toEqual([
      2,
      'agent-card: agent-card.config.mjs: a card function is built per request, so there are no files to write. Give a card (an object), or serve it with the middleware.\n',
    ]);
    expect(existsSync(join(dir, 'site'))).toBe(false);
  });

  it('refuses a list of CORS origins, which only a server can echo', async () => {
    const { run, site } = await build({
      card: cardAt('https://agents.acme-corp.dev', '', 'A'),
      cors: ['https://a.example'],
    });
    expect([run.code, run.stderr]).toEqual([
      2,
      "agent-card: agent-card.config.mjs: cors is a list of origins, which the server must echo per request; a static host sends the same headers to everyone. Use cors: '*' or false, or serve the card with the middleware.\n",
    ]);
    expect(existsSync(site)).toBe(false);
  });

  it('lists every problem of an invalid card, as the middleware does at start-up, and exits 1', async () => {
    const { run } = await build({ card: { ...cardAt('https://agents.acme-corp.dev', '', 'A'), skills: 'none' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('/skills');
    expect(run.stderr).toMatch(
      /agent-card\.config\.mjs: the options or the card are invalid \(above\)\. Fix them and build again\.\n$/,
    );
  });

  it('overwrites nothing without --force: a file in the way stops the build before the first write', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'agent-card.json'),
      JSON.stringify(cardAt('https://agents.acme-corp.dev', '', 'Orders Agent')),
    );
    const first = await cli(['build', 'agent-card.json', '--out', 'site', '--profile', 'development'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    rmSync(join(dir, 'site/.well-known'), { recursive: true });
    const second = await cli(['build', 'agent-card.json', '--out', 'site', '--profile', 'development'], { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `agent-card: ${join(dir, 'site', '_headers')}: already exists. Pass --force to overwrite it.\n`,
    );
    expect(existsSync(join(dir, 'site/.well-known'))).toBe(false);
    const forced = await cli(['build', 'agent-card.json', '--out', 'site', '--profile', 'development', '--force'], {
      cwd: dir,
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(dir, 'site/.well-known/agent-card.json'))).toBe(true);
  });
});
