import { createAgentCardResponder } from '../http';
import type { AgentCardOptions, AgentCardRequestHeaders, AgentCardResponder, AgentCardResponse } from '../http';
import { isPromiseLike } from '../util';
import { normalizeBasePath, stripBasePath } from './node';
import { readWebBody } from './web-body';

/** Settings of the fetch handler itself (not of the card). */
export interface AgentCardFetchHandlerSettings {
  /**
   * A path prefix to strip before matching, for hosts that hand over the full URL of a request
   * routed to a sub-path (e.g. `'/api'` serves `/api/.well-known/agent-card.json`). Requests
   * outside the prefix fall through.
   * @default '' (paths are matched from the root)
   */
  basePath?: string;
}

/** What a web-standard host knows about the connection and `Request` does not carry. */
export interface AgentCardFetchConnection {
  /**
   * The peer's address (Bun `server.requestIP(req)?.address`, Deno `info.remoteAddr.hostname`,
   * Hono `getConnInfo(c).remote.address`): needed when `trustProxy` is a list or a function.
   */
  remoteAddress?: string;
  /**
   * The request target as the client sent it, where the host keeps it (Node's `req.url`, e.g.
   * `c.env.incoming.url` on `@hono/node-server`). `Request.url` is already normalised by the
   * runtime's URL parser (dot segments resolved, `%2e` read as `.`); with the raw target, paths
   * are compared as sent, as on every adapter. Ignored when it is not the target of this
   * `Request` (one the app rewrote).
   */
  target?: string;
  /**
   * The request body, for hosts that hand over a `Request` built without one (h3 1's
   * `getRequestWebStream(event)`): called only when a route reads a body (the ARD registry's
   * `POST /search` of a store-backed host), so a body meant for the app is left unread.
   * @default the `Request`'s own body
   */
  body?: () => ReadableStream<Uint8Array> | null | undefined;
}

/** A web-standard request handler: a `Response`, or `undefined` when the request is not for the card. */
export type AgentCardFetchHandler = (
  request: Request,
  connection?: AgentCardFetchConnection,
) => Promise<Response | undefined>;

/**
 * Settings of {@link createAgentCardFetchBridge}: where a host keeps what `Request` does not
 * carry, read from the `raw` value handed over with each request (Hono's `Context`). Each is
 * optional and called once per request.
 */
export interface AgentCardFetchBridgeSettings<Raw> extends AgentCardFetchHandlerSettings {
  /** The peer's address (see {@link AgentCardFetchConnection.remoteAddress}). */
  remoteAddress?: (raw: Raw) => string | undefined;
  /** The request target as the client sent it (see {@link AgentCardFetchConnection.target}). */
  target?: (raw: Raw) => string | undefined;
  /**
   * The request headers as a plain record with lower-case names and a `host`, where the host has
   * one already (Node's `incoming.headers`); `undefined` builds it from `Request.headers`.
   */
  headers?: (raw: Raw) => AgentCardRequestHeaders | undefined;
}

/**
 * What {@link createAgentCardFetchBridge} returns: answers `request` with a `Response`, or returns
 * what `next()` returns when the request is not for the card. `raw` is what `authenticate` and a
 * dynamic card receive. The `Response` of a static card comes back as it is, not in a promise
 * (as a Hono handler may return it); only an answer the responder returns as a promise is one.
 */
export type AgentCardFetchBridge<Raw> = <T>(
  request: Request,
  raw: Raw,
  next: () => T,
) => Response | T | Promise<Response | Awaited<T>>;

/** Path + query of an absolute URL, without building a URL object. */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme === -1 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  if (slash === -1) return '/';
  const hash = url.indexOf('#', slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

/**
 * `target` when it is the request target of `url` (as sent, or what the URL parser made of it),
 * else the path of `url`.
 */
function targetOf(url: string, target: string | undefined): string {
  if (typeof target === 'string' && target !== '') {
    const scheme = url.indexOf('://');
    const start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
    // As sent: the URL is the origin plus the target, unchanged (the common case, no parsing).
    if (start !== -1 && url.length - start === target.length && url.endsWith(target)) return target;
    try {
      if (new URL(target, url).href === url) return target;
    } catch {
      // Not a target of this URL: the app rewrote the request.
    }
  }
  return pathOf(url);
}

/** The host (and port) of an absolute URL, without its userinfo; no URL object, no regular expression. */
function hostOf(url: string): string | undefined {
  const scheme = url.indexOf('://');
  if (scheme === -1) return undefined;
  const start = scheme + 3;
  let end = start;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
  }
  const at = url.lastIndexOf('@', end - 1);
  const from = at >= start ? at + 1 : start;
  return end > from ? url.slice(from, end) : undefined;
}

/** A web `Headers` as the plain lower-case record core reads, with `host` from `url` if absent. */
function headersOf(request: Request, url: string): AgentCardRequestHeaders {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Some hosts keep the authority only in the URL; the origin of a dynamic card needs it.
  if (headers.host === undefined) {
    const host = hostOf(url);
    if (host !== undefined) headers.host = host;
  }
  return headers;
}

