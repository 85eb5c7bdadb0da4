import { showValue, unknownOption } from '../nearest';
import {
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  type AiCatalogEntry,
  type AiCatalogHost,
  toAgentEntry,
  toAiCatalog,
} from '../catalog/format';
import { validateAiCatalog } from '../catalog/validate';
import { AgentCardError } from '../errors';
import type { Finding } from '../findings';
import type { AgentCard } from '../model';
import { classifyHost, parseAbsoluteUrl, redactUrl } from '../validate/urls';
import { resolveProfile } from '../validate/validate';
import {
  answerDocument,
  answerError,
  type CorsVariants,
  type ErrorResponseSet,
  type PreparedDocument,
  prepareDocument,
  prepareErrorResponses,
  selectCors,
} from './documents';
import { encodeJson } from './encode';
import { internals, responders } from './internals';
import { LruCache } from './lru';
import { resolveOptions } from './options';
import { requestOrigin } from './origin';
import {
  AGENT_CARD_PATH,
  comparablePath,
  EXTENDED_AGENT_CARD_SUFFIX,
  extendedPathsOf,
  WELL_KNOWN_PREFIX,
} from './paths';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponder, AgentCardResponse } from './types';
import { CANONICAL_LINK } from './variant';
import {
  cardPage,
  catalogPage,
  type ResolvedViewerOptions,
  resolveViewerOption,
  VIEWER_PATH,
  type ViewerPage,
  withViewer,
} from './viewer';

/**
 * One agent of a multi-agent responder: its own card and card options, served under `path`.
 * Options it leaves out are taken from the top level (except `extended`, which is per agent).
 */
export interface AgentOptions<Req = unknown>
  extends Omit<AgentCardOptions<Req>, 'agents' | 'default' | 'catalog' | 'card' | 'viewer'> {
  /** Stable id: letters, digits, `.`, `_`, `-` (e.g. `billing`). Names the agent in errors and logs. */
  id: string;
  /**
   * Where the agent lives, relative to the mount point: its card is served at
   * `{path}/.well-known/agent-card.json`. Starts with `/`, no trailing slash, no query.
   * @example '/agents/billing'
   */
  path: string;
  /** The card, or a function of the request that returns it (a dynamic card). */
  card: NonNullable<AgentCardOptions<Req>['card']>;
  /**
   * The agent's catalog entry: members that replace what the card gives (`identifier`,
   * `displayName`, `description`, `tags`, `version`, `publisher`, `metadata`…), or `false` to
   * leave the agent out of the catalog.
   * @default identifier `urn:agent-card:{host}:{id}`, the rest from the card
   */
  catalogEntry?: Partial<Omit<AiCatalogEntry, 'url' | 'data' | 'mediaType'>> | false;
}

/** The AI Catalog a multi-agent responder serves at `/.well-known/ai-catalog.json`. */
export interface AiCatalogServeOptions {
  /** Who runs the catalog (draft §"Host Info"). */
  host?: AiCatalogHost;
  /**
   * Absolute URL of the mount point (e.g. `https://api.acme.com` or `https://acme.com/api`): the
   * entry URLs and the `Link` header are built on it. Set it when the middleware is mounted
   * under a base path or the cards' interfaces live on another host.
   * @default each static card's first interface origin; the request origin for a dynamic card
   */
  baseUrl?: string;
  /** More entries: agents hosted elsewhere, nested catalogs (`mediaType: application/ai-catalog+json`). */
  entries?: readonly AiCatalogEntry[];
  /** Catalog-level `metadata`. */
  metadata?: Record<string, unknown>;
}

