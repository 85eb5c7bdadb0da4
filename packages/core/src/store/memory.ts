// The store of a single process: records in a Map, changes announced to this process' watchers.
// The default of a host without a store, and the reference every other driver is tested against.
import { AgentCardError } from '../errors';
import type {
  CardStoreDriver,
  StoreChange,
  StoreEvent,
  StoreKey,
  StorePage,
  StorePutOptions,
  StoreRecord,
} from './types';

/** Separates tenant and agent in a map key; neither name may contain it (core checks names). */
const SEP = '\u0000';
const MAX_PAGE = 1000;

/**
 * A store kept in this process' memory: what a single-process host has always had. Records and
 * versions behave as in every other driver; changes reach the watchers of this process only.
 * @example const store = memoryStore()
 */
export function memoryStore(): CardStoreDriver {
  const records = new Map<string, StoreRecord>();
  const listeners = new Set<(event: StoreEvent) => void>();
  let revision = 0;
  let closed = false;

  const open = (): void => {
    if (closed) throw new AgentCardError('ERR_AGENT_CARD_STORE', 'memory store: closed. Create a new store.');
  };
  const announce = (change: StoreChange): void => {
    for (const listener of [...listeners]) listener({ type: 'change', change });
  };

  return {
    description: 'memory',
    async tenant(tenant) {
      open();
      const out: StoreRecord[] = [];
      for (const record of records.values()) if (record.tenant === tenant) out.push(record);
      return out.sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
    },
    async get(key) {
      open();
      return records.get(key.tenant + SEP + key.agent);
    },
    async put(key, body, options?: StorePutOptions) {
      open();
      const id = key.tenant + SEP + key.agent;
      const stored = records.get(id);
      const version = options?.version ?? (stored?.version ?? 0) + 1;
      if (!Number.isSafeInteger(version) || version < 1)
        throw new AgentCardError(
          'ERR_AGENT_CARD_STORE',
          `memory store: version must be a positive integer (${String(version)}).`,
        );
      if (stored !== undefined && version <= stored.version)
        throw new AgentCardError(
          'ERR_AGENT_CARD_STORE_VERSION',
          `${key.tenant}/${key.agent}: version ${version} is not newer than the stored version ${stored.version}. Write version ${stored.version + 1} or later, or leave the version out.`,
        );
      revision += 1;
      const record: StoreRecord = Object.freeze({
        tenant: key.tenant,
        agent: key.agent,
        version,
        body,
        revision: String(revision),
      });
      records.set(id, record);
      announce({ tenant: key.tenant, agent: key.agent, version, revision: record.revision, deleted: false });
      return record;
    },
    async delete(key) {
      open();
      const id = key.tenant + SEP + key.agent;
      const stored = records.get(id);
      if (stored === undefined) return false;
      records.delete(id);
      revision += 1;
      announce({
        tenant: key.tenant,
        agent: key.agent,
        version: stored.version,
        revision: String(revision),
        deleted: true,
      });
      return true;
    },
    async list(options = {}): Promise<StorePage> {
      open();
      const limit = Math.min(Math.max(1, options.limit ?? 100), MAX_PAGE);
      const keys = [...records.values()]
        .filter((r) => options.tenant === undefined || r.tenant === options.tenant)
        .map((r) => r.tenant + SEP + r.agent)
        .sort();
      const start = options.after === undefined ? 0 : keys.findIndex((k) => k > (options.after as string));
      const slice = start < 0 ? [] : keys.slice(start, start + limit);
      const items: StoreKey[] = slice.map((k) => {
        const [tenant, agent] = k.split(SEP) as [string, string];
        return { tenant, agent };
      });
      const more = start >= 0 && start + limit < keys.length;
      return more ? { items, next: slice[slice.length - 1] } : { items };
    },
    async watch(listener) {
      open();
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
