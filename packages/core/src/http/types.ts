import type { AgentCard, AgentSkill } from '../model';
import type { ValidationProfile } from '../findings';
import type { SignAgentCardOptions } from '../sign/sign';
import type { AgentCardSigningOptions } from '../sign/signing-options';
import type { TrustProxySetting } from './trust';
import type { AgentOptions, AiCatalogServeOptions } from './agents';
import type { AgentCardViewerOptions } from './viewer';

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
   * `trustProxy` list or function is asked about.
   */
  remoteAddress?: string;
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
   * `scheme://host` the client used, one of `allowedOrigins`. Taken from `Forwarded` (RFC 7239) or
   * `X-Forwarded-Proto`/`X-Forwarded-Host` only when `trustProxy` trusts the peer; otherwise from
   * the `Host` header and the connection, i.e. chosen by the client.
   */
  origin: string;
  /** The tenant, when `tenant` option resolves one for this request. */
  tenant?: string;
  /** Request headers (lower-case names). */
  headers: AgentCardRequestHeaders;
  /** The framework's request object. */
  raw?: Req;
}

/**
 * The principal `authenticate` returns: anything truthy identifies the caller; `undefined`,
 * `null` or `false` means "not authenticated".
 */
export type Principal = NonNullable<unknown>;

/** Extended card settings (spec §3.1.11, §13.3). */
export interface ExtendedAgentCardOptions<Req = unknown, P extends Principal = Principal> {
  /**
   * Decides who may read the extended card. Return a principal, or nothing for 401.
   * Runs for every extended-card request (it is not cached).
   */
  authenticate: (request: Req) => P | undefined | null | false | Promise<P | undefined | null | false>;
  /**
   * What the extended card adds for this principal: extra skills, or a partial card merged over
   * the public one.
   */
  card?:
    | Partial<AgentCard>
    | readonly AgentSkill[]
    | ((
        principal: P,
      ) => Partial<AgentCard> | readonly AgentSkill[] | Promise<Partial<AgentCard> | readonly AgentSkill[]>);
  /**
   * Path (relative to the mount point) of the REST `GetExtendedAgentCard` endpoint, or a list of
   * them; `false` serves none (use `getExtendedAgentCard()`). Required with a card function: only
   * a declared path builds a variant.
   * @default for a static card, the path of each HTTP+JSON interface + `/extendedAgentCard`
   */
  path?: string | readonly string[] | false;
  /**
   * The `realm` of the `WWW-Authenticate` challenges sent with a 401.
   * @default the card's `name` (printable ASCII only)
   */
  realm?: string;
  /** Distinct extended cards kept prepared (validated, serialised, hashed). @default 100 */
  maxVariants?: number;
}

