import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import { memoryStore } from '../../store/memory';
import type { CardStoreDriver, StoreEvent } from '../../store/types';
import { openCardStore } from '../../store/writer';
import type { AgentCardResponse } from '../kernel/exchange';
import { servedPathsOf } from '../kernel/responder';
import { agentCardStatus, agentCardStore, closeAgentCard } from '../index';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions } from '../types';

const HOSTS = ['{tenant}.agents.example.com'];
const CARD_PATH = '/.well-known/agent-card.json';

/** A valid card of `tenant`'s agent `agent`, its interface on the tenant's host. */
function cardOf(tenant: string, agent = 'main', version = '1.0.0'): AgentCard {
  return {
    name: `${tenant} ${agent}`,
    description: `The ${agent} agent of tenant ${tenant}.`,
    supportedInterfaces: [
      {
        url: `https://${tenant}.agents.example.com/agents/${agent}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
    ],
    provider: { organization: tenant, url: `https://${tenant}.example.com` },
    version,
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers questions.', tags: ['qa'] }],
  } as AgentCard;
}

/** Lines written to the logger. */
function lines() {
  const out: string[] = [];
  return { out, logger: { warn: (m: unknown) => void out.push(String(m)) } };
}

/** The memory driver with every call to `tenant()` counted, and its calls made to fail on demand. */
function counted(driver: CardStoreDriver = memoryStore()) {
  const calls: string[] = [];
  let listener: ((event: StoreEvent) => void) | undefined;
  const state = { failing: false };
  const failing = () => new Error('connect ECONNREFUSED 10.0.0.5:6379');
  const wrapped: CardStoreDriver = {
    description: driver.description,
    async tenant(tenant) {
      calls.push(tenant);
      if (state.failing) throw failing();
      return driver.tenant(tenant);
    },
    get: (key) => (state.failing ? Promise.reject(failing()) : driver.get(key)),
    put: (key, body, options) => (state.failing ? Promise.reject(failing()) : driver.put(key, body, options)),
    delete: (key) => driver.delete(key),
    list: (options) => driver.list(options),
    async watch(l) {
      listener = l;
      return driver.watch(l);
    },
    close: () => driver.close(),
  };
  return { driver: wrapped, calls, state, emit: (event: StoreEvent) => listener?.(event) };
}

const base = (driver: CardStoreDriver, more: Partial<AgentCardOptions> = {}): AgentCardOptions => ({
  store: driver,
  tenant: { from: 'host', hosts: HOSTS },
  default: 'main',
  profile: 'development',
  logger: { warn: () => {} },
  ...more,
});

const get = (host: string, path = CARD_PATH, headers: Record<string, string> = {}) => ({
  method: 'GET',
  path,
  headers: { host, ...headers },
});

const text = (res: AgentCardResponse | undefined) => new TextDecoder().decode(res?.body);
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a store-backed host', () => {
  it('serves a tenant written through openCardStore at its root and at /agents/{id}, with the catalog listing both', async () => {
    const driver = memoryStore();
    const cards = openCardStore(driver, { profile: 'development' });
    await cards.put('acme', 'main', cardOf('acme'));
    await cards.put('acme', 'billing', cardOf('acme', 'billing'));
    const responder = createAgentCardResponder(base(driver));
    const root = await responder.respond(get('acme.agents.example.com'));
    expect(root?.status).toBe(200);
    expect(JSON.parse(text(root)).name).toBe('acme main');
    const billing = await responder.respond(get('acme.agents.example.com', `/agents/billing${CARD_PATH}`));
    expect(JSON.parse(text(billing)).name).toBe('acme billing');
    const catalog = await responder.respond(get('acme.agents.example.com', '/.well-known/ai-catalog.json'));
    expect(catalog?.status).toBe(200);
    const urls = (JSON.parse(text(catalog)).entries as { url: string }[]).map((e) => e.url).sort();
    expect(urls).toEqual([
      `https://acme.agents.example.com/agents/billing${CARD_PATH}`,
      `https://acme.agents.example.com/agents/main${CARD_PATH}`,
    ]);
    expect((await responder.respond(get('acme.agents.example.com', '/.well-known/ard.json')))?.status).toBe(200);
    // The app's own routes pass through, and cost the store nothing.
    expect(await responder.respond(get('acme.agents.example.com', '/api/orders'))).toBeUndefined();
    expect(await responder.respond(get('www.example.com'))).toBeUndefined();
  });

  it("refuses a write declaring another agent's interface URL, which would stop every replica serving the tenant", async () => {
    const driver = memoryStore();
    const cards = openCardStore(driver, { profile: 'development' });
    await cards.put('acme', 'main', cardOf('acme'));
    const copy = { ...cardOf('acme', 'billing'), supportedInterfaces: cardOf('acme').supportedInterfaces };
    await expect(cards.put('acme', 'billing', copy)).rejects.toMatchObject({
      code: 'ERR_AGENT_CARD_INVALID',
      message: expect.stringContaining(
        'acme/billing: the Agent Card declares interface URLs of another agent of the tenant, and a host cannot serve both. Give each agent its own endpoint URL, e.g. under its path:\n  - "https://acme.agents.example.com/agents/main/a2a" is also agent "main"\'s',
      ),
    });
    expect(await driver.get({ tenant: 'acme', agent: 'billing' })).toBeUndefined();
    // The same agent may keep its URL, and another tenant is another host.
    await cards.put('acme', 'main', cardOf('acme', 'main', '2.0.0'));
    const responder = createAgentCardResponder(base(driver));
    expect(JSON.parse(text(await responder.respond(get('acme.agents.example.com')))).version).toBe('2.0.0');
  });

  it('answers a warm tenant synchronously, from memory', async () => {
    // Written past the counter: only the serving side's look-ups are counted.
    const inner = memoryStore();
    const { driver, calls } = counted(inner);
    await openCardStore(inner, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
    const responder = createAgentCardResponder(base(driver));
    await responder.respond(get('acme.agents.example.com'));
    const warm = responder.respond(get('acme.agents.example.com'));
    expect(warm).not.toBeInstanceOf(Promise);
    expect((warm as AgentCardResponse).status).toBe(200);
    expect(calls).toEqual(['acme']);
  });

  it('serves a write through one replica from a second one on the same store: same bytes, same ETag, 304 from either', async () => {
    const driver = memoryStore();
    const one = createAgentCardResponder(base(driver));
    const two = createAgentCardResponder(base(driver));
    await agentCardStore(one).put('acme', 'main', cardOf('acme'));
    const a = await one.respond(get('acme.agents.example.com'));
    const b = await two.respond(get('acme.agents.example.com'));
    expect(a?.status).toBe(200);
    expect(Buffer.from(a!.body!).equals(Buffer.from(b!.body!))).toBe(true);
    expect(a?.headers.etag).toBe(b?.headers.etag);
    for (const replica of [one, two]) {
      const res = await replica.respond(
        get('acme.agents.example.com', CARD_PATH, { 'if-none-match': a!.headers.etag! }),
      );
      expect(res?.status).toBe(304);
    }
    // A change written through the second is served by the first, which held the old card.
    await agentCardStore(two).put('acme', 'main', cardOf('acme', 'main', '2.0.0'));
    await settle();
    const changed = await one.respond(get('acme.agents.example.com'));
    expect(JSON.parse(text(changed)).version).toBe('2.0.0');
    expect(changed?.headers.etag).not.toBe(a?.headers.etag);
    expect((await two.respond(get('acme.agents.example.com')))?.headers.etag).toBe(changed?.headers.etag);
  });

  it('reads a tenant only once its watch has begun: no write falls between a load and the announcements', async () => {
    const inner = memoryStore();
    const writer = openCardStore(inner, { profile: 'development' });
    await writer.put('acme', 'main', cardOf('acme'));
    // The watch of this replica begins only when the test says so (a slow LISTEN or XREAD).
    let begin!: () => void;
    const begun = new Promise<void>((resolve) => (begin = resolve));
    const slow: CardStoreDriver = { ...inner, watch: async (listener) => (await begun, inner.watch(listener)) };
    const replica = createAgentCardResponder(base(slow));
    const first = replica.respond(get('acme.agents.example.com'));
    // Written while nobody listens: no replica is told, so the load must come after the watch.
    await writer.put('acme', 'main', cardOf('acme', 'main', '2.0.0'));
    begin();
    expect(JSON.parse(text(await first)).version).toBe('2.0.0');
    await writer.put('acme', 'main', cardOf('acme', 'main', '3.0.0'));
    await settle();
    expect(JSON.parse(text(await replica.respond(get('acme.agents.example.com')))).version).toBe('3.0.0');
  });

  it('signs once at the write: the replica serves the signature as written and publishes the key set', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const sign = { privateKey: pem, alg: 'ES256' as const, kid: 'k1' };
    const driver = memoryStore();
    const writer = createAgentCardResponder(base(driver, { sign }));
    await agentCardStore(writer).put('acme', 'main', cardOf('acme'));
    const record = await driver.get({ tenant: 'acme', agent: 'main' });
    expect(JSON.parse(record!.body).signatures).toHaveLength(1);
    // The same card served by a single-card host with the same sign option: the same bytes.
    const single = createAgentCardResponder({
      card: cardOf('acme'),
      profile: 'development',
      sign,
      logger: { warn() {} },
    });
    const expected = single.respond({ method: 'GET', path: CARD_PATH, headers: {} }) as AgentCardResponse;
    const served = await writer.respond(get('acme.agents.example.com'));
    expect(text(served)).toBe(text(expected));
    const jwks = await writer.respond(get('acme.agents.example.com', '/.well-known/jwks.json'));
    expect(JSON.parse(text(jwks)).keys[0].kid).toBe('k1');
  });

  it('loads a cold tenant once for 100 concurrent requests', async () => {
    // Written past the counter: only the serving side's look-ups are counted.
    const inner = memoryStore();
    const { driver, calls } = counted(inner);
    await openCardStore(inner, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
    const responder = createAgentCardResponder(base(driver));
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => responder.respond(get('acme.agents.example.com'))),
    );
    expect(answers.every((a) => a?.status === 200)).toBe(true);
    expect(calls).toEqual(['acme']);
  });

  it('asks the store at most once per interval about each of 10,000 made-up tenants', async () => {
    const { driver, calls } = counted();
    const responder = createAgentCardResponder(base(driver));
    const names = Array.from({ length: 10_000 }, (_, i) => `nobody-${i}`);
    for (let round = 0; round < 2; round++)
      for (const name of names) {
        const res = await responder.respond(get(`${name}.agents.example.com`));
        expect(res?.status).toBe(404);
      }
    expect(calls.length).toBe(10_000);
    expect(new Set(calls).size).toBe(10_000);
  });

  it('forgets an unknown tenant as soon as a card is written for it', async () => {
    const driver = memoryStore();
    const responder = createAgentCardResponder(base(driver));
    expect((await responder.respond(get('acme.agents.example.com')))?.status).toBe(404);
    await openCardStore(driver, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
    expect((await responder.respond(get('acme.agents.example.com')))?.status).toBe(200);
  });

  it('keeps the tenants it holds within maxTenants and maxBytes, least recently used first', async () => {
    const driver = memoryStore();
    const count = 10_000;
    // Written straight to the driver (the writer's validation is tested elsewhere); read back,
    // each is validated like any record.
    for (let i = 0; i < count; i++)
      await driver.put({ tenant: `t${i}`, agent: 'main' }, JSON.stringify(cardOf(`t${i}`)));
    const responder = createAgentCardResponder(
      base(driver, {
        store: { driver, maxTenants: 500, maxBytes: 2_000_000 },
        catalog: false,
        ard: false,
        legacy: false,
      }),
    );
    let peak = 0;
    for (let i = 0; i < count; i++) {
      const res = await responder.respond(get(`t${i}.agents.example.com`));
      expect(JSON.parse(text(res)).name).toBe(`t${i} main`);
      const held = agentCardStatus(responder).store!;
      peak = Math.max(peak, held.bytes);
      expect(held.tenants).toBeLessThanOrEqual(500);
    }
    expect(peak).toBeLessThanOrEqual(2_000_000);
    // Under pressure and eviction, a tenant's request still gets that tenant's card only.
    for (const i of [0, 1, 9_999, 4_242]) {
      const res = await responder.respond(get(`t${i}.agents.example.com`));
      expect(JSON.parse(text(res)).name).toBe(`t${i} main`);
    }
  }, 300_000);

  it('bounds the held bytes: a small maxBytes keeps fewer tenants', async () => {
    const driver = memoryStore();
    const cards = openCardStore(driver, { profile: 'development' });
    for (let i = 0; i < 20; i++) await cards.put(`t${i}`, 'main', cardOf(`t${i}`));
    const responder = createAgentCardResponder(base(driver, { store: { driver, maxBytes: 8_000 } }));
    for (let i = 0; i < 20; i++) await responder.respond(get(`t${i}.agents.example.com`));
    const held = agentCardStatus(responder).store!;
    expect(held.bytes).toBeLessThanOrEqual(8_000);
    expect(held.tenants).toBeGreaterThan(0);
    expect(held.tenants).toBeLessThan(20);
  });
});

