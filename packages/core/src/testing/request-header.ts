/**
 * Reads a request header from whatever `raw` request object a host hands to `authenticate`:
 * Node `IncomingMessage` / Express `req` / Fastify `request` (`headers` object), Koa `ctx`
 * (`headers` or `request.headers`), a web `Request` (`headers.get`), or a Hono `Context`
 * (`req.raw.headers`).
 */
export function readRequestHeader(raw: unknown, name: string): string | undefined {
  const r = raw as
    | { headers?: unknown; request?: { headers?: unknown }; req?: { headers?: unknown; raw?: { headers?: unknown } } }
    | undefined;
  const sources = [r?.headers, r?.request?.headers, r?.req?.headers, r?.req?.raw?.headers];
  for (const headers of sources) {
    if (headers === undefined || headers === null) continue;
    if (typeof (headers as Headers).get === 'function') {
      const v = (headers as Headers).get(name);
      if (v !== null) return v;
      continue;
    }
    const v = (headers as Record<string, unknown>)[name.toLowerCase()];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}
