import { AgentCardError } from '../errors';
import { showValue, unknownOption } from '../nearest';
import { renderAgentCardPage } from '../view/card';
import { renderAiCatalogPage } from '../view/catalog';
import { VIEWER_CONTENT_SECURITY_POLICY } from '../view/document';
import { answerDocument, type PreparedDocument, prepareDocument } from './documents';
import { LruCache } from './lru';
import { WELL_KNOWN_PREFIX } from './paths';
import type { AgentCardRequest, AgentCardResponder, AgentCardResponse } from './types';

/**
 * Where a card's page is served unless `viewer.path` says otherwise: next to the card, under
 * `/.well-known/`, so the app's own routes still leave the responder after its one prefix check,
 * and a page links its card with the relative reference `agent-card.json` (which survives a mount
 * path). An agent of a multi-agent host has its page at `{agent path}/.well-known/agent-card.html`.
 */
export const VIEWER_PATH = '/.well-known/agent-card.html';

/** Where a multi-agent host's page (every agent, from the AI Catalog) is served by default. */
export const CATALOG_VIEWER_PATH = '/.well-known/ai-catalog.html';

/** The `viewer` option: `true` for the default paths, or where to serve the pages. */
export interface AgentCardViewerOptions {
  /**
   * The card's page. For a multi-agent host, each agent's page is at `{agent path}{path}` and the
   * default agent's at `path`.
   * @default '/.well-known/agent-card.html'
   */
  path?: string;
  /**
   * The host's page listing every agent of the AI Catalog (multi-agent hosts only).
   * @default '/.well-known/ai-catalog.html'
   */
  catalogPath?: string;
}

/** The `viewer` option after validation. */
export interface ResolvedViewerOptions {
  readonly path: string;
  readonly catalogPath: string;
}

/** The media type of a page. */
const HTML = 'text/html; charset=utf-8';
/** Headers of every page besides the document ones (`Content-Security-Policy` first). */
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
  'referrer-policy': 'no-referrer',
  // For browsers that predate CSP's frame-ancestors.
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
});
/** A page path: `/`-separated non-empty segments of RFC 3986 path characters, no dot segments. */
const PAGE_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;
const VIEWER_KEYS = new Set(['path', 'catalogPath']);

const show = showValue;

/**
 * Checks the `viewer` option; problems are added to `problems` (`where: what (value). Fix.`).
 * `undefined` and `false` mean no viewer.
 */
export function resolveViewerOption(value: unknown, problems: string[]): ResolvedViewerOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { path: VIEWER_PATH, catalogPath: CATALOG_VIEWER_PATH };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(
      `options.viewer: must be true, false or { path } (${show(value)}). Use viewer: true to serve the page at ${VIEWER_PATH}.`,
    );
    return undefined;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!VIEWER_KEYS.has(key))
      problems.push(unknownOption(`options.viewer.${key}`, key, VIEWER_KEYS, 'the viewer option'));
  }
  const path = (key: 'path' | 'catalogPath', fallback: string): string => {
    const given = v[key];
    if (given === undefined) return fallback;
    if (typeof given === 'string' && PAGE_PATH.test(given)) return given;
    problems.push(
      `options.viewer.${key}: must be a path of non-empty segments starting with '/', without query, fragment, trailing slash or dot segment (${show(given)}). Use e.g. '${fallback}'.`,
    );
    return fallback;
  };
  const resolved = { path: path('path', VIEWER_PATH), catalogPath: path('catalogPath', CATALOG_VIEWER_PATH) };
  if (v.path !== undefined && v.catalogPath !== undefined && resolved.path === resolved.catalogPath)
    problems.push(
      `options.viewer.catalogPath: is the same as viewer.path (${show(resolved.path)}). Give the host's page its own path.`,
    );
  return resolved;
}

/**
 * The reference from the page at `from` to the document at `to`, relative so that it still
 * resolves when the middleware is mounted under a base path. Always starts with `./` or `../`
 * (a first segment with a colon would otherwise read as a scheme).
 */
