// The `dynamic` option: what a card function is keyed by, how many variants are kept and built,
// and which proxies may tell the origin. Also the old top-level spelling, which is refused with
// the new one.
import { AgentCardError } from '../../errors';
import { unknownOption } from '../../nearest';
import type { AgentCard } from '../../model';
import { type CardSettings, DYNAMIC_KEYS, DYNAMIC_ONLY } from '../kernel/options';
import { isPositiveInt, type Report } from '../kernel/problems';
import type { AgentCardContext, AgentCardRequest } from '../kernel/exchange';
import { type ProxyTrust, resolveTrustProxy } from '../kernel/trust';
import type { DynamicCardOptions } from './types';

/** `dynamic` after validation, with every default applied. */
export interface DynamicSettings<Req = unknown> {
  /** The card function (guarded against reading `ctx.origin` where it must not); `undefined` for a static card. */
  card: ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>) | undefined;
  /** `undefined` when no proxy is trusted. */
  trustProxy: ProxyTrust | undefined;
  /** Whether a request's origin may have a variant; `undefined` allows every origin. */
  allowOrigin: ((origin: string) => boolean) | undefined;
  /** The request headers a dynamic variant depends on (`Vary`); empty for a static card. */
  vary: readonly string[];
  maxConcurrentBuilds: number;
  cacheKey: ((ctx: AgentCardContext<Req>) => string) | undefined;
  tenant: ((request: AgentCardRequest<Req>) => string | undefined) | undefined;
  /** Whether a resolved tenant may have a variant; `undefined` without `tenant`. */
  allowTenant: ((tenant: string) => boolean) | undefined;
  maxVariants: number;
  variantMaxAge: number | undefined;
  staleIfError: boolean;
  retryAfter: number;
}

/**
 * Checks `dynamic` for the card in `settings` and returns it resolved. A card function's own
 * rules (required `allowedOrigins`, `allowedTenants` with `tenant`, what `sign` needs) are
 * checked here too, and with `sign` or a `cacheKey` without `allowedOrigins` the card function
 * and `cacheKey` are wrapped so that reading `ctx.origin` throws.
 */
export function resolveDynamic<Req>(
  value: unknown,
  settings: CardSettings<Req>,
  err: Report,
  problems: string[],
): DynamicSettings<Req> {
  const d = membersOf(value, err, problems);
  const trusted = resolveTrustProxy(d.trustProxy);
  for (const problem of trusted.problems)
    err(
      'dynamic.trustProxy',
      problem,
      d.trustProxy,
      "Use true (the peer is the proxy), a hop count such as 2, addresses or CIDR ranges such as ['loopback', '10.0.0.0/8'], or (address, hop) => boolean.",
    );
  const allowOrigin = resolveAllowedOrigins(d.allowedOrigins, err);
  const allowTenant = resolveAllowedTenants(d.allowedTenants, err);
  checkMembers(d, err);
  const dynamic = typeof settings.card === 'function';
  if (dynamic) checkCardFunction(d, settings, trusted.trust, err);
  else checkStaticCard(d, err);
  const { card, cacheKey } = dynamic ? guardOrigin(d, settings) : { card: undefined, cacheKey: d.cacheKey };
  return {
    card,
    trustProxy: trusted.trust,
    allowOrigin,
    vary: dynamic && settings.signing === undefined ? originVary(trusted.trust) : [],
    maxConcurrentBuilds: (d.maxConcurrentBuilds as number | undefined) ?? 10,
    cacheKey,
    tenant: d.tenant,
    allowTenant: d.tenant === undefined ? undefined : allowTenant,
    maxVariants: d.maxVariants ?? 100,
    variantMaxAge: d.variantMaxAge,
    staleIfError: d.staleIfError ?? false,
    retryAfter: d.retryAfter ?? 30,
  };
}

/** `dynamic` as an object of known members (an empty one when it is not set or not an object). */
function membersOf(value: unknown, err: Report, problems: string[]): DynamicCardOptions<any> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    err('dynamic', 'must be an object', value, "Pass e.g. dynamic: { allowedOrigins: ['https://agent.example.com'] }.");
    return {};
  }
  for (const key of Object.keys(value))
    if (!(DYNAMIC_KEYS as readonly string[]).includes(key))
      problems.push(unknownOption(`options.dynamic.${key}`, key, DYNAMIC_KEYS, 'DynamicCardOptions'));
  return value as DynamicCardOptions<any>;
}

