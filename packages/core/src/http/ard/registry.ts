// The read side of the ARD registry API (v0.91 draft, §5.3 and the OpenAPI document) over one
// host's agents: `GET {base}/agents` (pages of entries), `GET {base}/agents/{identifier}` and
// `POST {base}/search` (search.ts).
import type { ArdEntry } from '../../ard/format';
import type { HostAgentCard } from '../host/agent';
import { originOfCard } from '../host/origin';
import { isRegistryPath } from '../host/paths';
import { type CorsSetting, selectCors } from '../kernel/cors';
import {
  answerDocument,
  answerError,
  type ErrorResponseSet,
  type PreparedDocument,
  prepareDocument,
  prepareErrorResponses,
} from '../kernel/documents';
import { encodeJson } from '../kernel/encode';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import { LruCache } from '../kernel/lru';
import { AGENT_CARD_PATH } from '../kernel/paths';
import { type AgentCardResponder, internalsOf, sealResponder } from '../kernel/responder';
import { type AgentNaming, agentEntry, agentIdentifier } from './entries';
import { createPageSeal } from './page-token';
import { createSearchRoute, SEARCH_DEFAULTS, type SearchAgent, type SearchSettings } from './search';

/** Page size of `GET /agents` without `pageSize`, and the most it may ask for (draft §7.4). */
export const REGISTRY_PAGE_SIZE = { default: 20, max: 100 } as const;
/** Pages of one host kept prepared (each `pageSize` and token a page of its own). */
const MAX_PAGES = 64;
/** Longest query string read; a longer one is a 400. */
const MAX_QUERY = 512;
/** What a token of `GET /agents` is sealed for (a search token's scope is its query). */
const AGENTS_SCOPE = 'agents';

/** An agent of the registry: its id, where its card is served, and the card as validated. */
export type RegistryAgent = HostAgentCard;

export interface RegistrySettings {
  /** Where the API is mounted on the host, e.g. `/ard`. */
  readonly basePath: string;
  /** The absolute URL the agents' card URLs are built on; else each card's interface origin. */
  readonly baseUrl: string | undefined;
  readonly naming: AgentNaming | undefined;
  readonly cacheControl: string | false;
  readonly cors: CorsSetting;
  /** Bounds of `POST {basePath}/search`. @default {@link SEARCH_DEFAULTS} */
  readonly search?: SearchSettings;
}

export interface RegistryRoute<Req> {
  /** Whether `path` is one of the API's (so a cold tenant is loaded for it). */
  owns(path: string): boolean;
  respond(request: AgentCardRequest<Req>): AgentCardResponse | undefined | Promise<AgentCardResponse>;
}

/**
 * The registry read API over `agents` (sorted by id: the order of `GET /agents`, the same on
 * every replica). The entries are the ARD manifest's, built by the same functions from the same
 * validated cards. A page token is opaque: the offset sealed with a digest of this host's listing
 * (the same seal as search's), so a token of another tenant, or of the listing before a change,
 * is refused (400), never followed.
 */