/** What an agent becomes once its options are checked. */
interface Agent<Req> {
  readonly id: string;
  /** `options.agents[i] (agent "id")`: how errors name it. */
  readonly name: string;
  readonly path: string;
  /** Its options as they stand (the card and extended card of the last accepted update). */
  readonly options: AgentOptions<Req>;
  readonly responder: AgentCardResponder<Req>;
  /** Static card (undefined for a card function). */
  readonly card: AgentCard | undefined;
  readonly entry: AgentOptions<Req>['catalogEntry'];
  /** REST extended-card paths known at start-up (static cards). */
  readonly extendedPaths: readonly string[];
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** RFC 3986 path characters, no empty, `.` or `..` segment, no percent-encoding surprises. */
const AGENT_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;
/** Options that only a card function accepts: inherited only by agents with one. */
const DYNAMIC_ONLY = [
  'cacheKey',
  'tenant',
  'allowedTenants',
  'variantMaxAge',
  'staleIfError',
  'allowedOrigins',
  'maxConcurrentBuilds',
] as const;
const MULTI_KEYS = ['agents', 'default', 'catalog', 'viewer'] as const;
const CATALOG_KEYS = new Set(['host', 'baseUrl', 'entries', 'metadata']);

const internalAgents = new WeakMap<object, ReadonlyMap<string, AgentCardResponder<any>>>();

const show = showValue;

/** Merges the top-level options into one agent's (the agent's own win). */
function agentOptions<Req>(top: AgentCardOptions<Req>, agent: AgentOptions<Req>, id: string): AgentCardOptions<Req> {
  const {
    id: _id,
    path: _path,
    catalogEntry: _entry,
    viewer: _viewer,
    ...own
  } = agent as AgentOptions<Req> & {
    viewer?: unknown;
  };
  const shared: Record<string, unknown> = { ...top };
  for (const key of MULTI_KEYS) delete shared[key];
  // An extended card is per agent: a top-level one would hand one agent's extras to the others.
  delete shared.extended;
  if (typeof agent.card !== 'function') for (const key of DYNAMIC_ONLY) delete shared[key];
  const merged = { ...shared, ...own } as AgentCardOptions<Req>;
  const logger = merged.logger ?? console;
  // Warnings name the agent they are about.
  merged.logger = { warn: (message: string) => logger.warn(`agent "${id}": ${message}`) };
  return merged;
}

/** The REST extended-card paths a static card answers (mirrors `createExtendedEndpoint`). */
function staticExtendedPaths(
  card: AgentCard,
  extended: { path?: string | readonly string[] | false } | undefined,
): string[] {
  const declared = card.capabilities?.extendedAgentCard === true;
  const explicit = extended?.path;
  if ((!declared && extended === undefined) || explicit === false) return [];
  if (explicit !== undefined) {
    const list: readonly string[] = typeof explicit === 'string' ? [explicit] : explicit;
    return list.map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p));
  }
  return extendedPathsOf(Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []);
}

