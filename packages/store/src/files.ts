// The files driver: a folder with one card file per record, in the format the zero-config reader
// reads (`{dir}/{tenant}/{agent}.json` is the card itself), and the store's own bookkeeping
// (versions, the revision counter, the change log, the write lock) beside it in
// `{dir}/.agent-card-store/`, so that the card files stay plain cards.
import { createHash, randomBytes } from 'node:crypto';
import { type FSWatcher, watch as fsWatch } from 'node:fs';
import { appendFile, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { AgentCardError } from '@agent-card/core';
import type { CardStoreDriver, StoreChange, StoreKey, StoreRecord } from '@agent-card/core/store';
import {
  checkBody,
  createWatchers,
  checkPositiveInteger,
  checkPositiveMs,
  checkKey,
  checkName,
  fromCursor,
  named,
  pageLimit,
  shown,
  sleep,
  storeError,
  toCursor,
  versionRefused,
  wantedVersion,
} from './shared';

/** Options of {@link filesStore}. */
export interface FilesStoreOptions {
  /** The folder of cards: `{dir}/{tenant}/{agent}.json`. Created when missing. */
  readonly dir: string;
  /** How many changes the change log keeps; a watcher further behind gets `resync`. @default 1000 */
  readonly changeLogLength?: number;
  /** How often a watcher looks at the folder even when no file event came, in ms. @default 2000 */
  readonly pollInterval?: number;
  /** How long a write waits for another writer's lock, in ms. @default 10000 */
  readonly lockTimeout?: number;
}

/** The folder of the store's bookkeeping; no tenant name may start with a dot, so none is it. */
export const FILES_STATE_DIR = '.agent-card-store';
/** The longest tenant or agent name the files driver takes, in bytes (a file name is ≤ 255). */
const MAX_FILE_NAME = 200;
/** The largest card file read, in bytes. */
const MAX_CARD_BYTES = 4 * 1024 * 1024;
/** A lock older than this is left over by a writer that died, and is broken. */
const STALE_LOCK_MS = 30_000;

interface Meta {
  readonly version: number;
  readonly revision: string;
  readonly sha256: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A store in a folder: one plain card file per record, writes atomic (a temporary file renamed
 * over the card) and serialized by a lock file, changes announced through a change log that
 * every watcher follows with `fs.watch` (and a slow poll, for folders where file events are
 * lost). A card file replaced or removed by hand is noticed by the watchers and becomes a new
 * version (or a delete) of the record.
 * @example const store = filesStore({ dir: './cards' })
 */
export function filesStore(options: FilesStoreOptions): CardStoreDriver {
  const problems: string[] = [];
  if (typeof options?.dir !== 'string' || options.dir === '')
    problems.push('filesStore: dir must be the folder of cards (./cards).');
  const logLength = options?.changeLogLength ?? 1000;
  checkPositiveInteger('filesStore', 'changeLogLength', logLength, problems);
  const pollInterval = options?.pollInterval ?? 2000;
  const lockTimeout = options?.lockTimeout ?? 10_000;
  checkPositiveMs('filesStore', { pollInterval, lockTimeout }, problems);
  if (problems.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', problems.join('\n'));

  const root = resolve(options.dir);
  const description = `files:${options.dir}`;
  const state = join(root, FILES_STATE_DIR);
  const paths = {
    revision: join(state, 'revision'),
    log: join(state, 'changes'),
    lock: join(state, 'lock'),
    meta: (key: StoreKey) => inside(join(state, 'records', key.tenant, `${key.agent}.json`)),
    card: (key: StoreKey) => inside(join(root, key.tenant, `${key.agent}.json`)),
  };
  const fail = (what: string, error: unknown) =>
    storeError(description, what, error, [], `Check that ${root} exists and this process may read and write it.`);

  /** Path traversal, refused a second time: every path must stay under the folder. */
  function inside(path: string): string {
    if (!path.startsWith(root + sep))
      throw new AgentCardError(
        'ERR_AGENT_CARD_STORE',
        `${description}: a name leads outside the folder. Use plain names.`,
      );
    return path;
  }
  const checkFileName = (what: string, name: unknown) => {
    checkName(description, what, name);
    if (name.startsWith('.') || name.includes('/') || name.includes('\\') || Buffer.byteLength(name) > MAX_FILE_NAME)
      throw new AgentCardError(
        'ERR_AGENT_CARD_STORE',
        `${description}: the ${what} name ${shown(name)} cannot be a file name (no / or \\, no leading dot, at most ${MAX_FILE_NAME} bytes). Use a plain name.`,
      );
  };
  const checkFileKey = (key: StoreKey) => {
    checkKey(description, key);
    checkFileName('tenant', key.tenant);
    checkFileName('agent', key.agent);
  };

  let closed = false;
  const opened = () => {
    if (closed) throw new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: closed.`);
  };

  const readMeta = async (key: StoreKey): Promise<Meta | undefined> => {
    const text = await readFile(paths.meta(key), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw fail(`reading the version of ${key.tenant}/${key.agent}`, error);
    });
    if (text === undefined) return undefined;
    try {
      const meta = JSON.parse(text) as Meta;
      if (
        Number.isSafeInteger(meta.version) &&
        meta.version > 0 &&
        typeof meta.revision === 'string' &&
        /^[0-9]{1,20}$/.test(meta.revision) &&
        typeof meta.sha256 === 'string'
      )
        return meta;
    } catch {}
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the version file ${JSON.stringify(paths.meta(key))} is not the store's (${shown(text.slice(0, 40))}). Delete it: the card then reads as version 1.`,
    );
  };
  const readCard = async (key: StoreKey): Promise<string | undefined> => {
    const file = paths.card(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return undefined;
      if (info.size > MAX_CARD_BYTES)
        throw new AgentCardError(
          'ERR_AGENT_CARD_STORE',
          `${description}: the card file ${JSON.stringify(file)} is larger than ${MAX_CARD_BYTES} bytes. Make it smaller.`,
        );
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw fail(`reading ${JSON.stringify(file)}`, error);
    }
  };
  const locked = async () =>
    stat(paths.lock).then(
      () => true,
      () => false,
    );
  /**
   * The record as it stands. A card whose bytes differ from the version file's hash was replaced
   * by hand (or a writer is between its two renames: then the lock is held, and the read waits):
   * it reads as the next version. A card without a version file reads as version 1.
   */
  const readRecord = async (key: StoreKey, wait = true): Promise<StoreRecord | undefined> => {
    for (let attempt = 0; ; attempt++) {
      const meta = await readMeta(key);
      const body = await readCard(key);
      if (body === undefined) return undefined;
      const whole = meta !== undefined && meta.sha256 === sha256(body);
      if (!whole && wait && attempt < 200 && (await locked())) {
        await sleep(5);
        continue;
      }
      const version = meta === undefined ? 1 : whole ? meta.version : meta.version + 1;
      return Object.freeze({ tenant: key.tenant, agent: key.agent, version, body, revision: meta?.revision ?? '0' });
    }
  };

  // One writer at a time in this process, and one across processes by the lock file.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await mkdir(state, { recursive: true }).catch((error: unknown) => {
        throw fail('creating the store folder', error);
      });
      await lock();
      try {
        return await work();
      } finally {
        await unlink(paths.lock).catch(() => {});
      }
    });
    queue = run.catch(() => {});
    return run;
  };
  const lock = async (): Promise<void> => {
    const deadline = Date.now() + lockTimeout;
    for (;;) {
      try {
        const handle = await open(paths.lock, 'wx');
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fail('taking the write lock', error);
      }
      const age = await stat(paths.lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await unlink(paths.lock).catch(() => {});
      if (Date.now() > deadline)
        throw new AgentCardError(
          'ERR_AGENT_CARD_STORE',
          `${description}: another writer held ${JSON.stringify(paths.lock)} for more than ${lockTimeout} ms. If no writer runs, delete the file.`,
        );
      await sleep(2 + Math.random() * 8);
    }
  };
  const atomicWrite = async (file: string, text: string) => {
    const dir = file.slice(0, file.lastIndexOf(sep));
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, text);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };
  const readCounter = async (): Promise<bigint> => {
    const text = await readFile(paths.revision, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '0';
      throw error;
    });
    if (!/^[0-9]{1,20}\s*$/.test(text))
      throw new AgentCardError(
        'ERR_AGENT_CARD_STORE',
        `${description}: the revision file ${JSON.stringify(paths.revision)} holds ${shown(text.slice(0, 40))}, not a number. Write the highest revision of the change log into it.`,
      );
    return BigInt(text.trim());
  };
  /** Counts the revision, logs the change and trims the log; under the lock. */
  const record = async (change: Omit<StoreChange, 'revision'>): Promise<string> => {
    const revision = String((await readCounter()) + 1n);
    await atomicWrite(paths.revision, revision);
    await appendFile(paths.log, `${JSON.stringify({ ...change, revision })}\n`);
    const lines = (await readFile(paths.log, 'utf8')).split('\n').filter(Boolean);
    if (lines.length > logLength * 2) await atomicWrite(paths.log, `${lines.slice(-logLength).join('\n')}\n`);
    return revision;
  };

  const driver: CardStoreDriver = {
    description,
    async tenant(tenant) {
      opened();
      checkFileName('tenant', tenant);
      const agents = await names(inside(join(root, tenant)), 'file');
      const records = await Promise.all(agents.map((agent) => readRecord({ tenant, agent })));
      return records.filter((r): r is StoreRecord => r !== undefined);
    },
    async get(key) {
      opened();
      checkFileKey(key);
      return readRecord(key);
    },
    async put(key, body, putOptions) {
      opened();
      checkFileKey(key);
      checkBody(description, body);
      const version = wantedVersion(description, putOptions);
      return exclusive(async () => {
        const stored = await readRecord(key, false);
        const next = version ?? (stored?.version ?? 0) + 1;
        if (stored !== undefined && next <= stored.version) throw versionRefused(key, next, stored.version);
        try {
          const revision = String((await readCounter()) + 1n);
          await atomicWrite(paths.card(key), body);
          await atomicWrite(paths.meta(key), JSON.stringify({ version: next, revision, sha256: sha256(body) }));
          await record({ tenant: key.tenant, agent: key.agent, version: next, deleted: false });
          return Object.freeze({ tenant: key.tenant, agent: key.agent, version: next, body, revision });
        } catch (error) {
          throw fail(`writing ${key.tenant}/${key.agent}`, error);
        }
      });
    },
    async delete(key) {
      opened();
      checkFileKey(key);
      return exclusive(async () => {
        // A record whose version file is garbled is deleted too: deleting is how it is repaired.
        const stored = await readRecord(key, false).catch(() => undefined);
        const body = stored?.body ?? (await readCard(key));
        try {
          await rm(paths.meta(key), { force: true });
          if (body === undefined) return false;
          await rm(paths.card(key), { force: true });
          await record({ tenant: key.tenant, agent: key.agent, version: stored?.version ?? 0, deleted: true });
          return true;
        } catch (error) {
          throw fail(`deleting ${key.tenant}/${key.agent}`, error);
        }
      });
    },
    async list(listOptions = {}) {
      opened();
      if (listOptions.tenant !== undefined) checkFileName('tenant', listOptions.tenant);
      const limit = pageLimit(listOptions.limit);
      const after = fromCursor(listOptions.after);
      const tenants = listOptions.tenant !== undefined ? [listOptions.tenant] : await names(root, 'directory');
      const items: StoreKey[] = [];
      let more = false;
      for (const tenant of tenants) {
        if (after !== undefined && tenant < after.tenant) continue;
        for (const agent of await names(inside(join(root, tenant)), 'file')) {
          const key = { tenant, agent };
          if (after !== undefined && toCursor(key) <= toCursor(after)) continue;
          if (items.length === limit) {
            more = true;
            break;
          }
          items.push(key);
        }
        if (more) break;
      }
      const last = items[items.length - 1];
      return more && last !== undefined ? { items, next: toCursor(last) } : { items };
    },
    async watch(listener) {
      opened();
      await mkdir(state, { recursive: true }).catch((error: unknown) => {
        throw fail('creating the store folder', error);
      });
      return watchers.add(listener);
    },
    async close() {
      closed = true;
      await watchers.close();
    },
  };

  /** Sorted plain names in a folder: card files (without `.json`) or tenant folders. */
  async function names(folder: string, kind: 'file' | 'directory'): Promise<string[]> {
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw fail(`reading ${JSON.stringify(folder)}`, error);
    });
    const out: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      if (kind === 'directory' && entry.isDirectory()) out.push(entry.name);
      if (kind === 'file' && entry.isFile() && entry.name.endsWith('.json')) out.push(entry.name.slice(0, -5));
    }
    return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  const watchers = createWatchers(() => startWatcher());
  const { emit } = watchers;

  /**
   * A card file replaced or removed by hand becomes a version of the record: under the lock, the
   * version file is brought in line and the change logged, once, whichever replica sees it first.
   */
  const adopt = (key: StoreKey) =>
    exclusive(async () => {
      const meta = await readMeta(key).catch(() => undefined);
      const body = await readCard(key);
      if (body === undefined) {
        if (meta === undefined) return;
        await rm(paths.meta(key), { force: true });
        await record({ tenant: key.tenant, agent: key.agent, version: meta.version, deleted: true });
        return;
      }
      if (meta !== undefined && meta.sha256 === sha256(body)) return;
      const version = meta === undefined ? 1 : meta.version + 1;
      const revision = String((await readCounter()) + 1n);
      await atomicWrite(paths.meta(key), JSON.stringify({ version, revision, sha256: sha256(body) }));
      await record({ tenant: key.tenant, agent: key.agent, version, deleted: false });
    });

  const startWatcher = async () => {
    let last = await readCounter().catch(() => 0n);
    let paused = false;
    let down = false;
    let timer: NodeJS.Timeout | undefined;
    let reading: Promise<void> = Promise.resolve();
    const edited = new Set<string>();

    const follow = async () => {
      if (paused) return;
      try {
        for (const id of [...edited]) {
          edited.delete(id);
          const [tenant, agent] = id.split('\u0000') as [string, string];
          await adopt({ tenant, agent });
        }
        const counter = await readCounter();
        if (counter === last) {
          if (down) {
            down = false;
            emit({ type: 'up' });
          }
          return;
        }
        const text = await readFile(paths.log, 'utf8').catch(() => '');
        const changes = text
          .split('\n')
          .filter(Boolean)
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as StoreChange];
            } catch {
              return [];
            }
          })
          .filter((c) => BigInt(c.revision) > last && BigInt(c.revision) <= counter);
        if (counter < last || changes[0] === undefined || BigInt(changes[0].revision) !== last + 1n) {
          last = counter;
          emit({ type: 'resync' });
        } else {
          for (const change of changes) {
            if (BigInt(change.revision) !== last + 1n) {
              last = counter;
              emit({ type: 'resync' });
              break;
            }
            last = BigInt(change.revision);
            emit({
              type: 'change',
              change: Object.freeze({
                tenant: change.tenant,
                agent: change.agent,
                version: change.version,
                revision: change.revision,
                deleted: change.deleted === true,
              }),
            });
          }
        }
        if (down) {
          down = false;
          emit({ type: 'up' });
        }
      } catch (error) {
        if (!down) {
          down = true;
          emit({ type: 'down', error: fail('reading the change log', error) });
        }
      }
    };
    const soon = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        reading = reading.then(follow);
      }, 20);
      timer.unref();
    };
    const watchers: FSWatcher[] = [];
    const watchFolder = (folder: string, recursive: boolean, onEvent: (file: string) => void) => {
      try {
        const w = fsWatch(folder, { persistent: false, recursive }, (_event, file) => onEvent(String(file ?? '')));
        w.on('error', () => {});
        watchers.push(w);
      } catch {
        // Some file systems give no events: the poll below still finds every change.
      }
    };
    watchFolder(state, false, soon);
    watchFolder(root, true, (file) => {
      const parts = file.split(sep);
      if (parts.length !== 2) return;
      const [tenant, name] = parts as [string, string];
      if (tenant.startsWith('.') || name.startsWith('.') || !name.endsWith('.json')) return;
      edited.add(`${tenant}\u0000${name.slice(0, -5)}`);
      soon();
    });
    const poll = setInterval(soon, pollInterval);
    poll.unref();
    return {
      stop() {
        clearInterval(poll);
        if (timer !== undefined) clearTimeout(timer);
        for (const w of watchers) w.close();
      },
      pause(value: boolean) {
        paused = value;
        if (!value) soon();
      },
    };
  };

  // Holds the watcher still (not part of the API): a folder has no outage, so this is how the
  // tests let its change log run past a watcher to see the resync a lagging replica gets.
  Object.defineProperty(driver, Symbol.for('agent-card.store.pause'), {
    value: (value: boolean) => watchers.current?.pause(value),
    enumerable: false,
  });
  return named(driver);
}