/** The members' own types and ranges. */
function checkMembers(d: DynamicCardOptions<any>, err: Report): void {
  if (d.staleIfError !== undefined && typeof d.staleIfError !== 'boolean')
    err('dynamic.staleIfError', 'must be a boolean', d.staleIfError, 'Use true or false.');
  if (d.maxConcurrentBuilds !== undefined && !isPositiveInt(d.maxConcurrentBuilds))
    err('dynamic.maxConcurrentBuilds', 'must be a positive integer', d.maxConcurrentBuilds, 'Use e.g. 10.');
  for (const key of ['cacheKey', 'tenant'] as const) {
    if (d[key] !== undefined && typeof d[key] !== 'function')
      err(`dynamic.${key}`, 'must be a function', d[key], 'Pass a function or leave it out.');
  }
  if (d.maxVariants !== undefined && !isPositiveInt(d.maxVariants))
    err('dynamic.maxVariants', 'must be a positive integer', d.maxVariants, 'Use e.g. 100.');
  const maxAge = d.variantMaxAge;
  if (maxAge !== undefined && !(typeof maxAge === 'number' && maxAge > 0 && Number.isFinite(maxAge)))
    err(
      'dynamic.variantMaxAge',
      'must be a positive number of seconds',
      maxAge,
      'Use e.g. 300, or leave it out to keep variants until evicted.',
    );
  const retry = d.retryAfter;
  if (retry !== undefined && !(typeof retry === 'number' && Number.isInteger(retry) && retry >= 0))
    err('dynamic.retryAfter', 'must be a whole number of seconds', retry, 'Use e.g. 30.');
}

/** A static card accepts only the members that also serve it. */
function checkStaticCard(d: DynamicCardOptions<any>, err: Report): void {
  for (const key of DYNAMIC_ONLY) {
    const value = (d as Record<string, unknown>)[key];
    if (value !== undefined && value !== false)
      err(
        `dynamic.${key}`,
        'only applies to a dynamic card',
        key === 'variantMaxAge' || key === 'maxConcurrentBuilds' ? value : 'set',
        'Make card a function of the request context, or remove this option.',
      );
  }
}

/** What a card function needs: bounded keys, and with `sign` nothing taken from request headers. */
function checkCardFunction<Req>(
  d: DynamicCardOptions<Req>,
  settings: CardSettings<Req>,
  trust: ProxyTrust | undefined,
  err: Report,
): void {
  if (d.allowedOrigins === undefined && d.cacheKey === undefined)
    err(
      'dynamic.allowedOrigins',
      'is required with a card function keyed by origin, otherwise every new Host header costs a call to card and a validation',
      'not set',
      "List the origins that serve the card, e.g. ['https://agent.example.com'], pass (origin) => boolean, or set cacheKey.",
    );
  if (typeof d.tenant === 'function' && d.allowedTenants === undefined)
    err(
      'dynamic.allowedTenants',
      'is required with tenant, otherwise every tenant value a client sends costs a call to card and a validation, and evicts cached variants',
      'not set',
      "List the tenants, e.g. ['acme', 'globex'], or pass (tenant) => boolean that checks them.",
    );
  if (d.tenant === undefined && d.allowedTenants !== undefined)
    err(
      'dynamic.allowedTenants',
      'only applies with tenant',
      'set',
      'Add tenant: (request) => string | undefined, or remove allowedTenants.',
    );
  if (!settings.signed) return;
  // A signature over URLs that came from Host, Forwarded or X-Forwarded-* would vouch for
  // whatever a client sent; a signed dynamic card must be keyed and built from configuration only.
  if (trust !== undefined)
    err(
      'sign',
      `cannot sign a card function with trustProxy${d.trustProxy === true ? ': true' : ' set'}, its URLs could come from Forwarded or X-Forwarded-* headers`,
      d.trustProxy,
      'Set trustProxy to false and build the URLs from configuration, or serve a static card.',
    );
  if (d.cacheKey === undefined)
    err(
      'sign',
      'needs an explicit cacheKey with a card function, the default variant key is the request origin (Host header)',
      'no cacheKey',
      'Add cacheKey: (ctx) => ctx.tenant ?? "default" (or another key that does not come from Host), or serve a static card.',
    );
}

/**
 * With `sign`, or a `cacheKey` without `allowedOrigins`, the card function and `cacheKey` as they
 * are called: reading `ctx.origin` throws (and is told to the logger once).
 */
function guardOrigin<Req>(
  d: DynamicCardOptions<Req>,
  settings: CardSettings<Req>,
): Pick<DynamicSettings<Req>, 'card' | 'cacheKey'> {
  const card = settings.card as NonNullable<DynamicSettings<Req>['card']>;
  let message: ((where: string) => string) | undefined;
  if (settings.signed)
    message = (where) =>
      `${where}: ctx.origin is not available when options.sign is set, a signed card must not take its URLs from the request. Build the URLs from configuration.`;
  else if (typeof d.cacheKey === 'function' && d.allowedOrigins === undefined)
    // Without allowedOrigins, ctx.origin is whatever Host the client sent: a card built from it
    // under a key that leaves the origin out would hand the first requester's host to everyone
    // with that key, and a key built from it would let clients mint variants without bound.
    message = (where) =>
      `${where}: ctx.origin is not available with cacheKey and no allowedOrigins, it is the Host header of whichever client asked first and the variant is served to every request with the same key. List the origins that serve the card in allowedOrigins, or build the URLs from configuration.`;
  if (message === undefined) return { card, cacheKey: d.cacheKey };
  // The default onError is silent: a read of a hidden ctx.origin also goes to the logger, once.
  let told = false;
  const tell = (text: string) => {
    if (told) return;
    told = true;
    settings.logger.warn(`agent card: ${text}`);
  };
  return {
    card: hideOrigin(card, message('card'), tell),
    cacheKey: typeof d.cacheKey === 'function' ? hideOrigin(d.cacheKey, message('cacheKey'), tell) : d.cacheKey,
  };
}

