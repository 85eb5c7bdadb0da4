// One benchmark server per child process, so that the load generator and the server never share
// an event loop: `node server.mjs <kind>`. Reports `{ port }` over IPC once listening, and
// answers `{ rss: true, gc }` messages with its resident set size (for the soak run).
import { createServer } from 'node:http';
import express from 'express';
import Koa from 'koa';
import { agentCardStatus, agentCardStore } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { memoryStore } from '@agent-card/core/store';
import { agentCard as expressAgentCard } from '@agent-card/express';
import { agentCard as koaAgentCard } from '@agent-card/koa';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import Fastify from 'fastify';
import { agentCard as fastifyAgentCard } from '@agent-card/fastify';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { agentCard as honoAgentCard } from '@agent-card/hono';
import { API_PATH, CARD_PATH, agentsOptions, card, options, orders } from './fixtures.mjs';

// The baselines send exactly what the middleware sends: same status, headers and bytes,
// computed once up front.
const reference = await createAgentCardResponder(options).respond({ method: 'GET', path: CARD_PATH, headers: {} });
if (reference?.status !== 200)
  throw new Error(`bench: the responder did not serve ${CARD_PATH} (${reference?.status})`);
const HEADERS = reference.headers;
const BODY = Buffer.from(reference.body);

const ordersRoute = (_req, res) => res.json(orders);

const served = new Map();
const countServed = (event) => {
  const key = `${event.kind} ${event.status} ${event.client}`;
  served.set(key, (served.get(key) ?? 0) + 1);
};

/** A Fastify app as the request listener it routes with, so it runs on the same Node server as the others. */
async function fastifyListener(setup) {
  let listener;
  const app = Fastify({
    serverFactory: (handler) => {
      listener = handler;
      return createServer();
    },
  });
  await setup(app);
  await app.ready();
  return listener;
}

const honoListener = (setup) => {
  const app = new Hono();
  setup(app);
  return getRequestListener(app.fetch);
};

/**
 * The fixture card served from a store (memory driver) for one tenant, loaded before the run: a
 * warm tenant. autocannon sends `Host: 127.0.0.1:{port}`, so the tenant of `{tenant}.0.0.1` is
 * `127`; `owns` lets the fixture card keep its interface URLs.
 */
async function storeBacked(create) {
  const { card: stored, extended: _extended, ...shared } = options;
  const middleware = create({
    ...shared,
    store: memoryStore(),
    tenant: { from: 'host', hosts: ['{tenant}.0.0.1'], owns: () => true },
    default: 'main',
  });
  await agentCardStore(middleware).put('127', 'main', stored);
  const warm = await middleware.responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: '127.0.0.1' } });
  if (warm?.status !== 200)
    throw new Error(`bench: the store-backed host did not serve ${CARD_PATH} (${warm?.status})`);
  return middleware;
}

/** Tenants of the 10,000-tenant host; the benchmark asks for the last but one. */
export const STORE_TENANTS = 10_000;

/**
 * A store-backed host (path tenancy, `/t/{tenant}`) with the fixture card for each of 10,000
 * tenants, every one of them loaded before the run: the 304 of tenant #9,999 is then answered
 * from a cache holding all of them. Logs what each cached tenant costs.
 */
async function tenThousandTenants() {
  const { card: stored, extended: _extended, ...shared } = options;
  const driver = memoryStore();
  const middleware = expressAgentCard({
    ...shared,
    store: { driver, maxTenants: STORE_TENANTS, maxBytes: 2 * 1024 * 1024 * 1024 },
    tenant: { from: 'path', prefix: '/t', owns: () => true },
    default: 'main',
  });
  // One write validates and signs; the same record then stands for every tenant.
  const first = await agentCardStore(middleware).put('t0', 'main', stored);
  for (let i = 1; i < STORE_TENANTS; i++) await driver.put({ tenant: `t${i}`, agent: 'main' }, first.body);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < STORE_TENANTS; i++) {
    const res = await middleware.responder.respond({ method: 'GET', path: `/t/t${i}${CARD_PATH}`, headers: {} });
    if (res?.status !== 200) throw new Error(`bench: tenant t${i} answered ${res?.status}`);
  }
  global.gc?.();
  const status = agentCardStatus(middleware).store;
  const perTenant = (process.memoryUsage().heapUsed - before) / STORE_TENANTS;
  console.error(
    `bench: ${status.tenants} tenants cached, ${(status.bytes / status.tenants / 1024).toFixed(1)} KiB of prepared answers and ${(perTenant / 1024).toFixed(1)} KiB of heap per tenant`,
  );
  return express().use(middleware);
}

