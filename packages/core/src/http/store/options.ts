// The `store` option: a driver, or a driver with the bounds of what each replica keeps.
import { readJsonText } from '../../json/read';
import { nodeBuiltin } from '../../node-builtins';
import { isAgentName, isTenantName } from '../../store/names';
import type { CardStoreDriver, StoreRecord } from '../../store/types';
import { DEFAULT_MAX_RECORD_BYTES } from '../../store/card-store';
import { showValue } from '../../util';
import { isPositiveInt, type Report } from '../kernel/problems';
import { SEARCH_DEFAULTS, type SearchSettings } from '../host/search';

/**
 * The `store` option: where the cards of every tenant live, and what each replica keeps of them.
 * Pass the driver itself for the defaults.
 */
export interface AgentCardStoreOptions {
  /** The store: `memoryStore()`, or a Redis, PostgreSQL or files driver. */
  readonly driver: CardStoreDriver;
  /** Most tenants whose prepared answers are kept (least recently used go first). @default 1000 */
  readonly maxTenants?: number;
  /**
   * Most bytes of prepared answers kept, summed over the tenants (each tenant's cards, aliases,
   * catalog, ARD manifest, key set and pages); least recently used tenants go first. A single
   * tenant larger than this is still served, alone. @default 64 MiB
   */
  readonly maxBytes?: number;
  /**
   * Seconds an unknown tenant is remembered: its requests are answered 404 without asking the
   * store again (a change written for it forgets it at once). @default 30
   */
  readonly unknownTenantTtl?: number;
  /** Most unknown tenants remembered (the oldest is forgotten first). @default 10000 */
  readonly maxUnknownTenants?: number;
  /** Largest record read from the store, in bytes; a larger one is not served. @default 1 MiB */
  readonly maxRecordBytes?: number;
  /**
   * Where each agent of a tenant is served, `{agent}` standing for its id; the agent named by
   * the `default` option is also served at the tenant's root. @default '/agents/{agent}'
   */
  readonly agentPath?: string;
  /**
   * Records to serve from when the store cannot be reached (at start-up or later, for a tenant
   * not yet in memory): a JSON file (`{ "records": [{ tenant, agent, version, body, revision }] }`,
   * read at start-up, Node.js only) or the records themselves. Validated like the store's own.
   */
  readonly snapshot?: string | readonly StoreRecord[];
  /** `Retry-After` seconds of the 503 answered when a tenant cannot be loaded. @default 30 */
  readonly retryAfter?: number;
  /**
   * Most entries one AI Catalog document of a tenant lists: a tenant with more agents has them
   * (sorted by id) split into nested catalogs at `/.well-known/ai-catalog/{n}.json`, listed by
   * the root. 100 entries keep a document near 100 KiB, under the 256 KiB a discovery client
   * reads by default, and one level of nesting (which discovery follows) then reaches 10,000
   * agents. `catalog.maxEntries`, when set, wins. At least 2. @default 100
   */
  readonly maxCatalogEntries?: number;
  /**
   * The ARD registry read API per tenant (`GET {basePath}/agents`, `GET {basePath}/agents/{identifier}`,
   * `POST {basePath}/search`): `true` for the base path `/ard`, or `{ basePath, maxSearchBytes,
   * searchTimeoutMs }`. @default false
   */
  readonly registry?: boolean | AgentCardRegistryOptions;
}

/** The `store.registry` option as an object. */
export interface AgentCardRegistryOptions {
  /** Where the API is served on each tenant's host. @default '/ard' */
  readonly basePath?: string;
  /**
   * Largest `POST /search` body read, in bytes (64 to 1 MiB); a larger one is answered 413.
   * @default 8192
   */
  readonly maxSearchBytes?: number;
  /**
   * Most milliseconds spent reading a `POST /search` body (10 to 60000); a body still arriving
   * then is answered 408. @default 5000
   */
  readonly searchTimeoutMs?: number;
}