/** `https://host[:port]` (exactly that origin) or `host[:port]` (either scheme). */
const ALLOWED_ORIGIN = /^(?:https?:\/\/)?(?:\[[0-9A-Fa-f:.]+\]|[^/?#\s@:[\]]+)(?::[0-9]{1,5})?$/;

/** Lower case, default port dropped: the form {@link requestOrigin} returns. */
function normaliseAllowed(entry: string): string {
  const e = entry.toLowerCase();
  if (e.endsWith(':443') && !e.startsWith('http://')) return `https://${e.replace(/^https:\/\//, '').slice(0, -4)}`;
  if (e.endsWith(':80') && !e.startsWith('https://')) return `http://${e.replace(/^http:\/\//, '').slice(0, -3)}`;
  return e;
}

/**
 * `allowedOrigins`: a list of origins or hosts, or `(origin) => boolean`. Returns the check a
 * request's origin goes through before any variant is looked up or built.
 */
function resolveAllowedOrigins(value: unknown, err: Report): ((origin: string) => boolean) | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') {
    const fn = value as (origin: string) => unknown;
    return (origin) => fn(origin) === true;
  }
  if (!Array.isArray(value) || value.length === 0) {
    err(
      'dynamic.allowedOrigins',
      'must be a non-empty list of origins or hosts, or a function',
      value,
      "Use e.g. ['https://agent.example.com', 'localhost:3000'].",
    );
    return undefined;
  }
  const bad = value.filter((v) => typeof v !== 'string' || !ALLOWED_ORIGIN.test(v));
  if (bad.length > 0) {
    err(
      'dynamic.allowedOrigins',
      'entries must be scheme://host[:port] or host[:port], without a path',
      bad.length === 1 ? bad[0] : bad,
      "Use e.g. ['https://agent.example.com', 'localhost:3000'].",
    );
    return undefined;
  }
  const origins = new Set<string>();
  const hosts = new Set<string>();
  for (const entry of value as string[]) {
    const e = normaliseAllowed(entry);
    if (e.includes('://')) origins.add(e);
    else hosts.add(e);
  }
  return (origin) => origins.has(origin) || (hosts.size > 0 && hosts.has(origin.slice(origin.indexOf('://') + 3)));
}

/**
 * `allowedTenants`: a list of tenants, or `(tenant) => boolean`. Returns the check a resolved
 * tenant goes through before any variant is looked up or built.
 */
function resolveAllowedTenants(value: unknown, err: Report): ((tenant: string) => boolean) | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') {
    const fn = value as (tenant: string) => unknown;
    return (tenant) => fn(tenant) === true;
  }
  const bad = Array.isArray(value) ? value.filter((v) => typeof v !== 'string' || v === '') : [];
  if (!Array.isArray(value) || value.length === 0 || bad.length > 0) {
    err(
      'dynamic.allowedTenants',
      'must be a non-empty list of non-empty strings, or a function',
      bad.length > 0 ? bad : value,
      "Use e.g. ['acme', 'globex'], or (tenant) => boolean.",
    );
    return undefined;
  }
  const tenants = new Set<string>(value as string[]);
  return (tenant) => tenants.has(tenant);
}

/**
 * The request headers the origin of a dynamic card is read from, for `Vary`: a shared cache must
 * not hand one origin's variant to a request for another.
 */
function originVary(trust: ProxyTrust | undefined): string[] {
  if (trust === undefined) return ['Host'];
  const vary = ['Host', 'Forwarded', 'X-Forwarded-Host', 'X-Forwarded-Proto'];
  if (trust.readsForwardedFor) vary.push('X-Forwarded-For');
  return vary;
}

/**
 * Wraps a function of the context so that reading `ctx.origin` throws `message` (a signed dynamic
 * card, or a `cacheKey` without `allowedOrigins`).
 */
function hideOrigin<Req, R>(
  fn: (ctx: AgentCardContext<Req>) => R,
  message: string,
  tell: (message: string) => void,
): (ctx: AgentCardContext<Req>) => R {
  return (ctx) => {
    const { origin: _origin, ...rest } = ctx;
    const guarded = Object.defineProperty(rest, 'origin', {
      enumerable: true,
      get(): never {
        tell(message);
        throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', message);
      },
    });
    return fn(guarded as AgentCardContext<Req>);
  };
}
