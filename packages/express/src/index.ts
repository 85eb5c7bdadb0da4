import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAgentCardNodeHandler, createAgentCardResponder } from '@agent-card/core/http';
import type { AgentCardOptions as CoreAgentCardOptions, AgentCardResponder } from '@agent-card/core/http';

/**
 * The options of {@link agentCard}: core's `AgentCardOptions` with the request Express hands to
 * `authenticate` and a dynamic `card` filled in, so an options object typed on its own
 * (`const options = { … } satisfies ExpressAgentCardOptions`) gives its functions a typed `req`.
 * Pass Express' `Request` as `Req` to use Express' request helpers.
 */
export type ExpressAgentCardOptions<Req = IncomingMessage> = CoreAgentCardOptions<Req>;
/** The same as {@link ExpressAgentCardOptions}, under core's name. */
export type AgentCardOptions<Req = IncomingMessage> = CoreAgentCardOptions<Req>;

/**
 * Express' `next`: `next()` passes the request on, `next(error)` hands an error to the app's
 * error handlers. Declared structurally so that the emitted types do not require
 * `@types/express`.
 */
export type AgentCardNextFunction = (error?: unknown) => void;

/**
 * The middleware {@link agentCard} returns. Its parameters are the Node types Express extends,
 * so it fits `app.use`, `router.use` and `app.use('/base', …)` in Express 4 and 5 without
 * `@types/express` being a dependency of your types. It carries `update(card)`, core's
 * `responder.update`: the card it serves changes at run time, validated as at start-up; and
 * `responder`, what `getExtendedAgentCard` and `agentResponderOf` of `@agent-card/core` read.
 */
export type AgentCardMiddleware<Req extends IncomingMessage = IncomingMessage> = ((
  req: Req,
  res: ServerResponse,
  next: AgentCardNextFunction,
) => void) &
  Pick<AgentCardResponder<Req>, 'update'> & { readonly responder: AgentCardResponder<Req> };

/**
 * Serves the A2A Agent Card from an Express 4 or 5 app: `/.well-known/agent-card.json`, the
 * legacy `/.well-known/agent.json` alias and, when the card declares it, the extended card.
 * Every other request goes on to the app untouched.
 *
 * The card is validated, serialized and hashed here, once: an invalid card or option throws an
 * `AgentCardError` when the app starts, never on a request. HTTP behaviour (ETag, 304, HEAD,
 * CORS, 405, caching) is decided by `@agent-card/core`, identically for every framework.
 *
 * Paths are matched relative to where the middleware is mounted: `app.use('/api', agentCard())`
 * serves `/api/.well-known/agent-card.json`.
 *
 * `Req` is the request type `authenticate` and a dynamic `card` function receive; annotate their
 * parameter as Express' `Request` to use Express' request helpers.
 *
 * `middleware.update(card)` replaces the served card at run time (see `responder.update` in
 * `@agent-card/core`): validated as at start-up, then swapped in at once; an invalid card throws
 * `AgentCardError` and the served card stays as it was.
 *
 * @param options - see `AgentCardOptions` in `@agent-card/core`; all optional. With no `card`,
 *   `agent-card.json` and `package.json` are read from the working directory.
 * @returns Express middleware.
 * @throws AgentCardError (`ERR_AGENT_CARD_INVALID`, `ERR_AGENT_CARD_OPTIONS`,
 *   `ERR_AGENT_CARD_CONFIG`) when the card or the options are wrong.
 * @example
 * ```ts
 * import express from 'express';
 * import { agentCard } from '@agent-card/express';
 *
 * const app = express();
 * const cards = agentCard({ card });
 * app.use(cards);
 * app.listen(3000);
 * cards.update({ ...card, skills: [...card.skills, newSkill] }); // later, at run time
 * ```
 * @see https://a2a-protocol.org/latest/specification/#8-agent-discovery-the-agent-card
 */
export function agentCard<Req extends IncomingMessage = IncomingMessage>(
  options?: ExpressAgentCardOptions<Req>,
): AgentCardMiddleware<Req> {
  const responder = createAgentCardResponder<Req>(options);
  // Express rewrites `req.url` to be relative to the mount path; that is what core matches. The
  // response goes out with `writeHead` + `end`: its headers are final, Express adds none.
  const middleware = createAgentCardNodeHandler<Req, ServerResponse, void>(responder);
  return Object.assign(middleware, { update: responder.update, responder });
}
