// Store-backed hosts on the real servers: the conformance suite on files, Redis and PostgreSQL;
// three replica processes on one store (propagation, the store killed under load, restarted, 100
// concurrent writers); 10,000 tenants; records corrupted by hand; hostile tenant names.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentCard, verifyAgentCard } from '@agent-card/core';
import { agentCardStatus, closeAgentCard } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { type CardStoreDriver, openCardStore } from '@agent-card/core/store';
import { listenOnLoopback } from '@agent-card/core/testing';
import { agentCard } from '@agent-card/express';
import { filesStore } from '@agent-card/store';
import { postgresStore } from '@agent-card/store/postgres';
import { redisStore } from '@agent-card/store/redis';
import express from 'express';
import { exportJWK } from 'jose';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POSTGRES_PASSWORD,
  postgresMissing,
  redisMissing,
  startPostgres,
  startRedis,
  type TestServer,
} from '../packages/store/src/test-servers';
import { fallThrough, publicCard } from '../packages/core/src/testing/features/card';
import { aiCatalog } from '../packages/core/src/testing/features/catalog';
import { cors } from '../packages/core/src/testing/features/cors';
import { discoveryDocuments } from '../packages/core/src/testing/features/discovery';
import { signedCard } from '../packages/core/src/testing/features/jwks';
import { runConformanceFeatures } from '../packages/core/src/testing/runner';
import type { AgentCardConformanceOptions } from '../packages/core/src/testing/server';

const REPLICA = fileURLToPath(new URL('./fixtures/servers/store-replica.mjs', import.meta.url));
const WRITER = fileURLToPath(new URL('./fixtures/servers/store-writer.mjs', import.meta.url));
const CARD_PATH = '/.well-known/agent-card.json';
/** The bound a change must reach every replica within (a loaded 2-core machine). */
const PROPAGATION_BOUND_MS = 2000;
/**
 * How long a replica's watch waits between reconnection attempts: long enough that the writes
 * made right after the store restarts are made while every replica's watch is still down.
 */
const REPLICA_RETRY_MS = 5000;

const keyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const PEM = keyPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SIGN = { privateKey: PEM, alg: 'ES256' as const, kid: 'writer' };

/** A valid card of `tenant`'s agent, its interface under the tenant's path. */
function cardOf(tenant: string, description = `The main agent of ${tenant}.`, agent = 'main'): AgentCard {
  return {
    name: `${tenant} ${agent}`,
    description,
    supportedInterfaces: [
      {
        url: `https://cards.example.com/t/${tenant}/agents/${agent}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
    ],
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers questions.', tags: ['qa'] }],
  } as AgentCard;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

interface Replica {
  readonly origin: string;
  readonly stderr: () => string;
}

/** Starts one replica process on the store at `url`; resolves once it listens. */
function replica(url: string): Promise<Replica> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REPLICA], {
      env: { PATH: process.env.PATH ?? '', STORE_URL: url, RETRY_MS: String(REPLICA_RETRY_MS) },
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdout?.once('data', (chunk) =>
      resolve({ origin: `http://127.0.0.1:${String(chunk).trim()}`, stderr: () => stderr }),
    );
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${stderr}`)));
  });
}

/** Runs one writer process: `count` signed puts of acme's main card. */
function writer(url: string, id: number, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER], {
      env: {
        PATH: process.env.PATH ?? '',
        STORE_URL: url,
        CARD_KEY_PEM: PEM,
        CARD_JSON: JSON.stringify(cardOf('acme')),
        WRITER: String(id),
        COUNT: String(count),
      },
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      out += String(chunk);
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${id} exited ${code}: ${out}`))));
  });
}

/** A card's URL on a replica; `tenant` may carry an agent path (`acme/agents/billing`). */
const cardUrl = (origin: string, tenant: string) => `${origin}/t/${tenant}${CARD_PATH}`;

async function served(origin: string, tenant = 'acme') {
  const response = await fetch(cardUrl(origin, tenant));
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}

/** How many lines of a replica's log match `pattern`. */
const lines = (r: Replica, pattern: RegExp) =>
  r
    .stderr()
    .split('\n')
    .filter((line) => pattern.test(line)).length;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until every replica serves `body` for `tenant`; resolves to the ms it took, or throws after `limit`. */
