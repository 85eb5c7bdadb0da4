// Several agents from one responder: each agent a responder of its own, a router in front, the
// AI Catalog listing them, and the viewer's pages for each and for the host.
import {
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  DID_DOCUMENT_PATH,
  MCP_CATALOG_PATH,
} from '../catalog/format';
import { AgentCardError } from '../errors';
import type { Finding } from '../findings';
import type { AgentCard } from '../model';
import { showValue } from '../util';
import { resolveProfile } from '../validate/validate';
import { ardLink, ardPageLink, withArdRoute } from './ard/route';
import { hostArdRoute, resolveArdOption } from './ard/serve';
import type { DynamicCardOptions } from './dynamic/types';
import type { VariantSource } from './kernel/derived';
import type { AgentCardRequest } from './kernel/exchange';
import { reportMovedOptions } from './kernel/options';
import { AGENT_CARD_PATH, WELL_KNOWN_PREFIX } from './kernel/paths';
import { optionsError } from './kernel/problems';
import { type AgentCardResponder, internalsFrom, internalsOf, sealResponder } from './kernel/responder';
import type { AgentCardOptions, AgentOptions } from './types';
import { type ResolvedViewerOptions, resolveViewerOption } from './viewer/options';
import { cardPage, catalogPage, type ViewerPage } from './viewer/pages';
import { withViewer } from './viewer/serve';
import { type CatalogRoute, checkCatalogOption, prepareCatalog, type ResolvedCatalogOptions } from './agents/catalog';
import type { Agent, PageLink } from './host/agent';
import { agentOptions, checkAgentEntry, checkCollisions, staticExtendedPaths } from './agents/options';
import { createRouter } from './agents/router';

/** Builds one agent's responder; `agent` is its id, which its answers carry for the serve hook. */
type CreateSingle<Req> = (options: AgentCardOptions<Req>, agent: string) => AgentCardResponder<Req>;

/** What may not stand next to `agents`, and `agents` itself; throws at once when there is no agent. */
function checkHostOptions<Req>(options: AgentCardOptions<Req>, problems: string[]): readonly unknown[] {
  const list = options.agents as unknown;
  if (options.card !== undefined)
    problems.push(
      'options.card: cannot be used together with options.agents (set). Move the card into one agent, e.g. agents: [{ id, path, card }], and make it the default.',
    );
  if (options.extended !== undefined)
    problems.push(
      'options.extended: is per agent when options.agents is set (set). Move it into the agent whose card it extends.',
    );
  reportMovedOptions(options as Record<string, unknown>, problems);
  if (!Array.isArray(list) || list.length === 0) {
    problems.push(
      `options.agents: must be a non-empty array of { id, path, card } (${showValue(list)}). List at least one agent.`,
    );
    throw optionsError(problems);
  }
  return list;
}

/** Builds one agent's responder; its problems (each line naming the agent) go to `problems`. */
function buildAgent<Req>(
  options: AgentCardOptions<Req>,
  a: AgentOptions<Req>,
  id: string,
  name: string,
  createSingle: CreateSingle<Req>,
  problems: string[],
  findings: Finding[],
): Agent<Req> | undefined {
  let responder: AgentCardResponder<Req>;
  try {
    responder = createSingle(agentOptions(options, a, id), id);
  } catch (error) {
    if (!(error instanceof AgentCardError)) throw error;
    // Each line of the single-card error, prefixed with the agent it is about.
    const lines = error.message
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^Invalid agent card options:$/.test(line));
    for (const line of lines) problems.push(`${name}: ${line.replace(/^\s*-\s*/, '')}`);
    for (const f of error.findings) findings.push({ ...f, message: `agent "${id}": ${f.message}` });
    return undefined;
  }
  const card = typeof a.card === 'function' ? undefined : (a.card as AgentCard);
  const extendedPaths = card === undefined ? [] : staticExtendedPaths(card, a.extended);
  return { id, name, path: a.path, options: a, responder, card, entry: a.catalogEntry, extendedPaths };
}