const servers = {
  'express-store-10k': tenThousandTenants,
  'express-ours': () => express().use(expressAgentCard(options)),
  'express-baseline': () =>
    express().get(CARD_PATH, (_req, res) => {
      res.writeHead(200, HEADERS);
      res.end(BODY);
    }),
  // Issue #35: a warm tenant of a store-backed host against the same card from a static host.
  'express-store': async () => express().use(await storeBacked(expressAgentCard)),
  'express-static-main': () => express().use(expressAgentCard({ ...options, extended: undefined })),
  'hono-store': async () => {
    const middleware = await storeBacked(honoAgentCard);
    return honoListener((app) => app.use(middleware));
  },
  'hono-static-main': () => honoListener((app) => app.use(honoAgentCard({ ...options, extended: undefined }))),
  'koa-ours': () => new Koa().use(koaAgentCard(options)).callback(),
  'koa-baseline': () =>
    new Koa()
      .use((ctx, next) => {
        if (ctx.path !== CARD_PATH) return next();
        ctx.status = 200;
        ctx.set(HEADERS);
        ctx.body = BODY;
      })
      .callback(),
  'node-ours': () => {
    const responder = createAgentCardResponder(options);
    const write = (res, response) => {
      if (response === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.writeHead(response.status, response.headers);
      res.end(response.body);
    };
    return (req, res) => {
      const result = responder.respond({ method: req.method, path: req.url, headers: req.headers, raw: req });
      if (result !== undefined && typeof result.then === 'function')
        result.then(
          (response) => write(res, response),
          () => res.destroy(),
        );
      else write(res, result);
    };
  },
  'node-baseline': () => (_req, res) => {
    res.writeHead(200, HEADERS);
    res.end(BODY);
  },
  'passthrough-with': () => express().use(expressAgentCard(options)).get(API_PATH, ordersRoute),
  // The viewer page on (issue #16): the card's path and the app's routes must not pay for it.
  'express-viewer': () => express().use(expressAgentCard({ ...options, viewer: true })),
  'passthrough-viewer': () =>
    express()
      .use(expressAgentCard({ ...options, viewer: true }))
      .get(API_PATH, ordersRoute),
  'passthrough-without': () => express().get(API_PATH, ordersRoute),
  // A serve hook that counts by kind and client family, as a metrics hook would.
  'express-onserve': () => express().use(expressAgentCard({ ...options, onServe: countServed })),
  'passthrough-onserve': () =>
    express()
      .use(expressAgentCard({ ...options, onServe: countServed }))
      .get(API_PATH, ordersRoute),
  'express-agents': () => express().use(expressAgentCard(agentsOptions())),
  // The AI Catalog of a two-agent host (about the size of one card): served as a card is.
  'express-catalog': () => express().use(expressAgentCard(agentsOptions(2))),
  'passthrough-agents': () => express().use(expressAgentCard(agentsOptions())).get(API_PATH, ordersRoute),
  'sdk-a2a-js': () => express().use(CARD_PATH, agentCardHandler({ agentCardProvider: async () => card })),
  'fastify-ours': () => fastifyListener((app) => app.register(fastifyAgentCard, options)),
  'fastify-baseline': () =>
    fastifyListener((app) => {
      app.get(CARD_PATH, (_request, reply) => {
        reply.code(200).headers(HEADERS).send(BODY);
      });
    }),
  'fastify-passthrough-with': () =>
    fastifyListener(async (app) => {
      await app.register(fastifyAgentCard, options);
      app.get(API_PATH, async () => orders);
    }),
  'fastify-passthrough-without': () =>
    fastifyListener((app) => {
      // An empty hook in the plugin's place: what the plugin costs beyond being a hook at all.
      app.addHook('onRequest', (_request, _reply, done) => done());
      app.get(API_PATH, async () => orders);
    }),
  'hono-ours': () => honoListener((app) => app.use(honoAgentCard(options))),
  'hono-baseline': () =>
    honoListener((app) => app.get(CARD_PATH, () => new Response(BODY, { status: 200, headers: HEADERS }))),
  'hono-passthrough-with': () =>
    honoListener((app) => {
      app.use(honoAgentCard(options));
      app.get(API_PATH, (c) => c.json(orders));
    }),
  'hono-passthrough-without': () =>
    honoListener((app) => {
      // An empty middleware in the middleware's place.
      app.use((_c, next) => next());
      app.get(API_PATH, (c) => c.json(orders));
    }),
  // The soak server: the card, the extended card and an app route in one app.
  soak: () => express().use(expressAgentCard(options)).get(API_PATH, ordersRoute),
};

const kind = process.argv[2];
const factory = servers[kind];
if (!factory) {
  console.error(`bench server: unknown kind ${kind}; one of ${Object.keys(servers).join(', ')}`);
  process.exit(2);
}
const server = createServer(await factory());
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('message', (message) => {
  if (message?.rss) {
    if (message.gc) globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ rss, heapUsed });
  }
});
process.on('disconnect', () => process.exit(0));
