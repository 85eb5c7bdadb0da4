// The Redis driver: a hash per record, a sorted set of keys for listing, a counter for revisions
// and a stream of changes, all written together by one Lua script per write, so concurrent writers
// never leave a mixed record and every replica reads the changes in the order they were made.
import { AgentCardError } from '@agent-card/core';
import type { CardStoreDriver, StoreChange, StoreKey, StoreRecord } from '@agent-card/core/store';
import {
  checkBody,
  checkPositiveInteger,
  checkPositiveMs,
  createWatchers,
  checkKey,
  checkName,
  describeUrl,
  fromCursor,
  named,
  pageLimit,
  SEP,
  secretsOf,
  shown,
  sleep,
  storeError,
  toCursor,
  versionRefused,
  wantedVersion,
  within,
} from './shared';

/**
 * The part of a client of the `redis` package (6.x) the driver uses: pass the result of
 * `createClient()`, connected or not.
 */
export interface RedisClientLike {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(overrides?: { socket?: object }): RedisClientLike;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  destroy(): void;
  readonly options?: { readonly url?: string; readonly socket?: object };
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port/db` (or `rediss://`). Give `url` or `client`. */
  readonly url?: string;
  /** A client of the `redis` package to use instead of `url`; the driver never closes it. */
  readonly client?: RedisClientLike;
  /**
   * Prepended to every key. For Redis Cluster, put a hash tag in it (`{cards}:`) so that a
   * write's keys share a slot. @default 'agent-card:'
   */
  readonly prefix?: string;
  /**
   * About how many changes the stream keeps (`XADD MAXLEN ~`). A watcher away for more changes
   * than this gets `resync`. @default 10000
   */
  readonly streamMaxLength?: number;
  /** How long connecting may take before an operation fails, in ms. @default 5000 */
  readonly connectTimeout?: number;
  /** How long a watcher waits between reconnection attempts, in ms. @default 1000 */
  readonly retryDelay?: number;
}

const PUT = `
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'none' and t ~= 'hash' then return {'corrupt', 'a ' .. t .. ' instead of a hash'} end
local cur = redis.call('HGET', KEYS[1], 'version')
local stored = 0
if t == 'hash' then
  stored = tonumber(cur or '')
  if not stored or stored < 1 or stored % 1 ~= 0 then return {'corrupt', 'version ' .. tostring(cur)} end
end
local v
if ARGV[4] == '' then v = stored + 1 else
  v = tonumber(ARGV[4])
  if t == 'hash' and v <= stored then return {'old', string.format('%.0f', stored)} end
end
local rev = redis.call('INCR', KEYS[3])
local vs = string.format('%.0f', v)
redis.call('HSET', KEYS[1], 'tenant', ARGV[1], 'agent', ARGV[2], 'version', vs, 'body', ARGV[3], 'revision', rev)
redis.call('ZADD', KEYS[2], 0, ARGV[6])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[5], '*', 'revision', rev, 'tenant', ARGV[1], 'agent', ARGV[2], 'version', vs, 'deleted', '0')
return {'ok', vs, tostring(rev)}
`;

const DELETE = `
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {'none'} end
local v = 0
if t == 'hash' then v = tonumber(redis.call('HGET', KEYS[1], 'version') or '') or 0 end
local rev = redis.call('INCR', KEYS[3])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[4], '*', 'revision', rev, 'tenant', ARGV[1], 'agent', ARGV[2], 'version', string.format('%.0f', v), 'deleted', '1')
return {'ok', tostring(rev)}
`;

type RedisModule = { createClient(options: object): RedisClientLike };

async function loadRedis(description: string): Promise<RedisModule> {
  try {
    const mod = (await import('redis')) as unknown as RedisModule & { default?: RedisModule };
    return typeof mod.createClient === 'function' ? mod : (mod.default as RedisModule);
  } catch (error) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the redis package is not installed. Install it: npm i redis`,
      { cause: error },
    );
  }
}

function describeClient(client: RedisClientLike): string {
  const url = client.options?.url;
  if (typeof url === 'string') return describeUrl(url);
  const socket = client.options?.socket as { host?: string; port?: number; path?: string } | undefined;
  if (typeof socket?.path === 'string') return `redis+unix://${socket.path}`;
  return `redis://${socket?.host ?? 'localhost'}:${socket?.port ?? 6379}`;
}

/**
 * A store in Redis, shared by every replica: each write is one Lua script (compare the version,
 * set the record, count the revision, append to the change stream), and watchers read the
 * stream with a blocking `XREAD` on a connection of their own.
 * @example const store = redisStore({ url: process.env.REDIS_URL })
 * @see ../README.md#redis for the key layout
 */
