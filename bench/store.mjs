// The store's figures that have no target, printed: how long a write takes to reach another
// replica (propagation, p50/p99) on Redis and on PostgreSQL, how long a cold tenant's first answer
// takes (p50/p99) on each store, and what each cached tenant costs in memory. The throughput
// targets (a warm tenant ≥ 0.95 of a static host, the 304 of tenant #9,999 of 10,000) are in
// bench/http.mjs (`--only store,store-fetch,store-304`).
//
//   node --expose-gc bench/store.mjs [--writes 100] [--cold 200] [--tenants 2000] [--only memory,redis,postgres] [--json]
//
// Each store runs on loopback: Redis and PostgreSQL are started by the tests' own helpers
// (packages/store/src/test-servers.ts: a free port, a temporary data folder, never a system
// service) and stopped at the end. Two replicas are two responders in this process, each with its
// own driver and connections, so a write reaches the second one only through the store's
// announcement (Redis stream, PostgreSQL NOTIFY). Needs the built packages (`pnpm build`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { agentCardStatus, agentCardStore } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { memoryStore } from '@agent-card/core/store';
import { redisStore } from '@agent-card/store/redis';
import { postgresStore } from '@agent-card/store/postgres';
import { transformWithOxc } from 'vite';
import { CARD_PATH, options } from './fixtures.mjs';
import { median } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    writes: { type: 'string', default: '100' },
    cold: { type: 'string', default: '200' },
    tenants: { type: 'string', default: '2000' },
    only: { type: 'string', default: 'memory,redis,postgres' },
    json: { type: 'boolean', default: false },
  },
});
const WRITES = Number(args.writes);
const COLD = Number(args.cold);
const TENANTS = Number(args.tenants);
const only = new Set(args.only.split(','));

/** The tests' server helpers, compiled from TypeScript once into bench/.cache. */
async function testServers() {
  const source = fileURLToPath(new URL('../packages/store/src/test-servers.ts', import.meta.url));
  const out = new URL('./.cache/test-servers.mjs', import.meta.url);
  const { code } = await transformWithOxc(readFileSync(source, 'utf8'), source, { lang: 'ts' });
  mkdirSync(new URL('./.cache/', import.meta.url), { recursive: true });
  writeFileSync(out, code);
  return import(pathToFileURL(fileURLToPath(out)).href);
}

const { card: fixture, extended: _extended, ...shared } = options;
const hostOptions = (driver) => ({
  ...shared,
  logger: { warn() {} },
  store: { driver, maxTenants: Math.max(TENANTS, COLD) + 10, maxBytes: 2 * 1024 ** 3 },
  tenant: { from: 'path', prefix: '/t', owns: () => true },
  default: 'main',
});
const get = (responder, tenant, headers = {}) =>
  responder.respond({ method: 'GET', path: `/t/${tenant}${CARD_PATH}`, headers });
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (n) => `${n.toFixed(2)} ms`;

/**
 * Writes through replica A, and times until replica B answers with the new ETag, polling B every
 * millisecond (a replica answers from memory, so a poll costs microseconds).
 */
