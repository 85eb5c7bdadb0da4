// Serves the viewer's pages behind every other route: built from the responder's own public
// answers, once per set of document ETags, then static bytes like the card's.
import { VIEWER_CONTENT_SECURITY_POLICY } from '../../view/document';
import { isPromiseLike, showValue } from '../../util';
import { createDerived, Refused, type VariantSource } from '../kernel/derived';
import { answerDocument, type PreparedDocument, prepareDocument } from '../kernel/documents';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import { AGENT_CARD_PATH, VIEWER_PATH, WELL_KNOWN_PREFIX } from '../kernel/paths';
import { throwProblems } from '../kernel/problems';
import { type AgentCardResponder, internalsOf, sealResponder, withPaths } from '../kernel/responder';
import type { ResolvedViewerOptions } from './options';
import type { PageLink } from '../host/agent';
import { cardPage, type ViewerPage } from './pages';

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
/** Settings of {@link withViewer}. */
export interface ViewerSettings {
  cacheControl: string | false;
  /** Most pages kept per path (dynamic cards: one per card variant). */
  maxVariants: number;
}

/** Pages for one path, cached by the ETags of the documents they were made of. */
function pageBuilder<Req>(page: ViewerPage, variant: VariantSource<Req> | undefined, settings: ViewerSettings) {
  const derive = createDerived<Req, PreparedDocument>(
    page.documents.map((path) => (request) => variant?.({ ...request, path })),
    // The documents of a page may depend on the request (a card function's variants).
    { maxVariants: settings.maxVariants, perRequest: true },
    (variants) =>
      prepareDocument(new TextEncoder().encode(page.render(variants.map((v) => v.document))), {
        // A card's page is about the agent whose card it shows.
        served: { kind: 'viewer', agent: variants[0]!.agent },
        contentType: HTML,
        cacheControl: settings.cacheControl,
        cors: { mode: 'off' },
        // The card's Vary (Host for a card per origin) applies to its page.
        vary: variants[0]!.vary,
        headers: PAGE_HEADERS,
      }),
  );
  // A document the responder does not serve for this request (an unknown host, a provider that
  // is down) is the page's answer too; a page never shows what is not served.
  const answer = (request: AgentCardRequest<Req>, built: PreparedDocument | Refused | undefined) =>
    built === undefined ? undefined : built instanceof Refused ? built.answer : answerDocument(built, request);

  return (request: AgentCardRequest<Req>): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answerDocument(PLACEHOLDER, request); // OPTIONS → 204, others → 405, as for a card
    // The page is made of the public documents only: no credentials, no conditional header.
    const { authorization: _a, cookie: _c, 'if-none-match': _i, ...headers } = request.headers;
    const built = derive(request, { ...request, method: 'GET', headers });
    return isPromiseLike(built) ? built.then((b) => answer(request, b)) : answer(request, built);
  };
}

/** Answers OPTIONS and other methods of a page (no body is ever read from it). */
const PLACEHOLDER: PreparedDocument = prepareDocument(new Uint8Array(0), {
  served: { kind: 'viewer' },
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
  const variant = internalsOf(responder)?.variant;
  const problems: string[] = [];
  const byPath = new Map<string, ReturnType<typeof pageBuilder<Req>>>();
  for (const page of pages) {
    // Asking with OPTIONS reaches every route (an extended card too) without authenticating or
    // building a variant.
    if (inner({ method: 'OPTIONS', path: page.path, headers: {} }) !== undefined)
      problems.push(
        `options.viewer: the page path is also served by the agent card middleware (${showValue(page.path)}). Choose another viewer path, e.g. '${VIEWER_PATH}'.`,
      );
    else if (byPath.has(page.path))
      problems.push(
        `options.viewer: two pages would be served at the same path (${showValue(page.path)}). Give viewer.path and viewer.catalogPath (or the agents' paths) distinct values.`,
      );
    else byPath.set(page.path, pageBuilder(page, variant, settings));
  }
  throwProblems(problems);

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
    if (isPromiseLike(built)) built.catch(() => {});
  }
  const wrapped: AgentCardResponder<Req> = {
    respond(request: AgentCardRequest<Req>) {
      const answer = inner(request);
      if (answer === undefined) return pageFor(request.path)?.(request);
      return isPromiseLike(answer) ? answer.then((found) => found ?? pageFor(request.path)?.(request)) : answer;
    },
    update: responder.update,
  };
  const internals = internalsOf(responder);
  return internals === undefined
    ? Object.freeze(wrapped)
    : sealResponder(
        wrapped,
        withPaths(internals, () => paths),
      );
}

/** Serves the card's page behind every other route, when `viewer` is set. */
export function withCardViewer<Req>(
  responder: AgentCardResponder<Req>,
  viewer: ResolvedViewerOptions | undefined,
  settings: ViewerSettings,
  links: readonly PageLink[] = [],
): AgentCardResponder<Req> {
  if (viewer === undefined) return responder;
  return withViewer(responder, [cardPage(viewer.path, AGENT_CARD_PATH, links)], settings);
}
