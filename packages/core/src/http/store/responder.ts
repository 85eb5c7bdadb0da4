// Serving from a store: each tenant's records become one prepared multi-agent host (cards,
// aliases, catalog, ARD manifest, key set, pages), kept in memory by count and bytes and swapped
// whole when the store announces a change. A warm tenant's request is one header or path parse
// and one Map hit, then the static host's own answer.
import { AgentCardError, formatFindings } from '../../errors';
import type { Finding } from '../../findings';
import { readJsonText } from '../../json/read';
import { deepFreeze } from '../../util';
import { recordValidation } from '../../validate/recorded';
import { validateAgentCardFindings } from '../../validate/validate';
import type { AgentCard } from '../../model';
import { isAgentName, isTenantName } from '../../store/names';
import type { CardStoreDriver, StoreEvent, StoreRecord } from '../../store/types';
import type { CardStore } from '../../store/card-store';
import { interfaceUrls } from '../../store/writer';
import type { HostAgentCard } from '../host/agent';
import { isRegistryPath } from '../host/paths';
import { checkCard } from '../kernel/card-validation';
import { type CorsVariants, selectCors } from '../kernel/cors';
import { answerError, type ErrorResponseSet, prepareErrorResponses, withHeaders } from '../kernel/documents';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import type { AgentCardStatus, Health } from '../kernel/health';
import type { CardSettings } from '../kernel/options';
import { WELL_KNOWN_PREFIX } from '../kernel/paths';
import { type AgentCardResponder, internalsOf, sealResponder } from '../kernel/responder';
import type { AgentCardOptions } from '../types';
import type { ResolvedStoreOptions } from './options';
import type { Tenancy } from './tenancy';

/** Builds one agent's responder (the single-card responder of responder.ts). */
/**
 * Builds one tenant's host from its options (its agents, its catalog): the multi-agent host and
 * what the store adds to it, composed where the rooms are (http/store-host.ts).
 */
type CreateTenantHost<Req> = (
  options: AgentCardOptions<Req>,
  agents: readonly HostAgentCard[],
) => AgentCardResponder<Req>;

/** One agent of a held tenant: the version served and its card. */
interface HeldAgent {
  readonly version: number;
  readonly card: AgentCard;
}

/** A tenant held in memory. `host` is swapped whole; the entry itself stays for its lifetime. */
interface Held<Req> {
  host: AgentCardResponder<Req>;
  agents: ReadonlyMap<string, HeldAgent>;
  bytes: number;
  /** When it was last asked for (a counter): the least recent goes first. */
  used: number;
  /** `Host` header values that name it, for the one-lookup path (host tenancy). */
  readonly hostKeys: string[];
}

/** What a store-backed responder needs besides its options. */
export interface StoreServeSettings<Req> {
  readonly store: ResolvedStoreOptions;
  readonly tenancy: Tenancy<Req>;
  readonly card: CardSettings<Req>;
  /** The options every tenant's host is built with (its agents never sign: records are signed). */
  readonly hostOptions: AgentCardOptions<Req>;
  /** The agent served at a tenant's root, when it has one by that id. */
  readonly defaultAgent: string | undefined;
  /** The writer of write-throughs (validates and signs like the host). */
  readonly writer: CardStore;
  readonly health: Health;
  readonly createHost: CreateTenantHost<Req>;
  /** Milliseconds since some epoch. @default Date.now */
  readonly now?: () => number;
}

const MAX_HOST_KEYS = 4;
const MAX_REMEMBERED_LINES = 1000;
const WATCH_RETRY_MS = 5000;
const FAILED_TENANT_MS = 1000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this masks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Text from a record (a card another tool wrote) made safe for one log line. */
const neutral = (text: string): string => text.replace(CONTROL, (c) => (c === '\n' ? '\n' : '?'));

/**
 * A logger for the tenants' hosts: each warning once per process whatever tenant or agent it is
 * about (the quoted values and the agent's name left out of the comparison), so that 10,000
 * tenants with one placeholder URL each make one line, not 10,000.
 */
function onceLogger(logger: Pick<Console, 'warn'>): Pick<Console, 'warn'> {
  const seen = new Set<string>();
  return {
    warn(message: unknown, ...rest: unknown[]) {
      const text = typeof message === 'string' ? message : JSON.stringify([message, ...rest]);
      const key = text.replace(/^agent "[^"]*": /, '').replace(/\([^)]*\)|"[^"]*"/g, '');
      if (seen.has(key)) return;
      if (seen.size >= MAX_REMEMBERED_LINES) return;
      seen.add(key);
      logger.warn(message as string, ...rest);
    },
  };
}

