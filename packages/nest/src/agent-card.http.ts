import { AgentCardError, type AgentCardResponse } from '@agent-card/core';
import * as messages from './agent-card.messages';
import type { AgentCardService } from './agent-card.service';

/** What this module needs from Nest's `AbstractHttpAdapter`. */
export interface AgentCardHttpAdapter {
  getType?(): string;
  getInstance<T = unknown>(): T;
}

interface NodeRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { encrypted?: boolean; remoteAddress?: string };
}
interface NodeResponse {
  writeHead(status: number, headers: Readonly<Record<string, string>>): unknown;
  end(body?: Uint8Array): unknown;
}
type Next = (error?: unknown) => void;

interface FastifyRequestLike {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  raw: NodeRequest;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(headers: Readonly<Record<string, string>>): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}
interface FastifyInstanceLike {
  addHook(name: 'onRequest', hook: (request: FastifyRequestLike, reply: FastifyReplyLike, done: Next) => void): unknown;
}
interface ExpressInstanceLike {
  use(handler: (req: NodeRequest, res: NodeResponse, next: Next) => void): unknown;
}

const isThenable = <T>(value: unknown): value is PromiseLike<T> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/**
 * Puts the card in front of the application on the underlying server: an Express middleware
 * (`app.use`) or a Fastify `onRequest` hook. Both are registered on the adapter's instance, so
 * they ignore Nest's global prefix and run before Nest's 404 handler; requests that are not for
 * the card pass straight on. Every HTTP decision is the core responder's.
 */
export function registerAgentCardHandler(adapter: AgentCardHttpAdapter, service: AgentCardService): void {
  const type = adapter.getType?.();
  if (type === 'express') {
    adapter.getInstance<ExpressInstanceLike>().use(expressHandler(service));
  } else if (type === 'fastify') {
    adapter.getInstance<FastifyInstanceLike>().addHook('onRequest', fastifyHook(service));
  } else {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.unsupportedAdapter(type));
  }
}

function expressHandler(service: AgentCardService) {
  const write = (res: NodeResponse, response: AgentCardResponse) => {
    res.writeHead(response.status, response.headers);
    res.end(response.body);
  };
  return (req: NodeRequest, res: NodeResponse, next: Next): void => {
    let result: ReturnType<AgentCardService['respond']>;
    try {
      // No response argument: guards find it as `req.res`, which Express sets on every request.
      result = service.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        raw: req,
        encrypted: req.socket?.encrypted === true,
        remoteAddress: req.socket?.remoteAddress,
      });
    } catch (error) {
      next(error);
      return;
    }
    if (isThenable<AgentCardResponse | undefined>(result)) {
      result.then((response) => (response ? write(res, response) : next()), next);
    } else if (result) {
      write(res, result);
    } else {
      next();
    }
  };
}

function fastifyHook(service: AgentCardService) {
  const send = (reply: FastifyReplyLike, response: AgentCardResponse) => {
    reply.code(response.status).headers(response.headers);
    const body = response.body;
    reply.send(
      body === undefined
        ? undefined
        : Buffer.isBuffer(body)
          ? body
          : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
    );
  };
  return (request: FastifyRequestLike, reply: FastifyReplyLike, done: Next): void => {
    let result: ReturnType<AgentCardService['respond']>;
    try {
      result = service.respond(
        {
          method: request.method,
          path: request.url,
          headers: request.headers,
          raw: request,
          encrypted: request.raw.socket?.encrypted === true,
          remoteAddress: request.raw.socket?.remoteAddress,
        },
        reply,
      );
    } catch (error) {
      done(error);
      return;
    }
    // Answering from a hook: send and do not call `done`, so routing never runs.
    if (isThenable<AgentCardResponse | undefined>(result)) {
      result.then((response) => (response ? send(reply, response) : done()), done);
    } else if (result) {
      send(reply, result);
    } else {
      done();
    }
  };
}