describe('a store-backed host when the store fails', () => {
  it('keeps answering warm tenants with the same bytes, logs the outage once, and says stale', async () => {
    const { driver, state, emit, calls } = counted();
    await openCardStore(driver, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
    const log = lines();
    const responder = createAgentCardResponder(base(driver, { logger: log.logger }));
    const before = await responder.respond(get('acme.agents.example.com'));
    state.failing = true;
    emit({ type: 'down', error: new Error('connection lost') });
    for (let i = 0; i < 50; i++) {
      const res = await responder.respond(get('acme.agents.example.com'));
      expect(res?.status).toBe(200);
      expect(Buffer.from(res!.body!).equals(Buffer.from(before!.body!))).toBe(true);
    }
    // A resync while down reads nothing new and keeps what is served.
    emit({ type: 'resync' });
    await settle();
    expect((await responder.respond(get('acme.agents.example.com')))?.headers.etag).toBe(before?.headers.etag);
    // A cold tenant gets a fixed 503 with Retry-After; the outage is still one line.
    const cold = await responder.respond(get('globex.agents.example.com'));
    expect(cold?.status).toBe(503);
    expect(cold?.headers['retry-after']).toBe('30');
    // Its next requests, right after, are answered without asking the store again.
    const asked = calls.length;
    for (let i = 0; i < 20; i++) expect((await responder.respond(get('globex.agents.example.com')))?.status).toBe(503);
    expect(calls.length).toBe(asked);
    expect(log.out.filter((l) => l.includes('cannot be reached'))).toHaveLength(1);
    expect(log.out.find((l) => l.includes('cannot be reached'))).toBe(
      'agent card: the store memory cannot be reached (connection lost); serving the cards held in memory until it is back.',
    );
    expect(agentCardStatus(responder)).toMatchObject({ state: 'stale', ready: true });
    state.failing = false;
    emit({ type: 'up' });
    expect(log.out.filter((l) => l.includes('reachable again'))).toHaveLength(1);
    expect(agentCardStatus(responder)).toMatchObject({ state: 'ok', store: { connected: true } });
  });

  it('starts without the store, and serves from a snapshot while it cannot be reached', async () => {
    const { driver, state } = counted();
    state.failing = true;
    const failingWatch: CardStoreDriver = { ...driver, watch: () => Promise.reject(new Error('ECONNREFUSED')) };
    const body = JSON.stringify(cardOf('acme'));
    const log = lines();
    const responder = createAgentCardResponder(
      base(failingWatch, {
        store: {
          driver: failingWatch,
          snapshot: [{ tenant: 'acme', agent: 'main', version: 3, body, revision: '7' }],
        },
        logger: log.logger,
      }),
    );
    const res = await responder.respond(get('acme.agents.example.com'));
    expect(res?.status).toBe(200);
    expect(text(res)).toBe(body);
    expect(log.out.filter((l) => l.includes('cannot be reached'))).toHaveLength(1);
    expect(agentCardStatus(responder).store).toMatchObject({ description: 'memory', connected: false });
    closeAgentCard(responder);
  });

  it('reads a snapshot file at start-up, and refuses one that is not records, listing each', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'agent-card-snapshot-'));
    const good = join(dir, 'good.json');
    const record = { tenant: 'acme', agent: 'main', version: 1, body: JSON.stringify(cardOf('acme')), revision: '1' };
    writeFileSync(good, JSON.stringify({ records: [record] }));
    const down: CardStoreDriver = {
      ...memoryStore(),
      description: 'redis://cards.internal:6379/0',
      tenant: () => Promise.reject(new Error('ECONNREFUSED')),
      watch: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const log = lines();
    const responder = createAgentCardResponder(
      base(down, { store: { driver: down, snapshot: good }, logger: log.logger }),
    );
    expect(JSON.parse(text(await responder.respond(get('acme.agents.example.com')))).name).toBe('acme main');
    expect(log.out).toContain(
      'agent card: the store redis://cards.internal:6379/0 cannot be reached (ECONNREFUSED); serving the cards held in memory until it is back.',
    );
    closeAgentCard(responder);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ records: [record, { tenant: '*', agent: 'main', version: 1, body: '{}' }] }));
    expect(() => createAgentCardResponder(base(down, { store: { driver: down, snapshot: bad } }))).toThrow(
      'options.store.snapshot[1]: must be a record { tenant, agent, version, body, revision }',
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not ready while the store has never been reached and there is no snapshot', async () => {
    const driver: CardStoreDriver = { ...memoryStore(), watch: () => Promise.reject(new Error('ECONNREFUSED')) };
    const responder = createAgentCardResponder(base(driver));
    await settle();
    expect(agentCardStatus(responder)).toMatchObject({ ready: false });
    closeAgentCard(responder);
  });
});

