import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import type { ValidationProfile } from '../findings';
import type { AgentCardSigner } from '../sign/sign';
import { type ResolvedSigning, resolveSigning } from '../sign/signing-options';
import type { CorsSetting } from './documents';
import type { AgentCardContext, AgentCardOptions, AgentCardRequest, ExtendedAgentCardOptions } from './types';

/** Options after validation, with every default applied. */
export interface ResolvedAgentCardOptions<Req = unknown> {
  card: AgentCard | ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>) | undefined;
  profile: ValidationProfile;
  contentType: string;
  cacheControl: string | false;
  cors: CorsSetting;
  legacy: boolean | 'v0.3';
  extended: ResolvedExtendedOptions<Req> | undefined;
  trustProxy: boolean;
  cacheKey: ((ctx: AgentCardContext<Req>) => string) | undefined;
  tenant: ((request: AgentCardRequest<Req>) => string | undefined) | undefined;
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
}

/** Extended-card options after validation. */
export interface ResolvedExtendedOptions<Req = unknown> {
  authenticate: ExtendedAgentCardOptions<Req>['authenticate'];
  card: ExtendedAgentCardOptions<Req>['card'];
  path: string | false | undefined;
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
  'cacheKey',
  'tenant',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'retryAfter',
  'onError',
  'logger',
  'sign',
]);
const EXTENDED_KEYS = new Set(['authenticate', 'card', 'path', 'realm', 'maxVariants']);
const PROFILES = ['development', 'production', 'strict'];

/** Visible ASCII and tabs only: what a header value may hold without being rejected by Node. */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;
const ORIGIN = /^https?:\/\/[^/?#\s@]+$/;

function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
  } catch {
    return String(value);
  }
}

/** The default validation profile: `production` when NODE_ENV says so. */
export function defaultProfile(): ValidationProfile {
  return typeof process !== 'undefined' && process.env?.NODE_ENV === 'production' ? 'production' : 'development';
}

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
        `options.${key}: unknown option. Remove it or fix the spelling (known: ${[...OPTION_KEYS].join(', ')}).`,
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
  for (const key of ['trustProxy', 'staleIfError'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      err(key, 'must be a boolean', o[key], 'Use true or false.');
  }
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
    for (const key of ['cacheKey', 'tenant', 'variantMaxAge', 'staleIfError'] as const) {
      if (o[key] !== undefined && o[key] !== false) {
        err(
          key,
          'only applies to a dynamic card',
          key === 'variantMaxAge' ? o[key] : 'set',
          'Make card a function of the request context, or remove this option.',
        );
      }
    }
  }

  let extended: ResolvedExtendedOptions<Req> | undefined;
  if (o.extended !== undefined) {
    const e = o.extended as ExtendedAgentCardOptions<Req> & Record<string, unknown>;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) {
      err('extended', 'must be an object', e, 'Pass { authenticate, card }.');
    } else {
      for (const key of Object.keys(e)) {
        if (!EXTENDED_KEYS.has(key))
          problems.push(
            `options.extended.${key}: unknown option. Remove it or fix the spelling (known: ${[...EXTENDED_KEYS].join(', ')}).`,
          );
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
      if (
        e.path !== undefined &&
        e.path !== false &&
        (typeof e.path !== 'string' || !e.path.startsWith('/') || e.path.includes('?'))
      ) {
        err(
          'extended.path',
          'must be a path starting with / (no query) or false',
          e.path,
          "Use e.g. '/a2a/extendedAgentCard'.",
        );
      }
      if (e.realm !== undefined && (typeof e.realm !== 'string' || e.realm.length === 0)) {
        err('extended.realm', 'must be a non-empty string', e.realm, "Use e.g. 'my-agent'.");
      }
      if (e.maxVariants !== undefined && !isPositiveInt(e.maxVariants)) {
        err('extended.maxVariants', 'must be a positive integer', e.maxVariants, 'Use e.g. 100.');
      }
      extended = {
        authenticate: e.authenticate,
        card: e.card,
        path:
          typeof e.path === 'string'
            ? e.path.length > 1 && e.path.endsWith('/')
              ? e.path.slice(0, -1)
              : e.path
            : e.path,
        realm: e.realm as string | undefined,
        maxVariants: (e.maxVariants as number | undefined) ?? 100,
      };
    }
  }

  let signing: ResolvedSigning | undefined;
  let card = o.card;
  let cacheKey = o.cacheKey;
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
      if (o.trustProxy === true) {
        err(
          'sign',
          'cannot sign a card function with trustProxy: true, its URLs could come from Forwarded or X-Forwarded-* headers',
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
      card = hideOrigin(o.card);
      if (typeof o.cacheKey === 'function') cacheKey = hideOrigin(o.cacheKey);
    }
  }

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
    trustProxy: o.trustProxy ?? false,
    cacheKey,
    tenant: o.tenant,
    maxVariants: o.maxVariants ?? 100,
    variantMaxAge: o.variantMaxAge,
    staleIfError: o.staleIfError ?? false,
    retryAfter: o.retryAfter ?? 30,
    onError: o.onError ?? (() => {}),
    logger: o.logger ?? console,
    signer: signing?.signer,
    signing,
  };
}

/** Wraps a function of the context so that reading `ctx.origin` throws (signed dynamic cards). */
function hideOrigin<Req, R>(fn: (ctx: AgentCardContext<Req>) => R): (ctx: AgentCardContext<Req>) => R {
  return (ctx) => {
    const { origin: _origin, ...rest } = ctx;
    const guarded = Object.defineProperty(rest, 'origin', {
      enumerable: true,
      get(): never {
        throw new AgentCardError(
          'ERR_AGENT_CARD_OPTIONS',
          'card: ctx.origin is not available when options.sign is set, a signed card must not take its URLs from the request. Build the URLs from configuration.',
        );
      },
    });
    return fn(guarded as AgentCardContext<Req>);
  };
}
