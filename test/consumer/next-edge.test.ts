// @agent-card/core/next on Next.js's edge runtime (`export const runtime = 'edge'`), from the
// tarballs: `next build` loads each edge route in the edge sandbox, where a Node built-in such as
// node:crypto does not exist, then `next start` serves the card, 304, HEAD, CORS and the extended
// card from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, explain, freePort, packAll, removeApp, run, type Started, startServer } from './harness';

let tarballDir: string | undefined;
let dir: string | undefined;
let server: Started | undefined;
let built: Awaited<ReturnType<typeof run>> | undefined;

beforeAll(async () => {
  const { dir: packed, tarballs } = await packAll();
  tarballDir = packed;
  dir = await createApp(
    'next-edge',
    {
      fixture: 'next-edge',
      type: 'module',
      packages: ['@agent-card/core', '@agent-card/discovery', '@agent-card/cli'],
      registry: [
        'next@^16.0.0',
        'react@^19.0.0',
        'react-dom@^19.0.0',
        'typescript@5.9.3',
        '@types/react@^19.0.0',
        '@types/node@^20.19.0',
      ],
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

describe("Next.js 16 edge runtime (export const runtime = 'edge') with @agent-card/core/next", () => {
  it('builds: the edge routes load in the edge sandbox, which has no Node built-in', () => {
    expect(built?.code, built && explain(built)).toBe(0);
    expect(built!.stdout + built!.stderr).not.toMatch(/Native module not found/);
  });

  it('serves the card with its ETag, 304, HEAD and the CORS preflight', async () => {
    const url = `${started().base}/.well-known/agent-card.json`;
    const response = await fetch(url);
    expect(response.status, started().output()).toBe(200);
    expect([response.headers.get('content-type'), response.headers.get('access-control-allow-origin')]).toEqual([
      'application/a2a+json',
      '*',
    ]);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, etag, '']);
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
  });

  it('gives the extended card only to whom authenticate admits', async () => {
    const url = `${started().base}/a2a/rest/extendedAgentCard`;
    expect((await fetch(url)).status).toBe(401);
    const granted = await fetch(url, { headers: { 'x-api-key': 'partner-key' } });
    expect(granted.status).toBe(200);
    expect(((await granted.json()) as { skills: { id: string }[] }).skills.map((s) => s.id)).toEqual([
      'order-status',
      'refund',
    ]);
  });

  it('passes agent-card check', async () => {
    const check = await run(
      'npx',
      ['--no-install', 'agent-card', 'check', started().base, '--allow-http', '--profile', 'development'],
      { cwd: dir!, timeout: 120_000 },
    );
    expect(check.code, explain(check)).toBe(0);
  });
});
