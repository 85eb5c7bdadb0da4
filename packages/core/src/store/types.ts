// The contract between a store of cards and the hosts that serve from it. A driver (memory,
// a folder of files, Redis, PostgreSQL) only keeps records and announces changes; validation,
// signing and serving live in core, so every driver behaves the same.

/** Where a record lives: a tenant (a customer, a host name) and one of its agents. */
export interface StoreKey {
  readonly tenant: string;
  readonly agent: string;
}

/** One stored card, as a driver keeps it. */
export interface StoreRecord extends StoreKey {
  /**
   * The record's version: 1 for its first write, greater for every write after it. A write
   * that carries a version not greater than the stored one is refused.
   */
  readonly version: number;
  /**
   * The card as JSON text, exactly as written (signed when the writer signs). Every reader
   * parses and validates it again: a record written by another tool is untrusted input.
   */
  readonly body: string;
  /**
   * The store-wide position of this write: increases with every write and delete of any
   * record, so a replica that missed changes asks for those after the last one it saw.
   */
  readonly revision: string;
}

/** One write or delete, as announced to every replica. */
export interface StoreChange extends StoreKey {
  /** The record's version after the change (for a delete: the version that was deleted). */
  readonly version: number;
  /** Store-wide position of the change, as in {@link StoreRecord.revision}. */
  readonly revision: string;
  readonly deleted: boolean;
}

/** What a driver tells a watcher, in order. */
export type StoreEvent =
  /** A record changed (also each change replayed after a reconnect, oldest first, once each). */
  | { readonly type: 'change'; readonly change: StoreChange }
  /** The connection to the store is lost; the driver retries by itself. */
  | { readonly type: 'down'; readonly error: unknown }
  /** The connection is back and every change made meanwhile has been replayed. */
  | { readonly type: 'up' }
  /**
   * The driver cannot tell which changes were missed (its change log was trimmed): reload
   * every tenant held in memory.
   */
  | { readonly type: 'resync' };

/** Options of {@link CardStoreDriver.put}. */
export interface StorePutOptions {
  /**
   * The version to write. Refused (`ERR_AGENT_CARD_STORE_VERSION`) unless greater than the
   * stored version. @default the stored version + 1 (1 for a new record)
   */
  readonly version?: number;
}

/** A page of {@link CardStoreDriver.list}. */
export interface StorePage {
  readonly items: readonly StoreKey[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next?: string;
}

/**
 * A place where cards are kept, shared by every replica of a host. Every method validates its
 * arguments' shape only (tenant and agent names are checked by core before they get here).
 * Writes are atomic per record: a reader sees a whole old record or a whole new one.
 */
export interface CardStoreDriver {
  /**
   * Names the store in logs and errors, never with a password: `redis://cards.internal:6379/0`,
   * `postgres://app@db:5432/cards`, `files:./cards`, `memory`.
   */
  readonly description: string;
  /** Every record of one tenant (an empty list for a tenant the store does not know). */
  tenant(tenant: string): Promise<readonly StoreRecord[]>;
  /** One record, or `undefined`. */
  get(key: StoreKey): Promise<StoreRecord | undefined>;
  /** Writes one record atomically and announces the change. */
  put(key: StoreKey, body: string, options?: StorePutOptions): Promise<StoreRecord>;
  /** Deletes one record and announces it; `false` when there was none. */
  delete(key: StoreKey): Promise<boolean>;
  /** Keys in (tenant, agent) order, of one tenant or all; `limit` at most 1000. */
  list(options?: { readonly tenant?: string; readonly after?: string; readonly limit?: number }): Promise<StorePage>;
  /**
   * Calls `listener` with every change from now on, in order, and with `down`/`up`/`resync`.
   * Resolves once listening has started; the returned function stops listening.
   */
  watch(listener: (event: StoreEvent) => void): Promise<() => Promise<void>>;
  /** Closes the driver's connections. */
  close(): Promise<void>;
}