/** The `store` option, checked, with every default applied. */
export interface ResolvedStoreOptions {
  readonly driver: CardStoreDriver;
  readonly maxTenants: number;
  readonly maxBytes: number;
  readonly unknownTenantTtlMs: number;
  readonly maxUnknownTenants: number;
  readonly maxRecordBytes: number;
  readonly agentPath: (agent: string) => string;
  readonly snapshot: ReadonlyMap<string, readonly StoreRecord[]> | undefined;
  readonly retryAfter: number;
  readonly maxCatalogEntries: number;
  /** Where the registry API is served, when it is. */
  readonly registryPath: string | undefined;
  /** The bounds of its search. */
  readonly registrySearch: SearchSettings;
}

const STORE_KEYS = new Set([
  'driver',
  'maxTenants',
  'maxBytes',
  'unknownTenantTtl',
  'maxUnknownTenants',
  'maxRecordBytes',
  'agentPath',
  'snapshot',
  'retryAfter',
  'maxCatalogEntries',
  'registry',
]);
const BASE_PATH = /^(?:\/[A-Za-z0-9._~-]+)+$/;
const AGENT_PATH = /^(?:\/[A-Za-z0-9._~-]+)*\/\{agent\}(?:\/[A-Za-z0-9._~-]+)*$/;
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/** Whether `value` looks like a driver (rather than `{ driver, … }`). */
export function isDriver(value: unknown): value is CardStoreDriver {
  const v = value as Partial<CardStoreDriver> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.tenant === 'function' &&
    typeof v.watch === 'function' &&
    typeof v.put === 'function'
  );
}

/** Checks the `store` option; problems go to `err`. */
export function resolveStoreOption(value: unknown, err: Report): ResolvedStoreOptions | undefined {
  const o = (isDriver(value) ? { driver: value } : value) as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || !isDriver(o.driver)) {
    err(
      'store',
      'must be a store driver or { driver, … }',
      value,
      'Pass memoryStore() from @agent-card/core/store, or a Redis, PostgreSQL or files driver.',
    );
    return undefined;
  }
  for (const key of Object.keys(o))
    if (!STORE_KEYS.has(key))
      err(`store.${key}`, 'is not an option of store', o[key], `Use one of ${[...STORE_KEYS].join(', ')}.`);
  const int = (key: string, fallback: number, min = 1): number => {
    const v = o[key];
    if (v === undefined) return fallback;
    if (!isPositiveInt(v) || v < min) {
      err(`store.${key}`, `must be a whole number, at least ${min}`, v, 'Leave it out for the default.');
      return fallback;
    }
    return v;
  };
  const agentPath = o.agentPath ?? '/agents/{agent}';
  if (typeof agentPath !== 'string' || !AGENT_PATH.test(agentPath) || agentPath.includes('/.well-known'))
    err(
      'store.agentPath',
      "must be a path with '{agent}' as one whole segment, no trailing slash, query or /.well-known",
      agentPath,
      "Use e.g. '/agents/{agent}'.",
    );
  const registry = o.registry as AgentCardStoreOptions['registry'] | undefined;
  let registryPath: string | undefined;
  let registrySearch = SEARCH_DEFAULTS;
  if (registry === true) registryPath = '/ard';
  else if (typeof registry === 'object' && registry !== null && !Array.isArray(registry)) {
    registrySearch = resolveSearch(registry as Record<string, unknown>, err);
    registryPath = (registry as { basePath?: unknown }).basePath === undefined ? '/ard' : undefined;
    const given = (registry as { basePath?: unknown }).basePath;
    if (given !== undefined) {
      if (typeof given === 'string' && BASE_PATH.test(given) && !given.includes('/.well-known')) registryPath = given;
      else
        err(
          'store.registry.basePath',
          'must be a path of one or more segments, no trailing slash, query or /.well-known',
          given,
          "Use e.g. '/ard'.",
        );
    }
  } else if (registry !== undefined && registry !== false)
    err('store.registry', 'must be true, false or { basePath }', registry, "Use e.g. registry: { basePath: '/ard' }.");
  const snapshot = o.snapshot === undefined ? undefined : readSnapshot(o.snapshot, err);
  return {
    driver: o.driver,
    maxTenants: int('maxTenants', 1000),
    maxBytes: int('maxBytes', 64 * 1024 * 1024, 1024),
    unknownTenantTtlMs: int('unknownTenantTtl', 30) * 1000,
    maxUnknownTenants: int('maxUnknownTenants', 10_000),
    maxRecordBytes: int('maxRecordBytes', DEFAULT_MAX_RECORD_BYTES, 1024),
    agentPath: (agent) => (agentPath as string).replace('{agent}', agent),
    snapshot,
    retryAfter: int('retryAfter', 30),
    maxCatalogEntries: int('maxCatalogEntries', 100, 2),
    registryPath,
    registrySearch,
  };
}

