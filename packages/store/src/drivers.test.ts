// What each driver does beyond the shared table: its layout on disk or in the server, records
// corrupted by hand, identifiers and options, passwords that never show, unreachable stores.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { CardStoreDriver, StoreEvent } from '@agent-card/core/store';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES_STATE_DIR, filesStore } from './files';
import { storeFromUrl } from './from-url';
import { cardTableDdl, postgresStore } from './postgres';
import { redisStore } from './redis';
import {
  freePort,
  POSTGRES_PASSWORD,
  postgresMissing,
  redisMissing,
  startPostgres,
  startRedis,
  type TestServer,
} from './test-servers';

const card = (name: string) => JSON.stringify({ name });

async function events(driver: CardStoreDriver) {
  const seen: StoreEvent[] = [];
  const stop = await driver.watch((e) => seen.push(e));
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`events: ${JSON.stringify(seen)}`);
      await new Promise((done) => setTimeout(done, 25));
    }
  };
  return { seen, stop, until };
}

/** Checks that nothing a user can print holds the secret, and returns the error. */
async function failsWithout(secret: string, driver: CardStoreDriver, ms: number) {
  expect(driver.description).not.toContain(secret);
  expect(inspect(driver, { depth: 10, showHidden: true })).not.toContain(secret);
  expect(JSON.stringify(driver)).not.toContain(secret);
  const started = Date.now();
  const error = await driver.get({ tenant: 'a', agent: 'b' }).then(
    () => new Error('the store answered'),
    (e: unknown) => e as Error,
  );
  expect(Date.now() - started).toBeLessThan(ms);
  expect(error).toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
  expect(error.message).toContain(driver.description);
  expect(error.message).not.toContain(secret);
  expect(inspect(error, { depth: 10 })).not.toContain(secret);
  expect(String(error.stack)).not.toContain(secret);
  await driver.close();
  return error;
}