/**
 * The responder of a store-backed host: tenants loaded on first request (once, however many
 * requests wait), kept by count and bytes, refreshed when the store announces a change, and
 * served wholly from memory once loaded.
 */
export function createStoreResponder<Req>(s: StoreServeSettings<Req>): AgentCardResponder<Req> {
  const { store, tenancy, card, health } = s;
  const driver: CardStoreDriver = store.driver;
  const now = s.now ?? Date.now;
  const logger = card.logger;
  const quiet = onceLogger(logger);
  const hostOptions: AgentCardOptions<Req> = { ...s.hostOptions, logger: quiet };

  const tenants = new Map<string, Held<Req>>();
  const byHost = new Map<string, Held<Req>>();
  const unknown = new Map<string, number>();
  // Tenants whose load failed (the store unreachable): answered 503 without asking again for
  // FAILED_TENANT_MS, so an outage costs the store one look-up per tenant per interval too.
  const failed = new Map<string, number>();
  const loading = new Map<string, Promise<Held<Req> | undefined>>();
  const refreshing = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let clock = 0;
  let totalBytes = 0;
  let down: 'event' | 'call' | undefined;
  let connected = false;
  let closed = false;
  let stopWatch: (() => Promise<void>) | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  // Fixed answers: a refused tenant name, an unknown tenant, a tenant that cannot be loaded.
  const errors = (status: number, message: string, headers: Record<string, string> = {}) =>
    prepareErrorResponses({
      served: { kind: 'card' },
      status,
      body: {
        error: {
          code: status,
          status: status === 404 ? 'NOT_FOUND' : status === 400 ? 'INVALID_ARGUMENT' : 'UNAVAILABLE',
          message,
        },
      },
      headers,
      cors: card.cors,
    });
  const badTenant = errors(400, 'No such tenant: a tenant name is 1-63 lower-case letters, digits or hyphens.');
  const notFound = errors(404, 'No such tenant.');
  const unavailable = errors(503, 'The agent card store is temporarily unavailable. Retry later.', {
    'retry-after': String(store.retryAfter),
  });
  // A search (the one POST served) of a tenant that is not there is told so, as a GET would be.
  const answer = (set: CorsVariants<ErrorResponseSet>, request: AgentCardRequest<Req>) =>
    answerError(selectCors(set, request.headers), request.method === 'POST' ? 'GET' : request.method);

  // With a tenant function, every answer names the headers it reads in Vary (made once per answer).
  const extraVary = tenancy.vary.join(', ');
  const varied = new WeakMap<AgentCardResponse, AgentCardResponse>();
  const addVary = (res: AgentCardResponse): AgentCardResponse => {
    let out = varied.get(res);
    if (out === undefined) {
      const vary = res.headers.vary ? `${res.headers.vary}, ${extraVary}` : extraVary;
      out = withHeaders(res, { ...res.headers, vary });
      if (Object.isFrozen(res)) varied.set(res, out);
    }
    return out;
  };
  const withVary =
    extraVary === ''
      ? undefined
      : (res: AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>) =>
          res === undefined
            ? undefined
            : res instanceof Promise
              ? res.then((r) => (r === undefined ? undefined : addVary(r)))
              : addVary(res as AgentCardResponse);

  // --- the store is down / back: logged once per outage ---
  const storeDown = (how: 'event' | 'call', error: unknown) => {
    if (down !== undefined) return;
    down = how;
    const why = error instanceof Error ? error.message : String(error);
    logger.warn(
      `agent card: the store ${driver.description} cannot be reached (${neutral(why).slice(0, 300)}); serving the cards held in memory until it is back.`,
    );
    health.stale(error);
  };
  const storeUp = (how: 'event' | 'call') => {
    if (down === undefined || (how === 'call' && down === 'event')) return;
    down = undefined;
    logger.warn(`agent card: the store ${driver.description} is reachable again.`);
    health.ok();
  };

  // --- records → cards ---
  const reported = new Set<string>();
  const refuse = (record: StoreRecord, why: string) => {
    const key = `${record.tenant}/${record.agent}@${record.version}`;
    if (reported.has(key)) return;
    if (reported.size >= MAX_REMEMBERED_LINES) reported.clear();
    reported.add(key);
    logger.warn(
      neutral(
        `agent card: the record ${record.tenant}/${String(record.agent).slice(0, 64)} version ${record.version} in ${driver.description} is not served: ${why}`,
      ),
    );
  };
  const refused = (record: StoreRecord, why: string): undefined => {
    refuse(record, why);
    return undefined;
  };
  /** The record's card, validated as at start-up, or `undefined` (reported) when it is not served. */
  const readRecord = (tenant: string, record: StoreRecord): AgentCard | undefined => {
    if (!isAgentName(record.agent)) return refused(record, 'its agent name is not one a host serves.');
    if (typeof record.body !== 'string') return refused(record, 'its body is not text.');
    const read = readJsonText(record.body, { maxBytes: store.maxRecordBytes });
    if (!read.ok) {
      const where = read.error === 'syntax' || read.error === 'too-deep' ? ` at line ${read.line}` : '';
      return refused(record, `its body is not JSON a card may be (${read.error}${where}).`);
    }
    const value = read.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return refused(record, 'its body is not a JSON object.');
    // Validated once: the findings are recorded for the frozen card, so building its host does
    // not validate it again.
    deepFreeze(value);
    recordValidation(value, card.profile, validateAgentCardFindings(value, { profile: card.profile }).findings);
    const check = checkCard(value, card.profile, card.rules);
    const errs: Finding[] = check.findings.filter((f) => f.severity === 'error');
    if (!check.valid || errs.length > 0)
      return refused(record, `the card has ${errs.length} validation error(s):\n${formatFindings(errs)}`);
    const claims = tenancy.claims(tenant, interfaceUrls(value as AgentCard));
    if (claims.length > 0) return refused(record, claims.join(' '));
    return value as AgentCard;
  };

  /**
   * The tenant built from its records, keeping for each agent the version served before when the
   * store gives an older one (or one that does not validate); `undefined` when nothing is left.
   */
  const build = (
    tenant: string,
    records: readonly StoreRecord[],
    previous: Held<Req> | undefined,
  ): Pick<Held<Req>, 'host' | 'agents' | 'bytes'> | undefined => {
    const agents = new Map<string, HeldAgent>();
    for (const record of records) {
      if (record.tenant !== tenant) continue;
      const before = previous?.agents.get(record.agent);
      if (before !== undefined && record.version <= before.version) {
        agents.set(record.agent, before);
        continue;
      }
      const read = readRecord(tenant, record);
      if (read !== undefined) agents.set(record.agent, { version: record.version, card: read });
      else if (before !== undefined) agents.set(record.agent, before);
    }
    if (agents.size === 0) return undefined;
    if (previous !== undefined && sameAgents(previous.agents, agents)) return previous;
    const ids = [...agents.keys()].sort();
    const options: AgentCardOptions<Req> = {
      ...hostOptions,
      agents: ids.map((id) => ({ id, path: store.agentPath(id), card: agents.get(id)!.card })),
      ...(s.defaultAgent !== undefined && agents.has(s.defaultAgent) ? { default: s.defaultAgent } : {}),
      catalog: tenantCatalog(tenant, agents),
    };
    let host: AgentCardResponder<Req>;
    try {
      host = s.createHost(
        options,
        ids.map((id) => ({ id, path: store.agentPath(id), card: agents.get(id)!.card })),
      );
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      logger.warn(neutral(`agent card: tenant ${tenant} in ${driver.description} cannot be served as stored: ${why}`));
      return previous;
    }
    return { host, agents, bytes: preparedBytes(host) };
  };

  /** The tenant's catalog option: the host's, its base under the tenant's path (path tenancy). */
  const tenantCatalog = (tenant: string, agents: ReadonlyMap<string, HeldAgent>) => {
    const given = s.hostOptions.catalog;
    const catalog =
      given === false || (typeof given === 'object' && given !== null && given.maxEntries !== undefined)
        ? given
        : { ...(given ?? {}), maxEntries: store.maxCatalogEntries };
    const under = tenancy.base(tenant);
    if (catalog === false || under === '') return catalog;
    const first = [...agents.values()].map((a) => interfaceUrls(a.card)[0]).find((u) => u !== undefined);
    let origin: string | undefined;
    try {
      origin = first === undefined ? undefined : new URL(first).origin;
    } catch {
      origin = undefined;
    }
    return origin === undefined || origin === 'null' ? catalog : { ...(catalog ?? {}), baseUrl: `${origin}${under}` };
  };

  // --- the cache: count and bytes, least recently used first ---
  const forget = (name: string, held: Held<Req>) => {
    tenants.delete(name);
    totalBytes -= held.bytes;
    for (const key of held.hostKeys) byHost.delete(key);
  };
  const evict = (keep: string) => {
    while (tenants.size > 1 && (tenants.size > store.maxTenants || totalBytes > store.maxBytes)) {
      let oldest: string | undefined;
      let oldestUse = Infinity;
      for (const [name, held] of tenants)
        if (name !== keep && held.used < oldestUse) {
          oldest = name;
          oldestUse = held.used;
        }
      if (oldest === undefined) return;
      forget(oldest, tenants.get(oldest)!);
    }
  };
  const hold = (name: string, built: Pick<Held<Req>, 'host' | 'agents' | 'bytes'>): Held<Req> => {
    const held: Held<Req> = { ...built, used: ++clock, hostKeys: [] };
    tenants.set(name, held);
    totalBytes += held.bytes;
    evict(name);
    return held;
  };
  const swap = (name: string, held: Held<Req>, built: Pick<Held<Req>, 'host' | 'agents' | 'bytes'>) => {
    if (built === held) return;
    totalBytes += built.bytes - held.bytes;
    // One assignment: a request reads the whole old host or the whole new one.
    held.agents = built.agents;
    held.bytes = built.bytes;
    held.host = built.host;
    evict(name);
  };
  const remember = (name: string) => {
    if (unknown.size >= store.maxUnknownTenants) {
      const oldest = unknown.keys().next();
      if (!oldest.done) unknown.delete(oldest.value);
    }
    unknown.set(name, now() + store.unknownTenantTtlMs);
  };

  // --- loading and refreshing ---
  const recordsOf = async (name: string): Promise<readonly StoreRecord[]> => {
    try {
      const records = await driver.tenant(name);
      storeUp('call');
      return records;
    } catch (error) {
      storeDown('call', error);
      const saved = store.snapshot?.get(name);
      if (saved === undefined) throw error;
      return saved;
    }
  };
  const load = (name: string): Promise<Held<Req> | undefined> => {
    const running = loading.get(name);
    if (running !== undefined) return running;
    const p = (async () => {
      await watching;
      const built = build(name, await recordsOf(name), undefined);
      if (built === undefined) {
        remember(name);
        return undefined;
      }
      return hold(name, built);
    })();
    loading.set(name, p);
    const done = () => {
      loading.delete(name);
      // A change announced while it loaded: read it again.
      if (again.delete(name) && tenants.has(name)) void refresh(name);
    };
    p.then(done, done);
    return p;
  };
  const refresh = (name: string): Promise<void> => {
    if (loading.has(name)) {
      again.add(name);
      return loading.get(name)!.then(
        () => refreshing.get(name),
        () => undefined,
      );
    }
    const running = refreshing.get(name);
    if (running !== undefined) {
      again.add(name);
      return running;
    }
    const p = (async () => {
      do {
        again.delete(name);
        const held = tenants.get(name);
        if (held === undefined) return;
        let records: readonly StoreRecord[];
        try {
          records = await driver.tenant(name);
          storeUp('call');
        } catch (error) {
          storeDown('call', error);
          return;
        }
        if (tenants.get(name) !== held) continue;
        const built = build(name, records, held);
        if (built === undefined) forget(name, held);
        else swap(name, held, built);
      } while (again.has(name));
    })().finally(() => refreshing.delete(name));
    refreshing.set(name, p);
    return p;
  };

  const listener = (event: StoreEvent) => {
    if (closed) return;
    if (event.type === 'change') {
      const name = event.change.tenant;
      unknown.delete(name);
      failed.delete(name);
      if (tenants.has(name) || loading.has(name)) void refresh(name);
    } else if (event.type === 'resync') {
      for (const name of [...tenants.keys()]) void refresh(name);
    } else if (event.type === 'down') storeDown('event', event.error);
    else if (event.type === 'up') {
      failed.clear();
      storeUp('event');
    }
  };
  // Listen first, then read: a tenant's records are read only once the first watch has begun (or
  // failed), so no write falls between a load and the start of the announcements.
  let firstWatch!: () => void;
  const watching = new Promise<void>((resolve) => (firstWatch = resolve));
  const startWatch = () => {
    retry = undefined;
    driver.watch(listener).then(
      (stop) => {
        firstWatch();
        if (closed) return void stop();
        stopWatch = stop;
        const wasDown = down !== undefined;
        connected = true;
        storeUp('event');
        storeUp('call');
        // After a failed watch, changes made before this one began were announced to no one:
        // every tenant loaded meanwhile (from the store or a snapshot) is read again.
        if (wasDown) {
          for (const name of loading.keys()) again.add(name);
          for (const name of [...tenants.keys()]) void refresh(name);
        }
      },
      (error) => {
        firstWatch();
        storeDown('event', error);
        if (closed) return;
        retry = setTimeout(startWatch, WATCH_RETRY_MS);
        (retry as { unref?: () => void }).unref?.();
      },
    );
  };
  startWatch();

  // --- answering ---
  const cold = (name: string, request: AgentCardRequest<Req>, inner: AgentCardRequest<Req>) => {
    if (
      !inner.path.includes(WELL_KNOWN_PREFIX) &&
      (store.registryPath === undefined || !isRegistryPath(store.registryPath, inner.path))
    )
      return undefined;
    if (!isTenantName(name)) return answer(badTenant, request);
    const until = unknown.get(name);
    if (until !== undefined) {
      if (until > now()) return answer(notFound, request);
      unknown.delete(name);
    }
    const retryAt = failed.get(name);
    if (retryAt !== undefined) {
      if (retryAt > now()) return answer(unavailable, request);
      failed.delete(name);
    }
    return load(name).then(
      (held) => (held === undefined ? answer(notFound, request) : held.host.respond(inner)),
      (error) => {
        if (failed.size >= store.maxUnknownTenants) failed.delete(failed.keys().next().value as string);
        failed.set(name, now() + FAILED_TENANT_MS);
        card.onError(error);
        return answer(unavailable, request);
      },
    );
  };
  const hostKind = tenancy.kind === 'host';
  const pathKind = tenancy.kind === 'path';
  const respondRaw = (request: AgentCardRequest<Req>) => {
    if (hostKind) {
      // The one-lookup path: the Host header as sent, mapped to the tenant it named before.
      const raw = request.headers.host;
      if (typeof raw === 'string') {
        const held = byHost.get(raw);
        if (held !== undefined) {
          if (held.used !== clock) held.used = ++clock;
          return held.host.respond(request);
        }
      }
    }
    let name: string | undefined;
    try {
      name = tenancy.tenantOf(request);
    } catch (error) {
      card.onError(error);
      return undefined;
    }
    if (name === undefined) return undefined;
    const inner = pathKind ? { ...request, path: tenancy.restOf(request, name) } : request;
    const held = tenants.get(name);
    if (held === undefined) return cold(name, request, inner);
    if (held.used !== clock) held.used = ++clock;
    if (hostKind && typeof request.headers.host === 'string' && held.hostKeys.length < MAX_HOST_KEYS) {
      held.hostKeys.push(request.headers.host);
      byHost.set(request.headers.host, held);
    }
    return held.host.respond(inner);
  };
  const respond =
    withVary === undefined ? respondRaw : (request: AgentCardRequest<Req>) => withVary(respondRaw(request));

  // --- writes through the store, seen here as soon as they resolve ---
  const writer: CardStore = Object.freeze({
    ...s.writer,
    description: driver.description,
    async put(tenant: string, agent: string, next: AgentCard, options?: { version?: number }) {
      const record = await s.writer.put(tenant, agent, next, options);
      unknown.delete(tenant);
      await refresh(tenant);
      return record;
    },
    async delete(tenant: string, agent: string) {
      const deleted = await s.writer.delete(tenant, agent);
      await refresh(tenant);
      return deleted;
    },
  });

  const status = (): AgentCardStatus => ({
    ...health.status(),
    ...(connected || store.snapshot !== undefined || down === undefined ? {} : { ready: false }),
    store: {
      description: driver.description,
      connected: connected && down === undefined,
      tenants: tenants.size,
      bytes: totalBytes,
    },
  });

  const responder: AgentCardResponder<Req> = {
    respond,
    update(): void {
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        'update: the responder serves cards from a store (store), one set per tenant. Write the card through the store: await agentCardStore(responder).put(tenant, agent, card).',
      );
    },
  };
  return sealResponder(responder, {
    status,
    store: writer,
    close: () => {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      void stopWatch?.();
    },
  });
}

/** Whether two tenants hold the same version of the same agents. */
function sameAgents(a: ReadonlyMap<string, HeldAgent>, b: ReadonlyMap<string, HeldAgent>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, agent] of a) if (b.get(id) !== agent) return false;
  return true;
}

/** The bytes of every prepared body a host serves (each body once). */
function preparedBytes(host: AgentCardResponder<any>): number {
  const paths = internalsOf(host)?.paths?.() ?? [];
  const seen = new Set<Uint8Array>();
  let bytes = 0;
  for (const path of paths) {
    const res = host.respond({ method: 'GET', path, headers: {} });
    if (res === undefined || res instanceof Promise) continue;
    const body = (res as AgentCardResponse).body;
    if (body !== undefined && !seen.has(body)) {
      seen.add(body);
      bytes += body.byteLength;
    }
  }
  return bytes;
}
