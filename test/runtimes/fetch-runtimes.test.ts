// The fetch handler on the runtimes users deploy it to, started for real on loopback: workerd
// (Cloudflare Workers, through wrangler's local mode, with no compatibility flags), with core's
// handler and with a Hono app; Deno; Bun. Each answers every case as Node answers it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app as nodeApp } from './apps/card-app.mjs';
import { TOKEN } from './apps/card.mjs';
import {
  APPS_DIR,
  binary,
  prepareRuntimes,
  type RunningApp,
  type RuntimeTool,
  startApp,
  startWorker,
  warnSkipped,
} from './harness';

const CARD_PATH = '/.well-known/agent-card.json';
const EXTENDED_PATH = '/a2a/rest/extendedAgentCard';
const origin = 'https://browser.runtime-card.dev';

interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  status: number;
  /** Compared with what Node answers (headers and body); off where the host app answers. */
  sameAsNode?: false;
  expect?: (res: Got) => void;
}

interface Got {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers an answer of core carries, compared between runtimes (not Date, Connection, …). */
const COMPARED = [
  'content-type',
  'etag',
  'cache-control',
  'vary',
  'allow',
  'www-authenticate',
  'x-content-type-options',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-expose-headers',
];

let etag = '';

const CASES: Case[] = [
  {
    name: 'GET the card → 200, its bytes, ETag, Cache-Control, CORS',
    path: CARD_PATH,
    status: 200,
    expect: (res) => {
      expect(res.headers['content-type']).toBe('application/a2a+json');
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(res.body).name).toBe('Runtime Agent');
    },
  },
  {
    name: 'If-None-Match with the ETag → 304 with no body',
    path: CARD_PATH,
    headers: { 'if-none-match': '<etag>' },
    status: 304,
    expect: (res) => expect(res.body).toBe(''),
  },
  {
    name: 'HEAD → 200, the card headers, no body',
    method: 'HEAD',
    path: CARD_PATH,
    status: 200,
    expect: (res) => {
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    },
  },
  {
    name: 'CORS preflight → 204 with the allowed methods',
    method: 'OPTIONS',
    path: CARD_PATH,
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    status: 204,
    expect: (res) => expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS'),
  },
  {
    name: 'a cross-origin GET → Access-Control-Allow-Origin: *',
    path: CARD_PATH,
    headers: { origin },
    status: 200,
    expect: (res) => expect(res.headers['access-control-allow-origin']).toBe('*'),
  },
  {
    name: 'the extended card without a token → 401 with WWW-Authenticate',
    path: EXTENDED_PATH,
    status: 401,
    expect: (res) => {
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.body).not.toContain('private-audit');
    },
  },
  {
    name: 'the extended card with the token → 200 with the private skill, not cached',
    path: EXTENDED_PATH,
    headers: { authorization: `Bearer ${TOKEN}` },
    status: 200,
    expect: (res) => {
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(JSON.parse(res.body).skills.map((s: { id: string }) => s.id)).toEqual(['public-answer', 'private-audit']);
    },
  },
  {
    name: 'POST the card → 405 with Allow',
    method: 'POST',
    path: CARD_PATH,
    status: 405,
    expect: (res) => expect(res.headers.allow).toBe('GET, HEAD, OPTIONS'),
  },
  { name: 'another path falls through to the app', path: '/elsewhere', status: 404, sameAsNode: false },
];

function requestOf(c: Case, base: string): Request {
  const headers = Object.fromEntries(
    Object.entries(c.headers ?? {}).map(([name, value]) => [name, value === '<etag>' ? etag : value]),
  );
  return new Request(`${base}${c.path}`, { method: c.method ?? 'GET', headers });
}

async function gotOf(response: Response): Promise<Got> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

const picked = (headers: Record<string, string>) =>
  Object.fromEntries(COMPARED.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]));

/** What Node answers, in this process, through the same app. */
async function nodeAnswer(c: Case): Promise<Got> {
  return gotOf(await nodeApp(requestOf(c, 'http://127.0.0.1:1'), { remoteAddress: '127.0.0.1' }));
}

interface Runtime {
  name: string;
  tool: RuntimeTool;
  start: () => Promise<RunningApp>;
  /** What `/signing` reports: `ok`, or the error, per algorithm. */
  signing?: Record<'ES256' | 'EdDSA' | 'RS256', string | RegExp>;
}

const NO_NODE_CRYPTO = /this runtime has no node:crypto.*Sign the card at build time \(agent-card sign\)/;

const RUNTIMES: Runtime[] = [
  {
    name: 'workerd (wrangler dev, no compatibility flags)',
    tool: 'wrangler',
    start: () => startWorker(`${APPS_DIR}worker.mjs`),
    signing: { ES256: NO_NODE_CRYPTO, EdDSA: NO_NODE_CRYPTO, RS256: NO_NODE_CRYPTO },
  },
  {
    name: 'Hono on workerd (wrangler dev, no compatibility flags)',
    tool: 'wrangler',
    start: () => startWorker(`${APPS_DIR}worker-hono.mjs`),
  },
  {
    name: 'Deno',
    tool: 'deno',
    start: () =>
      startApp(binary('deno'), ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', `${APPS_DIR}deno.mjs`], {
        cwd: APPS_DIR,
        port: 'printed',
        env: { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
      }),
    signing: { ES256: 'ok', EdDSA: 'ok', RS256: 'ok' },
  },
  {
    name: 'Bun',
    tool: 'bun',
    start: () => startApp(binary('bun'), [`${APPS_DIR}bun.mjs`], { cwd: APPS_DIR, port: 'printed' }),
    signing: { ES256: 'ok', EdDSA: 'ok', RS256: 'ok' },
  },
];

const problems = await prepareRuntimes();
for (const tool of Object.keys(problems) as RuntimeTool[]) {
  const problem = problems[tool];
  if (problem !== undefined) warnSkipped(tool, problem);
}

describe.each(RUNTIMES)('the fetch handler on $name', (runtime) => {
  const skipped = problems[runtime.tool] !== undefined;
  let running: RunningApp | undefined;

  beforeAll(async () => {
    if (skipped) return;
    running = await runtime.start();
    etag = (await nodeAnswer(CASES[0] as Case)).headers.etag ?? '';
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  }, 30_000);

  it.skipIf(skipped).each(CASES)('$name', async (c) => {
    const app = running as RunningApp;
    const res = await gotOf(await fetch(requestOf(c, app.url)));
    expect(res.status, app.output()).toBe(c.status);
    c.expect?.(res);
    if (c.sameAsNode !== false) {
      const node = await nodeAnswer(c);
      expect(picked(res.headers)).toEqual(picked(node.headers));
      expect(res.body).toBe(node.body);
    }
  });

  // The Hono app runs on the workerd already asked; it has no signing row of its own.
  if (runtime.signing === undefined) return;
  it.skipIf(skipped)(
    'signs and verifies with the algorithms the runtime has',
    async () => {
      const app = running as RunningApp;
      const report = (await (await fetch(`${app.url}/signing`)).json()) as Record<string, string>;
      for (const [alg, expected] of Object.entries(runtime.signing ?? {})) {
        if (typeof expected === 'string') expect(report[alg], alg).toBe(expected);
        else expect(report[alg], alg).toMatch(expected);
      }
    },
    60_000,
  );
});