async function converge(replicas: readonly Replica[], body: string, limit: number, tenant = 'acme') {
  const start = performance.now();
  const pending = new Set(replicas);
  while (pending.size > 0) {
    for (const r of [...pending]) if ((await served(r.origin, tenant)).body === body) pending.delete(r);
    if (pending.size === 0) break;
    if (performance.now() - start > limit)
      throw new Error(`${pending.size} replica(s) did not serve the new card within ${limit} ms`);
    await sleep(5);
  }
  return performance.now() - start;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

/** A driver with every `tenant()` and `get()` call counted. */
function counted(driver: CardStoreDriver) {
  const calls: string[] = [];
  const wrapped: CardStoreDriver = {
    description: driver.description,
    tenant(tenant) {
      calls.push(tenant);
      return driver.tenant(tenant);
    },
    get(key) {
      calls.push(`get ${key.tenant}`);
      return driver.get(key);
    },
    put: (key, body, options) => driver.put(key, body, options),
    delete: (key) => driver.delete(key),
    list: (options) => driver.list(options),
    watch: (listener) => driver.watch(listener),
    close: () => driver.close(),
  };
  return { driver: wrapped, calls };
}

const APP_ROUTES: Record<string, string> = { '/api/ping': 'pong', '/.well-known/other': 'other' };

/** A store-backed conformance host on drivers made by `make`, one tenant per started host. */
function storeHost(name: string, make: () => CardStoreDriver): AgentCardConformanceOptions {
  let n = 0;
  return {
    name,
    async start(options) {
      const { card, agents, ...rest } = options as Record<string, unknown> & {
        card?: AgentCard;
        agents?: { id: string; card: AgentCard }[];
        default?: string;
      };
      const tenant = `conformance-${++n}`;
      const driver = make();
      const writes = openCardStore(driver, {
        profile: 'development',
        rules: rest.rules as never,
        sign: rest.sign as never,
      });
      if (card !== undefined) await writes.put(tenant, 'main', card);
      for (const agent of agents ?? []) await writes.put(tenant, agent.id, agent.card);
      const responder = createAgentCardResponder({
        ...rest,
        store: driver,
        tenant: { from: 'host', hosts: ['{tenant}.cards.test'], owns: () => true },
        default: options.default ?? 'main',
      } as never);
      const server = createServer(async (req, res) => {
        const out = await responder.respond({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: { ...req.headers, host: `${tenant}.cards.test` },
        });
        if (out) {
          res.writeHead(out.status, out.headers);
          res.end(out.body);
          return;
        }
        const route = APP_ROUTES[req.url ?? '/'];
        res.statusCode = route === undefined ? 404 : 200;
        res.end(route ?? 'not found');
      });
      const listening = await listenOnLoopback(server);
      return {
        ...listening,
        async close() {
          await listening.close();
          closeAgentCard(responder);
          await driver.close();
        },
      };
    },
  };
}

function conformanceOn(name: string, make: () => CardStoreDriver) {
  const host = storeHost(`store-backed host (${name})`, make);
  runConformanceFeatures(host, `agent card conformance on ${name}`, [
    publicCard,
    fallThrough,
    cors,
    signedCard,
    discoveryDocuments,
  ]);
  runConformanceFeatures(host, `several agents and the AI catalog on ${name}`, [aiCatalog]);
}

describe('the conformance suite on a folder of files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  conformanceOn('files', () => filesStore({ dir }));
});

interface Kind {
  readonly name: string;
  readonly missing: string | undefined;
  readonly start: () => Promise<TestServer>;
  readonly driver: (url: string) => CardStoreDriver;
  /** Writes garbage into tenant/agent's stored body with the next version, past the driver (another tool's write). */
  readonly corrupt: (url: string, tenant: string, agent: string) => Promise<void>;
}