async function propagation(a, b) {
  const times = [];
  const writer = agentCardStore(a);
  for (let i = 0; i < WRITES; i++) {
    const before = (await get(b, 'prop')).headers.etag;
    const started = performance.now();
    await writer.put('prop', 'main', { ...fixture, description: `${fixture.description} Revision ${i}.` });
    for (;;) {
      const now = (await get(b, 'prop')).headers.etag;
      if (now !== before) break;
      if (performance.now() - started > 10_000) throw new Error(`bench: write ${i} did not reach replica B in 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    times.push(performance.now() - started);
  }
  return times;
}

/** The first answer of `COLD` tenants no replica has served yet, each timed alone. */
async function coldAnswers(responder, driver) {
  const first = await agentCardStore(responder).put('cold0', 'main', fixture);
  for (let i = 1; i < COLD; i++) await driver.put({ tenant: `cold${i}`, agent: 'main' }, first.body);
  const times = [];
  for (let i = 1; i < COLD; i++) {
    const started = performance.now();
    const res = await get(responder, `cold${i}`);
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`bench: cold tenant cold${i} answered ${res.status}`);
  }
  return times;
}

/** Heap and prepared bytes per cached tenant, `TENANTS` of them loaded into one replica. */
async function memoryPerTenant(responder, driver) {
  const first = await agentCardStore(responder).put('m0', 'main', fixture);
  for (let i = 1; i < TENANTS; i++) await driver.put({ tenant: `m${i}`, agent: 'main' }, first.body);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < TENANTS; i++) await get(responder, `m${i}`);
  global.gc?.();
  const heap = (process.memoryUsage().heapUsed - before) / TENANTS;
  const status = agentCardStatus(responder).store;
  return { heapKiB: heap / 1024, preparedKiB: status.bytes / status.tenants / 1024, tenants: status.tenants };
}

async function measure(name, makeDriver) {
  const drivers = [makeDriver(), makeDriver()];
  const [a, b] = drivers.map((driver) => createAgentCardResponder(hostOptions(driver)));
  try {
    // Both replicas serve the tenant (and watch the store) before the first timed write.
    await agentCardStore(a).put('prop', 'main', fixture);
    for (let i = 0; i < 50 && (await get(b, 'prop')).status !== 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const prop = name === 'memory' ? undefined : await propagation(a, b);
    const cold = await coldAnswers(b, drivers[1]);
    const memory = await memoryPerTenant(b, drivers[1]);
    return { store: name, propagation: prop, cold, memory };
  } finally {
    for (const driver of drivers) await driver.close().catch(() => {});
  }
}

const results = [];
let servers;
if (only.has('memory')) {
  // One memory driver is one store; its two responders share it like replicas of one process.
  const driver = memoryStore();
  const close = driver.close;
  driver.close = async () => {};
  results.push(await measure('memory', () => driver));
  await close();
}
if (only.has('redis') || only.has('postgres')) servers = await testServers();
if (only.has('redis')) {
  if (servers.redisMissing) console.error(`bench: Redis skipped: ${servers.redisMissing}`);
  else {
    const redis = await servers.startRedis();
    try {
      results.push(await measure('redis', () => redisStore({ url: redis.url })));
    } finally {
      await redis.stop();
    }
  }
}
if (only.has('postgres')) {
  if (servers.postgresMissing) console.error(`bench: PostgreSQL skipped: ${servers.postgresMissing}`);
  else {
    const pg = await servers.startPostgres();
    try {
      let first = true;
      const make = () => {
        const driver = postgresStore({ connectionString: pg.url, createTable: first });
        first = false;
        return driver;
      };
      results.push(await measure('postgres', make));
    } finally {
      await pg.stop();
    }
  }
}

const summary = results.map((r) => ({
  store: r.store,
  propagation: r.propagation && {
    writes: r.propagation.length,
    p50: median(r.propagation),
    p99: percentile(r.propagation, 99),
  },
  cold: { tenants: r.cold.length, p50: median(r.cold), p99: percentile(r.cold, 99) },
  memory: r.memory,
}));
if (args.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(
    `Store figures (Node ${process.version}; ${WRITES} writes, ${COLD} cold tenants, ${TENANTS} cached tenants)`,
  );
  for (const s of summary) {
    const prop = s.propagation
      ? `propagation p50 ${ms(s.propagation.p50)}, p99 ${ms(s.propagation.p99)}`
      : 'propagation: one process';
    console.log(
      `  ${s.store.padEnd(9)} ${prop}; cold first answer p50 ${ms(s.cold.p50)}, p99 ${ms(s.cold.p99)}; ` +
        `per cached tenant ${s.memory.preparedKiB.toFixed(1)} KiB prepared, ${s.memory.heapKiB.toFixed(1)} KiB heap`,
    );
  }
}
process.exit(0);
