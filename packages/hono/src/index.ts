import { createAgentCardResponder } from '@agent-card/core';
import type {
  AgentCardOptions as CoreAgentCardOptions,
  AgentCardRequestHeaders,
  AgentCardResponder,
  AgentCardResponse,
} from '@agent-card/core';
import type { Context, Env, MiddlewareHandler } from 'hono';

/**
 * The options of {@link agentCard}: core's `AgentCardOptions` with the Hono `Context` that
 * `authenticate` and a dynamic `card` receive filled in, so an options object typed on its own
 * (`const options = { … } satisfies HonoAgentCardOptions<AppEnv>`) gives its functions a typed `c`.
 */
export type HonoAgentCardOptions<E extends Env = Env> = CoreAgentCardOptions<Context<E>>;
/** Core's `AgentCardOptions`, with Hono's `Context` as the default request. */
export type AgentCardOptions<Req = Context> = CoreAgentCardOptions<Req>;

/** Settings of the middleware itself (not of the card). */
export interface AgentCardMiddlewareSettings<E extends Env = Env> {
  /**
   * A path prefix to strip before matching, for an app mounted under a sub-path whose requests
   * still carry the full URL (`app.route('/api', sub)`, `basePath('/api')`): `'/api'` serves
   * `/api/.well-known/agent-card.json`. Requests outside the prefix go to `next()`.
   * @default '' (paths are matched from the root of the URL)
   */
  basePath?: string;
  /**
   * The peer address of the connection, which `trustProxy` as a list or a function checks. Hono
   * does not carry it in the `Request`; on other runtimes pass Hono's `getConnInfo`, e.g.
   * `(c) => getConnInfo(c).remote.address` with `getConnInfo` from `hono/bun` or `hono/deno`.
   * @default on `@hono/node-server`, the socket's `remoteAddress`; elsewhere `undefined`
   */
  remoteAddress?: (c: Context<E>) => string | undefined;
}

/**
 * The middleware {@link agentCard} returns: a Hono `MiddlewareHandler` that carries
 * `update(card)`, core's `responder.update`, so the card it serves changes at run time,
 * validated as at start-up.
 */
export type AgentCardMiddleware<E extends Env = Env> = MiddlewareHandler<E> &
  Pick<AgentCardResponder<Context<E>>, 'update'>;

/** The handler with the responder's `update` on it (the handler itself is left as it is). */
function withUpdate<E extends Env>(
  responder: AgentCardResponder<Context<E>>,
  handler: MiddlewareHandler<E>,
): AgentCardMiddleware<E> {
  return Object.assign(handler, { update: responder.update });
}

/** The part of Node's `IncomingMessage` that `@hono/node-server` puts in `c.env.incoming`. */
interface NodeIncoming {
  headers?: AgentCardRequestHeaders;
  socket?: { remoteAddress?: string };
  /** The request target as the client sent it (HTTP/2: `:path`). */
  url?: string;
}

