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
    adapter.getInstance<{ use(handler: typeof handle): unknown }>().use(handle);
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
