import { createAgentCardResponder } from './responder';
import type { AgentCardOptions, AgentCardRequestHeaders } from './types';

/** Settings of the fetch handler itself (not of the card). */
export interface AgentCardFetchHandlerSettings {
  /**
   * A path prefix to strip before matching, for hosts that hand over the full URL of a request
   * routed to a sub-path (e.g. `'/api'` serves `/api/.well-known/agent-card.json`). Requests
   * outside the prefix fall through.
   * @default '' (paths are matched from the root)
   */
  basePath?: string;
}

/** What a web-standard host knows about the connection and `Request` does not carry. */
export interface AgentCardFetchConnection {
  /**
   * The peer's address (Bun `server.requestIP(req)?.address`, Deno `info.remoteAddr.hostname`,
   * Hono `getConnInfo(c).remote.address`): needed when `trustProxy` is a list or a function.
   */
  remoteAddress?: string;
  /**
   * The request target as the client sent it, where the host keeps it (Node's `req.url`, e.g.
   * `c.env.incoming.url` on `@hono/node-server`). `Request.url` is already normalised by the
   * runtime's URL parser (dot segments resolved, `%2e` read as `.`); with the raw target, paths
   * are compared as sent, as on every adapter. Ignored when it is not the target of this
   * `Request` (one the app rewrote).
   */
  target?: string;
}

/** A web-standard request handler: a `Response`, or `undefined` when the request is not for the card. */
export type AgentCardFetchHandler = (
  request: Request,
  connection?: AgentCardFetchConnection,
) => Promise<Response | undefined>;

/** Path + query of an absolute URL, without building a URL object. */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme === -1 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  if (slash === -1) return '/';
  const hash = url.indexOf('#', slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

/**
 * `target` when it is the request target of `url` (as sent, or what the URL parser made of it),
 * else the path of `url`.
 */
function targetOf(url: string, target: string | undefined): string {
  if (typeof target === 'string' && target !== '') {
    const scheme = url.indexOf('://');
    const start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
    // As sent: the URL is the origin plus the target, unchanged (the common case, no parsing).
    if (start !== -1 && url.length - start === target.length && url.endsWith(target)) return target;
    try {
      if (new URL(target, url).href === url) return target;
    } catch {
      // Not a target of this URL: the app rewrote the request.
    }
  }
  return pathOf(url);
}

function hostOf(url: string): string | undefined {
  const scheme = url.indexOf('://');
  if (scheme === -1) return undefined;
  const end = url.slice(scheme + 3).search(/[/?#]/);
  const authority = end === -1 ? url.slice(scheme + 3) : url.slice(scheme + 3, scheme + 3 + end);
  return authority.slice(authority.lastIndexOf('@') + 1) || undefined;
}

/**
 * The responder as a `fetch`-style handler, for web-standard hosts (Hono, Bun, Deno, Next.js
 * route handlers, Cloudflare Workers). Same options, same answers as every adapter; `raw` (what
 * `authenticate` and a dynamic `card` receive) is the `Request`.
 *
 * Paths are compared as the path of `request.url`, which the runtime has already normalised (the
 * handler cannot see `/a/../b` or `%2e%2e` as sent); pass `connection.target` where the host keeps
 * the raw request target, and those fall through as on every adapter.
 *
 * @example
 * const cardHandler = createAgentCardFetchHandler({ card })
 * Bun.serve({
 *   fetch: async (req, server) =>
 *     (await cardHandler(req, { remoteAddress: server.requestIP(req)?.address })) ?? app.fetch(req),
 * })
 */
export function createAgentCardFetchHandler(
  options?: AgentCardOptions<Request>,
  settings: AgentCardFetchHandlerSettings = {},
): AgentCardFetchHandler {
  const responder = createAgentCardResponder<Request>(options);
  let base = settings.basePath ?? '';
  if (base.endsWith('/')) base = base.slice(0, -1);
  return async (request, connection) => {
    let path = targetOf(request.url, connection?.target);
    if (base !== '') {
      if (
        !path.startsWith(base) ||
        (path.length > base.length && path[base.length] !== '/' && path[base.length] !== '?')
      )
        return undefined;
      path = path.slice(base.length) || '/';
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // Some hosts keep the authority only in the URL; the origin of a dynamic card needs it.
    if (headers.host === undefined) {
      const host = hostOf(request.url);
      if (host !== undefined) headers.host = host;
    }
    const res = await responder.respond({
      method: request.method,
      path,
      headers: headers as AgentCardRequestHeaders,
      raw: request,
      encrypted: request.url.startsWith('https:'),
      remoteAddress: connection?.remoteAddress,
    });
    if (res === undefined) return undefined;
    return new Response(request.method === 'HEAD' ? null : (res.body ?? null), {
      status: res.status,
      headers: res.headers,
    });
  };
}