export function createRegistryRoute<Req>(
  agents: readonly RegistryAgent[],
  settings: RegistrySettings,
): RegistryRoute<Req> {
  const sorted = [...agents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const entries: ArdEntry[] = [];
  const searched: SearchAgent[] = [];
  for (const a of sorted) {
    const base = settings.baseUrl ?? originOfCard(a.card);
    if (base === undefined) continue;
    const entry = agentEntry(
      a.card,
      agentIdentifier(a.id, base, undefined, settings.naming),
      `${base}${a.path}${AGENT_CARD_PATH}`,
    );
    entries.push(entry);
    searched.push({ entry, card: a.card, source: `${base}${settings.basePath}` });
  }
  // One digest of the listing, taken here, seals the tokens of both routes.
  const seal = createPageSeal(searched.map((a) => [a.entry, a.source]));
  const search = createSearchRoute(searched, {
    cors: settings.cors,
    search: settings.search ?? SEARCH_DEFAULTS,
    seal,
  });
  const doc = (value: unknown) =>
    prepareDocument(encodeJson(value), {
      served: { kind: 'ard-registry' },
      contentType: 'application/json',
      cacheControl: settings.cacheControl,
      cors: settings.cors,
    });
  const byIdentifier = new Map(entries.map((e) => [e.identifier, doc(e)]));
  const pages = new LruCache<string, PreparedDocument>(MAX_PAGES);
  const errors = (status: number, errorCode: string, message: string) =>
    prepareErrorResponses({
      served: { kind: 'ard-registry' },
      status,
      body: { errorCode, message },
      cors: settings.cors,
    });
  const badSize = errors(
    400,
    'INVALID_ARGUMENT',
    `pageSize must be a whole number from 1 to ${REGISTRY_PAGE_SIZE.max}.`,
  );
  const badToken = errors(
    400,
    'INVALID_ARGUMENT',
    'pageToken is not one this registry gave, or the listing changed since. Start again without pageToken.',
  );
  const badQuery = errors(
    400,
    'INVALID_ARGUMENT',
    'filter and orderBy are not supported; the agents are listed by id. Leave them out.',
  );
  const notFound = errors(404, 'NOT_FOUND', 'No agent with this identifier.');
  const notAllowed = errors(405, 'INVALID_ARGUMENT', 'Use GET or HEAD.');
  const fail = (set: ReturnType<typeof errors>, request: AgentCardRequest<Req>) =>
    answerError(selectCors(set, request.headers) as ErrorResponseSet, request.method);
  const list = `${settings.basePath}/agents`;
  const searchPath = `${settings.basePath}/search`;

  return {
    owns: (path) => isRegistryPath(settings.basePath, path),
    respond(request) {
      const path = request.path;
      if (!isRegistryPath(settings.basePath, path)) return undefined;
      const q = path.indexOf('?');
      const bare = q === -1 ? path : path.slice(0, q);
      if (bare === searchPath) return search(request);
      if (request.method === 'OPTIONS') return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') return fail(notAllowed, request);
      if (bare !== list) {
        if (!bare.startsWith(`${list}/`)) return undefined;
        let identifier: string;
        try {
          identifier = decodeURIComponent(bare.slice(list.length + 1));
        } catch {
          return fail(notFound, request);
        }
        const found = byIdentifier.get(identifier);
        return found === undefined ? fail(notFound, request) : answerDocument(found, request);
      }
      const query = q === -1 ? '' : path.slice(q + 1);
      if (query.length > MAX_QUERY) return fail(badQuery, request);
      const params = new URLSearchParams(query);
      if (params.has('filter') || params.has('orderBy')) return fail(badQuery, request);
      const sizeText = params.get('pageSize');
      const size = sizeText === null ? REGISTRY_PAGE_SIZE.default : Number(sizeText);
      if (!/^\d{1,3}$/.test(sizeText ?? '1') || !Number.isInteger(size) || size < 1 || size > REGISTRY_PAGE_SIZE.max)
        return fail(badSize, request);
      const token = params.get('pageToken') ?? '';
      // A page is kept under the token that asked for it, once checked: a page walked again is
      // found without sealing anything.
      const key = `${size}:${token}`;
      let page = pages.get(key);
      if (page === undefined) {
        const offset = token === '' ? 0 : seal.offsetOf(AGENTS_SCOPE, token, entries.length);
        if (offset === undefined) return fail(badToken, request);
        const next = offset + size;
        page = doc({
          items: entries.slice(offset, next),
          total: entries.length,
          ...(next < entries.length ? { pageToken: seal.tokenOf(AGENTS_SCOPE, next) } : {}),
        });
        pages.set(key, page);
      }
      return answerDocument(page, request);
    },
  };
}

/** Serves the registry API in front of `responder`. */
export function withRegistryRoute<Req>(
  responder: AgentCardResponder<Req>,
  route: RegistryRoute<Req> | undefined,
): AgentCardResponder<Req> {
  if (route === undefined) return responder;
  const inner = responder.respond;
  return sealResponder(
    { respond: (request) => route.respond(request) ?? inner(request), update: responder.update },
    internalsOf(responder)!,
  );
}
