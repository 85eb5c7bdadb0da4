import { AgentCardError } from '../errors';
import { showValue, unknownOption } from '../nearest';
import type { AgentCard } from '../model';
import type { ValidationProfile } from '../findings';
import type { AgentCardSigner } from '../sign/sign';
import { type ResolvedSigning, resolveSigning } from '../sign/signing-options';
import { defaultProfile } from '../validate/validate';
import type { CorsSetting } from './documents';
import { type ProxyTrust, resolveTrustProxy } from './trust';
import type { AgentCardContext, AgentCardOptions, AgentCardRequest, ExtendedAgentCardOptions } from './types';
import { type ResolvedViewerOptions, resolveViewerOption } from './viewer';

/** Options after validation, with every default applied. */
export interface ResolvedAgentCardOptions<Req = unknown> {
  card: AgentCard | ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>) | undefined;
  profile: ValidationProfile;
  contentType: string;
  cacheControl: string | false;
  cors: CorsSetting;
  legacy: boolean | 'v0.3';
  extended: ResolvedExtendedOptions<Req> | undefined;
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
  onError: (error: unknown) => void;
  logger: Pick<Console, 'warn'>;
  /** Signs each variant once when it is built; `undefined` without `sign`. */
  signer: AgentCardSigner | undefined;
  /** The published key set and the start-up warnings of `sign`; `undefined` without `sign`. */
  signing: ResolvedSigning | undefined;
  /** Where the page of the card is served; `undefined` without `viewer`. */
  viewer: ResolvedViewerOptions | undefined;
}

/** Extended-card options after validation. */
export interface ResolvedExtendedOptions<Req = unknown> {
  authenticate: ExtendedAgentCardOptions<Req>['authenticate'];
  card: ExtendedAgentCardOptions<Req>['card'];
  /** The REST paths (declared, trailing slash removed), `false`, or derived from the card. */
  path: readonly string[] | false | undefined;
  realm: string | undefined;
  maxVariants: number;
}

const OPTION_KEYS = new Set([
  'card',
  'profile',
  'contentType',
  'cacheControl',
  'cors',
  'legacy',
  'extended',
  'trustProxy',
  'allowedOrigins',
  'maxConcurrentBuilds',
  'cacheKey',
  'tenant',
  'allowedTenants',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'retryAfter',
  'onError',
  'logger',
  'sign',
  'viewer',
]);
const EXTENDED_KEYS = new Set(['authenticate', 'card', 'path', 'realm', 'maxVariants']);
const PROFILES = ['development', 'production', 'strict'];

/** Visible ASCII and tabs only: what a header value may hold without being rejected by Node. */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;
const ORIGIN = /^https?:\/\/[^/?#\s@]+$/;

const show = showValue;

function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0;
}

/**
 * Validates responder options once, reporting every problem in one
 * `AgentCardError('ERR_AGENT_CARD_OPTIONS')`, one line per problem:
 * `where: what is wrong (value). How to fix.`
 */
