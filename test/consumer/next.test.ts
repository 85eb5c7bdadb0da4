// @agent-card/core/next in a real Next.js 16 App Router app, from the tarballs: `next build` (which
// type-checks every route.ts against Next's own route types) and `next start`, then the card, the
// agents, the AI Catalog and the extended card over HTTP, and `agent-card check` against it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, explain, freePort, packAll, removeApp, run, type Started, startServer } from './harness';

/** The Next.js the app installs: 16 runs on Node 20.9 and later, as the packages do. */
const NEXT = ['next@^16.0.0', 'react@^19.0.0', 'react-dom@^19.0.0'];
const TYPES = ['typescript@5.9.3', '@types/react@^19.0.0', '@types/node@^20.19.0'];

let tarballDir: string | undefined;
let dir: string | undefined;
let server: Started | undefined;
let built: Awaited<ReturnType<typeof run>> | undefined;

beforeAll(async () => {
  const { dir: packed, tarballs } = await packAll();
  tarballDir = packed;
  dir = await createApp(
    'next',
    {
      fixture: 'next',
      type: 'module',
      packages: ['@agent-card/core', '@agent-card/discovery', '@agent-card/cli'],
      registry: [...NEXT, ...TYPES],
    },
    tarballs,
  );
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  built = await run(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    cwd: dir,
    env,
    timeout: 480_000,
  });
  if (built.code !== 0) return;
  const port = await freePort();
  // The cards' URLs are on the origin the app is started on, so `check` follows the catalog there.
  server = await startServer(
    dir,
    'node_modules/next/dist/bin/next',
    { ...env, PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` },
    60_000,
    ['start', '--port', String(port), '--hostname', '127.0.0.1'],
  );
}, 900_000);

/** The started app; a build or start that failed is reported by the first test, named here. */
function started(): Started {
  if (server === undefined) throw new Error('next build or next start failed: see the first test of this file');
  return server;
}

afterAll(async () => {
  await server?.stop();
  await removeApp(dir);
  await removeApp(tarballDir);
}, 120_000);

describe('Next.js 16 App Router app with @agent-card/core/next, from the tarballs', () => {
  it('builds: next build type-checks GET, HEAD and OPTIONS of every route.ts', () => {
    expect(built?.code, built && explain(built)).toBe(0);
    expect(built!.stdout).toMatch(/Finished TypeScript/);
    const version = JSON.parse(readFileSync(join(dir!, 'node_modules/next/package.json'), 'utf8')).version;
    expect(version).toMatch(/^16\./);
  });

  it('serves the card with its ETag, 304, HEAD, the CORS preflight, and Next answers 405 to POST', async () => {
    const url = `${started().base}/.well-known/agent-card.json`;
    const response = await fetch(url);
    expect(response.status, started().output()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/a2a+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await response.json()) as { name: string }).name).toBe('Orders Agent');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const revalidated = await fetch(url, { headers: { 'if-none-match': etag } });
    expect([revalidated.status, revalidated.headers.get('etag')]).toEqual([304, etag]);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, etag, '']);
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([
      204,
      'GET, HEAD, OPTIONS',
    ]);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
  });

  it('serves each agent at app/agents/[id]/… and the AI Catalog listing them; an unknown agent is a 404', async () => {
    for (const [id, name] of [
      ['orders', 'Orders Agent'],
      ['refunds', 'Refunds Agent'],
    ]) {
      const response = await fetch(`${started().base}/agents/${id}/.well-known/agent-card.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toBe(
        '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
      );
      expect(((await response.json()) as { name: string }).name).toBe(name);
    }
    const unknown = await fetch(`${started().base}/agents/nobody/.well-known/agent-card.json`);
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { error: { code: 404, status: 'NOT_FOUND', message: 'Not found.' } },
    ]);
    const catalog = (await (await fetch(`${started().base}/.well-known/ai-catalog.json`)).json()) as {
      entries: { url: string }[];
    };
    expect(catalog.entries.map((e) => e.url)).toEqual([
      `${started().base}/agents/orders/.well-known/agent-card.json`,
      `${started().base}/agents/refunds/.well-known/agent-card.json`,
    ]);
    // The ARD manifest the Link header names is served from the same agents.
    const ard = (await (await fetch(`${started().base}/.well-known/ard.json`)).json()) as {
      entries: { url: string }[];
    };
    expect(ard.entries.map((e) => e.url)).toEqual(catalog.entries.map((e) => e.url));
  });

  it('serves the legacy alias and the viewer page from the catch-all app/.well-known/[...path]/route.ts', async () => {
    const card = await (await fetch(`${started().base}/.well-known/agent-card.json`)).text();
    const alias = await fetch(`${started().base}/.well-known/agent.json`);
    expect(alias.status, started().output()).toBe(200);
    expect(await alias.text()).toBe(card);
    const page = await fetch(`${started().base}/.well-known/agent-card.html`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('Orders Agent');
    const agentAlias = await fetch(`${started().base}/agents/orders/.well-known/agent.json`);
    expect([agentAlias.status, ((await agentAlias.json()) as { name: string }).name]).toEqual([200, 'Orders Agent']);
    const other = await fetch(`${started().base}/.well-known/nothing.json`);
    expect([other.status, await other.json()]).toEqual([
      404,
      { error: { code: 404, status: 'NOT_FOUND', message: 'Not found.' } },
    ]);
  });

  it('gives the extended card only to whom authenticate admits', async () => {
    const url = `${started().base}/a2a/rest/extendedAgentCard`;
    for (const key of [undefined, 'wrong-key']) {
      const refused = await fetch(url, { headers: key === undefined ? {} : { 'x-api-key': key } });
      expect(refused.status).toBe(401);
    }
    const granted = await fetch(url, { headers: { 'x-api-key': 'partner-key' } });
    expect(granted.status).toBe(200);
    expect(((await granted.json()) as { skills: { id: string }[] }).skills.map((s) => s.id)).toEqual([
      'order-status',
      'refund',
    ]);
  });

  it('passes agent-card check, run from the tarball with npx', async () => {
    const check = await run(
      'npx',
      ['--no-install', 'agent-card', 'check', started().base, '--allow-http', '--profile', 'development'],
      { cwd: dir!, timeout: 120_000 },
    );
    expect(check.code, explain(check)).toBe(0);
    expect(check.stdout).toMatch(/✔ ok: 0 errors, 0 warnings/);
  });
});