const KINDS: Kind[] = [
  {
    name: 'Redis',
    missing: redisMissing,
    start: startRedis,
    driver: (url) => redisStore({ url, retryDelay: 100 }),
    async corrupt(url, tenant, agent) {
      const client = createClient({ url });
      await client.connect();
      const key = `agent-card:record:${tenant.length}:${tenant}:${agent}`;
      const version = Number(await client.hGet(key, 'version')) + 1;
      await client.hSet(key, { body: '{"name": "half a card", ', version: String(version) });
      await client.quit();
    },
  },
  {
    name: 'PostgreSQL',
    missing: postgresMissing,
    start: startPostgres,
    driver: (url) => postgresStore({ connectionString: url, createTable: true, retryDelay: 100 }),
    async corrupt(url, tenant, agent) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('UPDATE agent_cards SET body = $1, version = version + 1 WHERE tenant = $2 AND agent = $3', [
        '{"name": "half a card", ',
        tenant,
        agent,
      ]);
      await client.end();
    },
  },
];

for (const kind of KINDS) {
  describe.skipIf(kind.missing !== undefined)(`three replicas on ${kind.name}`, () => {
    let server: TestServer;
    let writes: ReturnType<typeof openCardStore>;
    let driver: CardStoreDriver;
    let replicas: Replica[];
    const jwks = { keys: [] as object[] };

    beforeAll(async () => {
      server = await kind.start();
      driver = kind.driver(server.url);
      writes = openCardStore(driver, { profile: 'development', sign: SIGN });
      await writes.put('acme', 'main', cardOf('acme'));
      replicas = await Promise.all([replica(server.url), replica(server.url), replica(server.url)]);
      jwks.keys.push({ ...(await exportJWK(keyPair.publicKey)), kid: 'writer', alg: 'ES256', use: 'sig' });
    }, 60_000);
    afterAll(async () => {
      await driver?.close();
      await server?.stop();
    });

    it(`serves a write made through the store on all three replicas within ${PROPAGATION_BOUND_MS} ms`, async () => {
      for (const r of replicas) expect((await served(r.origin)).status).toBe(200);
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        await writes.put('acme', 'main', cardOf('acme', `Propagation write ${i}.`));
        const body = (await driver.get({ tenant: 'acme', agent: 'main' }))!.body;
        times.push(await converge(replicas, body, PROPAGATION_BOUND_MS));
      }
      times.sort((a, b) => a - b);
      console.log(
        `${kind.name}: change propagation to 3 replicas, 20 writes: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms`,
      );
      expect(times.at(-1)!).toBeLessThan(PROPAGATION_BOUND_MS);
    });

    it('the store killed under load: 0 client errors, every body the last good card', async () => {
      const last = await served(replicas[0]!.origin);
      expect(last.status).toBe(200);
      let requests = 0;
      const errors: string[] = [];
      const end = performance.now() + 3000;
      const client = async (i: number) => {
        const r = replicas[i % 3]!;
        while (performance.now() < end) {
          try {
            const answer = await served(r.origin);
            requests++;
            if (answer.status !== 200 || answer.body !== last.body || answer.etag !== last.etag)
              errors.push(`${answer.status} ${answer.etag}`);
          } catch (error) {
            errors.push(String(error));
          }
        }
      };
      const load = Promise.all(Array.from({ length: 20 }, (_, i) => client(i)));
      await sleep(500);
      await server.kill();
      await load;
      expect(errors).toEqual([]);
      expect(requests).toBeGreaterThan(100);
      // Each replica logs the outage once, not once per request, and never the password.
      for (const r of replicas) {
        expect(lines(r, /cannot be reached/)).toBe(1);
        expect(r.stderr()).not.toContain(POSTGRES_PASSWORD);
      }
    }, 20_000);

    it("the store restarted: writes made while every replica's watch was down reach all three, which converge on the newest", async () => {
      await server.restart();
      // A fresh writer: the replicas' watches are still down when it writes.
      const fresh = kind.driver(server.url);
      const freshWrites = openCardStore(fresh, { profile: 'development', sign: SIGN });
      await freshWrites.put('acme', 'main', cardOf('acme', 'Written while the watches were down.'));
      await freshWrites.put('acme', 'main', cardOf('acme', 'The newest, after the restart.'));
      const newest = (await fresh.get({ tenant: 'acme', agent: 'main' }))!;
      // Written while no replica's watch was connected: they catch up from the change log.
      for (const r of replicas) expect(lines(r, /is reachable again/)).toBe(0);
      const ms = await converge(replicas, newest.body, REPLICA_RETRY_MS + 5000);
      for (const r of replicas) expect(lines(r, /is reachable again/)).toBe(1);
      console.log(`${kind.name}: replicas caught up ${ms.toFixed(0)} ms after the restart's writes`);
      await fresh.close();
      const etags = new Set(await Promise.all(replicas.map(async (r) => (await served(r.origin)).etag)));
      expect(etags.size).toBe(1);
    }, 30_000);

    it('100 concurrent writes from 4 processes: one final version, every body served a whole signed version', async () => {
      const before = (await driver.get({ tenant: 'acme', agent: 'main' }))!.version;
      const bodies = new Set<string>();
      let done = false;
      const poll = async (r: Replica) => {
        while (!done) {
          const answer = await served(r.origin);
          expect(answer.status).toBe(200);
          bodies.add(answer.body);
        }
      };
      const polling = Promise.all(replicas.flatMap((r) => [poll(r), poll(r)]));
      await Promise.all([0, 1, 2, 3].map((id) => writer(server.url, id, 25)));
      const final = (await driver.get({ tenant: 'acme', agent: 'main' }))!;
      await converge(replicas, final.body, PROPAGATION_BOUND_MS);
      done = true;
      await polling;
      expect(final.version).toBe(before + 100);
      expect(JSON.parse(final.body).description).toMatch(/^Written by writer [0-3], write 24\.$/);
      expect(bodies.size).toBeGreaterThan(1);
      for (const body of bodies) {
        const card = JSON.parse(body) as AgentCard;
        const result = await verifyAgentCard(card, { jwks });
        expect(result.valid, body).toBe(true);
        expect(card.description).toMatch(/^(Written by writer [0-3], write \d+\.|The newest, after the restart\.)$/);
      }
    }, 60_000);

    it('a record corrupted by hand is never served: the replicas keep the previous good bytes and log the findings', async () => {
      await writes.put('corrupt', 'main', cardOf('corrupt'));
      const good = (await driver.get({ tenant: 'corrupt', agent: 'main' }))!.body;
      await converge(replicas, good, PROPAGATION_BOUND_MS, 'corrupt');
      await kind.corrupt(server.url, 'corrupt', 'main');
      // Another agent of the tenant changes: every replica reloads the tenant and reads the garbage.
      await writes.put('corrupt', 'billing', cardOf('corrupt', 'The billing agent.', 'billing'));
      const billing = (await driver.get({ tenant: 'corrupt', agent: 'billing' }))!.body;
      await converge(replicas, billing, PROPAGATION_BOUND_MS, 'corrupt/agents/billing');
      for (const r of replicas) {
        const answer = await served(r.origin, 'corrupt');
        expect(answer.status).toBe(200);
        expect(answer.body).toBe(good);
        expect(r.stderr()).toMatch(/the record corrupt\/main version \d+ in \S+ is not served: its body is not JSON/);
      }
    });
  });
}