describe('records another tool wrote', () => {
  const bad: [string, (driver: CardStoreDriver) => Promise<unknown>, string][] = [
    ['invalid JSON', (d) => d.put({ tenant: 'acme', agent: 'main' }, '{"name": "oops"'), 'is not JSON'],
    [
      'an invalid card',
      (d) => d.put({ tenant: 'acme', agent: 'main' }, JSON.stringify({ ...cardOf('acme'), name: '' })),
      'validation error',
    ],
    [
      "another tenant's URLs",
      (d) => d.put({ tenant: 'acme', agent: 'main' }, JSON.stringify(cardOf('globex'))),
      'is not tenant "acme"\'s',
    ],
  ];
  for (const [what, write, finding] of bad)
    it(`never serves ${what}; the previous version stays and the finding is logged`, async () => {
      const driver = memoryStore();
      await openCardStore(driver, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
      const log = lines();
      const responder = createAgentCardResponder(base(driver, { logger: log.logger }));
      const before = await responder.respond(get('acme.agents.example.com'));
      await write(driver);
      await settle();
      const after = await responder.respond(get('acme.agents.example.com'));
      expect(after?.headers.etag).toBe(before?.headers.etag);
      expect(log.out.some((l) => l.includes('acme/main version 2') && l.includes(finding))).toBe(true);
      // A replica that never held it does not serve it either.
      const fresh = createAgentCardResponder(base(driver, { logger: { warn() {} } }));
      expect((await fresh.respond(get('acme.agents.example.com')))?.status).toBe(404);
    });

  it('shows no control character of a record in the log', async () => {
    const driver = memoryStore();
    await driver.put(
      { tenant: 'acme', agent: 'main' },
      JSON.stringify({ ...cardOf('acme'), name: '', description: 3 }),
    );
    await driver.put({ tenant: 'acme', agent: 'evil' }, '{"name": "\u001b[2J\nforged line');
    const log = lines();
    const responder = createAgentCardResponder(base(driver, { logger: log.logger }));
    expect((await responder.respond(get('acme.agents.example.com')))?.status).toBe(404);
    expect(log.out.length).toBeGreaterThan(0);
    for (const line of log.out) expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it('never replaces an agent by an older version than the one served', async () => {
    const inner = memoryStore();
    const { driver, emit } = counted(inner);
    const cards = openCardStore(driver, { profile: 'development' });
    await cards.put('acme', 'main', cardOf('acme', 'main', '1.0.0'));
    await cards.put('acme', 'main', cardOf('acme', 'main', '2.0.0'));
    const responder = createAgentCardResponder(base(driver));
    expect(JSON.parse(text(await responder.respond(get('acme.agents.example.com')))).version).toBe('2.0.0');
    // A lagging read (a replica of the store behind the primary) gives version 1 back.
    const stale = { tenant: 'acme', agent: 'main', version: 1, body: JSON.stringify(cardOf('acme')), revision: '1' };
    (driver as { tenant: CardStoreDriver['tenant'] }).tenant = async () => [stale];
    emit({ type: 'resync' });
    await settle();
    expect(JSON.parse(text(await responder.respond(get('acme.agents.example.com')))).version).toBe('2.0.0');
  });
});

describe('tenant names from requests', () => {
  const hostile: [string, string][] = [
    ['*', '*'],
    ['a:b', 'a:b'],
    ['../x', '../x'],
    ["' OR 1=1 --", "' OR 1=1 --"],
    ['10 KB', 'a'.repeat(10 * 1024)],
    ['control characters', 'a\u0000b\r\nc'],
    ['a glob', 'acme?'],
    ['upper case made to look alike', 'ACME\u212a'],
  ];
  for (const [what, name] of hostile)
    it(`refuses ${what} with a fixed 400 on path tenancy, never reaching the store`, async () => {
      const { driver, calls } = counted();
      const responder = createAgentCardResponder(base(driver, { tenant: { from: 'path', prefix: '/t' } }));
      const res = await responder.respond({ method: 'GET', path: `/t/${name}${CARD_PATH}`, headers: {} });
      expect(res?.status).toBe(400);
      expect(calls).toEqual([]);
    });
  for (const [what, name] of hostile)
    it(`refuses ${what} from a tenant function with a fixed 400, never reaching the store`, async () => {
      const { driver, calls } = counted();
      const responder = createAgentCardResponder(base(driver, { tenant: { from: () => name, vary: ['X-Tenant'] } }));
      const res = await responder.respond(get('any.example.com'));
      expect(res?.status).toBe(400);
      expect(res?.headers.vary).toBe('X-Tenant');
      expect(calls).toEqual([]);
    });

  it('refuses a host name whose tenant label is not a tenant name', async () => {
    const { driver, calls } = counted();
    const responder = createAgentCardResponder(base(driver));
    for (const host of ['a.b.agents.example.com', '-x.agents.example.com', `${'a'.repeat(64)}.agents.example.com`])
      expect((await responder.respond(get(host)))?.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it('serves a path tenant under its prefix, its catalog naming URLs under it', async () => {
    const driver = memoryStore();
    const card = {
      ...cardOf('acme'),
      supportedInterfaces: [
        { url: 'https://api.example.com/t/acme/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    } as AgentCard;
    const tenant = { from: 'path', prefix: '/t' } as const;
    await openCardStore(driver, { profile: 'development', tenant }).put('acme', 'main', card);
    const responder = createAgentCardResponder(base(driver, { tenant }));
    const res = await responder.respond({ method: 'GET', path: `/t/acme${CARD_PATH}?x=1`, headers: {} });
    expect(JSON.parse(text(res)).name).toBe('acme main');
    const catalog = await responder.respond({
      method: 'GET',
      path: '/t/acme/.well-known/ai-catalog.json',
      headers: {},
    });
    expect(JSON.parse(text(catalog)).entries[0].url).toBe(`https://api.example.com/t/acme/agents/main${CARD_PATH}`);
    expect(res?.headers.link).toContain('<https://api.example.com/t/acme/.well-known/ai-catalog.json>');
    expect(await responder.respond({ method: 'GET', path: '/t/acme/api/x', headers: {} })).toBeUndefined();
    expect(await responder.respond({ method: 'GET', path: CARD_PATH, headers: {} })).toBeUndefined();
  });

  it("never gives one tenant another tenant's card, catalog or key set", async () => {
    const driver = memoryStore();
    const cards = openCardStore(driver, { profile: 'development' });
    await cards.put('acme', 'main', cardOf('acme'));
    await cards.put('globex', 'main', cardOf('globex'));
    const responder = createAgentCardResponder(base(driver, { store: { driver, maxTenants: 1 } }));
    for (let i = 0; i < 5; i++)
      for (const t of ['acme', 'globex']) {
        const card = await responder.respond(get(`${t}.agents.example.com`));
        expect(JSON.parse(text(card)).name).toBe(`${t} main`);
        const catalog = await responder.respond(get(`${t}.agents.example.com`, '/.well-known/ai-catalog.json'));
        expect(text(catalog)).toContain(`${t}.agents.example.com`);
        expect(text(catalog)).not.toContain(t === 'acme' ? 'globex' : 'acme.');
      }
  });
});

describe('writes', () => {
  it('removes a deleted agent from its tenant, and the tenant once it has none', async () => {
    const driver = memoryStore();
    const responder = createAgentCardResponder(base(driver));
    const store = agentCardStore(responder);
    await store.put('acme', 'main', cardOf('acme'));
    await store.put('acme', 'billing', cardOf('acme', 'billing'));
    const billing = get('acme.agents.example.com', `/agents/billing${CARD_PATH}`);
    expect((await responder.respond(billing))?.status).toBe(200);
    expect(await store.delete('acme', 'billing')).toBe(true);
    expect(await responder.respond(billing)).toBeUndefined();
    const catalog = await responder.respond(get('acme.agents.example.com', '/.well-known/ai-catalog.json'));
    expect(JSON.parse(text(catalog)).entries).toHaveLength(1);
    await store.delete('acme', 'main');
    expect((await responder.respond(get('acme.agents.example.com')))?.status).toBe(404);
  });

  it('sends the headers a tenant function reads in Vary on every answer, 200 and 304 alike', async () => {
    const driver = memoryStore();
    const responder = createAgentCardResponder(
      base(driver, {
        tenant: { from: (r) => r.headers['x-tenant'] as string | undefined, vary: ['X-Tenant'] },
        cors: ['https://app.example.com'],
      }),
    );
    await openCardStore(driver, { profile: 'development' }).put('acme', 'main', cardOf('acme'));
    const ok = await responder.respond(get('any.example.com', CARD_PATH, { 'x-tenant': 'acme' }));
    expect([ok?.status, ok?.headers.vary]).toEqual([200, 'Origin, Accept, X-Tenant']);
    const again = await responder.respond(
      get('any.example.com', CARD_PATH, { 'x-tenant': 'acme', 'if-none-match': ok!.headers.etag! }),
    );
    expect([again?.status, again?.headers.vary]).toEqual([304, 'Origin, Accept, X-Tenant']);
    expect(await responder.respond(get('any.example.com'))).toBeUndefined();
  });

  it('has no fixed list of paths to build for a static host', () => {
    expect(() => servedPathsOf(createAgentCardResponder(base(memoryStore())))).toThrow(
      "servedPathsOf: the responder serves the cards of a store (store), whose documents depend on the request's tenant.",
    );
  });

  it('refuses a stale version with ERR_AGENT_CARD_STORE_VERSION', async () => {
    const driver = memoryStore();
    const responder = createAgentCardResponder(base(driver));
    const store = agentCardStore(responder);
    await store.put('acme', 'main', cardOf('acme'), { version: 5 });
    await expect(store.put('acme', 'main', cardOf('acme', 'main', '2.0.0'), { version: 4 })).rejects.toMatchObject({
      code: 'ERR_AGENT_CARD_STORE_VERSION',
    });
    expect(JSON.parse(text(await responder.respond(get('acme.agents.example.com')))).version).toBe('1.0.0');
  });

  it("refuses an invalid card listing every error, and a card claiming another tenant's host", async () => {
    const cards = openCardStore(memoryStore(), { profile: 'development', tenant: { from: 'host', hosts: HOSTS } });
    const invalid = cards.put('acme', 'main', { ...cardOf('acme'), name: '', version: '' } as AgentCard);
    await expect(invalid).rejects.toBeInstanceOf(AgentCardError);
    await expect(invalid).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_INVALID' });
    await expect(invalid).rejects.toThrow(/2 validation error/);
    await expect(cards.put('acme', 'main', cardOf('globex'))).rejects.toThrow(
      'the interface URL "https://globex.agents.example.com/agents/main/a2a" is not tenant "acme"\'s',
    );
    const owned = openCardStore(memoryStore(), {
      profile: 'development',
      tenant: {
        from: 'host',
        hosts: HOSTS,
        owns: (tenant, url) => url.hostname.startsWith('globex') || tenant === 'x',
      },
    });
    await expect(owned.put('acme', 'main', cardOf('globex'))).resolves.toMatchObject({ version: 1 });
  });

  it('refuses bad tenant and agent names at the write', async () => {
    const cards = openCardStore(memoryStore(), { profile: 'development' });
    await expect(cards.put('*', 'main', cardOf('acme'))).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
    await expect(cards.put('acme', '../x', cardOf('acme'))).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
  });

  it('points update() at the store', () => {
    const responder = createAgentCardResponder(base(memoryStore()));
    expect(() => responder.update(cardOf('acme'))).toThrow(
      'update: the responder serves cards from a store (store), one set per tenant. Write the card through the store: await agentCardStore(responder).put(tenant, agent, card).',
    );
  });
});

describe('start-up', () => {
  it('refuses a tenant chosen by a function and cached public without Vary', () => {
    expect(() =>
      createAgentCardResponder(
        base(memoryStore(), { tenant: { from: (r) => String(r.headers['x-tenant']), vary: [] } }),
      ),
    ).toThrow(
      "options.tenant.vary: a tenant chosen by a function is cached by shared caches (cacheControl \"public, max-age=3600\") without the request headers the function reads in Vary, so a cache would hand one tenant's card to another ([]). List the headers it reads, e.g. vary: ['X-Tenant'], or make the answers private, e.g. cacheControl: 'private, max-age=60'.",
    );
    // Private answers, or the header named in Vary, are fine.
    expect(() =>
      createAgentCardResponder(
        base(memoryStore(), { tenant: { from: () => 'acme', vary: [] }, cacheControl: 'private, max-age=60' }),
      ),
    ).not.toThrow();
  });

  it('lists every bad option at once', () => {
    let message = '';
    try {
      createAgentCardResponder({
        store: { driver: memoryStore(), maxTenants: 0 },
        tenant: { from: 'host', hosts: ['agents.example.com'] },
        card: cardOf('acme'),
        catalog: { baseUrl: 'https://x.example.com' },
      } as AgentCardOptions);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('options.card: cannot be used with options.store');
    expect(message).toContain('options.store.maxTenants: must be a whole number, at least 1');
    expect(message).toContain(
      "options.tenant.hosts: must be a non-empty list of lower-case host names, each with '{tenant}'",
    );
    expect(message).toContain('options.catalog.baseUrl: is taken from each tenant');
  });
});