/** Options shared by every adapter (`agentCard(options)`) and {@link createAgentCardResponder}. */
export interface AgentCardOptions<Req = unknown> {
  /**
   * The card, or a function of the request that returns it (sync or async). Functions are
   * called once per distinct variant and cached (see `cacheKey`, `maxVariants`).
   * @default `loadAgentCardConfig()` — `agent-card.json` plus `package.json` from the cwd
   */
  card?: AgentCard | ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>);
  /** Validation profile. @default `production` when NODE_ENV=production, else `development` */
  profile?: ValidationProfile;
  /** @default `application/a2a+json` */
  contentType?: string;
  /** `Cache-Control` of the public card; `false` sends none. @default `public, max-age=3600` */
  cacheControl?: string | false;
  /**
   * CORS: `*` (default), a list of allowed origins (echoed, with `Vary: Origin`), or `false`.
   * @default '*'
   */
  cors?: '*' | readonly string[] | false;
  /**
   * `/.well-known/agent.json`: `true` serves a byte-identical alias, `'v0.3'` serves a
   * v0.3-compatible superset card, `false` leaves the path to the app.
   * @default true
   */
  legacy?: boolean | 'v0.3';
  /** Extended card, when `capabilities.extendedAgentCard` is true. */
  extended?: ExtendedAgentCardOptions<Req, any>;
  /**
   * Which proxies may tell the origin of a dynamic card through `Forwarded` (RFC 7239) or
   * `X-Forwarded-Proto` / `X-Forwarded-Host`, in the forms Express' `trust proxy` takes: `true`
   * (the peer of the connection, one hop), a hop count, addresses / CIDR ranges / `loopback` /
   * `linklocal` / `uniquelocal`, or `(address, hop) => boolean`. Only the element added by the
   * outermost trusted proxy is read, found by walking `X-Forwarded-For` / `Forwarded` from the
   * right starting with the peer's address.
   * @default false
   * @example trustProxy: ['loopback', '10.0.0.0/8']
   */
  trustProxy?: TrustProxySetting;
  /**
   * For dynamic cards: the origins (`https://agent.example.com`) or hosts (`localhost:3000`,
   * either scheme) a variant may be built for, or `(origin) => boolean`. A request for any other
   * origin gets a fixed 400 and never reaches `card`. Required unless `cacheKey` is set; with a
   * `cacheKey` and no `allowedOrigins`, `ctx.origin` is not available to `card` and `cacheKey`
   * (reading it throws), since it is whatever `Host` the client sent.
   */
  allowedOrigins?: readonly string[] | ((origin: string) => boolean);
  /**
   * For dynamic cards: variants built at the same time. A request that needs one more gets 503
   * with `Retry-After` and does not call `card`. @default 10
   */
  maxConcurrentBuilds?: number;
  /**
   * For dynamic cards: resolves the tenant of a request (e.g. from a header or the raw
   * request); it is passed to `card` as `ctx.tenant` and is part of the default variant key.
   */
  tenant?: (request: AgentCardRequest<Req>) => string | undefined;
  /**
   * For dynamic cards with `tenant`: the tenants a variant may be built for, or
   * `(tenant) => boolean` (synchronous; only `true` admits). A request whose tenant is not
   * allowed gets a fixed 400 and never reaches `card`. Required with `tenant`: a tenant taken
   * from a header or a path is the client's to choose.
   */
  allowedTenants?: readonly string[] | ((tenant: string) => boolean);
  /**
   * For dynamic cards: the variant key. Without `allowedOrigins`, `ctx.origin` is not available
   * to it nor to `card`; with them, put the origin in the key when `card` reads it.
   * @default the origin (+ tenant)
   */
  cacheKey?: (ctx: AgentCardContext<Req>) => string;
  /** Maximum cached variants of a dynamic card (least recently used are dropped). @default 100 */
  maxVariants?: number;
  /**
   * For dynamic cards: seconds after which a variant is rebuilt by calling `card` again
   * (on the next request for it). @default variants are kept until evicted
   */
  variantMaxAge?: number;
  /**
   * For dynamic cards: when rebuilding a variant fails (provider throws or returns an invalid
   * card), keep serving its last good bytes and retry after `retryAfter` seconds. Pairs with
   * `variantMaxAge`. @default false
   */
  staleIfError?: boolean;
  /** `Retry-After` seconds on 503. @default 30 */
  retryAfter?: number;
  /** Called with provider and authenticate errors (never with a request's secrets). */
  onError?: (error: unknown) => void;
  /** Where warnings found at start-up go. @default console */
  logger?: Pick<Console, 'warn'>;
  /**
   * Signs the served card (JWS over the canonical card, spec §8.4, see `signAgentCard`): once
   * per variant when it is built (at start-up for a static card), never per request, so the
   * bytes, the ETag and 304 answers stay stable. The signatures (one per key and canonical
   * form) are appended to any the card already has; the legacy v0.3 card and the extended card
   * are served unsigned. One key, a list of keys (rotation), or `{ keys, publish, jwksPath }`;
   * the public keys are served as a JWK Set at `/.well-known/jwks.json` unless `jwksPath: false`.
   *
   * A signature must never cover URLs taken from request headers, so with a card function
   * `sign` requires an explicit `cacheKey`, refuses `trustProxy`, and `ctx.origin` is not
   * available to `card` and `cacheKey` (reading it throws): build URLs from configuration.
   * @example sign: { privateKey: process.env.CARD_KEY_PEM, alg: 'ES256' }
   * @example sign: { keys: [newKey, oldKey], publish: [nextPublicJwk] }
   */
  sign?: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions;
  /**
   * Several agents from one middleware: each card at `{path}/.well-known/agent-card.json` with
   * everything a single card has (ETag, 304, CORS, its own extended card, signing, card
   * functions). The other top-level options apply to every agent that does not set its own
   * (`extended` is per agent). Cannot be combined with `card`.
   * @example agents: [{ id: 'billing', path: '/agents/billing', card: billingCard }]
   */
  agents?: readonly AgentOptions<Req>[];
  /** With `agents`: the id of the agent also served at the root `/.well-known/agent-card.json`. */
  default?: string;
  /**
   * With `agents`: the AI Catalog served at `/.well-known/ai-catalog.json` (listing every agent,
   * plus `entries` hosted elsewhere), linked from every card response; `false` serves none.
   * @default a catalog without `host`
   */
  catalog?: AiCatalogServeOptions | false;
  /**
   * Serves the card as a page people can read (name, interfaces, security schemes in words,
   * skills, signature, raw JSON) at `/.well-known/agent-card.html`, next to the card. Off by
   * default. Built from the served public card, once per card variant: static bytes with a strong
   * ETag, 304, HEAD, 405, `text/html; charset=utf-8`, `X-Content-Type-Options: nosniff` and a
   * `Content-Security-Policy` that allows nothing but the page's own inline style and script.
   * The page never shows extended-card content. With `agents`, each agent has its page at
   * `{path}/.well-known/agent-card.html` (the default agent's also at the root) and
   * `/.well-known/ai-catalog.html` lists every agent of the catalog. A page path that another
   * route of the middleware serves is a start-up error.
   * @default false
   * @example viewer: true
   * @example viewer: { path: '/.well-known/agent.html' }
   */
  viewer?: boolean | AgentCardViewerOptions;
}

/** Answers requests for the card; built once by {@link createAgentCardResponder}. */
export interface AgentCardResponder<Req = unknown> {
  /**
   * Answers one request, or returns `undefined` when the request is not for the card (the
   * adapter then passes it on to the app). Synchronous for a static card.
   */
  respond(request: AgentCardRequest<Req>): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>;
  /**
   * Replaces a static card at run time. The new card is validated with the responder's profile,
   * signed (with `sign`), serialised and hashed once, then swapped in: a request is answered
   * wholly from the old card or wholly from the new one, each with its own ETag.
   * @throws AgentCardError `ERR_AGENT_CARD_INVALID` listing every error; the served card is
   *   unchanged. `ERR_AGENT_CARD_OPTIONS` when `card` is a function (a per-request card changes
   *   with what the function returns).
   * @example
   * responder.update({ ...card, skills: [...card.skills, newSkill] })
   */
  update(card: AgentCard, changes?: AgentCardUpdate): void;
}

/** What else {@link AgentCardResponder.update} changes besides the public card. */
export interface AgentCardUpdate {
  /** Replaces `extended.card` for the new card (and later updates); validated with it. */
  extendedCard?: ExtendedAgentCardOptions<any>['card'];
}