describe('the files driver', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-card-files-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each card as a plain card file, its version beside the cards', async () => {
    const store = filesStore({ dir });
    const body = `${JSON.stringify({ name: 'Support', version: '1.0.0' }, null, 2)}\n`;
    await store.put({ tenant: 'acme', agent: 'support' }, body);
    await store.put({ tenant: 'acme', agent: 'support' }, body, { version: 7 });
    expect(readFileSync(join(dir, 'acme', 'support.json'), 'utf8')).toBe(body);
    expect(readdirSync(join(dir, 'acme'))).toEqual(['support.json']);
    expect(
      JSON.parse(readFileSync(join(dir, FILES_STATE_DIR, 'records', 'acme', 'support.json'), 'utf8')),
    ).toMatchObject({ version: 7, revision: '2' });
    expect(readFileSync(join(dir, FILES_STATE_DIR, 'revision'), 'utf8')).toBe('2');
    expect(store.description).toBe(`files:${dir}`);
    await store.close();
  });

  it('turns a card file replaced or removed by hand into a new version or a delete, once', async () => {
    const [a, b] = [filesStore({ dir }), filesStore({ dir })];
    await a.put({ tenant: 'hand', agent: 'edited' }, card('v1'));
    const watchA = await events(a);
    const watchB = await events(b);
    writeFileSync(join(dir, 'hand', 'edited.json'), card('edited by hand'));
    await watchA.until(() => watchA.seen.length >= 1);
    await watchB.until(() => watchB.seen.length >= 1);
    expect(await b.get({ tenant: 'hand', agent: 'edited' })).toMatchObject({
      version: 2,
      body: card('edited by hand'),
    });
    writeFileSync(join(dir, 'hand', 'new.json'), card('placed by hand'));
    await watchA.until(() => watchA.seen.length >= 2);
    rmSync(join(dir, 'hand', 'edited.json'));
    await watchA.until(() => watchA.seen.length >= 3);
    await new Promise((done) => setTimeout(done, 300));
    const brief = (e: StoreEvent) =>
      e.type === 'change' ? [e.change.agent, e.change.version, e.change.deleted] : [e.type];
    expect(watchA.seen.map(brief)).toEqual([
      ['edited', 2, false],
      ['new', 1, false],
      ['edited', 2, true],
    ]);
    expect(watchB.seen.map(brief)).toEqual(watchA.seen.map(brief));
    await Promise.all([watchA.stop(), watchB.stop(), a.close(), b.close()]);
  });

  it('refuses names that are paths, and writes nothing outside its folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'agent-card-outside-'));
    const store = filesStore({ dir: join(outside, 'cards') });
    for (const name of ['..', '.', '../x', 'a/b', 'a\\b', '.hidden', FILES_STATE_DIR, 'x'.repeat(201)]) {
      for (const key of [
        { tenant: name, agent: 'a' },
        { tenant: 't', agent: name },
      ]) {
        await expect(store.put(key, card('x'))).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
        await expect(store.get(key)).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
        await expect(store.delete(key)).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
      }
      await expect(store.tenant(name)).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_STORE' });
    }
    expect(readdirSync(outside)).toEqual([]);
    rmSync(outside, { recursive: true, force: true });
    await store.close();
  });

  it('reads a garbled card as its text, and names a garbled version file', async () => {
    const store = filesStore({ dir });
    await store.put({ tenant: 'broken', agent: 'card' }, card('ok'));
    writeFileSync(join(dir, 'broken', 'card.json'), 'garbage{');
    expect(await store.get({ tenant: 'broken', agent: 'card' })).toMatchObject({ body: 'garbage{', version: 2 });
    await store.put({ tenant: 'broken', agent: 'meta' }, card('ok'));
    const metaFile = join(dir, FILES_STATE_DIR, 'records', 'broken', 'meta.json');
    writeFileSync(metaFile, '{"version":"abc"}');
    await expect(store.get({ tenant: 'broken', agent: 'meta' })).rejects.toMatchObject({
      code: 'ERR_AGENT_CARD_STORE',
      message: expect.stringContaining(JSON.stringify(metaFile)),
    });
    expect(await store.delete({ tenant: 'broken', agent: 'meta' })).toBe(true);
    expect(await store.get({ tenant: 'broken', agent: 'meta' })).toBeUndefined();
    await store.close();
  });

  it('watches without keeping the process alive', async () => {
    const store = filesStore({ dir });
    const before = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    const watching = await events(store);
    await store.put({ tenant: 'alive', agent: 'a' }, card('a'));
    await watching.until(() => watching.seen.length >= 1);
    const during = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    expect(during.filter((r) => r === 'FSEventWrap' || r === 'Timeout').length).toBeLessThanOrEqual(
      before.filter((r) => r === 'FSEventWrap' || r === 'Timeout').length,
    );
    await watching.stop();
    await store.close();
  });

  it('checks its options at once', () => {
    expect(() => filesStore({ dir: '' })).toThrow(/filesStore: dir must be the folder of cards/);
    expect(() => filesStore({ dir, changeLogLength: 0, pollInterval: -1 })).toThrow(
      'filesStore: changeLogLength must be a positive integer (0).\nfilesStore: pollInterval must be a positive number of ms.',
    );
  });
});