/** The agent `options.default` names, if any. */
function findDefault<Req>(id: unknown, agents: readonly Agent<Req>[], problems: string[]): Agent<Req> | undefined {
  if (id === undefined) return undefined;
  const found = agents.find((a) => a.id === id);
  if (found === undefined && !problems.some((p) => p.includes(`agent "${String(id)}"`)))
    problems.push(
      `options.default: names no agent (${showValue(id)}). Use one of the agent ids: ${agents.map((a) => a.id).join(', ')}.`,
    );
  return found;
}

/** Each agent's page, the default agent's at the root, and the host's page listing the catalog. */
function viewerPages<Req>(
  viewer: ResolvedViewerOptions,
  agents: readonly Agent<Req>[],
  defaultAgent: Agent<Req> | undefined,
  catalogServed: boolean,
  links: readonly PageLink[],
): ViewerPage[] {
  const linked = agents.map((a) => ({
    path: a.path,
    cardPath: `${a.path}${AGENT_CARD_PATH}`,
    pagePath: `${a.path}${viewer.path}`,
    listed: a.entry !== false,
  }));
  const pages = linked.map((a) => cardPage(a.pagePath, a.cardPath, links));
  if (defaultAgent !== undefined) pages.push(cardPage(viewer.path, AGENT_CARD_PATH, links));
  if (catalogServed)
    pages.push(
      catalogPage(
        viewer.catalogPath,
        AI_CATALOG_PATH,
        linked.filter((a) => a.listed),
        links,
      ),
    );
  return pages;
}

/** The agents as they stand, and what changes them: one agent's update. */
interface Host<Req> {
  respond: AgentCardResponder<Req>['respond'];
  /** The current variant of the card or catalog at a request's path. */
  variant: VariantSource<Req>;
  agent(id: string): Agent<Req>;
  updateAgent(id: string, next: unknown, changes: { extendedCard?: unknown } | undefined): void;
  /** Every document path, as the agents stand now; `undefined` when one agent has a card function. */
  paths(): readonly string[] | undefined;
  /** How many updates have changed the agents: documents built from every card compare it. */
  version(): number;
}

/**
 * The document paths of the agents (each under its own path, the default agent's also at the
 * root) and of the catalog (and of its MCP subset, when MCP entries are declared); `undefined` when one of them depends on the request.
 */
function hostPaths<Req>(
  agents: readonly Agent<Req>[],
  defaultAgent: Agent<Req> | undefined,
  catalog: CatalogRoute<Req> | undefined,
): readonly string[] | undefined {
  const own = (a: Agent<Req>) =>
    internalsOf(a.responder)
      ?.paths?.()
      .filter((p) => p.startsWith(WELL_KNOWN_PREFIX));
  const paths: string[] = [];
  for (const a of agents) {
    const found = own(a);
    if (found === undefined) return undefined;
    paths.push(...found.map((p) => `${a.path}${p}`));
  }
  if (defaultAgent !== undefined) paths.push(...own(defaultAgent)!);
  if (catalog !== undefined) {
    if (catalog.document === undefined) return undefined;
    paths.push(AI_CATALOG_PATH, ...(catalog.nested?.keys() ?? []));
    if (catalog.mcp !== undefined) paths.push(MCP_CATALOG_PATH);
    if (catalog.did !== undefined) paths.push(DID_DOCUMENT_PATH);
  }
  return paths;
}

/**
 * The agents, their routes and the catalog, replaced together by an agent's `update()`: the
 * agent is built again with the new card, the start-up checks run on the changed set of agents
 * and the catalog is built again; only when all of it passes does anything change.
 */