const REGISTRY_KEYS = new Set(['basePath', 'maxSearchBytes', 'searchTimeoutMs']);

/** The search bounds of `store.registry`; problems go to `err`. */
function resolveSearch(registry: Record<string, unknown>, err: Report): SearchSettings {
  for (const key of Object.keys(registry))
    if (!REGISTRY_KEYS.has(key))
      err(
        `store.registry.${key}`,
        'is not an option of store.registry',
        registry[key],
        `Use one of ${[...REGISTRY_KEYS].join(', ')}.`,
      );
  const bounded = (key: string, min: number, max: number, fallback: number): number => {
    const v = registry[key];
    if (v === undefined) return fallback;
    if (isPositiveInt(v) && v >= min && v <= max) return v;
    err(`store.registry.${key}`, `must be a whole number from ${min} to ${max}`, v, 'Leave it out for the default.');
    return fallback;
  };
  return {
    maxBodyBytes: bounded('maxSearchBytes', 64, 1024 * 1024, SEARCH_DEFAULTS.maxBodyBytes),
    timeoutMs: bounded('searchTimeoutMs', 10, 60_000, SEARCH_DEFAULTS.timeoutMs),
  };
}

/** The snapshot's records by tenant; a record that is not one is a start-up problem. */
function readSnapshot(value: unknown, err: Report): ReadonlyMap<string, readonly StoreRecord[]> | undefined {
  let records: unknown = value;
  if (typeof value === 'string') {
    const fs = nodeBuiltin('node:fs');
    if (fs === undefined) {
      err('store.snapshot', 'a file needs Node.js', value, 'Pass the records themselves on this runtime.');
      return undefined;
    }
    let text: Uint8Array;
    try {
      text = fs.readFileSync(value);
    } catch (error) {
      err('store.snapshot', `cannot be read (${(error as Error).message})`, value, 'Give the path of a snapshot file.');
      return undefined;
    }
    const read = readJsonText(text, { maxBytes: MAX_SNAPSHOT_BYTES });
    if (!read.ok) {
      err('store.snapshot', `is not JSON (${read.error})`, value, 'Write it again with the store export.');
      return undefined;
    }
    records = (read.value as { records?: unknown } | null)?.records;
  }
  if (!Array.isArray(records)) {
    err('store.snapshot', 'must be a file path or a list of records', value, 'Use { "records": [...] } in the file.');
    return undefined;
  }
  const byTenant = new Map<string, StoreRecord[]>();
  records.forEach((r, i) => {
    const rec = r as Partial<StoreRecord> | null;
    if (
      typeof rec !== 'object' ||
      rec === null ||
      !isTenantName(rec.tenant) ||
      !isAgentName(rec.agent) ||
      typeof rec.body !== 'string' ||
      !Number.isSafeInteger(rec.version)
    ) {
      err(
        `store.snapshot[${i}]`,
        'must be a record { tenant, agent, version, body, revision }',
        showValue(r),
        'Write the snapshot again with the store export.',
      );
      return;
    }
    const list = byTenant.get(rec.tenant) ?? [];
    list.push({ ...(rec as StoreRecord), revision: String(rec.revision ?? '0') });
    byTenant.set(rec.tenant, list);
  });
  return byTenant;
}
