/**
 * Local HTTP servers on 127.0.0.1 that serve an Agent Card well, or misbehave in one specific
 * way each, for the discovery client tests. Every server records the requests it got and closes
 * all of its connections on `close()`.
 */
import { createHash } from 'node:crypto';
import { type IncomingMessage, type RequestListener, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CARD_PATH = '/.well-known/agent-card.json';
export const LEGACY_PATH = '/.well-known/agent.json';

/** A v1.0 card with no validation error under the production profile. */
export const GOOD_CARD = {
  name: 'Acme Order Support',
  description: 'Answers questions about Acme orders, returns and delivery times for signed-in customers.',
  supportedInterfaces: [{ url: 'https://api.acme.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  provider: { organization: 'Acme Inc.', url: 'https://acme.io' },
  version: '1.4.0',
  documentationUrl: 'https://docs.acme.io/agents/support',
  capabilities: { streaming: true },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'order-status',
      name: 'Order status',
      description: 'Looks up the status and delivery estimate of an order.',
      tags: ['orders'],
      examples: ['Where is order 1234?'],
    },
  ],
};

/** The same card in the v0.3 shape (top-level `url`, `protocolVersion`). */
export const V03_CARD = {
  protocolVersion: '0.3.0',
  name: 'Acme Order Support',
  description: 'Answers questions about Acme orders, returns and delivery times for signed-in customers.',
  url: 'https://api.acme.io/a2a',
  preferredTransport: 'JSONRPC',
  version: '1.4.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: GOOD_CARD.skills,
};

/** A request as a server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A running local server. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** Closes every connection (also the stalled ones) and the server. */
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1, port 0. */
export async function listen(handler: RequestListener): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An origin where nothing listens: a port that was just bound and released. */
export async function refusedOrigin(): Promise<string> {
  const server = await listen(() => undefined);
  await server.close();
  return server.origin;
}

/**
 * A fetch that sends requests for the given origins to other origins, so https behaviour
 * (scheme checks, redirects, the http:// probe) can be tested against local http servers.
 * @example mapOrigins({ 'https://acme.test': server.origin })
 */
export function mapOrigins(
  map: Readonly<Record<string, string>>,
): (url: string, init: RequestInit) => Promise<Response> {
  return (url, init) => {
    const target = new URL(url);
    const to = map[target.origin];
    if (to === undefined)
      return Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${target.hostname}`), { code: 'ENOTFOUND' }),
        }),
      );
    return fetch(`${to}${target.pathname}${target.search}`, init);
  };
}

/** Serves JSON the way the middleware does: ETag, caching, CORS, HEAD, OPTIONS and 304. */
export function serveJson(
  res: ServerResponse,
  req: IncomingMessage,
  body: string | Uint8Array,
  extra: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    etag,
    'cache-control': 'public, max-age=3600',
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
    vary: 'A2A-Version',
    ...extra,
  };
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'A2A-Version',
    });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD, OPTIONS' });
    res.end();
    return;
  }
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    const { 'content-type': _type, ...rest } = headers;
    res.writeHead(304, rest);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(bytes.byteLength) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

function isCardPath(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?')[0];
  return path === CARD_PATH || path === LEGACY_PATH;
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"not found"}');
}

/** A correct server: the card at both paths, byte-identical, with every header the rules ask for. */
export function wellBehaved(card: unknown = GOOD_CARD): RequestListener {
  const body = JSON.stringify(card);
  return (req, res) => (isCardPath(req) ? serveJson(res, req, body) : notFound(res));
}

/** Streams a chunk every `everyMs` until the client goes away (never ends the body). */
function stream(res: ServerResponse, chunk: Uint8Array, everyMs: number): void {
  const timer = setInterval(() => {
    if (!res.destroyed) res.write(chunk);
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

const HTML = (title: string): string =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body><div id="root"></div></body></html>`;

/**
 * One handler per misbehaviour. Each answers the well-known paths (both, unless noted) in its
 * own broken way.
 */
export const misbehaving = {
  /** agent-card.json → /a → agent-card.json → … */
  redirectLoop: ((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    res.writeHead(302, { location: path === '/a' ? CARD_PATH : '/a' });
    res.end();
  }) as RequestListener,

  /** More same-origin hops than allowed: /hop/1 → /hop/2 → … (never repeating). */
  redirectChain: ((req, res) => {
    const match = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    const n = match ? Number(match[1]) + 1 : 1;
    res.writeHead(301, { location: `/hop/${n}` });
    res.end();
  }) as RequestListener,

  /** One same-origin redirect to where the card really is. */
  redirectOnce: ((req, res) => {
    if (req.url === '/cards/agent-card.json') {
      serveJson(res, req, JSON.stringify(GOOD_CARD));
      return;
    }
    res.writeHead(301, { location: '/cards/agent-card.json' });
    res.end();
  }) as RequestListener,

  /** Redirects the card to plain http on the same host (a downgrade when served as https). */
  redirectToHttp: ((req, res) => {
    res.writeHead(301, { location: `http://acme.test${req.url ?? '/'}` });
    res.end();
  }) as RequestListener,

  /** Redirects to another origin's login page, as auth proxies do. */
  redirectToLogin: ((req, res) => {
    res.writeHead(302, { location: `https://sso.acme-auth.test/login?next=${encodeURIComponent(req.url ?? '/')}` });
    res.end();
  }) as RequestListener,

  /** Same-origin redirect to a login form served as HTML with status 200. */
  redirectToLoginSameOrigin: ((req, res) => {
    if ((req.url ?? '').startsWith('/login')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(HTML('Sign in – Acme'));
      return;
    }
    res.writeHead(302, { location: `/login?next=${encodeURIComponent(req.url ?? '/')}` });
    res.end();
  }) as RequestListener,

  /** 200, a JSON content type, and a body that never ends (64 KiB every 5 ms). */
  endlessBody: ((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.write('{"name":"');
    stream(res, Buffer.alloc(65_536, 0x61), 5);
  }) as RequestListener,

  /** Declares and sends 5 MiB. */
  hugeBody: ((req, res) => {
    const body = Buffer.alloc(5 * 1024 * 1024, 0x20);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.byteLength) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }) as RequestListener,

  /** 2 MiB of valid JSON without Content-Length (chunked). */
  hugeChunkedBody: ((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const filler = 'x'.repeat(2 * 1024 * 1024);
    res.end(JSON.stringify({ ...GOOD_CARD, description: filler }));
  }) as RequestListener,

  /** A 200 KiB card: over the 128 KiB warning threshold, under the 1 MiB error. */
  largeCard: ((req, res) => {
    if (!isCardPath(req)) return notFound(res);
    serveJson(
      res,
      req,
      JSON.stringify({ ...GOOD_CARD, description: `${GOOD_CARD.description} ${'More detail. '.repeat(16_000)}` }),
    );
  }) as RequestListener,

  /** A 300 KiB card: over the 256 KiB card size limit of discovery, under the 1 MiB body cap. */
  cardOverLimit: ((req, res) => {
    if (!isCardPath(req)) return notFound(res);
    serveJson(
      res,
      req,
      JSON.stringify({ ...GOOD_CARD, description: `${GOOD_CARD.description} ${'More detail. '.repeat(23_700)}` }),
    );
  }) as RequestListener,

  /** Headers at once, then one byte per second. */
  slowBody: ((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    stream(res, Buffer.from(' '), 1_000);
  }) as RequestListener,

  /** Accepts the request and never answers. */
  slowHeaders: (() => undefined) as RequestListener,

  /** A JSON card with a 0xFF byte inside a string. */
  invalidUtf8: ((req, res) => {
    const json = Buffer.from(JSON.stringify(GOOD_CARD));
    const at = json.indexOf('Acme');
    json[at] = 0xff;
    serveJson(res, req, json);
  }) as RequestListener,

  /** The card with a UTF-8 BOM in front. */
  bom: ((req, res) => {
    serveJson(res, req, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(GOOD_CARD))]));
  }) as RequestListener,

  /** Not JSON at all. */
  invalidJson: ((req, res) => serveJson(res, req, '{"name": "Acme",')) as RequestListener,

  /** A single-page app: index.html with status 200 for every path. */
  spaFallback: ((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : HTML('Acme Dashboard'));
  }) as RequestListener,

  /** HTML error page with status 200 and a JSON content type (HTML labelled JSON). */
  htmlLabelledJson: ((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.method === 'HEAD' ? undefined : `\n  ${HTML('502 Bad Gateway')}`);
  }) as RequestListener,

  /** The card, but as text/plain; charset=iso-8859-1, without nosniff. */
  textPlain: ((req, res) => {
    serveJson(res, req, JSON.stringify(GOOD_CARD), {
      'content-type': 'text/plain; charset=iso-8859-1',
      'x-content-type-options': '',
    });
  }) as RequestListener,

  /** The card labelled text/html. */
  jsonAsHtml: ((req, res) => {
    serveJson(res, req, JSON.stringify(GOOD_CARD), { 'content-type': 'text/html' });
  }) as RequestListener,

  /** Drops the connection without any response. */
  abruptClose: ((req) => {
    req.socket.destroy();
  }) as RequestListener,

  /** Sends the headers and half the body, then drops the connection. */
  abruptCloseMidBody: ((req, res) => {
    const body = JSON.stringify(GOOD_CARD);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.write(body.slice(0, 40));
    setTimeout(() => req.socket.destroy(), 20);
  }) as RequestListener,

  /** Only the legacy path serves the card; agent-card.json is 404. */
  legacyOnly: ((req, res) => {
    if ((req.url ?? '').startsWith(LEGACY_PATH)) serveJson(res, req, JSON.stringify(GOOD_CARD));
    else notFound(res);
  }) as RequestListener,

  /** The legacy path serves an older card (stale copy). */
  stalePaths: ((req, res) => {
    if ((req.url ?? '').startsWith(LEGACY_PATH))
      serveJson(res, req, JSON.stringify({ ...GOOD_CARD, version: '1.3.0' }));
    else if (isCardPath(req)) serveJson(res, req, JSON.stringify(GOOD_CARD));
    else notFound(res);
  }) as RequestListener,

  /** Same document at both paths, but pretty-printed at one (same card, different bytes and ETags). */
  reformattedLegacy: ((req, res) => {
    if ((req.url ?? '').startsWith(LEGACY_PATH)) serveJson(res, req, JSON.stringify(GOOD_CARD, null, 2));
    else if (isCardPath(req)) serveJson(res, req, JSON.stringify(GOOD_CARD));
    else notFound(res);
  }) as RequestListener,

  /** A bare static host: no caching headers, no CORS, no ETag, ignores If-None-Match, no HEAD. */
  bareStatic: ((req, res) => {
    if (!isCardPath(req)) return notFound(res);
    if (req.method === 'HEAD' || req.method === 'OPTIONS') {
      res.writeHead(405);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(GOOD_CARD));
  }) as RequestListener,

  /** Caching and CORS mistakes: immutable, a year-long max-age, `*` with credentials, a new ETag per request. */
  badHeaders: (() => {
    let n = 0;
    return ((req, res) => {
      if (!isCardPath(req)) return notFound(res);
      n += 1;
      serveJson(res, req, JSON.stringify(GOOD_CARD), {
        'cache-control': 'public, max-age=31536000, immutable',
        'access-control-allow-credentials': 'true',
        etag: `"rev-${n}"`,
      });
    }) as RequestListener;
  })(),

  /** v0.3 card to header-less requests, v1.0 to `A2A-Version: 1.0`, and no Vary. */
  versionNegotiation: ((req, res) => {
    if (!isCardPath(req)) return notFound(res);
    const v1 = req.headers['a2a-version'] === '1.0';
    serveJson(res, req, JSON.stringify(v1 ? GOOD_CARD : V03_CARD), { vary: 'Accept-Encoding' });
  }) as RequestListener,

  /** Echoes the request Origin in Access-Control-Allow-Origin without Vary: Origin. */
  echoOrigin: ((req, res) => {
    if (!isCardPath(req)) return notFound(res);
    const origin = req.headers.origin;
    serveJson(res, req, JSON.stringify(GOOD_CARD), origin ? { 'access-control-allow-origin': origin } : {});
  }) as RequestListener,

  /** A plain http server that redirects every request to https on the same host (the good probe answer). */
  httpsUpgrade: ((req, res) => {
    res.writeHead(301, { location: `https://acme.test${req.url ?? '/'}` });
    res.end();
  }) as RequestListener,
} satisfies Record<string, RequestListener>;

/** Answers the card paths with `status` and a small body (JSON for 5xx, HTML for 401/403). */
export function status(code: number): RequestListener {
  return (req, res) => {
    if (code === 401)
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="acme"', 'content-type': 'application/json' });
    else res.writeHead(code, { 'content-type': 'application/json' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ error: code }));
  };
}