function createHost<Req>(
  options: AgentCardOptions<Req>,
  createSingle: CreateSingle<Req>,
  catalog: ResolvedCatalogOptions | false,
  agents: readonly Agent<Req>[],
  initialDefault: Agent<Req> | undefined,
  catalogRoute: CatalogRoute<Req> | undefined,
  discoveryLink: string | undefined,
): Host<Req> {
  // Where the `Link` headers point: the mount point when catalog.baseUrl names it.
  const base = catalog === false ? '' : (catalog.baseUrl ?? '');
  let current = agents;
  let defaultAgent = initialDefault;
  let currentCatalog = catalogRoute;
  // Every discovery document the host serves, named on every card answer.
  const links = [catalogRoute?.link, discoveryLink].filter((l) => l !== undefined).join(', ') || undefined;
  let routes = createRouter(current, defaultAgent, catalogRoute, base, links);
  let version = 0;
  return {
    respond: (request: AgentCardRequest<Req>) => routes.respond(request),
    variant: (request) => routes.variant(request),
    agent: (id) => current.find((c) => c.id === id)!,
    updateAgent(id, next, changes) {
      const index = current.findIndex((a) => a.id === id);
      const old = current[index]!;
      // A card function refuses update() with its own message, and a static card refuses what is
      // not an object (null, a function) as the card's validation does, before anything changes:
      // as the agent's card option, null would load agent-card.json and a function make it dynamic.
      if (old.card === undefined || typeof next !== 'object' || next === null)
        return old.responder.update(next as AgentCard, changes as never);
      let own: AgentOptions<Req> = { ...old.options, card: next as AgentCard };
      if (changes?.extendedCard !== undefined) {
        if (own.extended === undefined)
          throw new AgentCardError(
            'ERR_AGENT_CARD_OPTIONS',
            `update: extendedCard is given but agent "${id}" has no extended option. Give the agent extended: { authenticate } to serve an extended card.`,
          );
        own = { ...own, extended: { ...own.extended, card: changes.extendedCard as never } };
      }
      const problems: string[] = [];
      const findings: Finding[] = [];
      const agent = buildAgent(options, own, id, old.name, createSingle, problems, findings);
      if (agent === undefined) throw optionsError(problems, findings);
      const changed = current.map((a, i) => (i === index ? agent : a));
      checkCollisions(changed, problems);
      const changedDefault = defaultAgent === undefined ? undefined : changed.find((a) => a.id === defaultAgent!.id);
      const changedCatalog = catalog === false ? undefined : prepareCatalog(options, catalog, changed, problems);
      if (problems.length > 0) throw optionsError(problems, findings);
      const changedRoutes = createRouter(changed, changedDefault, changedCatalog, base, links);
      current = changed;
      defaultAgent = changedDefault;
      currentCatalog = changedCatalog;
      routes = changedRoutes;
      version++;
    },
    version: () => version,
    paths: () => hostPaths(current, defaultAgent, currentCatalog),
  };
}

/** Each agent's own responder for `agentResponderOf`: it answers and updates through the host. */
function agentHandles<Req>(host: Host<Req>, agents: readonly Agent<Req>[]): Map<string, AgentCardResponder<any>> {
  return new Map(
    agents.map((a) => {
      const handle: AgentCardResponder<Req> = {
        respond: (request: AgentCardRequest<Req>) => host.agent(a.id).responder.respond(request),
        update: (next: AgentCard, changes?: { extendedCard?: unknown }) => host.updateAgent(a.id, next, changes),
      };
      return [
        a.id,
        sealResponder(handle, {
          extended: (request) => internalsOf(host.agent(a.id).responder)!.extended!(request),
          variant: (request) => internalsOf(host.agent(a.id).responder)!.variant!(request),
        }),
      ];
    }),
  );
}

/**
 * Builds the responder for `agents`: one {@link createAgentCardResponder}-made responder per
 * agent, a router that finds the agent of a request with one Map lookup (the path before
 * `/.well-known/`, or the exact REST extended-card path), the default agent also at the root,
 * and the AI Catalog at `/.well-known/ai-catalog.json`. Each card response carries
 * `Link: <…/ai-catalog.json>; rel="ai-catalog"`.
 *
 * Every problem (an invalid card, a duplicate id, path or card URL, colliding extended paths,
 * `card` next to `agents`) is reported together in one `AgentCardError`, each line naming the
 * agent.
 */