function nodeIncoming(c: { env: unknown }): NodeIncoming | undefined {
  return (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
}

/** `@hono/node-server` puts Node's request in `c.env.incoming`. */
function nodeServerAddress(c: { env: unknown }): string | undefined {
  return nodeIncoming(c)?.socket?.remoteAddress;
}

/** Path and query of an absolute URL, as sent (no decoding, no URL object). */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme === -1 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  if (slash === -1) return '/';
  const hash = url.indexOf('#', slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

/**
 * The request target to match: on `@hono/node-server`, Node's `incoming.url`, the target as the
 * client sent it. The WHATWG `Request.url` Hono hands on is already normalised (dot segments
 * resolved, `%2e` read as `.`, the fragment and an absolute form's authority taken apart), so
 * `/agents/support/../billing/…` would reach billing there; the raw target falls through, as on
 * every other host. The raw target counts only while it names this `Request`: one the app
 * rewrote (a new `Request` handed to a sub-app with the same `env`) is matched by its own URL.
 */
function targetOf(c: { env: unknown }, url: string): string {
  const target = nodeIncoming(c)?.url;
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

/** The path relative to `base`, or `undefined` outside it (`/apiary` is not under `/api`). */
function relativePath(path: string, base: string): string | undefined {
  if (base === '') return path;
  if (!path.startsWith(base)) return undefined;
  if (path.length === base.length) return '/';
  const next = path.charCodeAt(base.length);
  if (next === 47) return path.slice(base.length);
  if (next === 63) return `/${path.slice(base.length)}`;
  return undefined;
}

/**
 * The request headers as the plain lower-case record core reads. On `@hono/node-server` that is
 * Node's own `incoming.headers`, already such a record: reading `request.headers` there would
 * build a web `Headers` from the raw headers on every request, which the server otherwise avoids.
 */
function headersOf(c: { env: unknown }, request: Request): AgentCardRequestHeaders {
  const own = nodeIncoming(c)?.headers;
  // HTTP/2 carries the authority as `:authority`; the copy below adds `host` for it.
  if (own !== undefined && typeof own === 'object' && own.host !== undefined) return own;
  return webHeadersOf(request);
}

/** A web `Headers` as the plain lower-case record core reads. */
function webHeadersOf(request: Request): AgentCardRequestHeaders {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Some runtimes keep the authority only in the URL; the origin of a dynamic card needs it.
  if (headers.host === undefined) {
    const url = request.url;
    const scheme = url.indexOf('://');
    if (scheme !== -1) {
      const rest = url.slice(scheme + 3);
      const end = rest.search(/[/?#]/);
      const authority = end === -1 ? rest : rest.slice(0, end);
      const host = authority.slice(authority.lastIndexOf('@') + 1);
      if (host !== '') headers.host = host;
    }
  }
  return headers;
}

function isResponse(value: AgentCardResponse | Promise<AgentCardResponse | undefined>): value is AgentCardResponse {
  return typeof (value as { then?: unknown }).then !== 'function';
}

function toResponse(response: AgentCardResponse, method: string): Response {
  // The body is the card's prebuilt bytes; HEAD, 204 and 304 carry none.
  const body = method === 'HEAD' || response.body === undefined ? null : (response.body as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * Hono 4 middleware that serves the A2A Agent Card: `/.well-known/agent-card.json`, the legacy
 * `/.well-known/agent.json` alias and, when the card declares it, the extended card. It returns a
 * `Response` for those paths and calls `next()` for everything else, so your routes, `notFound`
 * and other middleware are untouched. The same code runs on Node.js (`@hono/node-server`), Bun,
 * Deno and Cloudflare Workers.
 *
 * The card is validated, serialized and hashed here, once: an invalid card or option throws an
 * `AgentCardError` when the middleware is created, never on a request. HTTP behaviour (ETag, 304,
 * HEAD, CORS, 405, caching) is decided by `@agent-card/core`, identically for every framework.
 *
 * `authenticate` and a dynamic `card` receive the Hono `Context`: read the auth state earlier
 * middleware set (`c.get('jwtPayload')`, `c.var.user`) or the request (`c.req.header(…)`,
 * `c.req.raw`). Paths are matched against the request target as sent (not percent-decoded, dot
 * segments not resolved): on `@hono/node-server` Node's `incoming.url`; on other runtimes the
 * path of `Request.url`, which the runtime has already normalised.
 *
 * `middleware.update(card)` replaces the served card at run time (see `responder.update` in
 * `@agent-card/core`): validated as at start-up, then swapped in at once; an invalid card throws
 * `AgentCardError` and the served card stays as it was.
 *
 * @param options - see `AgentCardOptions` in `@agent-card/core`; all optional. With no `card`,
 *   `agent-card.json` and `package.json` are read from the working directory (Node.js only).
 * @param settings - {@link AgentCardMiddlewareSettings}.
 * @returns a Hono `MiddlewareHandler` with `update(card)`.
 * @throws AgentCardError (`ERR_AGENT_CARD_INVALID`, `ERR_AGENT_CARD_OPTIONS`,
 *   `ERR_AGENT_CARD_CONFIG`) when the card or the options are wrong.
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { agentCard } from '@agent-card/hono';
 *
 * const app = new Hono();
 * const cards = agentCard({ card });
 * app.use(cards);
 * // later, at run time:
 * cards.update({ ...card, skills: [...card.skills, newSkill] });
 * export default app;
 * ```
 * @see https://a2a-protocol.org/latest/specification/#8-agent-discovery-the-agent-card
 */
export function agentCard<E extends Env = Env>(
  options?: HonoAgentCardOptions<E>,
  settings: AgentCardMiddlewareSettings<E> = {},
): AgentCardMiddleware<E> {
  const responder = createAgentCardResponder<Context<E>>(options);
  let base = settings.basePath ?? '';
  while (base.endsWith('/')) base = base.slice(0, -1);
  const address = settings.remoteAddress ?? nodeServerAddress;

  return withUpdate(responder, function agentCardMiddleware(c, next) {
    const request = c.req.raw;
    const url = request.url;
    const path = relativePath(targetOf(c, url), base);
    if (path === undefined) return next();
    // Own data properties only: core may copy the request (`{ ...request, path }`) to route it
    // to one agent's card, which would drop getters.
    const result = responder.respond({
      method: request.method,
      path,
      headers: headersOf(c, request),
      raw: c,
      encrypted: url.startsWith('https:'),
      remoteAddress: address(c),
    });
    if (result === undefined) return next();
    if (isResponse(result)) return Promise.resolve(toResponse(result, request.method));
    return result.then(async (response) => {
      if (response === undefined) return next();
      return toResponse(response, request.method);
    });
  });
}
