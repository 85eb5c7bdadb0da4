import { createAgentCardFetchBridge, createAgentCardResponder } from '@agent-card/core/http';
import type {
  AgentCardOptions as CoreAgentCardOptions,
  AgentCardRequestHeaders,
  AgentCardResponder,
} from '@agent-card/core/http';
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
 * validated as at start-up; and `responder`, what `getExtendedAgentCard` and `agentResponderOf`
 * of `@agent-card/core` read.
 */
export type AgentCardMiddleware<E extends Env = Env> = MiddlewareHandler<E> &
  Pick<AgentCardResponder<Context<E>>, 'update'> & { readonly responder: AgentCardResponder<Context<E>> };

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

/**
 * The request target as the client sent it: on `@hono/node-server`, Node's `incoming.url`. The
 * WHATWG `Request.url` Hono hands on is already normalised (dot segments resolved, `%2e` read as
 * `.`), so `/agents/support/../billing/…` would reach billing there; the raw target falls
 * through, as on every other host. Core's fetch bridge uses it only while it names this
 * `Request` (not one the app rewrote).
 */
function nodeTarget(c: { env: unknown }): string | undefined {
  return nodeIncoming(c)?.url;
}

/**
 * On `@hono/node-server`, Node's own `incoming.headers`, already the plain lower-case record core
 * reads: reading `request.headers` there would build a web `Headers` from the raw headers on
 * every request, which the server otherwise avoids. HTTP/2 carries the authority as
 * `:authority`; without `host` the bridge builds the record from the `Request`, adding it.
 */
function nodeHeaders(c: { env: unknown }): AgentCardRequestHeaders | undefined {
  const own = nodeIncoming(c)?.headers;
  return own !== undefined && typeof own === 'object' && own.host !== undefined ? own : undefined;
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
  const bridge = createAgentCardFetchBridge<Context<E>>(responder, {
    basePath: settings.basePath,
    remoteAddress: settings.remoteAddress ?? nodeServerAddress,
    target: nodeTarget,
    headers: nodeHeaders,
  });
  const middleware: MiddlewareHandler<E> = function agentCardMiddleware(c, next) {
    // A static card's `Response` comes back as it is, not in a promise: Hono awaits what a
    // middleware returns, and as the only handler of a path sends a `Response` at once.
    return bridge(c.req.raw, c, next) as Promise<Response | undefined>;
  };
  return Object.assign(middleware, { update: responder.update, responder });
}
