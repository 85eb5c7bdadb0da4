// Reliability corpus: hostile and malformed requests against every adapter, over raw sockets so
// that nothing in a client library tidies the bytes up first. Whatever arrives, the answer is
// never a 5xx, the process never crashes, and the app's own routes still work afterwards.
// Hosts: Express 4 and 5 (and Express 5 serving from a store), Koa 2 and 3, Nest 11 and 12 on platform-express, and Hono on a real
// Node server in front of the core fetch handler.
// Also Fastify 4 and 5 with @agent-card/fastify, and Hono with @agent-card/hono.
import 'reflect-metadata';
import { realpathSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import express5 from 'express';
import express4 from 'express4';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import * as nest12Common from '@nestjs/common';
import * as nest12Core from '@nestjs/core';
import * as nest12Express from '@nestjs/platform-express';
import { type AgentCard, createAgentCardFetchHandler } from '@agent-card/core';
import { memoryStore, openCardStore } from '@agent-card/core/store';
import { agentCard as expressAgentCard } from '@agent-card/express';
import { agentCard as koaAgentCard } from '@agent-card/koa';
import * as nest12Lib from '@agent-card/nest';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { agentCard as fastifyAgentCard } from '@agent-card/fastify';
import { agentCard as honoAgentCard } from '@agent-card/hono';

const CARD: AgentCard = {
  name: 'Corpus Agent',
  description: 'Answers the bad-request corpus so that adapters can be checked for robustness.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['test'] }],
};
const options = { card: CARD, profile: 'development' as const, logger: { warn() {} }, viewer: true };

const HONO = 'hono on @hono/node-server, in front of the fetch handler';

type AppFactory = () => RequestListener | Promise<RequestListener>;

interface NestDeps {
  common: typeof nest12Common;
  core: typeof nest12Core;
  platform: typeof nest12Express;
  lib: typeof nest12Lib;
}

/** A Nest app on platform-express with the module and one route of its own, as a request listener. */
async function nestApp({ common, core, platform, lib }: NestDeps): Promise<RequestListener> {
  const { Controller, Get, Module } = common;
  @Controller('api')
  class PingController {
    @Get('ping')
    ping() {
      return { pong: true };
    }
  }
  @Module({ imports: [lib.AgentCardModule.forRoot(options)], controllers: [PingController] })
  class CorpusModule {}
  const app = await core.NestFactory.create(CorpusModule, new platform.ExpressAdapter(), { logger: false });
  await app.init();
  return app.getHttpAdapter().getInstance() as RequestListener;
}

// Nest 11 as test/nest11 installs it, with the copy of @agent-card/nest that resolves it as its
// peer. Only read here: test/nest11 refreshes that copy, and two suites refreshing it at once
// would race.
const nest11Dir = join(dirname(fileURLToPath(import.meta.url)), 'nest11');
const nest11Require = createRequire(join(nest11Dir, 'package.json'));
const nest11 = async (): Promise<NestDeps> => ({
  common: nest11Require('@nestjs/common'),
  core: nest11Require('@nestjs/core'),
  platform: nest11Require('@nestjs/platform-express'),
  lib: await import(join(realpathSync(join(nest11Dir, 'node_modules/@agent-card/nest')), 'src/index.ts')),
});

/** A Fastify app with the plugin and one route of its own, as the request listener Fastify routes with. */
async function fastifyApp(fastify: typeof fastify5): Promise<RequestListener> {
  let listener: RequestListener | undefined;
  const app = fastify({
    serverFactory: (handler) => {
      listener = handler as RequestListener;
      return createServer();
    },
  });
  await app.register(fastifyAgentCard, options);
  app.get('/api/ping', async () => ({ pong: true }));
  await app.ready();
  return listener!;
}

const apps: Record<string, AppFactory> = {
  'express 5': () => {
    const app = express5();
    app.use(expressAgentCard(options));
    app.get('/api/ping', (_req, res) => void res.json({ pong: true }));
    return app;
  },
  'express 4': () => {
    const app = express4();
    app.use(expressAgentCard(options));
    app.get('/api/ping', (_req, res) => void res.json({ pong: true }));
    return app as unknown as RequestListener;
  },
  'koa 3': () => {
    const app = new Koa3();
    app.silent = true;
    app.use(koaAgentCard(options));
    app.use((ctx) => {
      if (ctx.path === '/api/ping') ctx.body = { pong: true };
    });
    return app.callback();
  },
  'koa 2': () => {
    const app = new Koa2();
    app.silent = true;
    app.use(koaAgentCard(options));
    app.use((ctx) => {
      if (ctx.path === '/api/ping') ctx.body = { pong: true };
    });
    return app.callback();
  },
  'nest 12 on platform-express': () =>
    nestApp({ common: nest12Common, core: nest12Core, platform: nest12Express, lib: nest12Lib }),
  'nest 11 on platform-express': async () => nestApp(await nest11()),
  [HONO]: () => {
    const handler = createAgentCardFetchHandler(options);
    const app = new Hono<{ Bindings: HttpBindings }>();
    // On Node the raw request target is at hand: paths are then compared as sent.
    app.use(async (c, next) => (await handler(c.req.raw, { target: c.env.incoming.url })) ?? next());
    app.get('/api/ping', (c) => c.json({ pong: true }));
    return getRequestListener(app.fetch);
  },
  'fastify 5': () => fastifyApp(fastify5),
  'fastify 4': () => fastifyApp(fastify4 as unknown as typeof fastify5),
  // Every request is tenant `corpus` of a store, whose card was written before the app started
  // (private answers: a tenant function with no Vary header may not be cached publicly).
  'express 5, store-backed': async () => {
    const store = memoryStore();
    await openCardStore(store, { profile: 'development' }).put('corpus', 'main', CARD);
    const { card: _card, ...rest } = options;
    const app = express5();
    app.use(
      expressAgentCard({
        ...rest,
        store,
        tenant: { from: () => 'corpus', vary: [] },
        default: 'main',
        cacheControl: 'private, max-age=60',
      }),
    );
    app.get('/api/ping', (_req, res) => void res.json({ pong: true }));
    return app;
  },
  'hono on @hono/node-server, @agent-card/hono': () => {
    const app = new Hono();
    app.use(honoAgentCard(options));
    app.get('/api/ping', (c) => c.json({ pong: true }));
    return getRequestListener(app.fetch);
  },
};

interface RawResponse {
  /** Status of the first response, `undefined` when the server closed without answering. */
  status: number | undefined;
  /** Every status line received (pipelining). */
  statuses: number[];
  text: string;
}

/** Writes `bytes` to a fresh connection and collects everything until the server closes it. */
function raw(port: number, bytes: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no close within ${timeoutMs} ms; received: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer (the server closing on a parse error) is still an answer.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
      resolve({ status: statuses[0], statuses, text });
    });
    socket.end(bytes);
  });
}

