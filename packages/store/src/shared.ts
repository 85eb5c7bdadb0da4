// What every driver of this package checks and says alike: the shape of names and versions, the
// page cursor, the store's description without a password, and the errors that name the store.
import { inspect } from 'node:util';
import { AgentCardError } from '@agent-card/core';
import type { CardStoreDriver, StoreEvent, StoreKey, StorePutOptions } from '@agent-card/core/store';

/** The longest tenant or agent name a driver stores, in UTF-8 bytes (core allows far less). */
export const MAX_NAME_BYTES = 1024;
/** The largest page `list` returns. */
export const MAX_PAGE = 1000;
/** Separates tenant and agent in a page cursor, as in the memory store; no name may contain it. */
export const SEP = '\u0000';

/** A name as it may appear in a message: quoted, control characters escaped, long ones cut. */
export function shown(name: string): string {
  const cut = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return JSON.stringify(cut);
}

/**
 * Refuses a key a driver must never act on: a name that is not a string, empty, longer than
 * {@link MAX_NAME_BYTES} or holding a NUL. Core checks names first; this is the last line.
 */
export function checkKey(description: string, key: StoreKey): void {
  for (const [what, name] of [
    ['tenant', key?.tenant],
    ['agent', key?.agent],
  ] as const)
    checkName(description, what, name);
}

export function checkName(description: string, what: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0)
    throw new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: the ${what} name must be a non-empty string.`);
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the ${what} name ${shown(name)} is longer than ${MAX_NAME_BYTES} bytes. Use a shorter name.`,
    );
  if (name.includes(SEP))
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: the ${what} name ${shown(name)} holds a NUL character. Remove it.`,
    );
}

/**
 * Adds to `problems` the option of `values` that is not a positive number of ms
 * (`where: name must be a positive number of ms.`), each in turn.
 */
export function checkPositiveMs(where: string, values: Readonly<Record<string, unknown>>, problems: string[]): void {
  for (const [name, value] of Object.entries(values))
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      problems.push(`${where}: ${name} must be a positive number of ms.`);
}

/** Adds to `problems` that option `name` is not a positive integer, when it is not. */
export function checkPositiveInteger(where: string, name: string, value: unknown, problems: string[]): void {
  if (!Number.isSafeInteger(value) || (value as number) < 1)
    problems.push(`${where}: ${name} must be a positive integer (${String(value)}).`);
}

/** The version a put asks for, checked: a positive safe integer, or `undefined` for "stored + 1". */
export function wantedVersion(description: string, options: StorePutOptions | undefined): number | undefined {
  const version = options?.version;
  if (version === undefined) return undefined;
  if (!Number.isSafeInteger(version) || version < 1)
    throw new AgentCardError(
      'ERR_AGENT_CARD_STORE',
      `${description}: version must be a positive integer (${String(version)}). Pass 1 or more, or leave it out.`,
    );
  return version;
}

export function checkBody(description: string, body: unknown): asserts body is string {
  if (typeof body !== 'string')
    throw new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: the body must be the card as JSON text.`);
}

/** The refusal of a write older than the stored record, worded as the memory store words it. */
export function versionRefused(key: StoreKey, version: number, stored: number): AgentCardError {
  return new AgentCardError(
    'ERR_AGENT_CARD_STORE_VERSION',
    `${key.tenant}/${key.agent}: version ${version} is not newer than the stored version ${stored}. Write version ${stored + 1} or later, or leave the version out.`,
  );
}

/** `limit` clamped to 1…{@link MAX_PAGE} (100 when absent). */
export function pageLimit(limit: number | undefined): number {
  const n = limit === undefined || !Number.isFinite(limit) ? 100 : Math.trunc(limit);
  return Math.min(Math.max(1, n), MAX_PAGE);
}

/** The key a cursor names (`tenant` NUL `agent`), or `undefined` for none or a malformed one. */
export function fromCursor(after: string | undefined): StoreKey | undefined {
  if (typeof after !== 'string' || after === '') return undefined;
  const at = after.indexOf(SEP);
  if (at < 0) return { tenant: after, agent: '' };
  return { tenant: after.slice(0, at), agent: after.slice(at + 1) };
}

export function toCursor(key: StoreKey): string {
  return key.tenant + SEP + key.agent;
}

/**
 * `scheme://user@host:port/path` of a store URL: the password and the query (which may carry
 * one, as `?password=`) are left out.
 */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username === '' ? '' : `${decodeURIComponent(parsed.username)}@`;
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return `${url.split(':')[0] ?? 'store'}://(an unreadable URL)`;
  }
}