export function relativeReference(from: string, to: string): string {
  const dir = from.split('/').slice(1, -1);
  const target = to.split('/').slice(1);
  let common = 0;
  while (common < dir.length && common < target.length - 1 && dir[common] === target[common]) common++;
  const up = dir.length - common;
  const rest = target.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/** One page: where it is served, the documents it is made of, and how. */
export interface ViewerPage {
  /** The page's path (relative to the mount point). */
  readonly path: string;
  /** Paths the responder serves whose bodies make the page (JSON documents). */
  readonly documents: readonly string[];
  /** The HTML, from the parsed documents (in the order of `documents`). */
  render(documents: readonly unknown[]): string;
}

/** A card's page made of the card served at `cardPath`. */
export function cardPage(path: string, cardPath: string): ViewerPage {
  return {
    path,
    documents: [cardPath],
    render: ([card]) => renderAgentCardPage(card, { jsonHref: relativeReference(path, cardPath) }),
  };
}

/** An agent of a multi-agent host, as the host's page links it. */
export interface ViewerAgent {
  readonly path: string;
  readonly cardPath: string;
  readonly pagePath: string;
}

/**
 * The host's page: the AI Catalog served at `catalogPath` and each agent's card, linked to each
 * agent's page. An entry is matched to the agent whose path its URL ends with (the longest).
 */
export function catalogPage(path: string, catalogPath: string, agents: readonly ViewerAgent[]): ViewerPage {
  const byLength = [...agents].sort((a, b) => b.cardPath.length - a.cardPath.length);
  return {
    path,
    documents: [catalogPath, ...agents.map((a) => a.cardPath)],
    render([catalog, ...cards]) {
      const cardsByUrl = new Map<string, unknown>();
      const pageHrefs = new Map<string, string>();
      const entries = (catalog as { entries?: unknown }).entries;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const { url, identifier } = entry as { url?: unknown; identifier?: unknown };
        if (typeof url !== 'string') continue;
        let pathname: string;
        try {
          pathname = new URL(url).pathname;
        } catch {
          continue;
        }
        const agent = byLength.find((a) => pathname.endsWith(a.cardPath));
        if (agent === undefined) continue;
        cardsByUrl.set(url, cards[agents.indexOf(agent)]);
        if (typeof identifier === 'string') pageHrefs.set(identifier, relativeReference(path, agent.pagePath));
      }
      return renderAiCatalogPage(catalog, {
        cards: cardsByUrl,
        pageHrefs,
        jsonHref: relativeReference(path, catalogPath),
      });
    },
  };
}

/** Settings of {@link withViewer}. */
export interface ViewerSettings {
  cacheControl: string | false;
  /** Most pages kept per path (dynamic cards: one per card variant). */
  maxVariants: number;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** Pages for one path, cached by the ETags of the documents they were made of. */
function pageBuilder<Req>(page: ViewerPage, inner: AgentCardResponder<Req>['respond'], settings: ViewerSettings) {
  const cache = new LruCache<string, PreparedDocument>(settings.maxVariants);
  const decoder = new TextDecoder();

  const finish = (
    request: AgentCardRequest<Req>,
    answers: readonly (AgentCardResponse | undefined)[],
  ): AgentCardResponse | undefined => {
    let key = '';
    for (const res of answers) {
      // A document the responder does not serve for this request (an unknown host, a provider
      // that is down) is the page's answer too; a page never shows what is not served.
      if (res === undefined) return undefined;
      if (res.status !== 200 || res.body === undefined)
        return request.method === 'HEAD' ? { status: res.status, headers: res.headers } : res;
      key += `${res.headers.etag}\n`;
    }
    let doc = cache.get(key);
    if (doc === undefined) {
      const parsed = answers.map((res) => JSON.parse(decoder.decode(res!.body)) as unknown);
      // The card's Vary (Host for a card per origin) applies to its page; CORS does not.
      const vary = (answers[0]?.headers.vary ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '' && v.toLowerCase() !== 'origin');
      doc = prepareDocument(new TextEncoder().encode(page.render(parsed)), {
        contentType: HTML,
        cacheControl: settings.cacheControl,
        cors: { mode: 'off' },
        vary,
        headers: PAGE_HEADERS,
      });
      cache.set(key, doc);
    }
    return answerDocument(doc, request);
  };

  return (request: AgentCardRequest<Req>): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answerDocument(PLACEHOLDER, request); // OPTIONS → 204, others → 405, as for a card
    // The page is made of the public documents only: no credentials, no conditional header.
    const { authorization: _a, cookie: _c, 'if-none-match': _i, ...headers } = request.headers;
    const answers = page.documents.map((path) => inner({ ...request, method: 'GET', path, headers }));
    if (!answers.some(isPromise)) return finish(request, answers as (AgentCardResponse | undefined)[]);
    return Promise.all(answers).then((settled) => finish(request, settled));
  };
}

