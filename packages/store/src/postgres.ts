// The PostgreSQL driver: one table of records, a table of changes (writes and deletes) for catch-up
// by revision, a one-row revision counter whose row lock puts writers in line, and NOTIFY in the
// writing transaction so that every replica LISTENing hears each change once it is committed.
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
  secretsOf,
  shown,
  sleep,
  storeError,
  versionRefused,
  wantedVersion,
  within,
} from './shared';

/** The part of a `pg` client the driver uses. */
interface QueryableLike {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}
interface ClientLike extends QueryableLike {
  connect(): Promise<unknown>;
  end(): Promise<unknown>;
  on(event: 'error' | 'end', listener: (error?: unknown) => void): unknown;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
}
/** The part of a `pg` Pool the driver uses: pass `new Pool(…)`; the driver never ends it. */
export interface PoolLike extends QueryableLike {
  connect(): Promise<QueryableLike & { release(error?: unknown): void }>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  readonly options?: object;
}

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database`. Give `connectionString` or `pool`. */
  readonly connectionString?: string;
  /** A `pg` Pool to use instead; the driver never ends it. */
  readonly pool?: PoolLike;
  /**
   * The records' table, `name` or `schema.name` (letters, digits, `_`). The changes table and the
   * revision counter are named after it (`…_changes`, `…_revision`). @default 'agent_cards'
   */
  readonly table?: string;
  /** The NOTIFY channel. @default the table's name */
  readonly channel?: string;
  /**
   * Creates the tables when they are missing, at the first operation. Without it a missing
   * table is an error that says how to create it. @default false
   */
  readonly createTable?: boolean;
  /** How many changes the changes table keeps for catch-up. @default 10000 */
  readonly changesKept?: number;
  /** How long connecting may take before an operation fails, in ms. @default 5000 */
  readonly connectTimeout?: number;
  /** How long a watcher waits between reconnection attempts, in ms. @default 1000 */
  readonly retryDelay?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

interface Names {
  table: string;
  changes: string;
  revision: string;
  plain: string;
}

function namesOf(table: string): Names {
  const parts = table.split('.');
  const quote = (ps: string[]) => ps.map((p) => `"${p}"`).join('.');
  const last = parts[parts.length - 1] as string;
  const schema = parts.slice(0, -1);
  return {
    table: quote(parts),
    changes: quote([...schema, `${last}_changes`]),
    revision: quote([...schema, `${last}_revision`]),
    plain: table,
  };
}

function tableProblems(table: unknown): string[] {
  if (typeof table !== 'string') return ['postgresStore: table must be a string (agent_cards, or cards.agent_cards).'];
  const parts = table.split('.');
  if (parts.length > 2 || parts.some((p) => !IDENTIFIER.test(p) || p.length > 50))
    return [
      `postgresStore: table ${shown(table)} is not a plain name: use lower-case letters, digits and _ (at most 50), optionally schema.name.`,
    ];
  return [];
}

/**
 * The SQL that creates the tables of {@link postgresStore}: run it with psql, in a migration, or
 * let the driver run it with `createTable: true`.
 * @example console.log(cardTableDdl({ table: 'agent_cards' }))
 */
export function cardTableDdl(options: { readonly table?: string } = {}): string {
  const table = options.table ?? 'agent_cards';
  const problems = tableProblems(table);
  if (problems.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', problems.join('\n'));
  const n = namesOf(table);
  return `CREATE TABLE IF NOT EXISTS ${n.table} (
  tenant text COLLATE "C" NOT NULL,
  agent text COLLATE "C" NOT NULL,
  version bigint NOT NULL CHECK (version > 0),
  body text NOT NULL,
  revision bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, agent)
);
CREATE TABLE IF NOT EXISTS ${n.changes} (
  revision bigint PRIMARY KEY,
  tenant text COLLATE "C" NOT NULL,
  agent text COLLATE "C" NOT NULL,
  version bigint NOT NULL,
  deleted boolean NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${n.revision} (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  revision bigint NOT NULL
);
INSERT INTO ${n.revision} (revision) VALUES (0) ON CONFLICT DO NOTHING;
`;
}

type PgModule = { Pool: new (config: object) => PoolLike; Client: new (config: object) => ClientLike };

async function loadPg(description: string): Promise<PgModule> {
  try {
    const mod = (await import('pg')) as unknown as PgModule & { default?: PgModule };
    return typeof mod.Pool === 'function' ? mod : (mod.default as PgModule);
  } catch (error) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the pg package is not installed. Install it: npm i pg`,
      {
        cause: error,
      },
    );
  }
}