/** Every form in which a URL's password could be printed: raw and percent-encoded. */
export function secretsOf(url: string | undefined, more: readonly (string | undefined)[] = []): string[] {
  const out = new Set<string>();
  const add = (s: string | undefined) => {
    if (s !== undefined && s.length > 0) {
      out.add(s);
      try {
        out.add(decodeURIComponent(s));
      } catch {}
      out.add(encodeURIComponent(s));
    }
  };
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      add(parsed.password);
      for (const [name, value] of parsed.searchParams) if (/pass|secret|token|key/i.test(name)) add(value);
    } catch {
      // A URL that does not parse is never printed whole (describeUrl), so nothing leaks from it.
    }
  }
  for (const s of more) add(s);
  return [...out].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

/**
 * The error of a failed store operation: `description: what failed (reason). How to fix.`, with
 * a cause that carries the client's message and code but never a password.
 */
export function storeError(
  description: string,
  what: string,
  error: unknown,
  secrets: readonly string[],
  fix = 'Check that the store is running and reachable; the host keeps serving what it has.',
): AgentCardError {
  if (error instanceof AgentCardError) return error;
  const reason = redact(reasonOf(error), secrets);
  const cause = new Error(reason);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') (cause as Error & { code?: string }).code = code;
  return new AgentCardError('ERR_AGENT_CARD_STORE', `${description}: ${what} (${reason}). ${fix}`, { cause });
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = error.message || error.name;
    return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(error);
}

/** Rejects after `ms` with `onTimeout()`'s error unless `promise` settles first. */
export function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(onTimeout()), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A promise that resolves after `ms` without keeping the process alive. */
export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref());
}

/**
 * Makes `driver` print as `CardStoreDriver <description>` in `util.inspect` and `console.log`:
 * the options it was made with (a URL, a client with its credentials) never show.
 */
export function named<T extends CardStoreDriver>(driver: T): T {
  Object.defineProperty(driver, inspect.custom, {
    value: () => `CardStoreDriver <${driver.description}>`,
    enumerable: false,
  });
  Object.defineProperty(driver, 'toJSON', { value: () => ({ description: driver.description }), enumerable: false });
  return driver;
}

/** Calls each listener with `event`, one listener's exception never stopping the others. */
export function emitTo<E>(listeners: Iterable<(event: E) => void>, event: E): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      // A watcher's own bug must not stop the store's loop or the other watchers.
      process.emitWarning(`A card store watcher threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** What one driver's store watcher must do: stop (its connection, its timers). */
export interface StoreWatcher {
  stop(): unknown;
}

/**
 * The listeners of one driver and its one store watcher: the first `watch` starts the watcher
 * (those that come while it starts wait for it), the last listener to leave stops it, and
 * `close` drops every listener and stops it too.
 */
export interface Watchers<W extends StoreWatcher> {
  /** Calls every listener with `event` ({@link emitTo}). */
  emit(event: StoreEvent): void;
  /** Adds `listener`, starting the watcher if none runs; a start that fails removes it again. */
  add(listener: (event: StoreEvent) => void): Promise<() => Promise<void>>;
  /** Drops every listener and stops the watcher. */
  close(): Promise<void>;
  /** The running watcher, if any. */
  readonly current: W | undefined;
}

/** {@link Watchers} over `start`, which starts the driver's store watcher. */
export function createWatchers<W extends StoreWatcher>(start: () => Promise<W>): Watchers<W> {
  const listeners = new Set<(event: StoreEvent) => void>();
  let watcher: W | undefined;
  // Listeners that come while the watcher starts wait for that one start: a second watcher
  // would announce every change twice.
  let starting: Promise<unknown> | undefined;
  const begin = () =>
    (starting ??= start()
      .then(async (started) => {
        // Every listener left (or close came) while it started: nobody is left to stop it later.
        if (listeners.size === 0) await started.stop();
        else watcher = started;
      })
      .finally(() => {
        starting = undefined;
      }));
  const stop = async () => {
    const stopping = watcher;
    watcher = undefined;
    await stopping?.stop();
  };
  return {
    emit: (event) => emitTo(listeners, event),
    async add(listener) {
      listeners.add(listener);
      try {
        if (watcher === undefined) await begin();
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return async () => {
        listeners.delete(listener);
        if (listeners.size === 0) await stop();
      };
    },
    async close() {
      listeners.clear();
      await stop();
    },
    get current() {
      return watcher;
    },
  };
}
