// A store-backed host, composed of the rooms: the store room's options checked at start-up (every
// problem together), then its responder, each tenant's host a multi-agent host with the JWK Set and
// the ARD registry API.
import { unknownOption } from '../nearest';
import { isAgentName } from '../store/names';
import { createCardStore } from '../store/writer';
import { showValue } from '../util';
import { AI_CATALOG_PREVIOUS_DRAFT } from '../catalog/format';
import { checkCatalogOption } from './agents/catalog';
import { createRegistryRoute, withRegistryRoute } from './ard/registry';
import type { HostAgentCard } from './host/agent';
import type { SearchSettings } from './host/search';
import { withJwksRoute } from './jwks/route';
import type { CardSettings } from './kernel/options';
import { createMultiAgentResponder } from './multi-agent';
import { resolveArdOption } from './ard/serve';
import type { Health } from './kernel/health';
import { KERNEL_KEYS, resolveCardSettings } from './kernel/options';
import { reporter, throwProblems } from './kernel/problems';
import type { AgentCardResponder } from './kernel/responder';
import { resolveLegacy } from './legacy/alias';
import { OBSERVE_KEYS } from './observe/options';
import type { AgentCardOptions } from './types';
import { resolveViewerOption } from './viewer/options';
import { resolveStoreOption } from './store/options';
import { createStoreResponder } from './store/responder';
import { resolveTenancy } from './store/tenancy';

/** Every top-level option a store-backed host reads. */
const STORE_HOST_KEYS = new Set([
  ...KERNEL_KEYS.filter((k) => k !== 'card'),
  'store',
  'tenant',
  'default',
  'legacy',
  'viewer',
  'ard',
  'catalog',
  ...OBSERVE_KEYS.filter((k) => k !== 'watch'),
]);

/** Options that have no meaning when the cards come from a store. */
const NOT_WITH_STORE: Record<string, string> = {
  card: 'the cards are the records of the store. Write them with agentCardStore(responder).put(tenant, agent, card) or openCardStore',
  agents: "a tenant's agents are its records, each served at store.agentPath. Remove agents",
  extended: 'a store keeps public cards only. Serve the extended card from a host of its own',
  dynamic: 'the store decides what each tenant serves. Remove dynamic',
  watch: 'the store announces its changes itself. Remove watch',
};

/** Whether a `Cache-Control` value lets a shared cache keep the answer. */
function sharedCacheable(cacheControl: string | false): boolean {
  return cacheControl !== false && !/(?:^|[\s,])(?:private|no-store)(?:$|[\s,=])/i.test(cacheControl);
}

/**
 * The responder of `options.store`: checks every option of a store-backed host and throws them
 * together; the store is not asked anything until a request (or a write) needs it.
 */
export function createStoreHost<Req>(
  options: AgentCardOptions<Req>,
  health: Health,
  createSingle: (options: AgentCardOptions<Req>, agent: string) => AgentCardResponder<Req>,
): AgentCardResponder<Req> {
  const o = options as Record<string, unknown>;
  const problems: string[] = [];
  const err = reporter(problems);
  for (const key of Object.keys(o)) {
    if (o[key] === undefined) continue;
    const why = NOT_WITH_STORE[key];
    if (why !== undefined) problems.push(`options.${key}: cannot be used with options.store (set): ${why}.`);
    else if (!STORE_HOST_KEYS.has(key))
      problems.push(unknownOption(`options.${key}`, key, STORE_HOST_KEYS, "@agent-card/core's docs/serving.md"));
  }
  const store = resolveStoreOption(o.store, err);
  const tenancy = resolveTenancy<Req>(o.tenant, err);
  const card = resolveCardSettings<Req>({ ...o, card: undefined }, err, problems, { health });
  resolveLegacy(o.legacy, err);
  resolveViewerOption(o.viewer, problems);
  resolveArdOption(o.ard, true, problems);
  const catalog = checkCatalogOption(o.catalog, card.profile, problems);
  if (catalog !== false && catalog.baseUrl !== undefined)
    problems.push(
      `options.catalog.baseUrl: is taken from each tenant's cards with options.store (${showValue(catalog.baseUrl)}). Remove it.`,
    );
  if (o.default !== undefined && !isAgentName(o.default))
    err(
      'default',
      'must be an agent id',
      o.default,
      "Use e.g. 'main' (a tenant's agent 'main' is served at its root).",
    );
  // A card chosen by a request header, cached by a shared cache without that header in Vary, is
  // one tenant's card handed to the next (github-mcp-server PR#2768).
  if (tenancy?.kind === 'function' && tenancy.vary.length === 0 && sharedCacheable(card.cacheControl))
    problems.push(
      `options.tenant.vary: a tenant chosen by a function is cached by shared caches (cacheControl ${showValue(card.cacheControl)}) without the request headers the function reads in Vary, so a cache would hand one tenant's card to another ([]). List the headers it reads, e.g. vary: ['X-Tenant'], or make the answers private, e.g. cacheControl: 'private, max-age=60'.`,
    );
  throwProblems(problems);
  for (const warning of card.signing?.warnings ?? []) card.logger.warn(`agent card: ${warning}`);

  const { store: _s, tenant: _t, default: defaultAgent, onServe: _o, ...shared } = options;
  const writer = createCardStore(store!.driver, {
    profile: card.profile,
    rules: card.rules,
    signer: card.signer,
    logger: card.logger,
    tenancy,
    maxRecordBytes: store!.maxRecordBytes,
  });
  return createStoreResponder<Req>({
    store: store!,
    tenancy: tenancy!,
    card,
    hostOptions: shared,
    defaultAgent,
    writer,
    health,
    // Cards are signed at the write: an agent's responder never signs again (its host signs its
    // catalog, with the deterministic signatures every replica makes alike).
    createHost: (own, agents) => {
      const host = withJwksRoute(
        createMultiAgentResponder(own, (one, agent) => createSingle({ ...one, sign: undefined }, agent)),
        card.signing,
        card,
      );
      return store!.registryPath === undefined
        ? host
        : withRegistryRoute(host, tenantRegistry<Req>(agents, own.catalog, store!, card));
    },
  });
}

/** A tenant's registry API: its agents, named and placed as its catalog and ARD manifest do. */
function tenantRegistry<Req>(
  agents: readonly HostAgentCard[],
  catalog: AgentCardOptions<Req>['catalog'],
  store: { readonly registryPath?: string | undefined; readonly registrySearch: SearchSettings },
  card: CardSettings<Req>,
) {
  const c = catalog === false ? undefined : (catalog ?? {});
  return createRegistryRoute<Req>(agents, {
    basePath: store.registryPath!,
    baseUrl: c?.baseUrl,
    naming:
      c === undefined || c.draft === AI_CATALOG_PREVIOUS_DRAFT.id
        ? undefined
        : { publisher: c.publisher, namespace: c.namespace ?? 'agent' },
    cacheControl: card.cacheControl,
    cors: card.cors,
    search: store.registrySearch,
  });
}