describe.skipIf(redisMissing !== undefined)('the Redis driver', () => {
  let server: TestServer;
  let raw: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedis();
    raw = createClient({ url: server.url });
    await raw.connect();
  });
  afterAll(async () => {
    raw?.destroy();
    await server?.stop();
  });

  it('keeps its keys under the prefix, and a name is never a pattern', async () => {
    const store = redisStore({ url: server.url, prefix: 'layout:' });
    await store.put({ tenant: '*', agent: 'a:b' }, card('star'));
    await store.put({ tenant: 'acme', agent: 'support' }, card('acme'));
    const keys = (await raw.sendCommand(['KEYS', 'layout:*'])) as string[];
    expect(keys.sort()).toEqual([
      'layout:changes',
      'layout:index',
      'layout:record:1:*:a:b',
      'layout:record:4:acme:support',
      'layout:revision',
    ]);
    expect(await raw.sendCommand(['HGETALL', 'layout:record:4:acme:support'])).toMatchObject({
      tenant: 'acme',
      agent: 'support',
      version: '1',
      body: card('acme'),
      revision: '2',
    });
    expect((await store.tenant('*')).map((r) => r.agent)).toEqual(['a:b']);
    expect((await store.list({ tenant: '*' })).items).toEqual([{ tenant: '*', agent: 'a:b' }]);
    await store.close();
  });

  it('reads a body garbled by hand as its text, and names a record whose structure is not its own', async () => {
    const store = redisStore({ url: server.url, prefix: 'corrupt:' });
    await store.put({ tenant: 't', agent: 'body' }, card('ok'));
    await raw.sendCommand(['HSET', 'corrupt:record:1:t:body', 'body', 'garbage{']);
    expect(await store.get({ tenant: 't', agent: 'body' })).toMatchObject({ version: 1, body: 'garbage{' });

    await store.put({ tenant: 't', agent: 'version' }, card('ok'));
    await raw.sendCommand(['HSET', 'corrupt:record:1:t:version', 'version', 'abc']);
    const message =
      'redis://127.0.0.1:PORT: the record "corrupt:record:1:t:version" is not a card record (version "abc"). Delete it (the store\'s delete, or redis-cli DEL) and write the card again.';
    const expected = message.replace('PORT', String(server.port));
    await expect(store.get({ tenant: 't', agent: 'version' })).rejects.toThrow(expected);
    await expect(store.tenant('t')).rejects.toThrow(expected);
    await expect(store.put({ tenant: 't', agent: 'version' }, card('new'))).rejects.toThrow(
      /"corrupt:record:1:t:version" is not a card record \(version abc\)/,
    );

    await raw.sendCommand(['SET', 'corrupt:record:1:t:string', 'garbage']);
    await expect(store.get({ tenant: 't', agent: 'string' })).rejects.toThrow(
      /"corrupt:record:1:t:string" is not a card record \(not a hash\)/,
    );
    // Deleting is how a bad record is repaired.
    expect(await store.delete({ tenant: 't', agent: 'version' })).toBe(true);
    expect(await store.delete({ tenant: 't', agent: 'string' })).toBe(true);
    expect((await store.put({ tenant: 't', agent: 'version' }, card('new'))).version).toBe(1);
    await store.close();
  });

  it('uses a client it is given, and leaves it open', async () => {
    const client = createClient({ socket: { host: '127.0.0.1', port: server.port } });
    const store = redisStore({ client, prefix: 'given:' });
    expect(store.description).toBe(`redis://127.0.0.1:${server.port}`);
    // The watcher's own connection goes to the same server as the client.
    const watching = await events(store);
    await store.put({ tenant: 't', agent: 'a' }, card('a'));
    await watching.until(() => watching.seen.length >= 1);
    expect(watching.seen[0]).toMatchObject({ type: 'change', change: { tenant: 't', agent: 'a', version: 1 } });
    await watching.stop();
    await store.close();
    expect(client.isOpen).toBe(true);
    expect(await client.sendCommand(['HGET', 'given:record:1:t:a', 'version'])).toBe('1');
    client.destroy();
  });

  it('never prints the password of its URL, and fails within its connect timeout', async () => {
    const port = await freePort();
    const secret = 'Red1s-Secret-pw';
    const down = redisStore({ url: `redis://cards:${secret}@127.0.0.1:${port}/2`, connectTimeout: 500 });
    expect(down.description).toBe(`redis://cards@127.0.0.1:${port}/2`);
    const error = await failsWithout(secret, down, 3_000);
    expect(error.message).toMatch(
      new RegExp(`^redis://cards@127\\.0\\.0\\.1:${port}/2: unreachable \\(.*ECONNREFUSED`),
    );
    // A server that refuses the credentials.
    const wrong = redisStore({ url: `redis://cards:${secret}@127.0.0.1:${server.port}`, connectTimeout: 1_000 });
    await failsWithout(secret, wrong, 3_000);
  });

  it('checks its options at once, listing every problem', () => {
    expect(() => redisStore({ url: 'http://x', client: createClient(), streamMaxLength: 0 })).toThrow(
      'redisStore: give exactly one of url (redis://host:6379/0) or client (createClient()).\nredisStore: url must start with redis:// or rediss:// (http://x).\nredisStore: streamMaxLength must be a positive integer (0).',
    );
  });
});

