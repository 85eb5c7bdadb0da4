// The AI Catalog of a multi-agent host: the `catalog` option checked, and the catalog document
// built from the agents' cards (once for static cards, once per combination of variants otherwise).
import {
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  type AiCatalogEntry,
  toAgentEntry,
  toAiCatalog,
} from '../../catalog/format';
import { validateAiCatalog } from '../../catalog/validate';
import type { AgentCard } from '../../model';
import { unknownOption } from '../../nearest';
import { showValue } from '../../util';
import { classifyHost, parseAbsoluteUrl, redactUrl } from '../../validate/urls';
import { resolveTrustProxy } from '../dynamic/trust';
import { requestOrigin } from '../dynamic/origin';
import type { DynamicCardOptions } from '../dynamic/types';
import { type CorsVariants, selectCors } from '../kernel/cors';
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
import { resolveCardSettings } from '../kernel/options';
import { AGENT_CARD_PATH } from '../kernel/paths';
import { reporter } from '../kernel/problems';
import type { AgentCardOptions } from '../types';
import type { Agent } from './options';
import type { AiCatalogServeOptions } from './types';

const CATALOG_KEYS = new Set(['host', 'baseUrl', 'entries', 'metadata']);

const show = showValue;

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
export function checkCatalogOption(
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

/** How the catalog is answered: one prepared document, or a builder per request variant. */
export type CatalogRoute<Req> =
  | { readonly link: string; readonly document: PreparedDocument; readonly build?: undefined }
  | {
      readonly link: string;
      readonly document?: undefined;
      build(request: AgentCardRequest<Req>): Promise<AgentCardResponse>;
    };

export function prepareCatalog<Req>(
  options: AgentCardOptions<Req>,
  catalog: AiCatalogServeOptions & { baseUrl?: string },
  agents: readonly Agent<Req>[],
  problems: string[],
): CatalogRoute<Req> | undefined {
  const reported: string[] = [];
  const shared = resolveCardSettings(
    { cors: options.cors, cacheControl: options.cacheControl },
    reporter(reported),
    reported,
  );
  const dynamic = options.dynamic as DynamicCardOptions<Req> | undefined;
  const trusted = resolveTrustProxy(dynamic?.trustProxy);
  // The agents report a bad option already.
  if (reported.length > 0 || trusted.problems.length > 0) return undefined;
  const served = { kind: 'catalog' };
  const settings = { served, contentType: AI_CATALOG_MEDIA_TYPE, cacheControl: shared.cacheControl, cors: shared.cors };
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
  const cache = new LruCache<string, PreparedDocument>(dynamic?.maxVariants ?? 100);
  const unavailable: CorsVariants<ErrorResponseSet> = prepareErrorResponses({
    served,
    status: 503,
    body: {
      error: { code: 503, status: 'UNAVAILABLE', message: 'The AI catalog is temporarily unavailable. Retry later.' },
    },
    headers: { 'retry-after': String(dynamic?.retryAfter ?? 30) },
    cors: shared.cors,
  });
  const trustProxy = trusted.trust;
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