function toResponse(response: AgentCardResponse, method: string): Response {
  // The body is the card's prebuilt bytes; HEAD, 204 and 304 carry none.
  const body = method === 'HEAD' || response.body === undefined ? null : (response.body as Uint8Array<ArrayBuffer>);
  // The prebuilt answer is itself the init (its `status` and `headers`): nothing is allocated
  // for it per request.
  return new Response(body, response);
}

/** One request through `respond`: `undefined` when it is not for the card (outside `base` or unanswered). */
function answer<Raw>(
  responder: Pick<AgentCardResponder<Raw>, 'respond'>,
  base: string,
  request: Request,
  raw: Raw,
  target: string | undefined,
  remoteAddress: string | undefined,
  headers: AgentCardRequestHeaders | undefined,
  body?: () => ReadableStream<Uint8Array> | null | undefined,
): Response | undefined | Promise<Response | undefined> {
  const url = request.url;
  const path = stripBasePath(targetOf(url, target), base);
  if (path === undefined) return undefined;
  const method = request.method;
  // Own data properties only: core may copy the request (`{ ...request, path }`) to route it to
  // one agent's card, which would drop getters.
  const result = responder.respond({
    method,
    path,
    headers: headers ?? headersOf(request, url),
    raw,
    encrypted: url.startsWith('https:'),
    remoteAddress,
    // Only a POST may carry a body a route reads (the registry's search); no closure otherwise.
    readBody: method === 'POST' ? (limits) => readWebBody(request, limits, body) : undefined,
  });
  if (result === undefined) return undefined;
  if (!isPromiseLike(result)) return toResponse(result, method);
  return result.then((response) => (response === undefined ? undefined : toResponse(response, method)));
}

/**
 * The fetch bridge over a responder of your own, for frameworks built on the web `Request`
 * (Hono): `raw`, what `authenticate` and a dynamic card receive, is the framework's own request
 * (Hono's `Context`), and the settings read the connection from it. A static card is answered in
 * the same tick: its `Response` is returned as it is, with no promise, as Hono's own handlers
 * return theirs; a request that is not for the card returns what `next()` returns.
 *
 * @example
 * const bridge = createAgentCardFetchBridge(createAgentCardResponder<Context>({ card }), {
 *   remoteAddress: (c) => getConnInfo(c).remote.address,
 * })
 * app.use(async (c, next) => bridge(c.req.raw, c, next))
 */
export function createAgentCardFetchBridge<Raw>(
  responder: Pick<AgentCardResponder<Raw>, 'respond'>,
  settings: AgentCardFetchBridgeSettings<Raw> = {},
): AgentCardFetchBridge<Raw> {
  const base = normalizeBasePath(settings.basePath);
  const { remoteAddress, target, headers } = settings;
  return <T>(request: Request, raw: Raw, next: () => T): Response | T | Promise<Response | Awaited<T>> => {
    const out = answer(
      responder,
      base,
      request,
      raw,
      target?.(raw),
      remoteAddress?.(raw),
      headers === undefined ? undefined : headers(raw),
    );
    if (out === undefined) return next();
    if (out instanceof Response) return out;
    // `then` waits for a promise `next()` returns: the type says so.
    return out.then((response) => (response === undefined ? (next() as Awaited<T>) : response));
  };
}

/**
 * The responder as a `fetch`-style handler, for web-standard hosts (Hono, Bun, Deno, Next.js
 * route handlers, Cloudflare Workers). Same options, same answers as every adapter; `raw` (what
 * `authenticate` and a dynamic `card` receive) is the `Request`.
 *
 * Paths are compared as the path of `request.url`, which the runtime has already normalised (the
 * handler cannot see `/a/../b` or `%2e%2e` as sent); pass `connection.target` where the host keeps
 * the raw request target, and those fall through as on every adapter.
 *
 * The handler carries its responder as `responder`, for `getExtendedAgentCard` and
 * `agentResponderOf`.
 *
 * @example
 * const cardHandler = createAgentCardFetchHandler({ card })
 * Bun.serve({
 *   fetch: async (req, server) =>
 *     (await cardHandler(req, { remoteAddress: server.requestIP(req)?.address })) ?? app.fetch(req),
 * })
 */
export function createAgentCardFetchHandler(
  options?: AgentCardOptions<Request>,
  settings: AgentCardFetchHandlerSettings = {},
): AgentCardFetchHandler & { readonly responder: AgentCardResponder<Request> } {
  const responder = createAgentCardResponder<Request>(options);
  const base = normalizeBasePath(settings.basePath);
  const handler: AgentCardFetchHandler = async (request, connection) =>
    answer(
      responder,
      base,
      request,
      request,
      connection?.target,
      connection?.remoteAddress,
      undefined,
      connection?.body,
    );
  return Object.assign(handler, { responder });
}