export function resolveOptions<Req>(input: AgentCardOptions<Req> | undefined): ResolvedAgentCardOptions<Req> {
  const problems: string[] = [];
  const o = (input ?? {}) as AgentCardOptions<Req> & Record<string, unknown>;
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      `options: expected an object (${show(input)}). Pass { card } or nothing to load agent-card.json.`,
    );
  }
  for (const key of Object.keys(o)) {
    if (!OPTION_KEYS.has(key)) {
      problems.push(
        unknownOption(
          `options.${key}`,
          key,
          OPTION_KEYS,
          'AgentCardOptions and the options table of the @agent-card/core README',
        ),
      );
    }
  }
  const err = (where: string, what: string, value: unknown, fix: string) =>
    problems.push(`options.${where}: ${what} (${show(value)}). ${fix}`);

  if (
    o.card !== undefined &&
    (typeof o.card !== 'object' || o.card === null || Array.isArray(o.card)) &&
    typeof o.card !== 'function'
  ) {
    err(
      'card',
      'must be an Agent Card object or a function returning one',
      o.card,
      'Pass the card object, or (ctx) => card.',
    );
  }
  if (o.profile !== undefined && !PROFILES.includes(o.profile as string)) {
    err('profile', 'unknown validation profile', o.profile, `Use one of ${PROFILES.join(', ')}.`);
  }
  if (o.contentType !== undefined && (typeof o.contentType !== 'string' || !HEADER_VALUE.test(o.contentType))) {
    err('contentType', 'must be a non-empty header value', o.contentType, "Use e.g. 'application/json'.");
  }
  if (
    o.cacheControl !== undefined &&
    o.cacheControl !== false &&
    (typeof o.cacheControl !== 'string' || !HEADER_VALUE.test(o.cacheControl))
  ) {
    err(
      'cacheControl',
      'must be a Cache-Control value or false',
      o.cacheControl,
      "Use e.g. 'public, max-age=600', or false to send none.",
    );
  }
  let cors: CorsSetting = { mode: 'any' };
  if (o.cors === false) cors = { mode: 'off' };
  else if (o.cors === undefined || o.cors === '*') cors = { mode: 'any' };
  else if (Array.isArray(o.cors)) {
    const bad = o.cors.filter((v) => typeof v !== 'string' || !ORIGIN.test(v));
    if (o.cors.length === 0)
      err('cors', 'an empty origin list allows nobody', o.cors, 'List origins, or use false to send no CORS headers.');
    else if (bad.length > 0)
      err(
        'cors',
        'origins must look like scheme://host[:port] without a path or trailing slash',
        bad,
        "Use e.g. ['https://app.example.com'].",
      );
    else cors = { mode: 'list', origins: [...new Set(o.cors as string[])] };
  } else {
    err(
      'cors',
      "must be '*', a list of origins, or false",
      o.cors,
      "Use '*' (default), ['https://app.example.com'], or false.",
    );
  }
  if (o.legacy !== undefined && typeof o.legacy !== 'boolean' && o.legacy !== 'v0.3') {
    err(
      'legacy',
      "must be true, false or 'v0.3'",
      o.legacy,
      "Use true (alias), 'v0.3' (v0.3-compatible card) or false.",
    );
  }
  if (o.staleIfError !== undefined && typeof o.staleIfError !== 'boolean')
    err('staleIfError', 'must be a boolean', o.staleIfError, 'Use true or false.');
  const trusted = resolveTrustProxy(o.trustProxy);
  for (const problem of trusted.problems)
    err(
      'trustProxy',
      problem,
      o.trustProxy,
      "Use true (the peer is the proxy), a hop count such as 2, addresses or CIDR ranges such as ['loopback', '10.0.0.0/8'], or (address, hop) => boolean.",
    );
  const allowOrigin = resolveAllowedOrigins(o.allowedOrigins, err);
  const allowTenant = resolveAllowedTenants(o.allowedTenants, err);
  if (o.maxConcurrentBuilds !== undefined && !isPositiveInt(o.maxConcurrentBuilds))
    err('maxConcurrentBuilds', 'must be a positive integer', o.maxConcurrentBuilds, 'Use e.g. 10.');
  for (const key of ['cacheKey', 'tenant', 'onError'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'function')
      err(key, 'must be a function', o[key], 'Pass a function or leave it out.');
  }
  if (o.maxVariants !== undefined && !isPositiveInt(o.maxVariants))
    err('maxVariants', 'must be a positive integer', o.maxVariants, 'Use e.g. 100.');
  if (
    o.variantMaxAge !== undefined &&
    !(typeof o.variantMaxAge === 'number' && o.variantMaxAge > 0 && Number.isFinite(o.variantMaxAge))
  ) {
    err(
      'variantMaxAge',
      'must be a positive number of seconds',
      o.variantMaxAge,
      'Use e.g. 300, or leave it out to keep variants until evicted.',
    );
  }
  if (
    o.retryAfter !== undefined &&
    !(typeof o.retryAfter === 'number' && Number.isInteger(o.retryAfter) && o.retryAfter >= 0)
  ) {
    err('retryAfter', 'must be a whole number of seconds', o.retryAfter, 'Use e.g. 30.');
  }
  if (
    o.logger !== undefined &&
    (typeof o.logger !== 'object' || o.logger === null || typeof o.logger.warn !== 'function')
  ) {
    err('logger', 'must have a warn(message) method', o.logger, 'Pass console, or a logger with warn().');
  }
  if (typeof o.card !== 'function') {
    for (const key of [
      'cacheKey',
      'tenant',
      'allowedTenants',
      'variantMaxAge',
      'staleIfError',
      'allowedOrigins',
      'maxConcurrentBuilds',
    ] as const) {
      if (o[key] !== undefined && o[key] !== false) {
        err(
          key,
          'only applies to a dynamic card',
          key === 'variantMaxAge' || key === 'maxConcurrentBuilds' ? o[key] : 'set',
          'Make card a function of the request context, or remove this option.',
        );
      }
    }
  }

  if (typeof o.card === 'function' && o.allowedOrigins === undefined && o.cacheKey === undefined) {
    err(
      'allowedOrigins',
      'is required with a card function keyed by origin, otherwise every new Host header costs a call to card and a validation',
      'not set',
      "List the origins that serve the card, e.g. ['https://agent.example.com'], pass (origin) => boolean, or set cacheKey.",
    );
  }

  if (typeof o.card === 'function' && typeof o.tenant === 'function' && o.allowedTenants === undefined) {
    err(
      'allowedTenants',
      'is required with tenant, otherwise every tenant value a client sends costs a call to card and a validation, and evicts cached variants',
      'not set',
      "List the tenants, e.g. ['acme', 'globex'], or pass (tenant) => boolean that checks them.",
    );
  }
  if (typeof o.card === 'function' && o.tenant === undefined && o.allowedTenants !== undefined) {
    err(
      'allowedTenants',
      'only applies with tenant',
      'set',
      'Add tenant: (request) => string | undefined, or remove allowedTenants.',
    );
  }

  let extended: ResolvedExtendedOptions<Req> | undefined;
  if (o.extended !== undefined) {
    const e = o.extended as ExtendedAgentCardOptions<Req> & Record<string, unknown>;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) {
      err('extended', 'must be an object', e, 'Pass { authenticate, card }.');
    } else {
      for (const key of Object.keys(e)) {
        if (!EXTENDED_KEYS.has(key))
          problems.push(unknownOption(`options.extended.${key}`, key, EXTENDED_KEYS, 'ExtendedAgentCardOptions'));
      }
      if (typeof e.authenticate !== 'function') {
        err(
          'extended.authenticate',
          'is required and must be a function',
          e.authenticate,
          'Pass (request) => principal | undefined; the extended card MUST be authenticated (spec §13.3).',
        );
      }
      if (e.card !== undefined && (typeof e.card !== 'object' || e.card === null) && typeof e.card !== 'function') {
        err(
          'extended.card',
          'must be extra skills, a partial card, or a function of the principal',
          e.card,
          'Pass e.g. [{ id, name, description, tags }].',
        );
      }
      const paths = resolveExtendedPaths(e.path, typeof o.card === 'function', err);
      if (e.realm !== undefined && (typeof e.realm !== 'string' || e.realm.length === 0)) {
        err('extended.realm', 'must be a non-empty string', e.realm, "Use e.g. 'my-agent'.");
      }
      if (e.maxVariants !== undefined && !isPositiveInt(e.maxVariants)) {
        err('extended.maxVariants', 'must be a positive integer', e.maxVariants, 'Use e.g. 100.');
      }
      extended = {
        authenticate: e.authenticate,
        card: e.card,
        path: paths,
        realm: e.realm as string | undefined,
        maxVariants: (e.maxVariants as number | undefined) ?? 100,
      };
    }
  }

  let signing: ResolvedSigning | undefined;
  let card = o.card;
  let cacheKey = o.cacheKey;
  // The default onError is silent: a read of a hidden ctx.origin also goes to the logger, once.
  let told = false;
  const tell = (message: string) => {
    if (told) return;
    told = true;
    (o.logger ?? console).warn(`agent card: ${message}`);
  };
  if (o.sign !== undefined) {
    try {
      signing = resolveSigning(o.sign, 'options.sign');
    } catch (error) {
      problems.push(error instanceof AgentCardError ? error.message : `options.sign: ${String(error)}`);
    }
    if (typeof o.card === 'function') {
      // A signature over URLs that came from Host, Forwarded or X-Forwarded-* would vouch for
      // whatever a client sent; a signed dynamic card must be keyed and built from configuration
      // only.
      if (trusted.trust !== undefined) {
        err(
          'sign',
          `cannot sign a card function with trustProxy${o.trustProxy === true ? ': true' : ' set'}, its URLs could come from Forwarded or X-Forwarded-* headers`,
          o.trustProxy,
          'Set trustProxy to false and build the URLs from configuration, or serve a static card.',
        );
      }
      if (o.cacheKey === undefined) {
        err(
          'sign',
          'needs an explicit cacheKey with a card function, the default variant key is the request origin (Host header)',
          'no cacheKey',
          'Add cacheKey: (ctx) => ctx.tenant ?? "default" (or another key that does not come from Host), or serve a static card.',
        );
      }
      const hidden = (where: string) =>
        `${where}: ctx.origin is not available when options.sign is set, a signed card must not take its URLs from the request. Build the URLs from configuration.`;
      card = hideOrigin(o.card, hidden('card'), tell);
      if (typeof o.cacheKey === 'function') cacheKey = hideOrigin(o.cacheKey, hidden('cacheKey'), tell);
    }
  } else if (typeof o.card === 'function' && typeof o.cacheKey === 'function' && o.allowedOrigins === undefined) {
    // Without allowedOrigins, ctx.origin is whatever Host the client sent: a card built from it
    // under a key that leaves the origin out would hand the first requester's host to everyone
    // with that key, and a key built from it would let clients mint variants without bound.
    const hidden = (where: string) =>
      `${where}: ctx.origin is not available with cacheKey and no allowedOrigins, it is the Host header of whichever client asked first and the variant is served to every request with the same key. List the origins that serve the card in allowedOrigins, or build the URLs from configuration.`;
    card = hideOrigin(o.card, hidden('card'), tell);
    cacheKey = hideOrigin(o.cacheKey, hidden('cacheKey'), tell);
  }

  const viewer = resolveViewerOption(o.viewer, problems);

  if (problems.length > 0) {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `Invalid agent card options:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    card,
    profile: o.profile ?? defaultProfile(),
    contentType: o.contentType ?? 'application/a2a+json',
    cacheControl: o.cacheControl ?? 'public, max-age=3600',
    cors,
    legacy: o.legacy ?? true,
    extended,
    trustProxy: trusted.trust,
    allowOrigin,
    vary: typeof o.card === 'function' && signing === undefined ? originVary(trusted.trust) : [],
    maxConcurrentBuilds: (o.maxConcurrentBuilds as number | undefined) ?? 10,
    cacheKey,
    tenant: o.tenant,
    allowTenant: o.tenant === undefined ? undefined : allowTenant,
    maxVariants: o.maxVariants ?? 100,
    variantMaxAge: o.variantMaxAge,
    staleIfError: o.staleIfError ?? false,
    retryAfter: o.retryAfter ?? 30,
    onError: o.onError ?? (() => {}),
    logger: o.logger ?? console,
    signer: signing?.signer,
    signing,
    viewer,
  };
}

type Report = (where: string, what: string, value: unknown, fix: string) => void;

/**
 * `extended.path`: a path or a list of paths starting with `/` (no query; one trailing slash is
 * dropped), or `false`. A card function must declare its paths: only a declared path may build a
 * variant, or any `…/extendedAgentCard` of the app would cost a call to `card`.
 */
function resolveExtendedPaths(value: unknown, dynamic: boolean, err: Report): readonly string[] | false | undefined {
  if (value === false) return false;
  if (value === undefined) {
    if (dynamic)
      err(
        'extended.path',
        'is required with a card function, the REST path of a variant is not known before it is built',
        'not set',
        "Set it to the path of your HTTP+JSON interface plus /extendedAgentCard, e.g. '/a2a/extendedAgentCard' (a list for several), or false to answer only through getExtendedAgentCard().",
      );
    return undefined;
  }
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : [value];
  const bad = list.filter((p) => typeof p !== 'string' || !p.startsWith('/') || p.includes('?'));
  if (bad.length > 0 || list.length === 0) {
    err(
      'extended.path',
      'must be a path starting with / (no query), a list of them, or false',
      list.length === 0 ? value : bad.length === 1 ? bad[0] : bad,
      "Use e.g. '/a2a/extendedAgentCard'.",
    );
    return undefined;
  }
  return [...new Set((list as string[]).map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p)))];
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
      'allowedOrigins',
      'must be a non-empty list of origins or hosts, or a function',
      value,
      "Use e.g. ['https://agent.example.com', 'localhost:3000'].",
    );
    return undefined;
  }
  const bad = value.filter((v) => typeof v !== 'string' || !ALLOWED_ORIGIN.test(v));
  if (bad.length > 0) {
    err(
      'allowedOrigins',
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
      'allowedTenants',
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
