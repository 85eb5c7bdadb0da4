import type { AgentCardRequest, AgentCardRequestHeaders, AgentCardResponse } from '../http';
import { nativeBytes } from '../bytes';
import { isPromiseLike } from '../util';
import { readNodeBody } from './node-body';

/**
 * The part of a Node request the bridge reads: Node's `IncomingMessage`, and the request objects
 * of Express, Koa (`ctx`) and Fastify (`request`), which all carry these members. Declared
 * structurally: core does not depend on `node:http`.
 */
export interface AgentCardNodeRequest {
  /** Request method, upper case. */
  readonly method?: string;
  /** The request target (path and query), relative to the framework's mount path. */
  readonly url?: string;
  /** Request headers: lower-case names, repeated headers as arrays. */
  readonly headers: AgentCardRequestHeaders;
  /** The connection: whether it is TLS, and the peer's address. */
  readonly socket?: { readonly encrypted?: boolean; readonly remoteAddress?: string } | null;
}

/** The part of Node's `ServerResponse` the default writer uses. */
export interface AgentCardNodeResponse {
  writeHead(status: number, headers: Readonly<Record<string, string>>): unknown;
  end(body?: Uint8Array): unknown;
}

/**
 * What the bridge calls `respond` on: an `AgentCardResponder`, or anything with the same
 * `respond`, which also receives the response object the bridge writes to.
 */
export interface AgentCardNodeResponder<Req, Out> {
  respond(
    request: AgentCardRequest<Req>,
    out: Out,
  ): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>;
}

/** Settings of {@link createAgentCardNodeHandler}. */
export interface AgentCardNodeHandlerSettings<Out, R> {
  /**
   * A path prefix to strip before matching, for hosts whose request URL still carries the mount
   * path (Fastify's `prefix`): `'/api'` serves `/api/.well-known/agent-card.json`. Requests
   * outside it go to `next()`; `/apiary` is not under `/api`.
   * @default '' (paths are matched as `url` gives them)
   */
  basePath?: string;
  /**
   * Writes a response. The headers object is final (ETag, Content-Length and Content-Type
   * included) and shared between requests: write it as is, do not mutate it.
   * @default `out.writeHead(status, headers)` then `out.end(body)`
   */
  write?: (out: Out, response: AgentCardResponse) => R;
  /**
   * Where a failure of an asynchronous answer (a dynamic card or `authenticate` that throws) goes:
   * `'next'` hands it to `next(error)` (Connect, Express, Fastify hooks), `'return'` returns the
   * rejected promise (Koa). A synchronous throw is never caught: the framework's own handling
   * sees it as from any middleware.
   * @default 'next'
   */
  errors?: 'next' | 'return';
}

/**
 * What {@link createAgentCardNodeHandler} returns: called with the request, the object to write
 * to and the framework's `next`. It returns what `write` or `next` returned, or, for an answer
 * that is not ready at once, a promise of it (`errors: 'return'`) or `undefined` (`errors: 'next'`).
 */
export type AgentCardNodeHandler<Req, Out, R> = (
  req: Req,
  out: Out,
  next: (error?: unknown) => R,
) => R | Promise<R> | undefined;

