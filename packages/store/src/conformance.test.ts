// One table of driver behaviour, run against the memory store (the reference) and every driver
// of this package on real servers: records, versions, pages, concurrent writers, change events,
// outages and catch-up, hostile names.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCardError } from '@agent-card/core';
import { type CardStoreDriver, memoryStore, type StoreEvent } from '@agent-card/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesStore } from './files';
import { postgresStore } from './postgres';
import { redisStore } from './redis';
import { postgresMissing, redisMissing, startPostgres, startRedis, type TestServer } from './test-servers';

interface Store {
  /** A new connection (a new driver) to the same store. */
  open(options?: { retryDelay?: number; small?: boolean }): CardStoreDriver;
  server?: TestServer;
  cleanup(): Promise<void>;
}

interface Subject {
  name: string;
  missing?: string;
  /** Whether the store is a server whose outage the driver must live through. */
  outage: boolean;
  /** Whether a watcher can fall so far behind that the store's change log no longer reaches. */
  trims: boolean;
  make(): Promise<Store>;
}

const subjects: Subject[] = [
  {
    name: 'memory',
    outage: false,
    trims: false,
    async make() {
      const store = memoryStore();
      return { open: () => store, cleanup: () => store.close() };
    },
  },
  {
    name: 'files',
    outage: false,
    trims: true,
    async make() {
      const dir = mkdtempSync(join(tmpdir(), 'agent-card-files-'));
      return {
        open: (o) => filesStore({ dir, changeLogLength: o?.small ? 10 : undefined }),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'redis',
    missing: redisMissing,
    outage: true,
    trims: true,
    async make() {
      const server = await startRedis();
      return {
        server,
        open: (o) =>
          redisStore({
            url: server.url,
            prefix: 'test:',
            retryDelay: o?.retryDelay,
            streamMaxLength: o?.small ? 10 : undefined,
          }),
        cleanup: () => server.stop(),
      };
    },
  },
  {
    name: 'postgres',
    missing: postgresMissing,
    outage: true,
    trims: true,
    async make() {
      const server = await startPostgres();
      const setup = postgresStore({ connectionString: server.url, createTable: true });
      await setup.list();
      await setup.close();
      return {
        server,
        open: (o) =>
          postgresStore({
            connectionString: server.url,
            retryDelay: o?.retryDelay,
            changesKept: o?.small ? 10 : undefined,
          }),
        cleanup: () => server.stop(),
      };
    },
  },
];

const card = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, ...extra });

/** Collects a watcher's events; `until(n)` waits for the n-th of them. */
function recorder() {
  const events: StoreEvent[] = [];
  let wake: (() => void) | undefined;
  const listener = (event: StoreEvent) => {
    events.push(event);
    wake?.();
  };
  const until = async (check: (events: StoreEvent[]) => boolean, ms = 15_000): Promise<StoreEvent[]> => {
    const deadline = Date.now() + ms;
    while (!check(events)) {
      if (Date.now() > deadline) throw new Error(`events so far: ${JSON.stringify(events.map(brief))}`);
      await new Promise<void>((done) => {
        wake = done;
        setTimeout(done, 50);
      });
    }
    return events;
  };
  return { events, listener, until };
}

const brief = (e: StoreEvent) =>
  e.type === 'change'
    ? `${e.change.deleted ? 'del' : 'put'} ${e.change.tenant}/${e.change.agent}@${e.change.version}`
    : e.type;