describe.skipIf(postgresMissing !== undefined)('the PostgreSQL driver', () => {
  let server: TestServer;
  let raw: pg.Client;
  beforeAll(async () => {
    server = await startPostgres();
    raw = new pg.Client({ connectionString: server.url });
    raw.on('error', () => {});
    await raw.connect();
  }, 60_000);
  afterAll(async () => {
    await raw?.end();
    await server?.stop();
  });

  it('never creates its tables unasked: a missing table is an error that says how to create it', async () => {
    const store = postgresStore({ connectionString: server.url, table: 'missing_cards' });
    await expect(store.get({ tenant: 't', agent: 'a' })).rejects.toThrow(
      `postgres://postgres@127.0.0.1:${server.port}/postgres: reading a record: the table missing_cards (or missing_cards_changes, missing_cards_revision) does not exist (42P01: relation "missing_cards" does not exist). Create it: pass createTable: true once, or run the SQL of cardTableDdl() (printed in the README of @agent-card/store).`,
    );
    const { rows } = await raw.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'missing_cards%'");
    expect(rows[0].n).toBe(0);
    await store.close();

    await raw.query(cardTableDdl({ table: 'made_by_hand' }));
    const made = postgresStore({ connectionString: server.url, table: 'made_by_hand' });
    expect((await made.put({ tenant: 't', agent: 'a' }, card('a'))).version).toBe(1);
    await made.close();
    const created = postgresStore({ connectionString: server.url, table: 'cards.created', createTable: true });
    await raw.query('CREATE SCHEMA IF NOT EXISTS cards');
    expect((await created.put({ tenant: 't', agent: 'a' }, card('a'))).revision).toBe('1');
    await created.close();
  });

  it('reads a body garbled by hand as its text; the table itself refuses a broken version', async () => {
    const store = postgresStore({ connectionString: server.url, createTable: true });
    await store.put({ tenant: 't', agent: 'a' }, card('ok'));
    await raw.query("UPDATE agent_cards SET body = 'garbage{' WHERE tenant = 't' AND agent = 'a'");
    expect(await store.get({ tenant: 't', agent: 'a' })).toMatchObject({ version: 1, body: 'garbage{' });
    await expect(raw.query("UPDATE agent_cards SET version = 0 WHERE tenant = 't'")).rejects.toThrow(
      /check constraint/,
    );
    await store.close();
  });

  it('binds every name as a parameter and validates its identifiers', async () => {
    const store = postgresStore({ connectionString: server.url, createTable: true });
    const hostile = "x'); DROP TABLE agent_cards; --";
    await store.put({ tenant: hostile, agent: hostile }, card('h'));
    expect((await store.tenant(hostile)).map((r) => r.agent)).toEqual([hostile]);
    expect((await raw.query('SELECT count(*)::int AS n FROM agent_cards')).rows[0].n).toBeGreaterThan(0);
    await store.close();
    expect(() =>
      postgresStore({ connectionString: server.url, table: 'cards; DROP TABLE x', channel: 'a-b', changesKept: 0 }),
    ).toThrow(
      'postgresStore: table "cards; DROP TABLE x" is not a plain name: use lower-case letters, digits and _ (at most 50), optionally schema.name.\npostgresStore: channel "a-b" must be lower-case letters, digits and _ (at most 63).\npostgresStore: changesKept must be a positive integer (0).',
    );
    expect(() => cardTableDdl({ table: 'a.b.c' })).toThrow(/is not a plain name/);
  });

  it('announces a change with a small NOTIFY payload, whatever the size of the names', async () => {
    const store = postgresStore({ connectionString: server.url, createTable: true });
    const listener = new pg.Client({ connectionString: server.url });
    listener.on('error', () => {});
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (m) => payloads.push(m.payload ?? ''));
    await listener.query('LISTEN agent_cards');
    const long = 'n'.repeat(1000);
    const watching = await events(store);
    await store.put({ tenant: 'small', agent: 'a' }, card('a'));
    await store.put({ tenant: long, agent: long }, card('long'));
    await watching.until(() => watching.seen.length >= 2 && payloads.length >= 2);
    expect(payloads.map((p) => Buffer.byteLength(p) <= 1000)).toEqual([true, true]);
    expect(JSON.parse(payloads[0] as string)).toMatchObject({ tenant: 'small', agent: 'a', version: 1 });
    expect(Object.keys(JSON.parse(payloads[1] as string))).toEqual(['revision']);
    // The watcher read the long one back from the changes table.
    expect(watching.seen[1]).toMatchObject({ type: 'change', change: { tenant: long, agent: long, version: 1 } });
    await watching.stop();
    await listener.end();
    await store.close();
  });

  it('never prints the password of its URL, and fails within its connect timeout', async () => {
    const port = await freePort();
    const down = postgresStore({
      connectionString: `postgres://app:${POSTGRES_PASSWORD}@127.0.0.1:${port}/cards`,
      connectTimeout: 500,
    });
    expect(down.description).toBe(`postgres://app@127.0.0.1:${port}/cards`);
    const error = await failsWithout(POSTGRES_PASSWORD, down, 3_000);
    expect(error.message).toMatch(
      new RegExp(`^postgres://app@127\\.0\\.0\\.1:${port}/cards: unreachable \\(.*ECONNREFUSED`),
    );
    const url = new URL(server.url);
    url.password = 'Wrong-Secret-pw';
    const wrong = postgresStore({ connectionString: url.href, connectTimeout: 2_000 });
    const refused = await failsWithout('Wrong-Secret-pw', wrong, 4_000);
    expect(refused.message).toContain('password authentication failed');
  });
});