/** `base` without trailing slashes: `''` for the root. */
export function normalizeBasePath(base: string | undefined): string {
  let out = base ?? '';
  while (out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/**
 * The request target relative to `base` (as {@link normalizeBasePath} gives it), or `undefined`
 * when the target is outside it (`/apiary` is not under `/api`). `/api?x` is `/?x`.
 */
export function stripBasePath(target: string, base: string): string | undefined {
  if (base === '') return target;
  if (!target.startsWith(base)) return undefined;
  if (target.length === base.length) return '/';
  const next = target.charCodeAt(base.length);
  if (next === 47) return target.slice(base.length);
  if (next === 63) return `/${target.slice(base.length)}`;
  return undefined;
}

/**
 * The framework-neutral request core answers, for a Node request whose path (relative to the
 * mount path) is `path`. `raw`, what `authenticate` and a dynamic card receive, is `req` itself.
 * Own data properties only: core may copy it (`{ ...request, path }`) to route it to one agent.
 */
export function toAgentCardRequest<Req extends AgentCardNodeRequest>(req: Req, path: string): AgentCardRequest<Req> {
  const socket = req.socket;
  const method = req.method as string;
  return {
    method,
    path,
    headers: req.headers,
    raw: req,
    encrypted: socket?.encrypted === true,
    // The socket's peer, not a framework's `ip` (which follows the framework's own proxy trust).
    remoteAddress: socket?.remoteAddress,
    // Only a POST may carry a body a route reads (the registry's search); no closure otherwise.
    readBody: method === 'POST' ? (limits) => readNodeBody(req, limits) : undefined,
  };
}

function writeHeadEnd(out: AgentCardNodeResponse, response: AgentCardResponse): undefined {
  // The headers object is final (ETag, Content-Length and Content-Type included): nothing is
  // recomputed or added, and HEAD, 204 and 304 carry no body.
  out.writeHead(response.status, response.headers);
  out.end(response.body);
  return undefined;
}

/** The part of a Fastify reply {@link writeFastifyReply} uses (Fastify 4 and 5). */
export interface AgentCardFastifyReply {
  code(status: number): AgentCardFastifyReply;
  headers(headers: Readonly<Record<string, string>>): AgentCardFastifyReply;
  send(payload?: unknown): unknown;
}

/**
 * The `write` of {@link createAgentCardNodeHandler} for Fastify (the Fastify adapter and Nest on
 * Fastify): `reply.send` keeps the app's `onSend`/`onResponse` hooks and logging, and the headers
 * object is final (ETag, Content-Length and Content-Type included), kept by Fastify as given.
 * Fastify sends a `Buffer` as it is and would serialise another `Uint8Array` as JSON, so the body
 * goes as a `Buffer` over the same bytes.
 * @example createAgentCardNodeHandler(responder, { write: writeFastifyReply })
 */
export function writeFastifyReply(reply: AgentCardFastifyReply, response: AgentCardResponse): undefined {
  const body = response.body === undefined ? undefined : nativeBytes(response.body);
  reply.code(response.status).headers(response.headers).send(body);
  return undefined;
}

/**
 * The Node bridge: a Node request in, core's prebuilt `AgentCardResponse` out, for every
 * framework on Node. Each request is turned into an `AgentCardRequest` (method, path relative to
 * `basePath`, headers, the connection's TLS and peer address, the request itself as `raw`) and
 * answered by `responder`: the response goes to `write` (by default `writeHead` + `end`), a
 * request that is not for the card to `next()`. A static card is answered in the same tick, with
 * no promise; only an answer the responder returns as a promise (a dynamic card, `authenticate`)
 * waits for it.
 *
 * @example
 * // node:http
 * const card = createAgentCardNodeHandler(createAgentCardResponder({ card }))
 * http.createServer((req, res) => card(req, res, (error) => app(req, res, error))).listen(3000)
 * @example
 * // a Fastify `onRequest` hook that keeps `reply.send` (and so the app's `onSend` hooks)
 * const handle = createAgentCardNodeHandler(responder, {
 *   basePath: fastify.prefix,
 *   write: (reply, response) => void reply.code(response.status).headers(response.headers).send(response.body),
 * })
 * fastify.addHook('onRequest', (request, reply, done) => void handle(request, reply, done))
 */
export function createAgentCardNodeHandler<
  Req extends AgentCardNodeRequest,
  Out = AgentCardNodeResponse,
  R = undefined,
>(
  responder: AgentCardNodeResponder<Req, Out>,
  settings: AgentCardNodeHandlerSettings<Out, R> = {},
): AgentCardNodeHandler<Req, Out, R> {
  const base = normalizeBasePath(settings.basePath);
  const write = settings.write ?? (writeHeadEnd as unknown as (out: Out, response: AgentCardResponse) => R);
  const report = settings.errors !== 'return';
  return function agentCardNodeHandler(req, out, next) {
    const path = base === '' ? (req.url as string) : stripBasePath(req.url as string, base);
    if (path === undefined) return next();
    const result = responder.respond(toAgentCardRequest(req, path), out);
    if (result === undefined) return next();
    if (!isPromiseLike(result)) return write(out, result);
    const answered = result.then((response) => (response === undefined ? next() : write(out, response)));
    if (!report) return answered;
    answered.then(undefined, next);
    return undefined;
  };
}