/** Answers OPTIONS and other methods of a page (no body is ever read from it). */
const PLACEHOLDER: PreparedDocument = prepareDocument(new Uint8Array(0), {
  contentType: HTML,
  cacheControl: false,
  cors: { mode: 'off' },
});

/**
 * Serves `pages` in front of nothing: a request the responder answers never reaches the viewer
 * (card requests do no extra work); a request it passes on is checked against the page paths with
 * one Map lookup. Each page is built from the responder's own public answers (so it shows the
 * served, signed card and never the extended one), once per set of document ETags, and is then
 * static bytes with a strong ETag, 304, HEAD, 405 and the viewer's Content-Security-Policy.
 *
 * @throws AgentCardError `ERR_AGENT_CARD_OPTIONS` when a page path is also a path the responder
 *   serves (the card, the legacy alias, an extended card, the JWK Set, the catalog) or another
 *   page's.
 */
export function withViewer<Req>(
  responder: AgentCardResponder<Req>,
  pages: readonly ViewerPage[],
  settings: ViewerSettings,
): AgentCardResponder<Req> {
  const inner = responder.respond;
  const problems: string[] = [];
  const byPath = new Map<string, ReturnType<typeof pageBuilder<Req>>>();
  for (const page of pages) {
    // Asking with OPTIONS reaches every route (an extended card too) without authenticating or
    // building a variant.
    if (inner({ method: 'OPTIONS', path: page.path, headers: {} }) !== undefined)
      problems.push(
        `options.viewer: the page path is also served by the agent card middleware (${show(page.path)}). Choose another viewer path, e.g. '${VIEWER_PATH}'.`,
      );
    else if (byPath.has(page.path))
      problems.push(
        `options.viewer: two pages would be served at the same path (${show(page.path)}). Give viewer.path and viewer.catalogPath (or the agents' paths) distinct values.`,
      );
    else byPath.set(page.path, pageBuilder(page, inner, settings));
  }
  if (problems.length > 0)
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `Invalid agent card options:\n  - ${problems.join('\n  - ')}`);

  // The app's own routes are turned away by one prefix test when every page is under
  // /.well-known/ (the default paths), or one substring test for agents' pages; only a page path
  // elsewhere costs them a Map lookup.
  const paths = [...byPath.keys()];
  const mayBePage: (path: string) => boolean = paths.every((p) => p.startsWith(WELL_KNOWN_PREFIX))
    ? (path) => path.startsWith(WELL_KNOWN_PREFIX)
    : paths.every((p) => p.includes(WELL_KNOWN_PREFIX))
      ? (path) => path.includes(WELL_KNOWN_PREFIX)
      : () => true;
  const pageFor = (path: string) => {
    if (!mayBePage(path)) return undefined;
    const q = path.indexOf('?');
    return byPath.get(q === -1 ? path : path.slice(0, q));
  };
  // Static pages are built now, so the first visitor gets prebuilt bytes like the card's.
  for (const page of pages) {
    const built = pageFor(page.path)!({ method: 'GET', path: page.path, headers: {} });
    if (isPromise(built)) built.catch(() => {});
  }
  return Object.freeze({
    respond(request: AgentCardRequest<Req>) {
      const answer = inner(request);
      if (answer === undefined) return pageFor(request.path)?.(request);
      return isPromise(answer) ? answer.then((found) => found ?? pageFor(request.path)?.(request)) : answer;
    },
    update: responder.update,
  });
}