export function redisStore(options: RedisStoreOptions): CardStoreDriver {
  const problems: string[] = [];
  if ((options?.url === undefined) === (options?.client === undefined))
    problems.push('redisStore: give exactly one of url (redis://host:6379/0) or client (createClient()).');
  if (options?.url !== undefined && !/^rediss?:\/\//.test(String(options.url)))
    problems.push(`redisStore: url must start with redis:// or rediss:// (${describeUrl(String(options.url))}).`);
  const prefix = options?.prefix ?? 'agent-card:';
  if (typeof prefix !== 'string' || prefix.length > 256 || prefix.includes(SEP))
    problems.push('redisStore: prefix must be a string of at most 256 characters without NUL.');
  const maxLength = options?.streamMaxLength ?? 10_000;
  checkPositiveInteger('redisStore', 'streamMaxLength', maxLength, problems);
  const connectTimeout = options?.connectTimeout ?? 5_000;
  const retryDelay = options?.retryDelay ?? 1_000;
  checkPositiveMs('redisStore', { connectTimeout, retryDelay }, problems);
  if (problems.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', problems.join('\n'));

  const url = options.url;
  const description = url !== undefined ? describeUrl(url) : describeClient(options.client as RedisClientLike);
  const secrets = secretsOf(url ?? options.client?.options?.url);
  const keys = {
    index: `${prefix}index`,
    revision: `${prefix}revision`,
    stream: `${prefix}changes`,
    record: (key: StoreKey) => `${prefix}record:${key.tenant.length}:${key.tenant}:${key.agent}`,
  };
  const fail = (what: string, error: unknown, fix?: string) => storeError(description, what, error, secrets, fix);

  let client: RedisClientLike | undefined = options.client;
  let connecting: Promise<RedisClientLike> | undefined;
  let connectedOnce = false;
  let closed = false;

  const newClient = async (overrides: object): Promise<RedisClientLike> => {
    const { createClient } = await loadRedis(description);
    return createClient({ url, ...overrides });
  };
  const heard = new WeakSet<RedisClientLike>();
  const open = async (candidate: RedisClientLike): Promise<RedisClientLike> => {
    if (!heard.has(candidate)) {
      heard.add(candidate);
      candidate.on('error', () => {
        // Reported by the operation that fails; a client without a listener would crash the process.
      });
    }
    if (candidate.isOpen) return candidate;
    try {
      await within(candidate.connect(), connectTimeout, () => new Error(`no connection within ${connectTimeout} ms`));
      return candidate;
    } catch (error) {
      // A client of our own stops trying; one the application gave us is the application's.
      if (candidate !== options.client)
        try {
          candidate.destroy();
        } catch {}
      throw fail('unreachable', error);
    }
  };
  const ready = (): Promise<RedisClientLike> => {
    if (closed) return Promise.reject(new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: closed.`));
    const current = client;
    if (current?.isOpen) return Promise.resolve(current);
    connecting ??= (async () => {
      try {
        const made =
          client ??
          (await newClient({
            // Commands fail at once while the store is away instead of waiting without bound.
            disableOfflineQueue: true,
            socket: {
              connectTimeout,
              // Before the first connection, a refusal is the answer (the caller hears it at once);
              // after it, the client keeps trying in the background.
              reconnectStrategy: (retries: number, cause: Error) =>
                connectedOnce ? Math.min(50 * 2 ** retries, retryDelay) : cause,
            },
          }));
        client = await open(made);
        connectedOnce = true;
        if (options.client === undefined && client !== made) made.destroy();
        return client;
      } catch (error) {
        if (options.client === undefined) client = undefined;
        throw error;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };
  const command = async (what: string, args: string[]): Promise<unknown> => {
    const c = await ready();
    try {
      return await c.sendCommand(args);
    } catch (error) {
      throw fail(what, error);
    }
  };
  const eval_ = (what: string, script: string, keyNames: string[], args: string[]) =>
    command(what, ['EVAL', script, String(keyNames.length), ...keyNames, ...args]);

  const readRecord = async (key: StoreKey): Promise<StoreRecord | undefined> => {
    const name = keys.record(key);
    let reply: unknown;
    try {
      reply = await (await ready()).sendCommand(['HGETALL', name]);
    } catch (error) {
      if (/WRONGTYPE/.test(String((error as Error)?.message))) throw corrupt(name, 'not a hash');
      throw fail(`reading ${shown(name)}`, error);
    }
    return toRecord(key, name, reply);
  };
  const corrupt = (name: string, what: string) =>
    new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the record ${shown(name)} is not a card record (${what}). Delete it (the store's delete, or redis-cli DEL) and write the card again.`,
    );
  const toRecord = (key: StoreKey, name: string, reply: unknown): StoreRecord | undefined => {
    const fields = pairs(reply);
    if (fields.size === 0) return undefined;
    const version = fields.get('version');
    const revision = fields.get('revision');
    const body = fields.get('body');
    if (version === undefined || !/^[1-9][0-9]{0,15}$/.test(version) || !Number.isSafeInteger(Number(version)))
      throw corrupt(name, `version ${shown(String(version))}`);
    if (revision === undefined || !/^[0-9]{1,20}$/.test(revision))
      throw corrupt(name, `revision ${shown(String(revision))}`);
    if (body === undefined) throw corrupt(name, 'no body');
    return Object.freeze({ tenant: key.tenant, agent: key.agent, version: Number(version), body, revision });
  };

  const range = (tenant: string | undefined, after: StoreKey | undefined): [string, string] => {
    const from = tenant === undefined ? undefined : `${tenant}${SEP}`;
    const cursor = after === undefined ? undefined : toCursor(after);
    const min =
      cursor !== undefined && (from === undefined || cursor >= from)
        ? `(${cursor}`
        : from === undefined
          ? '-'
          : `[${from}`;
    return [min, tenant === undefined ? '+' : `(${tenant}\u0001`];
  };

  const watchers = createWatchers(() => startWatcher());
  const { emit } = watchers;

  const driver: CardStoreDriver = {
    description,
    async tenant(tenant) {
      checkName(description, 'tenant', tenant);
      const [min, max] = range(tenant, undefined);
      const members = strings(await command('listing a tenant', ['ZRANGE', keys.index, min, max, 'BYLEX']));
      const records = await Promise.all(
        members.map((member) => readRecord({ tenant, agent: member.slice(tenant.length + 1) })),
      );
      return records.filter((r): r is StoreRecord => r !== undefined);
    },
    async get(key) {
      checkKey(description, key);
      return readRecord(key);
    },
    async put(key, body, putOptions) {
      checkKey(description, key);
      checkBody(description, body);
      const version = wantedVersion(description, putOptions);
      const name = keys.record(key);
      const reply = strings(
        await eval_(
          `writing ${shown(name)}`,
          PUT,
          [name, keys.index, keys.revision, keys.stream],
          [key.tenant, key.agent, body, version === undefined ? '' : String(version), String(maxLength), toCursor(key)],
        ),
      );
      if (reply[0] === 'old') throw versionRefused(key, version as number, Number(reply[1]));
      if (reply[0] === 'corrupt') throw corrupt(name, String(reply[1]));
      return Object.freeze({
        tenant: key.tenant,
        agent: key.agent,
        version: Number(reply[1]),
        body,
        revision: String(reply[2]),
      });
    },
    async delete(key) {
      checkKey(description, key);
      const name = keys.record(key);
      const reply = strings(
        await eval_(
          `deleting ${shown(name)}`,
          DELETE,
          [name, keys.index, keys.revision, keys.stream],
          [key.tenant, key.agent, toCursor(key), String(maxLength)],
        ),
      );
      return reply[0] === 'ok';
    },
    async list(listOptions = {}) {
      if (listOptions.tenant !== undefined) checkName(description, 'tenant', listOptions.tenant);
      const limit = pageLimit(listOptions.limit);
      const [min, max] = range(listOptions.tenant, fromCursor(listOptions.after));
      const members = strings(
        await command('listing', ['ZRANGE', keys.index, min, max, 'BYLEX', 'LIMIT', '0', String(limit + 1)]),
      );
      const page = members.slice(0, limit);
      const items = page.map((member) => {
        const at = member.indexOf(SEP);
        return { tenant: member.slice(0, at), agent: member.slice(at + 1) };
      });
      return members.length > limit ? { items, next: page[page.length - 1] } : { items };
    },
    async watch(listener) {
      await ready();
      return watchers.add(listener);
    },
    async close() {
      closed = true;
      await watchers.close();
      if (options.client === undefined && client !== undefined) {
        client.destroy();
        client = undefined;
      }
    },
  };

  const startWatcher = async (): Promise<{ stop(): Promise<void> }> => {
    const base = await ready();
    const connectWatch = () =>
      // `socket` replaces the client's own, so its host and port are carried over.
      open(base.duplicate({ socket: { ...(base.options?.socket ?? {}), reconnectStrategy: false, connectTimeout } }));
    let conn: RedisClientLike | undefined = await connectWatch();
    let stopped = false;
    let position = await latest(conn);

    const catchUp = async (c: RedisClientLike): Promise<void> => {
      const counter = Number((await c.sendCommand(['GET', keys.revision])) ?? 0);
      if (counter < position.revision) return resync(c);
      for (;;) {
        const entries = changes(await c.sendCommand(['XRANGE', keys.stream, `(${position.id}`, '+', 'COUNT', '500']));
        if (!deliver(entries)) return resync(c);
        if (entries.length < 500) break;
      }
      if (position.revision < counter) return resync(c);
    };
    const resync = async (c: RedisClientLike): Promise<void> => {
      position = await latest(c);
      emit({ type: 'resync' });
    };
    /** Emits entries in order; `false` on a gap in revisions (the stream was trimmed past us). */
    const deliver = (entries: readonly Entry[]): boolean => {
      for (const entry of entries) {
        if (entry.revision !== position.revision + 1) return false;
        position = { id: entry.id, revision: entry.revision };
        emit({ type: 'change', change: entry.change });
      }
      return true;
    };
    const loop = async (): Promise<void> => {
      let down = false;
      while (!stopped) {
        try {
          if (conn === undefined) {
            conn = await connectWatch();
            await catchUp(conn);
            if (stopped) break;
            down = false;
            emit({ type: 'up' });
          }
          const reply = await conn.sendCommand([
            'XREAD',
            'COUNT',
            '500',
            'BLOCK',
            '5000',
            'STREAMS',
            keys.stream,
            position.id,
          ]);
          const entries = changes(firstStream(reply));
          if (!deliver(entries) && conn !== undefined) await resync(conn);
        } catch (error) {
          if (stopped) break;
          try {
            conn?.destroy();
          } catch {}
          conn = undefined;
          if (!down) {
            down = true;
            emit({ type: 'down', error: fail('lost the connection', error, 'The driver reconnects by itself.') });
          }
          await sleep(retryDelay);
        }
      }
    };
    const running = loop();
    return {
      async stop() {
        stopped = true;
        try {
          conn?.destroy();
        } catch {}
        await running;
      },
    };
  };

  const latest = async (c: RedisClientLike): Promise<{ id: string; revision: number }> => {
    const last = changes(await c.sendCommand(['XREVRANGE', keys.stream, '+', '-', 'COUNT', '1']))[0];
    if (last !== undefined) return { id: last.id, revision: last.revision };
    return { id: '0-0', revision: Number((await c.sendCommand(['GET', keys.revision])) ?? 0) };
  };

  return named(driver);
}

interface Entry {
  readonly id: string;
  readonly revision: number;
  readonly change: StoreChange;
}

function strings(reply: unknown): string[] {
  return Array.isArray(reply) ? reply.map((v) => String(v)) : [];
}

function pairs(reply: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (Array.isArray(reply))
    for (let i = 0; i + 1 < reply.length; i += 2) out.set(String(reply[i]), String(reply[i + 1]));
  else if (reply !== null && typeof reply === 'object')
    for (const [k, v] of Object.entries(reply as Record<string, unknown>)) out.set(k, String(v));
  return out;
}

/** The entries of the one stream an XREAD asked for (an array of pairs, or a map by stream). */
function firstStream(reply: unknown): unknown {
  if (Array.isArray(reply)) return Array.isArray(reply[0]) ? reply[0][1] : [];
  if (reply instanceof Map) return [...reply.values()][0] ?? [];
  if (reply !== null && typeof reply === 'object') return Object.values(reply)[0] ?? [];
  return [];
}

/** Stream entries as changes; an entry not written by this driver is skipped. */
function changes(reply: unknown): Entry[] {
  if (!Array.isArray(reply)) return [];
  const out: Entry[] = [];
  for (const item of reply) {
    if (!Array.isArray(item)) continue;
    const fields = pairs(item[1]);
    const revision = Number(fields.get('revision'));
    const version = Number(fields.get('version'));
    const tenant = fields.get('tenant');
    const agent = fields.get('agent');
    if (!Number.isSafeInteger(revision) || tenant === undefined || agent === undefined) continue;
    out.push({
      id: String(item[0]),
      revision,
      change: Object.freeze({
        tenant,
        agent,
        version: Number.isSafeInteger(version) ? version : 0,
        revision: String(revision),
        deleted: fields.get('deleted') === '1',
      }),
    });
  }
  return out;
}