function originOfCard(card: AgentCard | undefined): string | undefined {
  const url = card?.supportedInterfaces?.[0]?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function hostnameOf(base: string): string {
  try {
    return new URL(base).hostname;
  } catch {
    return 'localhost';
  }
}

/** Builds one agent's catalog entry on `base` (no trailing slash). */
function entryOf(agent: Agent<unknown>, card: AgentCard, base: string): AiCatalogEntry {
  const overrides = agent.entry === false ? undefined : agent.entry;
  return toAgentEntry({
    identifier: overrides?.identifier ?? `urn:agent-card:${hostnameOf(base)}:${agent.id}`,
    url: `${base}${agent.path}${AGENT_CARD_PATH}`,
    card,
    overrides,
  });
}

/**
 * The card's URL rules for the URLs the catalog publishes (its host's, each entry's, and those of
 * inline nested catalogs): credentials are refused in every profile; in `production` and
 * `strict` only http(s) URLs on hosts other machines reach (not loopback, not link-local).
 */
function checkPublishedUrls(catalog: unknown, at: string, profile: string, problems: string[], depth = 1): void {
  if (typeof catalog !== 'object' || catalog === null) return;
  const check = (value: unknown, where: string) => {
    if (typeof value !== 'string') return;
    const url = parseAbsoluteUrl(value);
    if (url === undefined) return; // the draft check reports it
    const shown = redactUrl(value);
    if (url.username !== '' || url.password !== '')
      problems.push(
        `${where}: carries credentials in the URL userinfo (${show(shown)}). Remove "user:password@"; the catalog is public.`,
      );
    if (profile === 'development') return;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      problems.push(
        `${where}: uses the ${url.protocol.slice(0, -1)} scheme; catalog readers follow http(s) URLs only (${show(shown)}). Use an https:// URL.`,
      );
      return;
    }
    const host = classifyHost(url.hostname);
    if (host.kind === 'loopback')
      problems.push(
        `${where}: host is ${host.reason}, which other machines cannot reach (${show(url.hostname)}). Use the public host name of the agent.`,
      );
    else if (host.reason.includes('link-local'))
      problems.push(
        `${where}: host is ${host.reason}, which no client outside the machine's link reaches (${show(url.hostname)}). Use the public host name of the agent.`,
      );
  };
  const c = catalog as { host?: Record<string, unknown>; entries?: unknown };
  if (typeof c.host === 'object' && c.host !== null)
    for (const key of ['documentationUrl', 'logoUrl']) check(c.host[key], `${at}.host.${key}`);
  if (!Array.isArray(c.entries)) return;
  c.entries.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) return;
    const e = entry as { url?: unknown; data?: unknown; mediaType?: unknown };
    check(e.url, `${at}.entries[${i}].url`);
    if (e.mediaType === AI_CATALOG_MEDIA_TYPE && depth < AI_CATALOG_MAX_DEPTH)
      checkPublishedUrls(e.data, `${at}.entries[${i}].data`, profile, problems, depth + 1);
  });
}

