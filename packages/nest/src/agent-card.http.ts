// The only file that knows HTTP: core's Node bridge on the adapter's instance, as an Express
// middleware or a Fastify `onRequest` hook. Every HTTP decision is core's.
import type { AbstractHttpAdapter } from '@nestjs/core';
import { AgentCardError } from '@agent-card/core';
import {
  createAgentCardNodeHandler,
  writeFastifyReply,
  type AgentCardFastifyReply,
  type AgentCardNodeRequest,
  type AgentCardNodeResponder,
} from '@agent-card/core/http';
import * as messages from './agent-card.messages';

/** The part of an Express 4 or 5 application read here. */
interface ExpressLike {
  use(handler: unknown): unknown;
  readonly _router?: { readonly stack?: unknown };
  readonly router?: { readonly stack?: unknown };
}

/** The names of body-parser's middleware, which Nest's Express adapter registers before any module's. */
const BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'rawParser', 'textParser']);

/**
 * Adds `handle` to `app`, in front of the body parsers Nest registered before the modules: the
 * card routes read no body, and the ARD registry's `POST /search` (a store-backed host) reads its
 * own within its byte and time bounds, and refuses a member named twice, which a parser would
 * have hidden. Where the router's stack is not the one Express 4 and 5 keep, `handle` stays last.
 */
function useBeforeBodyParsers(app: ExpressLike, handle: unknown): void {
  app.use(handle);
  // Express 4 keeps the router as `_router` (its `router` getter throws); Express 5 as `router`.
  const stack = (app._router ?? app.router)?.stack;
  if (!Array.isArray(stack) || stack[stack.length - 1]?.handle !== handle) return;
  const first = stack.findIndex((layer: { name?: unknown }) => BODY_PARSERS.has(layer?.name as string));
  if (first === -1) return;
  stack.splice(first, 0, stack.pop());
}

/**
 * Puts the card in front of the application: registered on the adapter's instance, it ignores
 * Nest's global prefix and runs before Nest's 404 handler; other requests pass straight on.
 */
export function serveAgentCard(adapter: AbstractHttpAdapter, service: AgentCardNodeResponder<any, unknown>): void {
  const type = adapter.getType?.();
  if (type === 'express') {
    // No response handed to the service: guards find it as `req.res`, which Express sets.
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest>({
      respond: (request) => service.respond(request, undefined),
    });
    useBeforeBodyParsers(adapter.getInstance<ExpressLike>(), handle);
  } else if (type === 'fastify') {
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest, AgentCardFastifyReply, void>(service, {
      write: writeFastifyReply,
    });
    type Hook = (request: AgentCardNodeRequest, reply: AgentCardFastifyReply, done: (error?: unknown) => void) => void;
    // The hook returns nothing (a promise would make it an async hook) and, having answered,
    // does not call `done`, so routing never runs.
    adapter
      .getInstance<{ addHook(name: 'onRequest', hook: Hook): unknown }>()
      .addHook('onRequest', (request, reply, done) => void handle(request, reply, done));
  } else {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.unsupportedAdapter(type));
  }
}
