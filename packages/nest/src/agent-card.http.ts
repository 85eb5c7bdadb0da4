// The only file that knows HTTP: a Node request in, the responder's prebuilt response out, on
// Express (a middleware) or Fastify (an `onRequest` hook). Every HTTP decision is core's.
import { AgentCardError, type AgentCardRequest, type AgentCardResponse } from '@agent-card/core';
import * as messages from './agent-card.messages';

/** What this module needs from Nest's `AbstractHttpAdapter`. */
export interface AgentCardHttpAdapter {
  getType?(): string;
  getInstance<T = unknown>(): T;
}

/** Answers one request (`undefined`: not for the card); `response` is what guards see. */
export type RespondFn = (
  request: AgentCardRequest<any>,
  response?: unknown,
) => AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>;

type Headers = Record<string, string | string[] | undefined>;
type Next = (error?: unknown) => void;
interface NodeRequest {
  method?: string;
  url?: string;
  headers: Headers;
  socket?: { encrypted?: boolean; remoteAddress?: string };
}
interface NodeResponse {
  writeHead(status: number, headers: Readonly<Record<string, string>>): unknown;
  end(body?: Uint8Array): unknown;
}
interface FastifyRequest {
  method: string;
  url: string;
  headers: Headers;
  raw: NodeRequest;
}
interface FastifyReply {
  code(status: number): FastifyReply;
  headers(headers: Readonly<Record<string, string>>): FastifyReply;
  send(payload?: unknown): FastifyReply;
}

/** The core request of a Node request; `raw` is what guards and `authenticate` receive. */
const toRequest = (node: NodeRequest, method: string, url: string, headers: Headers, raw: object) => ({
  method,
  path: url,
  headers,
  raw,
  encrypted: node.socket?.encrypted === true,
  remoteAddress: node.socket?.remoteAddress,
});

/**
 * Runs `respond` and hands its answer to `send`, or calls `next` when the request is not for the
 * card (or with the error it threw), synchronously when the answer is ready.
 */
function answer(run: () => ReturnType<RespondFn>, send: (response: AgentCardResponse) => void, next: Next): void {
  let result: ReturnType<RespondFn>;
  try {
    result = run();
  } catch (error) {
    next(error);
    return;
  }
  if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
    (result as Promise<AgentCardResponse | undefined>).then((response) => (response ? send(response) : next()), next);
  else if (result) send(result as AgentCardResponse);
  else next();
}

/**
 * Puts the card in front of the application on the underlying server: an Express middleware
 * (`app.use`) or a Fastify `onRequest` hook. Both are registered on the adapter's instance, so
 * they ignore Nest's global prefix and run before Nest's 404 handler; requests that are not for
 * the card pass straight on.
 */
export function serveAgentCard(adapter: AgentCardHttpAdapter, respond: RespondFn): void {
  const type = adapter.getType?.();
  if (type === 'express') {
    const express = adapter.getInstance<{
      use(handler: (req: NodeRequest, res: NodeResponse, next: Next) => void): unknown;
    }>();
    express.use((req, res, next) => {
      // No response argument: guards find it as `req.res`, which Express sets on every request.
      const request = toRequest(req, req.method ?? 'GET', req.url ?? '/', req.headers, req);
      const send = (r: AgentCardResponse) => {
        res.writeHead(r.status, r.headers);
        res.end(r.body);
      };
      answer(() => respond(request), send, next);
    });
  } else if (type === 'fastify') {
    type Hook = (request: FastifyRequest, reply: FastifyReply, done: Next) => void;
    adapter
      .getInstance<{ addHook(name: 'onRequest', hook: Hook): unknown }>()
      .addHook('onRequest', (req, reply, done) => {
        const request = toRequest(req.raw, req.method, req.url, req.headers, req);
        // Answering from a hook: send and do not call `done`, so routing never runs.
        const send = (r: AgentCardResponse) =>
          reply
            .code(r.status)
            .headers(r.headers)
            .send(r.body === undefined ? undefined : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
        answer(() => respond(request, reply), send, done);
      });
  } else {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.unsupportedAdapter(type));
  }
}