/** Checks the `catalog` option; returns it normalised. */
function checkCatalogOption(
  catalog: unknown,
  profile: string,
  problems: string[],
): (AiCatalogServeOptions & { baseUrl?: string }) | false {
  if (catalog === undefined) return {};
  if (catalog === false) return false;
  const err = (where: string, what: string, value: unknown, fix: string) =>
    problems.push(`options.catalog${where}: ${what} (${show(value)}). ${fix}`);
  if (typeof catalog !== 'object' || catalog === null || Array.isArray(catalog)) {
    err('', 'must be an object or false', catalog, 'Pass { host: { displayName } }, or false to serve no catalog.');
    return false;
  }
  const c = catalog as AiCatalogServeOptions & Record<string, unknown>;
  for (const key of Object.keys(c))
    if (!CATALOG_KEYS.has(key))
      problems.push(unknownOption(`options.catalog.${key}`, key, CATALOG_KEYS, 'the catalog option'));
  let baseUrl: string | undefined;
  if (c.baseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof c.baseUrl === 'string' ? new URL(c.baseUrl) : undefined;
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.search ||
      url.hash ||
      url.username
    )
      err(
        '.baseUrl',
        'must be an absolute http(s) URL without query, fragment or credentials',
        c.baseUrl,
        "Use e.g. 'https://api.example.com'.",
      );
    else baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  checkPublishedUrls(c, 'options.catalog', profile, problems);
  // The document the options describe, with the agents left out, must already be a valid catalog.
  const draft = {
    specVersion: '1.0',
    ...(c.host === undefined ? {} : { host: c.host }),
    entries: c.entries ?? [],
    ...(c.metadata === undefined ? {} : { metadata: c.metadata }),
  };
  for (const f of validateAiCatalog(draft).findings)
    if (f.severity === 'error') problems.push(`options.${f.message.replace(/^catalog/, 'catalog')} ${f.hint}`);
  return { ...c, baseUrl };
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
  createSingle: (options: AgentCardOptions<Req>) => AgentCardResponder<Req>,
): AgentCardResponder<Req> {
  const problems: string[] = [];
  const findings: Finding[] = [];
  const list = options.agents as unknown;
  if (options.card !== undefined)
    problems.push(
      'options.card: cannot be used together with options.agents (set). Move the card into one agent, e.g. agents: [{ id, path, card }], and make it the default.',
    );
  if (options.extended !== undefined)
    problems.push(
      'options.extended: is per agent when options.agents is set (set). Move it into the agent whose card it extends.',
    );
  if (!Array.isArray(list) || list.length === 0) {
    problems.push(
      `options.agents: must be a non-empty array of { id, path, card } (${show(list)}). List at least one agent.`,
    );
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `Invalid agent card options:\n  - ${problems.join('\n  - ')}`);
  }
  const catalog = checkCatalogOption(options.catalog, resolveProfile(options.profile), problems);
  const viewer = resolveViewerOption(options.viewer, problems);

  const agents: Agent<Req>[] = [];
  const ids = new Map<string, number>();
  const paths = new Map<string, string>();
  list.forEach((raw: unknown, i) => {
    const at = `options.agents[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${at}: must be an object (${show(raw)}). Use { id, path, card }.`);
      return;
    }
    const a = raw as AgentOptions<Req>;
    const id = typeof a.id === 'string' && AGENT_ID.test(a.id) ? a.id : undefined;
    if (id === undefined) {
      problems.push(`${at}.id: must be 1-64 letters, digits, '.', '_' or '-' (${show(a.id)}). Use e.g. 'billing'.`);
      return;
    }
    const name = `${at} (agent "${id}")`;
    if ((a as { viewer?: unknown }).viewer !== undefined)
      problems.push(
        `${name}.viewer: is set for the whole host, not per agent (${show((a as { viewer?: unknown }).viewer)}). Move viewer to the top-level options; every agent then has its page at {path}${VIEWER_PATH}.`,
      );
    const firstWithId = ids.get(id);
    if (firstWithId !== undefined) {
      problems.push(`${name}.id: repeats options.agents[${firstWithId}] (${show(id)}). Give each agent its own id.`);
      return;
    }
    ids.set(id, i);
    if (typeof a.path !== 'string' || !AGENT_PATH.test(a.path) || a.path.includes(WELL_KNOWN_PREFIX.slice(0, -1))) {
      problems.push(
        `${name}.path: must start with '/', have no trailing slash, query, empty or dot segment, and no /.well-known (${show(a.path)}). Use e.g. '/agents/${id}'.`,
      );
      return;
    }
    const samePath = paths.get(a.path);
    if (samePath !== undefined) {
      problems.push(
        `${name}.path: is also the path of agent "${samePath}" (${show(a.path)}). Give each agent its own path.`,
      );
      return;
    }
    paths.set(a.path, id);
    if (a.card === undefined || a.card === null) {
      problems.push(`${name}.card: is required (${show(a.card)}). Pass the agent's card, or (ctx) => card.`);
      return;
    }
    if (
      a.catalogEntry !== undefined &&
      a.catalogEntry !== false &&
      (typeof a.catalogEntry !== 'object' || a.catalogEntry === null)
    )
      problems.push(
        `${name}.catalogEntry: must be an object of entry members or false (${show(a.catalogEntry)}). Use e.g. { displayName: 'Billing' }.`,
      );

    const agent = buildAgent(options, a, id, name, createSingle, problems, findings);
    if (agent !== undefined) agents.push(agent);
  });
  checkCollisions(agents, problems);

  const defaultId = options.default;
  let defaultAgent: Agent<Req> | undefined;
  if (defaultId !== undefined) {
    defaultAgent = agents.find((a) => a.id === defaultId);
    if (defaultAgent === undefined && !problems.some((p) => p.includes(`agent "${String(defaultId)}"`)))
      problems.push(
        `options.default: names no agent (${show(defaultId)}). Use one of the agent ids: ${agents.map((a) => a.id).join(', ')}.`,
      );
  }

  const catalogDoc = catalog === false ? undefined : prepareCatalog(options, catalog, agents, problems);
  if (problems.length > 0) throw optionsError(problems, findings);

  // Where the `Link` headers point: the mount point when catalog.baseUrl names it.
  const base = catalog === false ? '' : (catalog.baseUrl ?? '');
  let current = agents;
  let routes = createRouter(current, defaultAgent, catalogDoc, base);

  /**
   * One agent's `update()`: the agent is built again with the new card, the start-up checks run
   * on the changed set of agents and the catalog is built again; only when all of it passes do
   * the routes, the catalog and the agent's card change, together.
   */
  const updateAgent = (id: string, next: unknown, changes: { extendedCard?: unknown } | undefined) => {
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
    const changedRoutes = createRouter(changed, changedDefault, changedCatalog, base);
    current = changed;
    defaultAgent = changedDefault;
    routes = changedRoutes;
  };

  const router: AgentCardResponder<Req> = Object.freeze({
    respond: (request: AgentCardRequest<Req>) => routes.respond(request),
    update() {
      // Each agent's card is also in the AI Catalog, prepared once with every agent.
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        'update: the responder serves several agents (agents), so it has no single card to replace. Create the responder again with the changed agents.',
      );
    },
  });
  const responder =
    viewer === undefined
      ? router
      : withViewer(router, viewerPages(viewer, agents, defaultAgent, catalogDoc !== undefined), {
          cacheControl: options.cacheControl ?? 'public, max-age=3600',
          maxVariants: options.maxVariants ?? 100,
        });
  internalAgents.set(
    responder,
    new Map(
      agents.map((a) => {
        const agentNow = () => current.find((c) => c.id === a.id)!;
        const handle: AgentCardResponder<Req> = Object.freeze({
          respond: (request: AgentCardRequest<Req>) => agentNow().responder.respond(request),
          update: (next: AgentCard, changes?: { extendedCard?: unknown }) => updateAgent(a.id, next, changes),
        });
        internals.set(handle, { extended: (request) => internals.get(agentNow().responder)!.extended(request) });
        return [a.id, handle];
      }),
    ),
  );
  return responder;
}

