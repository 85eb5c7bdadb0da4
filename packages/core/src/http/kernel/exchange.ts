// What passes between an adapter and the responder: one request in, one prebuilt answer out.
// Nothing here depends on a feature, so every part of http/ can import it.
import type { RequestBodyReader } from './body';

/**
 * Request headers as Node, Express, Koa and Fastify expose them: lower-case names, repeated
 * headers as arrays.
 */
export type AgentCardRequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * What an adapter hands to {@link AgentCardResponder.respond}: a framework-neutral view of one
 * request.
 */
export interface AgentCardRequest<Req = unknown> {
  /** The HTTP method, upper case. */
  method: string;
  /**
   * The request path relative to where the middleware is mounted, with its query string if any
   * (Express `req.url` inside `app.use('/base', …)`, Koa `ctx.url`).
   */
  path: string;
  /** Request headers (lower-case names). */
  headers: AgentCardRequestHeaders;
  /**
   * The framework's own request object. Passed through, untouched, to `authenticate` and to a
   * dynamic `card` function; core never reads it.
   */
  raw?: Req;
  /** Whether the connection itself is TLS (used for the origin only when no proxy is trusted). */
  encrypted?: boolean;
  /**
   * The address of the peer of the connection (Node's `socket.remoteAddress`): the first hop a
   * `dynamic.trustProxy` list or function is asked about.
   */
  remoteAddress?: string;
  /**
   * Reads the request body, bounded in bytes and time, for a route that takes one (the ARD
   * registry's `POST /search`). The bridges set it on `POST` requests; nothing reads a body
   * otherwise.
   */
  readBody?: RequestBodyReader;
}

/**
 * What {@link AgentCardResponder.respond} answers. Adapters write it as is: `status`, every
 * header in `headers`, then `body` (absent for HEAD, 204, 304).
 *
 * For the public card the `headers` object is computed once per card variant and shared between
 * requests: adapters must not mutate it.
 */
export interface AgentCardResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
}

/** The context a dynamic card function receives. */
export interface AgentCardContext<Req = unknown> {
  /**
   * `scheme://host` the client used, one of `dynamic.allowedOrigins`. Taken from `Forwarded`
   * (RFC 7239) or `X-Forwarded-Proto`/`X-Forwarded-Host` only when `dynamic.trustProxy` trusts
   * the peer; otherwise from the `Host` header and the connection, i.e. chosen by the client.
   */
  origin: string;
  /** The tenant, when `dynamic.tenant` resolves one for this request. */
  tenant?: string;
  /** Request headers (lower-case names). */
  headers: AgentCardRequestHeaders;
  /** The framework's request object. */
  raw?: Req;
}