describe('storeFromUrl', () => {
  it('picks the driver a location names, never printing its password', async () => {
    const files = await storeFromUrl('files:./cards');
    expect(files.description).toBe('files:./cards');
    expect((await storeFromUrl('/srv/cards')).description).toBe('files:/srv/cards');
    const redis = await storeFromUrl('redis://app:Secret-pw-1@cards.internal:6380/2');
    expect(redis.description).toBe('redis://app@cards.internal:6380/2');
    const postgres = await storeFromUrl('postgresql://app:Secret-pw-1@db:5433/cards?sslmode=require');
    expect(postgres.description).toBe('postgresql://app@db:5433/cards');
    await expect(storeFromUrl('mongodb://app:Secret-pw-1@db/cards')).rejects.toThrow(
      'storeFromUrl: mongodb://app@db/cards is not a store this package knows. Use redis://, rediss://, postgres://, or a folder.',
    );
    await expect(storeFromUrl('')).rejects.toMatchObject({ code: 'ERR_AGENT_CARD_OPTIONS' });
    await Promise.all([files.close(), redis.close(), postgres.close()]);
  });
});

describe('the README', () => {
  it('prints the SQL that cardTableDdl() runs', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const sql = /```sql\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(sql).toBe(cardTableDdl());
  });
});

describe('every driver', () => {
  it('is at its own entry, and the main entry is the files driver', async () => {
    const main = await import('./index');
    expect(Object.keys(main).sort()).toEqual(['FILES_STATE_DIR', 'filesStore', 'storeFromUrl']);
  });
});