/** The one error of a start-up (or update) check, with every problem in it. */
function optionsError(problems: readonly string[], findings: Finding[]): AgentCardError {
  const code =
    findings.length > 0 && problems.every((p) => p.includes('validation error'))
      ? 'ERR_AGENT_CARD_INVALID'
      : 'ERR_AGENT_CARD_OPTIONS';
  return new AgentCardError(code, `Invalid agent card options:\n  - ${problems.join('\n  - ')}`, { findings });
}

/** Builds one agent's responder; its problems (each line naming the agent) go to `problems`. */
function buildAgent<Req>(
  options: AgentCardOptions<Req>,
  a: AgentOptions<Req>,
  id: string,
  name: string,
  createSingle: (options: AgentCardOptions<Req>) => AgentCardResponder<Req>,
  problems: string[],
  findings: Finding[],
): Agent<Req> | undefined {
  let responder: AgentCardResponder<Req>;
  try {
    responder = createSingle(agentOptions(options, a, id));
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

/** Two agents with one extended card path or one interface URL: the first one keeps it. */
function checkCollisions<Req>(agents: readonly Agent<Req>[], problems: string[]): void {
  const extendedOwners = new Map<string, string>();
  const interfaceOwners = new Map<string, string>();
  for (const { id, name, card, extendedPaths } of agents) {
    for (const p of extendedPaths) {
      const owner = extendedOwners.get(p);
      if (owner !== undefined)
        problems.push(
          `${name}.extended: its extended card path is also agent "${owner}"'s (${show(p)}). Give the agents distinct HTTP+JSON interface URLs, or set extended.path.`,
        );
      else extendedOwners.set(p, id);
    }
    for (const intf of card?.supportedInterfaces ?? []) {
      const owner = interfaceOwners.get(intf.url);
      if (owner !== undefined && owner !== id)
        problems.push(
          `${name}.card.supportedInterfaces: its interface URL is also agent "${owner}"'s (${show(intf.url)}). Give each agent its own endpoint URL, e.g. under its path.`,
        );
      else interfaceOwners.set(intf.url, id);
    }
  }
}

/** Each agent's page, the default agent's at the root, and the host's page listing the catalog. */
function viewerPages<Req>(
  viewer: ResolvedViewerOptions,
  agents: readonly Agent<Req>[],
  defaultAgent: Agent<Req> | undefined,
  catalogServed: boolean,
): ViewerPage[] {
  const linked = agents.map((a) => ({
    path: a.path,
    cardPath: `${a.path}${AGENT_CARD_PATH}`,
    pagePath: `${a.path}${viewer.path}`,
    listed: a.entry !== false,
  }));
  const pages = linked.map((a) => cardPage(a.pagePath, a.cardPath));
  if (defaultAgent !== undefined) pages.push(cardPage(viewer.path, AGENT_CARD_PATH));
  if (catalogServed)
    pages.push(
      catalogPage(
        viewer.catalogPath,
        AI_CATALOG_PATH,
        linked.filter((a) => a.listed),
      ),
    );
  return pages;
}

/** How the catalog is answered: one prepared document, or a builder per request variant. */
type CatalogRoute<Req> =
  | { readonly link: string; readonly document: PreparedDocument; readonly build?: undefined }
  | {
      readonly link: string;
      readonly document?: undefined;
      build(request: AgentCardRequest<Req>): Promise<AgentCardResponse>;
    };

function prepareCatalog<Req>(
  options: AgentCardOptions<Req>,
  catalog: AiCatalogServeOptions & { baseUrl?: string },
  agents: readonly Agent<Req>[],
  problems: string[],
): CatalogRoute<Req> | undefined {
  let shared: ReturnType<typeof resolveOptions>;
  try {
    shared = resolveOptions({ cors: options.cors, cacheControl: options.cacheControl, trustProxy: options.trustProxy });
  } catch {
    return undefined; // the agents report the bad option already
  }
  const settings = { contentType: AI_CATALOG_MEDIA_TYPE, cacheControl: shared.cacheControl, cors: shared.cors };
  const listed = agents.filter((a) => a.entry !== false);
  const link = `<${catalog.baseUrl ?? ''}${AI_CATALOG_PATH}>; rel="${AI_CATALOG_LINK_REL}"`;
  const assemble = (entries: AiCatalogEntry[]) =>
    toAiCatalog({ host: catalog.host, entries: [...entries, ...(catalog.entries ?? [])], metadata: catalog.metadata });
  const checkUrls = (entries: readonly AiCatalogEntry[]) => {
    const seen = new Map<string, string>();
    for (const e of entries) {
      const other = e.url === undefined ? undefined : seen.get(e.url);
      if (other !== undefined)
        problems.push(
          `options.catalog: entries "${other}" and "${e.identifier}" have the same card URL (${show(e.url)}). Give each agent its own path.`,
        );
      else if (e.url !== undefined) seen.set(e.url, e.identifier);
    }
  };

  if (listed.every((a) => a.card !== undefined)) {
    const entries: AiCatalogEntry[] = [];
    for (const a of listed) {
      const base = catalog.baseUrl ?? originOfCard(a.card);
      if (base === undefined) {
        problems.push(
          `options.agents (agent "${a.id}"): its catalog entry needs an absolute URL, and the card has no interface URL to take the origin from (none). Set catalog.baseUrl.`,
        );
        continue;
      }
      entries.push(entryOf(a as Agent<unknown>, a.card!, base));
    }
    const doc = assemble(entries);
    checkUrls(doc.entries);
    for (const f of validateAiCatalog(doc, { profile: 'development' }).findings)
      if (f.severity === 'error')
        problems.push(`options.catalog: the catalog built from the agents is invalid: ${f.message} ${f.hint}`);
    return { link, document: prepareDocument(encodeJson(doc), settings) };
  }

  // A dynamic card: one catalog per combination of the agents' card variants (and origin),
  // built the first time it is asked for and kept like a card variant.
  const cache = new LruCache<string, PreparedDocument>(options.maxVariants ?? 100);
  const unavailable: CorsVariants<ErrorResponseSet> = prepareErrorResponses({
    status: 503,
    body: {
      error: { code: 503, status: 'UNAVAILABLE', message: 'The AI catalog is temporarily unavailable. Retry later.' },
    },
    headers: { 'retry-after': String(options.retryAfter ?? 30) },
    cors: shared.cors,
  });
  const trustProxy = shared.trustProxy;
  return {
    link,
    async build(request) {
      const fail = () => answerError(selectCors(unavailable, request.headers), request.method);
      const origin = catalog.baseUrl ?? requestOrigin(request, trustProxy);
      if (origin === undefined) return fail();
      // Each agent's own card for this request, without the catalog's conditional header.
      const headers = { ...request.headers, 'if-none-match': undefined };
      const cardRequest: AgentCardRequest<Req> = { ...request, method: 'GET', path: AGENT_CARD_PATH, headers };
      const answers = await Promise.all(listed.map((a) => a.responder.respond(cardRequest)));
      let key = origin;
      for (const res of answers) {
        if (res === undefined || res.body === undefined) return fail();
        // A card the agent refuses for this request (unknown host: 400/421, provider down: 503)
        // is the catalog's answer too, so the catalog never lists a card that is not served.
        if (res.status !== 200) return request.method === 'HEAD' ? { status: res.status, headers: res.headers } : res;
        key += `\n${res.headers.etag}`;
      }
      let doc = cache.get(key);
      if (doc === undefined) {
        const decoder = new TextDecoder();
        const entries = listed.map((a, i) =>
          entryOf(
            a as Agent<unknown>,
            JSON.parse(decoder.decode(answers[i]!.body)) as AgentCard,
            // A static card keeps the origin of its own interfaces; a dynamic one has the request's.
            catalog.baseUrl ?? (a.card === undefined ? origin : (originOfCard(a.card) ?? origin)),
          ),
        );
        doc = prepareDocument(encodeJson(assemble(entries)), settings);
        cache.set(key, doc);
      }
      return answerDocument(doc, request);
    },
  };
}

/**
 * Frozen copies of card responses with the `Link` header they need, made once per response
 * object: the catalog link added, and the legacy alias's canonical link replaced by `canonical`
 * (an agent's alias names its own card, not the root one).
 */
function createLinker(
  canonical: string | undefined,
  catalogLink: string | undefined,
): (res: AgentCardResponse) => AgentCardResponse {
  if (canonical === undefined && catalogLink === undefined) return (res) => res;
  const linked = new WeakMap<AgentCardResponse, AgentCardResponse>();
  return (res) => {
    const found = linked.get(res);
    if (found !== undefined) return found;
    let link = res.headers.link;
    if (canonical !== undefined && link === CANONICAL_LINK) link = canonical;
    if (catalogLink !== undefined) link = link ? `${link}, ${catalogLink}` : catalogLink;
    if (link === undefined || link === res.headers.link) return res;
    const headers = Object.freeze({ ...res.headers, link });
    const out = Object.freeze(
      res.body === undefined ? { status: res.status, headers } : { status: res.status, headers, body: res.body },
    );
    // Prebuilt answers are frozen and shared: the copy is made once and then shared too.
    if (Object.isFrozen(res)) linked.set(res, out);
    return out;
  };
}

/** The canonical `Link` of the legacy alias of the card at `path` (the root card: `''`). */
function canonicalLink(base: string, path: string): string | undefined {
  return base === '' && path === '' ? undefined : `<${base}${path}${AGENT_CARD_PATH}>; rel="canonical"`;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/** Finds the agent of a request and answers with it (or with the catalog). */
function createRouter<Req>(
  agents: readonly Agent<Req>[],
  defaultAgent: Agent<Req> | undefined,
  catalog: CatalogRoute<Req> | undefined,
  base: string,
): Pick<AgentCardResponder<Req>, 'respond'> {
  const byPath = new Map<string, Agent<Req>>(agents.map((a) => [a.path, a]));
  const byExtendedPath = new Map<string, Agent<Req>>();
  for (const a of agents) for (const p of a.extendedPaths) byExtendedPath.set(p, a);
  // Agents whose extended paths are only known per variant (card functions) are found by prefix.
  const dynamicExtended = agents.some((a) => a.card === undefined);
  const linkers = new Map(agents.map((a) => [a, createLinker(canonicalLink(base, a.path), catalog?.link)]));
  const rootLinker = createLinker(canonicalLink(base, ''), catalog?.link);
  const linked = (
    link: (res: AgentCardResponse) => AgentCardResponse,
    res: AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>,
  ): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> => {
    if (res === undefined) return undefined;
    if (isPromise(res)) return res.then((r) => (r === undefined ? undefined : link(r)));
    return link(res);
  };

  const extendedAgent = (path: string): Agent<Req> | undefined => {
    const p = comparablePath(path);
    const exact = byExtendedPath.get(p);
    if (exact !== undefined || !dynamicExtended || !p.endsWith(EXTENDED_AGENT_CARD_SUFFIX)) return exact;
    // One Map lookup per path segment (not per agent): the longest agent path that prefixes it.
    for (let slash = p.lastIndexOf('/'); slash > 0; slash = p.lastIndexOf('/', slash - 1)) {
      const a = byPath.get(p.slice(0, slash));
      if (a !== undefined) return a.card === undefined ? a : undefined;
    }
    return undefined;
  };

  const responder: Pick<AgentCardResponder<Req>, 'respond'> = {
    respond(request) {
      const path = request.path;
      const wk = path.indexOf(WELL_KNOWN_PREFIX);
      if (wk === -1) {
        // The app's own routes leave here, after at most one Map lookup.
        if (byExtendedPath.size === 0 && !dynamicExtended) return undefined;
        const a = extendedAgent(path);
        return a === undefined ? undefined : a.responder.respond(request);
      }
      if (wk === 0) {
        if (catalog !== undefined && (path === AI_CATALOG_PATH || comparablePath(path) === AI_CATALOG_PATH)) {
          return catalog.document !== undefined ? answerDocument(catalog.document, request) : catalog.build(request);
        }
        return defaultAgent === undefined ? undefined : linked(rootLinker, defaultAgent.responder.respond(request));
      }
      const a = byPath.get(path.slice(0, wk));
      if (a === undefined) return undefined;
      return linked(linkers.get(a)!, a.responder.respond({ ...request, path: path.slice(wk) }));
    },
  };
  return responder;
}

/**
 * The responder of one agent of a multi-agent responder, e.g. for
 * `getExtendedAgentCard(agentResponderOf(responder, 'billing'), request)` in that agent's
 * JSON-RPC handler, or `agentResponderOf(options, 'billing').update(card)`. Pass the responder, or
 * the options object an adapter was built with (the responder built last from it answers).
 * Its `update` goes through the multi-agent responder: the start-up checks run on every agent and
 * the card, the routes and the AI Catalog change together, or nothing does.
 * `undefined` when there is no such responder or it has no agent with that id.
 */
export function agentResponderOf<Req>(
  source: AgentCardResponder<Req> | AgentCardOptions<Req>,
  id: string,
): AgentCardResponder<Req> | undefined {
  const agents = internalAgents.get(source) ?? internalAgents.get(responders.get(source) ?? {});
  return agents?.get(id);
}
