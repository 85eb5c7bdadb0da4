import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createAgentCardNodeHandler, createAgentCardResponder } from '@agent-card/core/http';
import type {
  AgentCardOptions as CoreAgentCardOptions,
  AgentCardResponder,
  AgentCardResponse,
} from '@agent-card/core/http';

/**
 * The options of {@link agentCard}: core's `AgentCardOptions` with the Koa context that
 * `authenticate` and a dynamic `card` receive filled in, so an options object typed on its own
 * (`const options = { … } satisfies KoaAgentCardOptions`) gives its functions a typed `ctx`. Pass
 * your app's context type as `Ctx` to reach its `state`.
 */
export type KoaAgentCardOptions<Ctx = KoaContextLike> = CoreAgentCardOptions<Ctx>;
/** The same as {@link KoaAgentCardOptions}, under core's name. */
export type AgentCardOptions<Ctx = KoaContextLike> = CoreAgentCardOptions<Ctx>;

/**
 * The part of a Koa context the middleware uses, declared structurally so that the emitted
 * types need neither `koa` nor `@types/koa`. Every Koa 2 and 3 `ctx` satisfies it.
 */
export interface KoaContextLike {
  /** Request method, upper case. */
  method: string;
  /** Request URL (path and query), relative to a `koa-mount` prefix. */
  url: string;
  /** Request headers. */
  headers: IncomingHttpHeaders;
  /** Node's request. */
  req: IncomingMessage;
  /** Node's socket (`ctx.req.socket`): whether the connection is TLS, and the peer's address. */
  socket?: IncomingMessage['socket'];
  /** Response status. */
  status: number;
  /** Response body. */
  body: unknown;
  /** Reads a request header (case-insensitive); `''` when absent. */
  get(field: string): string;
  /** Sets response headers. */
  set(fields: { [key: string]: string }): void;
}

/** Koa's `next`. */
export type AgentCardNext = () => Promise<unknown>;

/**
 * The middleware {@link agentCard} returns; fits `app.use` in Koa 2 and 3. It returns nothing
 * when it answered synchronously (Koa's `compose` accepts that), otherwise a promise. It carries
 * `update(card)`, core's `responder.update`: the card it serves changes at run time, validated as
 * at start-up; and `responder`, what `getExtendedAgentCard` and `agentResponderOf` of
 * `@agent-card/core` read.
 */
export type AgentCardMiddleware<Ctx extends KoaContextLike = KoaContextLike> = ((
  ctx: Ctx,
  next: AgentCardNext,
) => Promise<unknown> | undefined) &
  Pick<AgentCardResponder<Ctx>, 'update'> & { readonly responder: AgentCardResponder<Ctx> };

/**
 * Serves the A2A Agent Card from a Koa 2 or 3 app: `/.well-known/agent-card.json`, the legacy
 * `/.well-known/agent.json` alias and, when the card declares it, the extended card. Every other
 * request goes on to the next middleware (your routes, `@koa/router`, …) untouched.
 *
 * The card is validated, serialized and hashed here, once: an invalid card or option throws an
 * `AgentCardError` when the app starts, never on a request. HTTP behaviour (ETag, 304, HEAD,
 * CORS, 405, caching) is decided by `@agent-card/core`, identically for every framework.
 *
 * `authenticate` and a dynamic `card` function receive the Koa context (`ctx.get(...)`,
 * `ctx.state`, …); annotate the parameter as your app's context type for the rest of Koa's API.
 * Paths are matched against `ctx.url`, so under `koa-mount` they are relative to the mount
 * prefix.
 *
 * `middleware.update(card)` replaces the served card at run time (see `responder.update` in
 * `@agent-card/core`): validated as at start-up, then swapped in at once; an invalid card throws
 * `AgentCardError` and the served card stays as it was.
 *
 * @param options - see `AgentCardOptions` in `@agent-card/core`; all optional. With no `card`,
 *   `agent-card.json` and `package.json` are read from the working directory.
 * @returns Koa middleware.
 * @throws AgentCardError (`ERR_AGENT_CARD_INVALID`, `ERR_AGENT_CARD_OPTIONS`,
 *   `ERR_AGENT_CARD_CONFIG`) when the card or the options are wrong.
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { agentCard } from '@agent-card/koa';
 *
 * const app = new Koa();
 * const cards = agentCard({ card });
 * app.use(cards);
 * app.listen(3000);
 * cards.update({ ...card, skills: [...card.skills, newSkill] }); // later, at run time
 * ```
 * @see https://a2a-protocol.org/latest/specification/#8-agent-discovery-the-agent-card
 */
export function agentCard<Ctx extends KoaContextLike = KoaContextLike>(
  options?: KoaAgentCardOptions<Ctx>,
): AgentCardMiddleware<Ctx> {
  const responder = createAgentCardResponder<Ctx>(options);
  // `ctx` is the request core reads (`ctx.url` is relative to a `koa-mount` prefix) and what it
  // writes to; a failure of an asynchronous answer rejects the returned promise, as Koa expects.
  const handler = createAgentCardNodeHandler<Ctx, Ctx, unknown>(responder, { write, errors: 'return' });
  const middleware = function agentCardMiddleware(ctx: Ctx, next: AgentCardNext) {
    // A static card answers synchronously: no promise, no extra tick.
    return handler(ctx, ctx, next) as Promise<unknown> | undefined;
  };
  return Object.assign(middleware, { update: responder.update, responder });
}

function write(ctx: KoaContextLike, response: AgentCardResponse): undefined {
  ctx.status = response.status;
  // Headers first: with Content-Type already set, Koa keeps it instead of guessing one from the
  // body, and the Content-Length it derives from the buffer is the same value.
  ctx.set(response.headers);
  // HEAD, 204 and 304 carry no body; leaving `ctx.body` unset keeps Koa from replacing the
  // headers above with its own (it strips Content-Length when the body is set to null).
  if (response.body !== undefined) ctx.body = toBuffer(response.body);
  return undefined;
}

// Koa writes Buffers as they are and sniffs anything else; a view shares memory, no copy.
function toBuffer(body: Uint8Array): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}