export function createMultiAgentResponder<Req>(
  options: AgentCardOptions<Req>,
  createSingle: CreateSingle<Req>,
): AgentCardResponder<Req> {
  const problems: string[] = [];
  const findings: Finding[] = [];
  const list = checkHostOptions(options, problems);
  const catalog = checkCatalogOption(options.catalog, resolveProfile(options.profile), problems);
  const viewer = resolveViewerOption(options.viewer, problems);
  const ard = resolveArdOption(options.ard, true, problems);
  const taken = { ids: new Map<string, number>(), paths: new Map<string, string>() };
  const agents: Agent<Req>[] = [];
  list.forEach((raw, i) => {
    const entry = checkAgentEntry<Req>(raw, i, taken, problems);
    if (entry === undefined) return;
    const agent = buildAgent(options, entry.options, entry.id, entry.name, createSingle, problems, findings);
    if (agent !== undefined) agents.push(agent);
  });
  checkCollisions(agents, problems);
  const defaultAgent = findDefault(options.default, agents, problems);
  const catalogRoute = catalog === false ? undefined : prepareCatalog(options, catalog, agents, problems);
  if (problems.length > 0) throw optionsError(problems, findings);
  if (catalogRoute?.derivedPublisher !== undefined)
    (options.logger ?? console).warn(
      `agent card: options.catalog.publisher is not set, so the AI Catalog identifiers take the host name ${catalogRoute.derivedPublisher} (urn:air:${catalogRoute.derivedPublisher}:…) and change when it does. Set catalog.publisher to your domain, e.g. 'acme.com'.`,
    );

  const discoveryLink = ard ? ardLink(catalog === false ? undefined : catalog.baseUrl) : undefined;
  const host = createHost(options, createSingle, catalog, agents, defaultAgent, catalogRoute, discoveryLink);
  const router: AgentCardResponder<Req> = {
    respond: host.respond,
    update() {
      // Each agent's card is also in the AI Catalog, prepared once with every agent.
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        'update: the responder serves several agents (agents), so it has no single card to replace. Create the responder again with the changed agents.',
      );
    },
  };
  const handles = agentHandles(host, agents);
  const sealed = withArdRoute(
    sealResponder(router, {
      agents: handles,
      variant: host.variant,
      ...(host.paths() === undefined ? {} : { paths: () => host.paths() ?? [] }),
    }),
    ard ? hostArdRoute(options, catalog, agents, handles, host.version) : undefined,
  );
  if (viewer === undefined) return sealed;
  const base = catalog === false ? undefined : catalog.baseUrl;
  const links: PageLink[] = [];
  if (catalogRoute !== undefined)
    links.push({ rel: AI_CATALOG_LINK_REL, path: `${base ?? ''}${AI_CATALOG_PATH}`, type: AI_CATALOG_MEDIA_TYPE });
  if (ard) links.push(ardPageLink(base));
  return withViewer(sealed, viewerPages(viewer, agents, defaultAgent, catalogRoute !== undefined, links), {
    cacheControl: options.cacheControl ?? 'public, max-age=3600',
    maxVariants: (options.dynamic as DynamicCardOptions<Req> | undefined)?.maxVariants ?? 100,
  });
}

/**
 * The responder of one agent of a multi-agent responder, e.g. for
 * `getExtendedAgentCard(agentResponderOf(responder, 'billing'), request)` in that agent's
 * JSON-RPC handler, or `agentResponderOf(middleware, 'billing').update(card)`. Pass the
 * responder, or an adapter's middleware, plugin or handler (which carries its responder as
 * `responder`); an options object is a TypeError.
 * Its `update` goes through the multi-agent responder: the start-up checks run on every agent and
 * the card, the routes and the AI Catalog change together, or nothing does.
 * `undefined` when the responder serves no agent with that id.
 */
export function agentResponderOf<Req>(
  source: AgentCardResponder<Req> | { readonly responder: AgentCardResponder<Req> },
  id: string,
): AgentCardResponder<Req> | undefined {
  return internalsFrom(source, 'agentResponderOf').agents?.get(id);
}