const get = (target: string, headers: string[] = []) =>
  [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, 'Connection: close', '', ''].join('\r\n');
const request = (method: string, target: string) => get(target).replace(/^GET /, `${method} `);

const WELL_KNOWN = '/.well-known/agent-card.json';
const VIEWER = '/.well-known/agent-card.html';
const bodyOf = (response: RawResponse) => response.text.slice(response.text.indexOf('\r\n\r\n') + 4);

// [name, request, expected first status]. Statuses from 400 to 431 are Node's own parser
// rejecting the bytes before any app code runs; everything else is the middleware's or the
// app's answer.
const corpus: [string, string | Buffer, number | number[]][] = [
  ['PROPFIND', request('PROPFIND', WELL_KNOWN), 405],
  ['PROPFIND on the viewer page', request('PROPFIND', VIEWER), 405],
  ['the viewer page with invalid UTF-8 in the query', get(`${VIEWER}?q=%ff%c3%28`), 200],
  ['the viewer page, percent-encoded', get('/.well-known/agent-card%2ehtml'), 404],
  ['the viewer page with a dot-segment', get(`${VIEWER}/..`), 404],
  ['the viewer page, If-None-Match: 4 KiB of commas', get(VIEWER, [`If-None-Match: ${','.repeat(4096)}`]), 200],
  ['TRACE', request('TRACE', WELL_KNOWN), 405],
  ['DELETE', request('DELETE', WELL_KNOWN), 405],
  ['lower-case get', request('get', WELL_KNOWN), 400],
  ['a 4 KiB method', request('X'.repeat(4096), WELL_KNOWN), 400],
  ['percent-encoded letter', get('/.well-known/%61gent-card.json'), 404],
  ['trailing dot-segment', get(`${WELL_KNOWN}/..`), 404],
  ['dot-segment into the well-known path', get('/x/../.well-known/agent-card.json'), 404],
  ['dot-segment inside the well-known path', get('/.well-known/x/../agent-card.json'), 404],
  ['single-dot segment', get('/./.well-known/agent-card.json'), 404],
  ['a fragment', get(`${WELL_KNOWN}#x`), 404],
  ['an empty fragment', get(`${WELL_KNOWN}#`), 404],
  ['encoded dot-segments', get('/.well-known/%2e%2e/.well-known/agent-card.json'), 404],
  ['upper-case encoded dot-segments', get('/%2E%2E/.well-known/agent-card.json'), 404],
  ['double leading slash', get(`/${WELL_KNOWN}`), 404],
  ['encoded slash', get('/.well-known%2fagent-card.json'), 404],
  ['invalid UTF-8, percent-encoded', get('/.well-known/agent-card.json%ff%fe'), 404],
  ['invalid UTF-8 in the query', get(`${WELL_KNOWN}?q=%ff%c3%28`), 200],
  [
    'invalid UTF-8 raw bytes in the path',
    Buffer.from(`GET /.well-known/agent-card.json\xff\xfe HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`, 'latin1'),
    400,
  ],
  ['a NUL byte, encoded', get('/.well-known/agent-card.json%00'), 404],
  ['asterisk-form target', get('*'), 404],
  ['absolute-form target', get(`http://127.0.0.1${WELL_KNOWN}`), 404],
  ['a 12 KiB path', get(`/${'a'.repeat(12 * 1024)}`), 404],
  ['If-None-Match: unterminated quote', get(WELL_KNOWN, ['If-None-Match: "abc']), 200],
  ['If-None-Match: only commas and W/', get(WELL_KNOWN, ['If-None-Match: ,, W/, ,W/""']), 200],
  ['If-None-Match: empty', get(WELL_KNOWN, ['If-None-Match:']), 200],
  ['If-None-Match: Latin-1 bytes', Buffer.from(get(WELL_KNOWN, ['If-None-Match: "\xe9\xff"']), 'latin1'), 200],
  ['If-None-Match: twice', get(WELL_KNOWN, ['If-None-Match: "a"', 'If-None-Match: "b"']), 200],
  [
    "If-None-Match: 64 KiB (over Node's header limit)",
    get(WELL_KNOWN, [`If-None-Match: ${'"x", '.repeat(64 * 205)}`]),
    431,
  ],
  ['a 20 KiB header', get(WELL_KNOWN, [`X-Big: ${'b'.repeat(20 * 1024)}`]), 431],
  [
    '3000 small headers',
    get(
      WELL_KNOWN,
      Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`),
    ),
    431,
  ],
  ['HTTP/1.1 without Host', `GET ${WELL_KNOWN} HTTP/1.1\r\nConnection: close\r\n\r\n`, 400],
  ['HTTP/1.0 without Host', `GET ${WELL_KNOWN} HTTP/1.0\r\n\r\n`, 200],
  ['header without a colon', get(WELL_KNOWN, ['NoColonHere']), 400],
  ['header name with a space', get(WELL_KNOWN, ['Bad Name: x']), 400],
  ['a body on GET', get(WELL_KNOWN, ['Content-Length: 5']).replace(/\r\n\r\n$/, '\r\n\r\nhello'), 200],
  // Whether the app answers before Node's parser reaches the broken chunk is a race.
  [
    'chunked garbage on GET',
    get(WELL_KNOWN, ['Transfer-Encoding: chunked']).replace(/\r\n\r\n$/, '\r\n\r\nzz\r\n'),
    [200, 400],
  ],
  [
    'preflight asking for DELETE',
    get(WELL_KNOWN, ['Origin: http://evil.test', 'Access-Control-Request-Method: DELETE']).replace(/^GET /, 'OPTIONS '),
    204,
  ],
  ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400],
  ['not HTTP at all', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 400],
];

/**
 * Where a host answers a case differently, and still below 500. @hono/node-server builds a WHATWG
 * `Request` from the request line and `Host` before any handler runs, and a request it cannot make
 * a URL of (`*`, no `Host`) is its own 400. The middleware and the fetch handler compare Node's
 * raw target (`incoming.url`), not that URL, so dot-segments and fragments fall through as
 * everywhere else.
 */
const HOST_STATUS: Record<string, Record<string, number>> = {
  [HONO]: {
    'asterisk-form target': 400,
    'HTTP/1.0 without Host': 400,
  },
  // The same runtime, whatever the middleware: the URL is made before it runs.
  'hono on @hono/node-server, @agent-card/hono': {
    'asterisk-form target': 400,
    'HTTP/1.0 without Host': 400,
  },
  // Fastify's router answers a path it cannot percent-decode with its own 400 (FST_ERR_BAD_URL).
  'fastify 5': { 'invalid UTF-8, percent-encoded': 400 },
  'fastify 4': { 'invalid UTF-8, percent-encoded': 400 },
};

describe.each(Object.entries(apps))('bad-request corpus: %s', (host, createApp) => {
  let server: Server;
  let port: number;
  // A second server that admits huge headers, so the middleware itself sees them.
  let roomy: Server;
  let roomyPort: number;
  let cardBody: string;

  beforeAll(async () => {
    const listen = async (s: Server) => {
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return (s.address() as AddressInfo).port;
    };
    server = createServer(await createApp());
    roomy = createServer({ maxHeaderSize: 256 * 1024 }, await createApp());
    [port, roomyPort] = await Promise.all([listen(server), listen(roomy)]);
    cardBody = bodyOf(await raw(port, get(WELL_KNOWN)));
    expect(JSON.parse(cardBody)).toMatchObject({ name: CARD.name });
  });

  afterAll(async () => {
    await Promise.all([server, roomy].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it.each(corpus)('%s → %s', async (name, bytes, expected) => {
    const response = await raw(port, bytes);
    expect([HOST_STATUS[host]?.[name] ?? expected].flat()).toContain(response.status);
    expect(response.statuses.every((status) => status < 500)).toBe(true);
    // The card is sent with every 200 of the corpus and with nothing else; the viewer's 200s send
    // its page.
    const page = name.startsWith('the viewer page');
    expect(response.text.includes(cardBody)).toBe(response.status === 200 && !page);
    if (page && response.status === 200) expect(response.text).toMatch(/^content-type: text\/html; charset=utf-8\r$/im);
  });

  it('parses long If-None-Match lists, and serves the full card when a list is absurdly long', async () => {
    const first = await raw(roomyPort, get(WELL_KNOWN));
    const etag = /^etag: ([^\r\n]+)/im.exec(first.text)?.[1];
    expect(etag).toMatch(/^"[^"]+"$/);
    const noise = (bytes: number) => '"x", W/"y", '.repeat(Math.floor(bytes / 12));
    // Under 8 KiB the list is read in full: the ETag at its very end still counts.
    expect((await raw(roomyPort, get(WELL_KNOWN, [`If-None-Match: ${noise(7 * 1024)}"z"`]))).status).toBe(200);
    expect((await raw(roomyPort, get(WELL_KNOWN, [`If-None-Match: ${noise(7 * 1024)}${etag}`]))).status).toBe(304);
    // 64 KiB is not a cache revalidating: the list is not scanned, the card is sent in full.
    const huge = await raw(roomyPort, get(WELL_KNOWN, [`If-None-Match: ${noise(64 * 1024)}${etag}`]));
    expect(huge.status).toBe(200);
    expect(bodyOf(huge)).toBe(cardBody);
    expect((await raw(roomyPort, get(WELL_KNOWN, [`X-Big: ${'b'.repeat(200 * 1024)}`]))).status).toBe(200);
  });

  it('answers pipelined requests in order', async () => {
    const bytes = [
      `GET ${WELL_KNOWN} HTTP/1.1\r\nHost: a\r\n\r\n`,
      `PROPFIND ${WELL_KNOWN} HTTP/1.1\r\nHost: a\r\n\r\n`,
      'GET /api/ping HTTP/1.1\r\nHost: a\r\n\r\n',
      `HEAD ${WELL_KNOWN} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
    ].join('');
    expect((await raw(port, bytes)).statuses).toEqual([200, 405, 200, 200]);
  });

  it('never answers an arbitrary request target with a 5xx', async () => {
    const target = fc.oneof(
      fc.stringMatching(/^\/[!$&'()*+,;=:@%\-._~a-zA-Z0-9/?]{0,80}$/),
      fc
        .constantFrom(
          '/.well-known/',
          '/.well-known/agent-card.json',
          '/.well-known/agent.json',
          '/.well-known/agent-card.html',
        )
        .chain((base) => fc.stringMatching(/^[!$&'()*+,;=:@%\-._~a-zA-Z0-9/?]{0,20}$/).map((tail) => base + tail)),
    );
    const method = fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'TRACE');
    await fc.assert(
      fc.asyncProperty(method, target, async (m, t) => {
        const response = await raw(port, request(m, t));
        return response.status !== undefined && response.status < 500;
      }),
      { numRuns: 150 },
    );
  });

  it("still serves the card and the app's own routes afterwards", async () => {
    const card = await raw(port, get(WELL_KNOWN));
    expect(card.status).toBe(200);
    expect(bodyOf(card)).toBe(cardBody);
    const ping = await raw(port, get('/api/ping'));
    expect(ping.status).toBe(200);
    expect(ping.text).toContain('{"pong":true}');
  });
});
