// The only file that knows HTTP: core's Node bridge on the adapter's instance, as an Express
// middleware or a Fastify `onRequest` hook. Every HTTP decision is core's.
import {
  AgentCardError,
  createAgentCardNodeHandler,
  type AgentCardNodeRequest,
  type AgentCardNodeResponder,
  type AgentCardResponse,
} from '@agent-card/core';
import * as messages from './agent-card.messages';

/** What this module needs from Nest's `AbstractHttpAdapter`. */
export interface AgentCardHttpAdapter {
  getType?(): string;
  getInstance<T = unknown>(): T;
}

interface FastifyReply {
  code(status: number): FastifyReply;
  headers(headers: Readonly<Record<string, string>>): FastifyReply;
  send(payload?: unknown): FastifyReply;
}

// `reply.send` keeps the app's `onSend` hooks; a Buffer is sent as is (a Uint8Array as JSON). On
// Node core prepares every body as a Buffer already.
function send(reply: FastifyReply, { status, headers, body }: AgentCardResponse): void {
  const payload =
    body === undefined || Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  reply.code(status).headers(headers).send(payload);
}

/**
 * Puts the card in front of the application: registered on the adapter's instance, it ignores
 * Nest's global prefix and runs before Nest's 404 handler; other requests pass straight on.
 */
export function serveAgentCard(adapter: AgentCardHttpAdapter, service: AgentCardNodeResponder<any, unknown>): void {
  const type = adapter.getType?.();
  if (type === 'express') {
    // No response handed to the service: guards find it as `req.res`, which Express sets.
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest>({
      respond: (request) => service.respond(request, undefined),
    });
    adapter.getInstance<{ use(handler: typeof handle): unknown }>().use(handle);
  } else if (type === 'fastify') {
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest, FastifyReply, void>(service, { write: send });
    type Hook = (request: AgentCardNodeRequest, reply: FastifyReply, done: (error?: unknown) => void) => void;
    // The hook returns nothing (a promise would make it an async hook) and, having answered,
    // does not call `done`, so routing never runs.
    adapter
      .getInstance<{ addHook(name: 'onRequest', hook: Hook): unknown }>()
      .addHook('onRequest', (request, reply, done) => void handle(request, reply, done));
  } else {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.unsupportedAdapter(type));
  }
}