describe.each(subjects)('the $name store', (subject) => {
  const skip = subject.missing !== undefined;
  let store: Store;
  let driver: CardStoreDriver;
  beforeAll(async () => {
    if (skip) return;
    store = await subject.make();
    driver = store.open();
  });
  afterAll(async () => {
    if (skip) return;
    await driver.close();
    await store.cleanup();
  });

  it.skipIf(skip)('keeps records: put, get, tenant, delete', async () => {
    const first = await driver.put({ tenant: 'acme', agent: 'support' }, card('Support'));
    expect(first).toMatchObject({ tenant: 'acme', agent: 'support', version: 1, body: card('Support') });
    expect(first.revision).toMatch(/^[0-9]+$/);
    const second = await driver.put({ tenant: 'acme', agent: 'support' }, card('Support 2'));
    expect(second.version).toBe(2);
    expect(BigInt(second.revision)).toBeGreaterThan(BigInt(first.revision));
    await driver.put({ tenant: 'acme', agent: 'billing' }, card('Billing'));
    await driver.put({ tenant: 'acme-two', agent: 'support' }, card('Other tenant'));

    expect(await driver.get({ tenant: 'acme', agent: 'support' })).toEqual(second);
    expect(await driver.get({ tenant: 'acme', agent: 'nobody' })).toBeUndefined();
    expect(await driver.get({ tenant: 'nobody', agent: 'support' })).toBeUndefined();
    const records = await driver.tenant('acme');
    expect(records.map((r) => [r.agent, r.version, r.body])).toEqual([
      ['billing', 1, card('Billing')],
      ['support', 2, card('Support 2')],
    ]);
    expect(await driver.tenant('nobody')).toEqual([]);

    expect(await driver.delete({ tenant: 'acme', agent: 'billing' })).toBe(true);
    expect(await driver.delete({ tenant: 'acme', agent: 'billing' })).toBe(false);
    expect(await driver.get({ tenant: 'acme', agent: 'billing' })).toBeUndefined();
    expect((await driver.tenant('acme')).map((r) => r.agent)).toEqual(['support']);
    // A record written again after its delete starts over at version 1.
    expect((await driver.put({ tenant: 'acme', agent: 'billing' }, card('Billing'))).version).toBe(1);
  });

  it.skipIf(skip)('refuses a version that is not newer than the stored one', async () => {
    const key = { tenant: 'versions', agent: 'a' };
    expect((await driver.put(key, card('v5'), { version: 5 })).version).toBe(5);
    for (const version of [5, 3]) {
      const error = await driver.put(key, card('old'), { version }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentCardError);
      expect(error).toMatchObject({
        code: 'ERR_AGENT_CARD_STORE_VERSION',
        message: `versions/a: version ${version} is not newer than the stored version 5. Write version 6 or later, or leave the version out.`,
      });
    }
    expect((await driver.get(key))?.body).toBe(card('v5'));
    expect((await driver.put(key, card('v6'))).version).toBe(6);
    for (const version of [0, -1, 1.5, Number.NaN]) {
      await expect(driver.put(key, card('bad'), { version })).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
    }
    expect((await driver.get(key))?.version).toBe(6);
  });

  it.skipIf(skip)('lists keys in order, a page at a time', async () => {
    for (const agent of ['e', 'a', 'd', 'c', 'b']) await driver.put({ tenant: 'paged', agent }, card(agent));
    await driver.put({ tenant: 'paged-more', agent: 'z' }, card('z'));
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await driver.list({ tenant: 'paged', limit: 2, after });
      seen.push(...page.items.map((k) => `${k.tenant}/${k.agent}`));
      if (page.next === undefined) break;
      expect(page.items).toHaveLength(2);
      after = page.next;
    }
    expect(seen).toEqual(['paged/a', 'paged/b', 'paged/c', 'paged/d', 'paged/e']);

    const all: string[] = [];
    after = undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await driver.list({ limit: 3, after });
      all.push(...page.items.map((k) => `${k.tenant}/${k.agent}`));
      if (page.next === undefined) break;
      after = page.next;
    }
    // In (tenant, agent) order: acme/support before acme-two/support.
    const byKey = (s: string) => s.replace('/', '\u0000');
    expect(all).toEqual([...all].sort((a, b) => (byKey(a) < byKey(b) ? -1 : 1)));
    expect(all.indexOf('acme/support')).toBeLessThan(all.indexOf('acme-two/support'));
    expect(all).toEqual(expect.arrayContaining(['paged/a', 'paged/e', 'paged-more/z', 'acme/support']));
    expect(new Set(all).size).toBe(all.length);
    expect((await driver.list({ tenant: 'paged', limit: 5000 })).items).toHaveLength(5);
  });

  it.skipIf(skip)(
    '100 concurrent writers from several connections leave one final version, every read whole',
    async () => {
      const drivers = subject.name === 'memory' ? [driver] : [0, 1, 2, 3].map(() => store.open());
      const key = { tenant: 'race', agent: 'one' };
      const written = new Map<number, string>();
      const reads: (string | undefined)[] = [];
      const bodyOf = (i: number) => card(`writer ${i}`, { filler: String(i % 10).repeat(20_000) });
      let writing = true;
      const reader = (async () => {
        while (writing) {
          const record = await drivers[1 % drivers.length]?.get(key);
          reads.push(record === undefined ? undefined : `${record.version}:${record.body}`);
        }
      })();
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const record = await (drivers[i % drivers.length] as CardStoreDriver).put(key, bodyOf(i));
          written.set(record.version, record.body);
        }),
      );
      writing = false;
      await reader;
      expect([...written.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      const final = await driver.get(key);
      expect(final?.version).toBe(100);
      expect(final?.body).toBe(written.get(100));
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads) {
        if (read === undefined) continue;
        const at = read.indexOf(':');
        expect(written.get(Number(read.slice(0, at)))).toBe(read.slice(at + 1));
      }
      if (subject.name !== 'memory') await Promise.all(drivers.map((d) => d.close()));
    },
  );

  it.skipIf(skip)('tells a watcher every change in order, from any connection', async () => {
    const watching = store.open();
    const writer = store.open();
    const { listener, until } = recorder();
    const stop = await watching.watch(listener);
    try {
      const a = await writer.put({ tenant: 'watched', agent: 'a' }, card('a'));
      const b = await writer.put({ tenant: 'watched', agent: 'b' }, card('b'));
      const a2 = await writer.put({ tenant: 'watched', agent: 'a' }, card('a2'));
      await writer.delete({ tenant: 'watched', agent: 'b' });
      const events = await until((e) => e.length >= 4);
      await new Promise((done) => setTimeout(done, 200));
      expect(events.map(brief)).toEqual(['put watched/a@1', 'put watched/b@1', 'put watched/a@2', 'del watched/b@1']);
      const changes = events.flatMap((e) => (e.type === 'change' ? [e.change] : []));
      expect(changes.slice(0, 3).map((c) => c.revision)).toEqual([a.revision, b.revision, a2.revision]);
      const revisions = changes.map((c) => BigInt(c.revision));
      for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1] as bigint);
    } finally {
      await stop();
      if (watching !== driver) await watching.close();
      if (writer !== driver && writer !== watching) await writer.close();
    }
  });

  it.skipIf(skip)('two listeners that start watching at once each get every change once', async () => {
    const watching = store.open();
    const first = recorder();
    const second = recorder();
    const stops = await Promise.all([watching.watch(first.listener), watching.watch(second.listener)]);
    try {
      await driver.put({ tenant: 'twice', agent: 'a' }, card('a'));
      await first.until((e) => e.length >= 1);
      await second.until((e) => e.length >= 1);
      await new Promise((done) => setTimeout(done, 300));
      expect(first.events.map(brief)).toEqual(['put twice/a@1']);
      expect(second.events.map(brief)).toEqual(['put twice/a@1']);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      if (watching !== driver) await watching.close();
    }
  });

  // Only a server can die: the memory and a folder have no outage to live through.
  if (subject.outage)
    it.skipIf(skip)(
      'says down when the server dies, and on its return replays what it missed once, in order, then up',
      async () => {
        const server = store.server as TestServer;
        const watching = store.open({ retryDelay: 3_000 });
        const { events, listener, until } = recorder();
        const stop = await watching.watch(listener);
        try {
          await driver.put({ tenant: 'outage', agent: 'before' }, card('before'));
          await until((e) => e.length >= 1);
          await server.kill();
          await until((e) => e.some((x) => x.type === 'down'));
          const down = events.find((e) => e.type === 'down') as { error: AgentCardError };
          expect(down.error).toBeInstanceOf(AgentCardError);
          expect(down.error.message).toContain(watching.description);
          // A command while the store is away fails within a bound, naming the store.
          const started = Date.now();
          await expect(driver.get({ tenant: 'outage', agent: 'before' })).rejects.toMatchObject({
            code: 'ERR_AGENT_CARD_STORE',
            message: expect.stringContaining(driver.description),
          });
          expect(Date.now() - started).toBeLessThan(6_000);

          await server.restart();
          // Written while the watcher waits to reconnect (its retry delay is 3 s).
          const writer = store.open();
          await writer.put({ tenant: 'outage', agent: 'missed-1' }, card('1'));
          await writer.put({ tenant: 'outage', agent: 'missed-2' }, card('2'));
          await writer.put({ tenant: 'outage', agent: 'missed-1' }, card('1b'));
          await writer.delete({ tenant: 'outage', agent: 'missed-2' });
          await writer.close();
          await until((e) => e.some((x) => x.type === 'up'));
          await new Promise((done) => setTimeout(done, 300));
          expect(events.map(brief)).toEqual([
            'put outage/before@1',
            'down',
            'put outage/missed-1@1',
            'put outage/missed-2@1',
            'put outage/missed-1@2',
            'del outage/missed-2@1',
            'up',
          ]);
          // Live again after catching up.
          await driver.put({ tenant: 'outage', agent: 'after' }, card('after'));
          await until((e) => e.length >= 8);
          expect(brief(events[7] as StoreEvent)).toBe('put outage/after@1');
        } finally {
          await stop();
          await watching.close();
        }
      },
      40_000,
    );

  // The memory keeps no change log, so nothing can be trimmed from it.
  if (subject.trims)
    it.skipIf(skip)(
      'asks for a resync when its change log was trimmed past what a watcher saw',
      async () => {
        const watching = store.open({ retryDelay: 2_000, small: true });
        const writer = store.open({ small: true });
        const { events, listener, until } = recorder();
        const stop = await watching.watch(listener);
        try {
          if (store.server !== undefined) {
            await store.server.kill();
            await until((e) => e.some((x) => x.type === 'down'));
            await store.server.restart();
          } else {
            // A folder has no outage: the watcher is paused by holding its event loop turn.
            pauseFilesWatcher(watching, true);
          }
          const written: string[] = [];
          for (let i = 0; i < 300; i++)
            written.push((await writer.put({ tenant: 'trimmed', agent: `a${i % 7}` }, card(String(i)))).revision);
          if (store.server === undefined) pauseFilesWatcher(watching, false);
          await until((e) => e.some((x) => x.type === 'resync'));
          await new Promise((done) => setTimeout(done, 500));
          // After the resync, only changes newer than it: the tail of the writes (when the watcher
          // came back while they went on), in order, once each; never the trimmed ones.
          const after = events
            .slice(events.findIndex((e) => e.type === 'resync'))
            .flatMap((e) => (e.type === 'change' ? [e.change.revision] : []));
          expect(after).toEqual(written.slice(written.length - after.length));
          expect(after.length).toBeLessThan(250);
          expect(events.filter((e) => e.type === 'resync')).toHaveLength(1);
          await writer.put({ tenant: 'trimmed', agent: 'later' }, card('later'));
          await until((e) => e.some((x) => x.type === 'change' && x.change.agent === 'later'));
        } finally {
          await stop();
          await watching.close();
          await writer.close();
        }
      },
      40_000,
    );

  it.skipIf(skip)(
    'keeps hostile names harmless: stored as themselves or refused, never a pattern or a path',
    async () => {
      const hostile = ['*', 'a:b', '../x', "' OR 1=1 --", 'x'.repeat(10_240), '%', '_', '[a-z]', 'a\u0001b'];
      await driver.put({ tenant: 'victim', agent: 'kept' }, card('victim'));
      for (const name of hostile) {
        for (const key of [
          { tenant: name, agent: 'agent' },
          { tenant: 'hostile', agent: name },
        ]) {
          const result = await driver.put(key, card('hostile')).catch((e: unknown) => e);
          if (result instanceof Error) {
            expect(result).toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
            expect(result.message.length).toBeLessThan(400);
            await expect(driver.get(key)).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
            continue;
          }
          expect(await driver.get(key)).toMatchObject({ tenant: key.tenant, agent: key.agent, body: card('hostile') });
          expect((await driver.tenant(key.tenant)).map((r) => r.agent)).toContain(key.agent);
          expect(await driver.delete(key)).toBe(true);
        }
        expect(await driver.tenant(name).catch(() => [])).toEqual([]);
      }
      expect((await driver.tenant('hostile')).map((r) => r.agent)).toEqual([]);
      expect((await driver.tenant('victim')).map((r) => r.body)).toEqual([card('victim')]);
    },
  );
});

/** The files driver's watcher, held still so that the change log can outrun it. */
function pauseFilesWatcher(driver: CardStoreDriver, paused: boolean): void {
  (driver as unknown as { [key: symbol]: (paused: boolean) => void })[Symbol.for('agent-card.store.pause')]?.(paused);
}
