/**
 * `@agent-card/core/next`: the Agent Card as Next.js App Router route handlers. Next hands a route
 * handler the web `Request` and sends the `Response` it returns, so this is core's fetch handler
 * with the signature Next type-checks (`(request, context) => Promise<Response>`) and an answer
 * for every request: a path the responder does not serve is a 404, and methods a route does not
 * export are Next's 405. Nothing is imported from `next`: the same handlers run on the Node.js
 * and the edge runtime.
 *
 * @example
 * // app/.well-known/agent-card.json/route.ts
 * import { agentCardRoute } from '@agent-card/core/next'
 * export const { GET, HEAD, OPTIONS } = agentCardRoute({ card })
 * @packageDocumentation
 */
import { type AgentCardFetchHandlerSettings, createAgentCardFetchHandler } from '../bridges/fetch';
import type { AgentCardOptions, AgentCardResponder } from '../http';

/**
 * A Next.js route handler: the request, and Next's context (`{ params }`), which the card does
 * not read (the responder finds the agent from the path).
 */
export type AgentCardRouteHandler = (request: Request, context?: unknown) => Promise<Response>;

/**
 * What {@link agentCardRoute} returns: `GET`, `HEAD` and `OPTIONS` for a `route.ts` to export
 * (every one of them the same handler: the responder answers by method), `update(card)`, core's
 * `responder.update`, and `responder`, what `getExtendedAgentCard`, `agentResponderOf` and
 * `servedPathsOf` read.
 */
export interface AgentCardRouteHandlers extends Pick<AgentCardResponder<Request>, 'update'> {
  readonly GET: AgentCardRouteHandler;
  readonly HEAD: AgentCardRouteHandler;
  readonly OPTIONS: AgentCardRouteHandler;
  /**
   * The same handler, for the one route that takes a body: the ARD registry's `POST {base}/search`
   * of a store-backed host (`store.registry`). Export it from that route file only.
   */
  readonly POST: AgentCardRouteHandler;
  readonly responder: AgentCardResponder<Request>;
}

const NOT_FOUND_BODY = new TextEncoder().encode(
  JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'Not found.' } }),
);

/** The answer to a request the responder does not serve (a route file at another path, an unknown agent). */
function notFound(method: string): Response {
  return new Response(method === 'HEAD' ? null : NOT_FOUND_BODY, {
    status: 404,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * Route handlers that serve the A2A Agent Card from Next.js App Router `route.ts` files: the
 * card at `app/.well-known/agent-card.json/route.ts`, the legacy alias at
 * `app/.well-known/agent.json/route.ts`, with `agents` each agent's card at
 * `app/agents/[id]/.well-known/agent-card.json/route.ts` and the AI Catalog at
 * `app/.well-known/ai-catalog.json/route.ts`, the REST extended card at the path of the card's
 * HTTP+JSON interface (`app/a2a/rest/extendedAgentCard/route.ts`). Create the handlers once, in a
 * module of your own, and re-export them from each route file: every route then shares the one
 * responder, whose card is validated, serialised and hashed at start-up.
 *
 * Same options and same answers as every adapter (ETag, 304, HEAD, CORS, 204); `authenticate`
 * and a card function receive the `Request`. A request the responder has no answer for (a path it
 * does not serve, an agent id it does not know) is a 404 with a JSON error body; a method the
 * route does not export is Next's own 405.
 *
 * @param options - see {@link AgentCardOptions}; with no `card`, `agent-card.json` and
 *   `package.json` are read from the working directory (the Node.js runtime only).
 * @param settings - `basePath`: Next's `basePath`, when `next.config` sets one.
 * @throws AgentCardError (`ERR_AGENT_CARD_INVALID`, `ERR_AGENT_CARD_OPTIONS`,
 *   `ERR_AGENT_CARD_CONFIG`) when the card or the options are wrong: at start-up, never on a request.
 * @example
 * // lib/agent-card.ts
 * export const { GET, HEAD, OPTIONS } = agentCardRoute({ agents, default: 'orders' })
 * // app/agents/[id]/.well-known/agent-card.json/route.ts
 * export { GET, HEAD, OPTIONS } from '@/lib/agent-card'
 * @see https://nextjs.org/docs/app/api-reference/file-conventions/route
 */
export function agentCardRoute(
  options?: AgentCardOptions<Request>,
  settings: AgentCardFetchHandlerSettings = {},
): AgentCardRouteHandlers {
  const handler = createAgentCardFetchHandler(options, settings);
  // Next's context (`{ params }`) is not a connection: the handler gets none.
  const route: AgentCardRouteHandler = async (request) => (await handler(request)) ?? notFound(request.method);
  return Object.freeze({
    GET: route,
    HEAD: route,
    OPTIONS: route,
    POST: route,
    update: handler.responder.update,
    responder: handler.responder,
  });
}