function describePool(pool: PoolLike): string {
  const o = (pool.options ?? {}) as {
    connectionString?: string;
    host?: string;
    port?: number;
    user?: string;
    database?: string;
  };
  if (typeof o.connectionString === 'string') return describeUrl(o.connectionString);
  const user = o.user === undefined ? '' : `${o.user}@`;
  return `postgres://${user}${o.host ?? 'localhost'}:${o.port ?? 5432}/${o.database ?? ''}`;
}

/** The payload of a NOTIFY: the whole change when small, else only its revision (read back). */
const PAYLOAD_BYTES = 1000;

/**
 * A store in PostgreSQL, shared by every replica: a write is one upsert that only applies over an
 * older version, logged and announced with NOTIFY in the same transaction; a watcher LISTENs on a
 * client of its own and catches up by revision from the changes table after an outage.
 * @example const store = postgresStore({ connectionString: process.env.DATABASE_URL })
 * @see cardTableDdl for the tables
 */
export function postgresStore(options: PostgresStoreOptions): CardStoreDriver {
  const problems: string[] = [];
  if ((options?.connectionString === undefined) === (options?.pool === undefined))
    problems.push('postgresStore: give exactly one of connectionString (postgres://…) or pool (new Pool(…)).');
  const table = options?.table ?? 'agent_cards';
  problems.push(...tableProblems(table));
  const channel = options?.channel ?? (typeof table === 'string' ? table.replace('.', '_') : 'agent_cards');
  if (typeof channel !== 'string' || !IDENTIFIER.test(channel) || channel.length > 63)
    problems.push(
      `postgresStore: channel ${shown(String(channel))} must be lower-case letters, digits and _ (at most 63).`,
    );
  const kept = options?.changesKept ?? 10_000;
  checkPositiveInteger('postgresStore', 'changesKept', kept, problems);
  const connectTimeout = options?.connectTimeout ?? 5_000;
  const retryDelay = options?.retryDelay ?? 1_000;
  checkPositiveMs('postgresStore', { connectTimeout, retryDelay }, problems);
  if (problems.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', problems.join('\n'));

  const url = options.connectionString;
  const description = url !== undefined ? describeUrl(url) : describePool(options.pool as PoolLike);
  const secrets = secretsOf(url, [
    (options.pool?.options as { password?: unknown } | undefined)?.password as string | undefined,
  ]);
  const n = namesOf(table);
  const fail = (what: string, error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '42P01')
      return storeError(
        description,
        `${what}: the table ${n.plain} (or ${n.plain}_changes, ${n.plain}_revision) does not exist`,
        error,
        secrets,
        'Create it: pass createTable: true once, or run the SQL of cardTableDdl() (printed in the README of @agent-card/store).',
      );
    return storeError(description, what, error, secrets);
  };

  let pool: PoolLike | undefined = options.pool;
  let preparing: Promise<PoolLike> | undefined;
  let prepared = false;
  let closed = false;
  const clientConfig = () => ({ connectionString: url, connectionTimeoutMillis: connectTimeout });

  const ready = (): Promise<PoolLike> => {
    if (closed) return Promise.reject(new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: closed.`));
    if (pool !== undefined && prepared) return Promise.resolve(pool);
    preparing ??= (async () => {
      try {
        if (pool === undefined) {
          const { Pool } = await loadPg(description);
          const made = new Pool({ ...clientConfig(), max: 10, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
          made.on('error', () => {
            // An idle client lost: the next query gets a new one. Without a listener, a crash.
          });
          pool = made;
        }
        const p = pool;
        const reach = options.createTable === true ? p.query(cardTableDdl({ table })) : p.query('SELECT 1');
        await within(reach, connectTimeout + 1000, () => new Error(`no connection within ${connectTimeout} ms`)).catch(
          (error: unknown) => {
            throw fail(options.createTable === true ? 'creating the tables' : 'unreachable', error);
          },
        );
        prepared = true;
        return p;
      } finally {
        preparing = undefined;
      }
    })();
    return preparing;
  };
  const query = async (what: string, text: string, values: unknown[]) => {
    const p = await ready();
    try {
      return await p.query(text, values);
    } catch (error) {
      throw fail(what, error);
    }
  };

  const keyName = (key: StoreKey) => `${n.plain} (${shown(key.tenant)}, ${shown(key.agent)})`;
  const toRecord = (key: StoreKey, row: Record<string, unknown>): StoreRecord => {
    const version = Number(row.version);
    if (!Number.isSafeInteger(version) || version < 1)
      throw new AgentCardError(
        'ERR_AGENT_CARD_STORE',
        `${description}: the record ${keyName(key)} is not a card record (version ${shown(String(row.version))}). Delete the row and write the card again.`,
      );
    if (typeof row.body !== 'string')
      throw new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: the record ${keyName(key)} has no body.`);
    return Object.freeze({
      tenant: key.tenant,
      agent: key.agent,
      version,
      body: row.body,
      revision: String(row.revision),
    });
  };

  /** Runs `work` in a transaction on one pooled client. */
  const transaction = async <T>(what: string, work: (client: QueryableLike) => Promise<T>): Promise<T> => {
    const p = await ready();
    let client: (QueryableLike & { release(error?: unknown): void }) | undefined;
    try {
      client = await p.connect();
      await client.query('BEGIN');
      const result = await work(client);
      return result;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => {});
      throw error instanceof AgentCardError ? error : fail(what, error);
    } finally {
      client?.release();
    }
  };

  // Taking the counter's row lock first puts every writer in line: revisions are handed out and
  // committed in the same order, with no gaps, so "the changes after revision N" misses nothing.
  const nextRevision = `UPDATE ${n.revision} SET revision = revision + 1 RETURNING revision::text AS revision`;
  const logAndNotify = `
    WITH logged AS (
      INSERT INTO ${n.changes} (revision, tenant, agent, version, deleted) VALUES ($1::bigint, $2::text, $3::text, $4::bigint, $5::boolean)
    ), trimmed AS (
      DELETE FROM ${n.changes} WHERE revision <= $1::bigint - $7::bigint
    ), payload AS (
      SELECT json_build_object('revision', $1::text, 'tenant', $2::text, 'agent', $3::text, 'version', $4::bigint, 'deleted', $5::boolean)::text AS p
    )
    SELECT pg_notify($6::text, CASE WHEN octet_length(p) <= ${PAYLOAD_BYTES} THEN p ELSE json_build_object('revision', $1::text)::text END) FROM payload`;

  const watchers = createWatchers(() => startWatcher());
  const { emit } = watchers;

  const driver: CardStoreDriver = {
    description,
    async tenant(tenant) {
      checkName(description, 'tenant', tenant);
      const { rows } = await query(
        'reading a tenant',
        `SELECT agent, version::text AS version, body, revision::text AS revision FROM ${n.table} WHERE tenant = $1 ORDER BY agent`,
        [tenant],
      );
      return rows.map((row) => toRecord({ tenant, agent: String(row.agent) }, row));
    },
    async get(key) {
      checkKey(description, key);
      const { rows } = await query(
        'reading a record',
        `SELECT version::text AS version, body, revision::text AS revision FROM ${n.table} WHERE tenant = $1 AND agent = $2`,
        [key.tenant, key.agent],
      );
      return rows[0] === undefined ? undefined : toRecord(key, rows[0]);
    },
    async put(key, body, putOptions) {
      checkKey(description, key);
      checkBody(description, body);
      const version = wantedVersion(description, putOptions);
      return transaction(`writing ${keyName(key)}`, async (client) => {
        const revision = String((await client.query(nextRevision)).rows[0]?.revision);
        // Applies only over an older version; concurrent writers wait on the counter's row lock.
        const { rows } = await client.query(
          `INSERT INTO ${n.table} AS stored (tenant, agent, version, body, revision, updated_at)
           VALUES ($1, $2, COALESCE($3::bigint, 1), $4, $5::bigint, now())
           ON CONFLICT (tenant, agent) DO UPDATE
             SET version = COALESCE($3::bigint, stored.version + 1), body = excluded.body,
                 revision = excluded.revision, updated_at = now()
             WHERE stored.version < COALESCE($3::bigint, stored.version + 1)
           RETURNING version::text AS version`,
          [key.tenant, key.agent, version ?? null, body, revision],
        );
        if (rows[0] === undefined) {
          const stored = await client.query(
            `SELECT version::text AS version FROM ${n.table} WHERE tenant = $1 AND agent = $2`,
            [key.tenant, key.agent],
          );
          await client.query('ROLLBACK');
          throw versionRefused(key, version as number, Number(stored.rows[0]?.version));
        }
        const written = Number(rows[0].version);
        await client.query(logAndNotify, [revision, key.tenant, key.agent, written, false, channel, kept]);
        await client.query('COMMIT');
        return Object.freeze({ tenant: key.tenant, agent: key.agent, version: written, body, revision });
      });
    },
    async delete(key) {
      checkKey(description, key);
      return transaction(`deleting ${keyName(key)}`, async (client) => {
        const revision = String((await client.query(nextRevision)).rows[0]?.revision);
        const { rows } = await client.query(
          `DELETE FROM ${n.table} WHERE tenant = $1 AND agent = $2 RETURNING version::text AS version`,
          [key.tenant, key.agent],
        );
        if (rows[0] === undefined) {
          await client.query('ROLLBACK');
          return false;
        }
        await client.query(logAndNotify, [
          revision,
          key.tenant,
          key.agent,
          Number(rows[0].version),
          true,
          channel,
          kept,
        ]);
        await client.query('COMMIT');
        return true;
      });
    },
    async list(listOptions = {}) {
      if (listOptions.tenant !== undefined) checkName(description, 'tenant', listOptions.tenant);
      const limit = pageLimit(listOptions.limit);
      const after = fromCursor(listOptions.after);
      const { rows } = await query(
        'listing',
        `SELECT tenant, agent FROM ${n.table}
         WHERE ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR (tenant, agent) > ($2::text, $3::text))
         ORDER BY tenant, agent LIMIT $4`,
        [listOptions.tenant ?? null, after?.tenant ?? null, after?.agent ?? '', limit + 1],
      );
      const items = rows.slice(0, limit).map((row) => ({ tenant: String(row.tenant), agent: String(row.agent) }));
      const last = items[items.length - 1];
      return rows.length > limit && last !== undefined
        ? { items, next: `${last.tenant}\u0000${last.agent}` }
        : { items };
    },
    async watch(listener) {
      await ready();
      return watchers.add(listener);
    },
    async close() {
      closed = true;
      await watchers.close();
      if (options.pool === undefined && pool !== undefined) {
        const p = pool as PoolLike & { end?: () => Promise<void> };
        pool = undefined;
        await p.end?.().catch(() => {});
      }
    },
  };

  const startWatcher = async (): Promise<{ stop(): Promise<void> }> => {
    const { Client } = await loadPg(description);
    const config =
      url !== undefined
        ? clientConfig()
        : { ...(options.pool?.options ?? {}), connectionTimeoutMillis: connectTimeout, max: undefined };
    let stopped = false;
    let last = 0n;
    let conn: ClientLike | undefined;
    let chain: Promise<void> = Promise.resolve();
    /** Runs `work` after every earlier one, so that changes are emitted one at a time, in order. */
    const serial = (work: () => Promise<void>): Promise<boolean> => {
      const run = chain.then(work).then(
        () => true,
        () => {
          // A failed read: drop the connection; its loss leads to a reconnect and a catch-up.
          void conn?.end().catch(() => {});
          return false;
        },
      );
      chain = run.then(() => {});
      return run;
    };

    const connect = async (): Promise<{ client: ClientLike; lost: Promise<unknown> }> => {
      const client = new Client(config);
      let onLost: (error: unknown) => void = () => {};
      const lost = new Promise<unknown>((done) => (onLost = done));
      client.on('error', (error) => onLost(error));
      client.on('end', () => onLost(new Error('the connection ended')));
      client.on('notification', (message) => {
        if (message.channel === channel) void serial(() => onNotice(client, message.payload ?? ''));
      });
      try {
        await within(
          client.connect(),
          connectTimeout + 1000,
          () => new Error(`no connection within ${connectTimeout} ms`),
        );
        await client.query(`LISTEN "${channel}"`);
      } catch (error) {
        await client.end().catch(() => {});
        throw fail('watching for changes', error);
      }
      return { client, lost };
    };
    const counter = async (client: QueryableLike): Promise<bigint> =>
      BigInt(
        String((await client.query(`SELECT revision::text AS revision FROM ${n.revision}`)).rows[0]?.revision ?? '0'),
      );

    const onNotice = async (client: ClientLike, payload: string): Promise<void> => {
      const change = parseNotice(payload);
      if (change === undefined) return catchUp(client);
      const revision = BigInt(change.revision);
      if (revision <= last) return;
      if (revision === last + 1n && change.tenant !== undefined) {
        last = revision;
        emit({ type: 'change', change: change as StoreChange });
        return;
      }
      return catchUp(client);
    };
    /** Emits every change after `last` up to the committed counter; a gap means a trimmed log. */
    const catchUp = async (client: QueryableLike): Promise<void> => {
      const upTo = await counter(client);
      if (upTo < last) return resync(upTo);
      while (last < upTo) {
        const { rows } = await client.query(
          `SELECT revision::text AS revision, tenant, agent, version::text AS version, deleted FROM ${n.changes}
           WHERE revision > $1::bigint AND revision <= $2::bigint ORDER BY revision LIMIT 1000`,
          [String(last), String(upTo)],
        );
        if (rows.length === 0) return resync(upTo);
        for (const row of rows) {
          const revision = BigInt(String(row.revision));
          if (revision !== last + 1n) return resync(upTo);
          last = revision;
          emit({
            type: 'change',
            change: Object.freeze({
              tenant: String(row.tenant),
              agent: String(row.agent),
              version: Number(row.version),
              revision: String(row.revision),
              deleted: row.deleted === true,
            }),
          });
        }
      }
    };
    const resync = async (upTo: bigint): Promise<void> => {
      last = upTo;
      emit({ type: 'resync' });
    };

    const first = await connect();
    conn = first.client;
    try {
      last = await counter(first.client);
    } catch (error) {
      await first.client.end().catch(() => {});
      throw fail('watching for changes', error);
    }

    /** Waits for the connection's loss, says down once, reconnects, catches up, says up. */
    const loop = async (lost: Promise<unknown>): Promise<void> => {
      while (!stopped) {
        const why = await lost;
        if (stopped) return;
        const dropped = conn;
        conn = undefined;
        await dropped?.end().catch(() => {});
        emit({ type: 'down', error: fail('lost the connection', why) });
        while (!stopped) {
          await sleep(retryDelay);
          if (stopped) return;
          const next = await connect().catch(() => undefined);
          if (next === undefined) continue;
          conn = next.client;
          if (await serial(() => catchUp(next.client))) {
            lost = next.lost;
            emit({ type: 'up' });
            break;
          }
          conn = undefined;
          await next.client.end().catch(() => {});
        }
      }
    };
    const running = loop(first.lost);
    return {
      async stop() {
        stopped = true;
        const c = conn;
        conn = undefined;
        await c?.end().catch(() => {});
        await chain;
        await running;
      },
    };
  };

  return named(driver);
}

function parseNotice(payload: string): (Partial<StoreChange> & { revision: string }) | undefined {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.revision !== 'string' || !/^[0-9]{1,20}$/.test(value.revision)) return undefined;
    if (typeof value.tenant !== 'string' || typeof value.agent !== 'string' || typeof value.version !== 'number')
      return { revision: value.revision };
    return Object.freeze({
      tenant: value.tenant,
      agent: value.agent,
      version: value.version,
      revision: value.revision,
      deleted: value.deleted === true,
    });
  } catch {
    return undefined;
  }
}