/** Hostile tenant names a request may carry, each with what it aims at. */
const HOSTILE_TENANTS: [string, string][] = [
  ['*', 'a Redis key pattern'],
  ['a:b', 'a Redis key separator'],
  ['../x', 'a path out of the folder'],
  ["' OR 1=1 --", 'SQL'],
  ['a'.repeat(10 * 1024), '10 KB'],
  ['acme\u0000\u001b[31m\r\n', 'control characters'],
];

for (const kind of KINDS) {
  describe.skipIf(kind.missing !== undefined)(`hostile tenant names on an Express host on ${kind.name}`, () => {
    let server: TestServer;
    let origin: string;
    let close: () => Promise<void>;
    let calls: string[];
    const warnings: string[] = [];

    beforeAll(async () => {
      server = await kind.start();
      const driver = counted(kind.driver(server.url));
      calls = driver.calls;
      await openCardStore(driver.driver, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
      const app = express();
      app.use(
        agentCard({
          store: driver.driver,
          tenant: { from: 'path', prefix: '/t' },
          default: 'main',
          profile: 'development',
          logger: { warn: (message: unknown) => void warnings.push(String(message)) },
        }),
      );
      const listening = await listenOnLoopback(createServer(app));
      origin = listening.url;
      close = async () => {
        await listening.close();
        await driver.driver.close();
      };
      expect((await served(origin)).status).toBe(200);
    }, 60_000);
    afterAll(async () => {
      await close?.();
      await server?.stop();
    });

    for (const [name, what] of HOSTILE_TENANTS)
      it(`tenant ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}…` : name)} (${what}): 400 or 404, never reaching the store`, async () => {
        const before = calls.length;
        const answer = await fetch(`${origin}/t/${encodeURIComponent(name)}${CARD_PATH}`);
        expect([400, 404]).toContain(answer.status);
        const body = await answer.text();
        expect(body).not.toContain('acme main');
        expect(body).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
        expect(calls.slice(before)).toEqual([]);
        for (const line of warnings) expect(line).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
      });
  });
}

describe.skipIf(redisMissing !== undefined)('10,000 tenants on Redis', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('holds at most maxTenants tenants and maxBytes bytes; 10,000 made-up names cost one look-up each per interval', async () => {
    const real = redisStore({ url: server.url });
    const { driver, calls } = counted(real);
    const names = Array.from({ length: 10_000 }, (_, i) => `tenant-${i}`);
    const inBatches = async (list: string[], each: (name: string) => Promise<void>) => {
      for (let i = 0; i < list.length; i += 100) await Promise.all(list.slice(i, i + 100).map(each));
    };
    // Written past the writer (the bodies a writer would write, unsigned): readers validate every record anyway.
    await inBatches(names, async (name) => {
      await real.put({ tenant: name, agent: 'main' }, JSON.stringify(cardOf(name)));
    });
    // Every 7th tenant, tenant-9999 included, loaded cold: three times what the bounds let a replica hold.
    const loaded = names.filter((_, i) => (names.length - 1 - i) % 7 === 0);
    const start = performance.now();
    const maxTenants = 500;
    const maxBytes = 512 * 1024;
    const responder = createAgentCardResponder({
      store: { driver, maxTenants, maxBytes },
      tenant: { from: 'path', prefix: '/t' },
      default: 'main',
      profile: 'development',
      logger: { warn() {} },
    });
    let peakTenants = 0;
    let peakBytes = 0;
    await inBatches(loaded, async (name) => {
      const answer = await responder.respond({ method: 'GET', path: `/t/${name}${CARD_PATH}`, headers: {} });
      expect(answer?.status).toBe(200);
      expect(JSON.parse(new TextDecoder().decode(answer?.body)).name).toBe(`${name} main`);
      const held = agentCardStatus(responder).store!;
      peakTenants = Math.max(peakTenants, held.tenants);
      peakBytes = Math.max(peakBytes, held.bytes);
    });
    const cold = (performance.now() - start) / loaded.length;
    const held = agentCardStatus(responder).store!;
    console.log(
      `Redis, 10,000 tenants, ${loaded.length} loaded cold (${cold.toFixed(1)} ms each): held ${held.tenants} tenants in ${held.bytes} bytes (${Math.round(held.bytes / held.tenants)} bytes each); peak ${peakTenants} tenants, ${peakBytes} bytes`,
    );
    expect(peakTenants).toBeLessThanOrEqual(maxTenants);
    expect(peakBytes).toBeLessThanOrEqual(maxBytes);
    expect(held.tenants).toBeGreaterThan(0);

    calls.length = 0;
    const madeUp = Array.from({ length: 10_000 }, (_, i) => `nobody-${i}`);
    for (let round = 0; round < 2; round++)
      await inBatches(madeUp, async (name) => {
        const answer = await responder.respond({ method: 'GET', path: `/t/${name}${CARD_PATH}`, headers: {} });
        expect(answer?.status).toBe(404);
      });
    expect(calls.length).toBe(10_000);
    expect(new Set(calls).size).toBe(10_000);
    expect(agentCardStatus(responder).store!.tenants).toBeLessThanOrEqual(maxTenants);
    closeAgentCard(responder);
    await real.close();
  }, 60_000);
});
