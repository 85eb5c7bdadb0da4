import type { AgentCardContext, AgentCardRequest } from '../kernel/exchange';
import type { TrustProxySetting } from '../kernel/trust';

/**
 * The `dynamic` option: how a card function (`card: (ctx) => card`) is keyed, bounded and
 * kept. `trustProxy`, `maxVariants` and `retryAfter` also apply to a static card (the origin of a
 * dynamic AI Catalog, the viewer's pages, the `Retry-After` of a 503); the others only to a card
 * function.
 */
export interface DynamicCardOptions<Req = unknown> {
  /**
   * For dynamic cards: the origins (`https://agent.example.com`) or hosts (`localhost:3000`,
   * either scheme) a variant may be built for, or `(origin) => boolean`. A request for any other
   * origin gets a fixed 400 and never reaches `card`. Required unless `cacheKey` is set; with a
   * `cacheKey` and no `allowedOrigins`, `ctx.origin` is not available to `card` and `cacheKey`
   * (reading it throws), since it is whatever `Host` the client sent.
   */
  allowedOrigins?: readonly string[] | ((origin: string) => boolean);
  /**
   * For dynamic cards with `tenant`: the tenants a variant may be built for, or
   * `(tenant) => boolean` (synchronous; only `true` admits). A request whose tenant is not
   * allowed gets a fixed 400 and never reaches `card`. Required with `tenant`: a tenant taken
   * from a header or a path is the client's to choose.
   */
  allowedTenants?: readonly string[] | ((tenant: string) => boolean);
  /**
   * Which proxies may tell the origin of a dynamic card through `Forwarded` (RFC 7239) or
   * `X-Forwarded-Proto` / `X-Forwarded-Host`, in the forms Express' `trust proxy` takes: `true`
   * (the peer of the connection, one hop), a hop count, addresses / CIDR ranges / `loopback` /
   * `linklocal` / `uniquelocal`, or `(address, hop) => boolean`. Only the element added by the
   * outermost trusted proxy is read, found by walking `X-Forwarded-For` / `Forwarded` from the
   * right starting with the peer's address.
   * @default false
   * @example dynamic: { trustProxy: ['loopback', '10.0.0.0/8'] }
   */
  trustProxy?: TrustProxySetting;
  /**
   * For dynamic cards: resolves the tenant of a request (e.g. from a header or the raw
   * request); it is passed to `card` as `ctx.tenant` and is part of the default variant key.
   */
  tenant?: (request: AgentCardRequest<Req>) => string | undefined;
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
  /**
   * For dynamic cards: variants built at the same time. A request that needs one more gets 503
   * with `Retry-After` and does not call `card`. @default 10
   */
  maxConcurrentBuilds?: number;
  /** `Retry-After` seconds on 503. @default 30 */
  retryAfter?: number;
}
