import { loadAgentCardConfig } from '../config';
import { AgentCardError } from '../errors';
import type { Finding } from '../findings';
import type { AgentCard } from '../model';
import {
  answerDocument,
  answerError,
  prepareErrorResponses,
  selectCors,
  type CorsVariants,
  type ErrorResponseSet,
} from './documents';
import type { ExtendedCardRequest, GetExtendedAgentCardResult } from './extended';
import { createMultiAgentResponder } from './agents';
import { internals, responders } from './internals';
import { LruCache } from './lru';
import { resolveOptions, type ResolvedAgentCardOptions } from './options';
import { requestOrigin } from './origin';
import { AGENT_CARD_PATH, comparablePath, LEGACY_AGENT_CARD_PATH, WELL_KNOWN_PREFIX } from './paths';
import { EXTENDED_CARD_UNAVAILABLE, toJsonRpcError } from './protocol-errors';
import type { AgentCardContext, AgentCardOptions, AgentCardRequest, AgentCardResponder } from './types';
import { prepareJwksRoute } from './jwks-route';
import { prepareVariant, type PreparedVariant } from './variant';
import { createWarner } from './warnings';
import { cardPage, withViewer } from './viewer';

function warnAboutExtended(card: AgentCard, variant: PreparedVariant, options: ResolvedAgentCardOptions<any>): void {
  const declared = card.capabilities.extendedAgentCard === true;
  if (declared && options.extended === undefined) {
    options.logger.warn(
      'agent card: capabilities.extendedAgentCard is true but no `extended` option is set; GetExtendedAgentCard answers ExtendedAgentCardNotConfiguredError. Add extended: { authenticate, card }.',
    );
  } else if (!declared && options.extended !== undefined) {
    options.logger.warn(
      'agent card: the `extended` option is set but the card does not declare capabilities.extendedAgentCard: true; GetExtendedAgentCard answers UnsupportedOperationError. Set capabilities.extendedAgentCard to true.',
    );
  } else if (declared && variant.extended.paths.length === 0 && options.extended?.path !== false) {
    options.logger.warn(
      'agent card: the card has no HTTP+JSON interface, so the REST GET …/extendedAgentCard endpoint is not served; use getExtendedAgentCard() from your JSON-RPC handler, or set extended.path.',
    );
  }
}

/** Zero-config: `agent-card.json` (+ `package.json`) from the working directory. */
function loadDefaultCard(o: ResolvedAgentCardOptions<any>): AgentCard {
  // The responder validates (and warns about) the card itself; stay quiet here to warn once.
  return loadAgentCardConfig({ profile: o.profile, logger: { warn: () => {} } });
}

/**
 * Builds the framework-neutral responder every adapter uses. Options are validated and the
 * static card is validated, serialised and hashed here, once; `respond` then only compares the
 * path, reads the method and `If-None-Match`, and returns a prebuilt, frozen response.
 *
 * Answers (see the HTTP behaviour table in the README):
 * `GET|HEAD /.well-known/agent-card.json` → 200 (304 on a matching `If-None-Match`),
 * `OPTIONS` → 204, other methods → 405; `/.well-known/agent.json` → the same bytes and ETag plus
 * `Link: rel="canonical"` (or the v0.3 superset card with `legacy: 'v0.3'`); the REST extended
 * card when the card declares it; anything else → `undefined` (the adapter passes it on).
 *
 * Without `card`, the card is loaded from `agent-card.json` in the working directory (name,
 * description and version default to the nearest `package.json`), see `loadAgentCardConfig`.
 *
 * @throws AgentCardError `ERR_AGENT_CARD_OPTIONS` listing every bad option;
 *   `ERR_AGENT_CARD_INVALID` listing every validation error of a static card;
 *   `ERR_AGENT_CARD_CONFIG` when `card` is omitted and `agent-card.json` cannot be read.
 * @example
 * const responder = createAgentCardResponder({ card })
 * const res = responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: {} })
 * @see https://a2a-protocol.org/latest/specification/#8-agent-discovery-the-agent-card
 */
export function createAgentCardResponder<Req = unknown>(options?: AgentCardOptions<Req>): AgentCardResponder<Req> {
  const responder = buildResponder(options);
  // `getExtendedAgentCard(options)` answers from the responder built last from the same options
  // object, the adapter's: a JSON-RPC extended card then follows the adapter's update() too.
  if (typeof options === 'object' && options !== null) responders.set(options, responder);
  return responder;
}

function buildResponder<Req>(options: AgentCardOptions<Req> | undefined): AgentCardResponder<Req> {
  if (options?.agents !== undefined) return createMultiAgentResponder(options, createAgentCardResponder);
  const o = resolveOptions(options);
  const warn = createWarner(o.logger);
  for (const warning of o.signing?.warnings ?? []) o.logger.warn(`agent card: ${warning}`);
  const card = o.card ?? loadDefaultCard(o);
  const responder =
    typeof card === 'function' ? createDynamicResponder(o, card, warn) : createStaticResponder(o, card, warn);
  return withCardViewer(withJwksRoute(responder, o), o);
}

/** Serves the card's page behind every other route, when `viewer` is set. */
function withCardViewer<Req>(
  responder: AgentCardResponder<Req>,
  o: ResolvedAgentCardOptions<Req>,
): AgentCardResponder<Req> {
  if (o.viewer === undefined) return responder;
  const wrapped = withViewer(responder, [cardPage(o.viewer.path, AGENT_CARD_PATH)], {
    cacheControl: o.cacheControl,
    maxVariants: o.maxVariants,
  });
  const kept = internals.get(responder);
  if (kept !== undefined) internals.set(wrapped, kept);
  return wrapped;
}

/** Serves the signing keys' JWK Set in front of the card, when `sign` publishes one. */
function withJwksRoute<Req>(
  responder: AgentCardResponder<Req>,
  o: ResolvedAgentCardOptions<Req>,
): AgentCardResponder<Req> {
  const jwks = prepareJwksRoute(o.signing, { cacheControl: o.cacheControl, cors: o.cors });
  if (jwks === undefined) return responder;
  const inner = responder.respond;
  const wrapped: AgentCardResponder<Req> = {
    respond: (request) => (jwks.matches(request.path) ? answerDocument(jwks.document, request) : inner(request)),
    update: responder.update,
  };
  const kept = internals.get(responder);
  if (kept !== undefined) internals.set(wrapped, kept);
  return Object.freeze(wrapped);
}

function createStaticResponder<Req>(
  o: ResolvedAgentCardOptions<Req>,
  card: AgentCard,
  warn: (f: Finding[]) => void,
): AgentCardResponder<Req> {
  let settings = o;
  let current = prepareVariant(card, settings, warn);
  warnAboutExtended(card, current, settings);
  const responder: AgentCardResponder<Req> = {
    respond(request) {
      // One read of the current variant: a request is answered wholly from the old card or the
      // new one, with that card's bytes and ETag, however update() interleaves with it.
      const { main, legacy, extended } = current;
      const path = request.path;
      // The exact path is by far the most common request; skip normalisation for it.
      if (path === AGENT_CARD_PATH) return answerDocument(main, request);
      // Pass-through requests (the app's own routes) leave after one prefix check, allocation-free.
      if (!path.startsWith(WELL_KNOWN_PREFIX) && !startsWithOneOf(path, extended.paths)) return undefined;
      const p = comparablePath(path);
      if (p === AGENT_CARD_PATH) return answerDocument(main, request);
      if (p === LEGACY_AGENT_CARD_PATH) return legacy === undefined ? undefined : answerDocument(legacy, request);
      if (extended.paths.includes(p)) return extended.handle(request);
      return undefined;
    },
    update(next, changes) {
      let options = settings;
      if (changes?.extendedCard !== undefined) {
        if (settings.extended === undefined) {
          throw new AgentCardError(
            'ERR_AGENT_CARD_OPTIONS',
            'update: extendedCard is given but the responder has no extended option. Create the responder with extended: { authenticate } to serve an extended card.',
          );
        }
        options = { ...settings, extended: { ...settings.extended, card: changes.extendedCard } };
      }
      // Validated, signed, serialised and hashed before the swap: a card that throws here leaves
      // the served one as it was.
      const variant = prepareVariant(next, options, warn);
      warnAboutExtended(next, variant, options);
      settings = options;
      current = variant;
    },
  };
  internals.set(responder, { extended: (request) => current.extended.resolve(request) });
  return Object.freeze(responder);
}

/** Whether `path` starts with one of `prefixes` (a card has one or two extended-card paths). */
function startsWithOneOf(path: string, prefixes: readonly string[]): boolean {
  for (let i = 0; i < prefixes.length; i++) if (path.startsWith(prefixes[i]!)) return true;
  return false;
}

interface VariantEntry {
  variant: PreparedVariant;
  /** When the variant must be rebuilt (ms since epoch); Infinity without `variantMaxAge`. */
  expiresAt: number;
}

type Route = 'main' | 'legacy' | 'extended';

/** Why a request got no variant; each has one fixed answer. */
type NoVariant = 'bad-host' | 'unknown-host' | 'unknown-tenant' | 'busy' | 'unavailable';

function fixedError(o: ResolvedAgentCardOptions<any>, status: number, code: string, message: string, retry = false) {
  return prepareErrorResponses({
    status,
    body: { error: { code: status, status: code, message } },
    headers: retry ? { 'retry-after': String(o.retryAfter) } : undefined,
    cors: o.cors,
  });
}

function createDynamicResponder<Req>(
  o: ResolvedAgentCardOptions<Req>,
  provider: (ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>,
  warn: (f: Finding[]) => void,
): AgentCardResponder<Req> {
  const cache = new LruCache<string, VariantEntry>(o.maxVariants);
  const inflight = new Map<string, Promise<VariantEntry | undefined>>();
  const maxAgeMs = o.variantMaxAge === undefined ? Infinity : o.variantMaxAge * 1000;
  // Only declared paths build a variant (a card function must declare them, see options.ts).
  const extendedPaths: readonly string[] = o.extended?.path || [];
  const allowOrigin = o.allowOrigin;

  const answers: Record<NoVariant, CorsVariants<ErrorResponseSet>> = {
    'bad-host': fixedError(o, 400, 'INVALID_ARGUMENT', 'Missing or invalid Host header.'),
    'unknown-host': fixedError(o, 400, 'INVALID_ARGUMENT', 'No agent card is served for this host.'),
    'unknown-tenant': fixedError(o, 400, 'INVALID_ARGUMENT', 'No agent card is served for this tenant.'),
    busy: fixedError(o, 503, 'UNAVAILABLE', 'The agent card is temporarily unavailable. Retry later.', true),
    unavailable: fixedError(o, 503, 'UNAVAILABLE', 'The agent card is temporarily unavailable. Retry later.', true),
  };

  /**
   * Builds a variant once however many requests wait for it; a failure is reported once. At most
   * `maxConcurrentBuilds` run at a time: beyond it, `busy` and no call to the provider.
   */
  const build = (key: string, ctx: AgentCardContext<Req>): Promise<VariantEntry | undefined> | 'busy' => {
    let pending = inflight.get(key);
    if (pending !== undefined) return pending;
    if (inflight.size >= o.maxConcurrentBuilds) return 'busy';
    pending = (async () => {
      try {
        const card = await provider(ctx);
        const entry: VariantEntry = { variant: prepareVariant(card, o, warn), expiresAt: Date.now() + maxAgeMs };
        cache.set(key, entry);
        return entry;
      } catch (error) {
        o.onError(error);
        return undefined;
      }
    })()
      // Never synchronously: a provider that throws before its first await would otherwise leave
      // the key in flight for good (503 forever, and a build slot taken).
      .finally(() => inflight.delete(key));
    inflight.set(key, pending);
    return pending;
  };

  const routeOf = (path: string): { route: Route; p: string } | undefined => {
    if (!path.startsWith(WELL_KNOWN_PREFIX) && !startsWithOneOf(path, extendedPaths)) return undefined;
    const p = comparablePath(path);
    if (p === AGENT_CARD_PATH) return { route: 'main', p };
    if (p === LEGACY_AGENT_CARD_PATH) return o.legacy === false ? undefined : { route: 'legacy', p };
    if (extendedPaths.includes(p)) return { route: 'extended', p };
    return undefined;
  };

  const serve = (entry: VariantEntry, route: Route, request: AgentCardRequest<Req>) => {
    const v = entry.variant;
    if (route === 'main') return answerDocument(v.main, request);
    if (route === 'legacy') return v.legacy === undefined ? undefined : answerDocument(v.legacy, request);
    return v.extended.handle(request);
  };

  /** Keeps serving `entry` (expired) when `staleIfError` allows it, for `retryAfter` seconds. */
  const stale = (key: string, entry: VariantEntry | undefined): VariantEntry | undefined => {
    if (entry === undefined || !o.staleIfError) return undefined;
    entry.expiresAt = Date.now() + o.retryAfter * 1000;
    cache.set(key, entry);
    return entry;
  };

  /** Finds (or builds) the variant of a request. */
  const variantFor = (
    request: AgentCardRequest<Req>,
  ): VariantEntry | Promise<VariantEntry | 'unavailable'> | NoVariant => {
    const origin = requestOrigin(request, o.trustProxy);
    if (origin === undefined) return 'bad-host';
    if (allowOrigin !== undefined && !allowOrigin(origin)) return 'unknown-host';
    let key: string;
    let ctx: AgentCardContext<Req>;
    try {
      const tenant = o.tenant?.(request);
      // Before any lookup: a tenant the client made up never calls card nor evicts a variant.
      if (tenant !== undefined && o.allowTenant !== undefined && !o.allowTenant(tenant)) return 'unknown-tenant';
      ctx =
        tenant === undefined
          ? { origin, headers: request.headers, raw: request.raw }
          : { origin, tenant, headers: request.headers, raw: request.raw };
      key = o.cacheKey ? String(o.cacheKey(ctx)) : tenant === undefined ? origin : `${origin}\n${tenant}`;
    } catch (error) {
      o.onError(error);
      return 'unavailable';
    }
    const entry = cache.get(key);
    if (entry !== undefined && entry.expiresAt > Date.now()) return entry;
    const pending = build(key, ctx);
    if (pending === 'busy') return stale(key, entry) ?? 'busy';
    return pending.then((built) => {
      if (built !== undefined) return built;
      // Serve the last good bytes and leave the provider alone for retryAfter seconds.
      const kept = stale(key, entry);
      if (kept !== undefined) return kept;
      if (entry !== undefined) cache.delete(key);
      return 'unavailable' as const;
    });
  };

  const responder: AgentCardResponder<Req> = {
    respond(request) {
      const r = routeOf(request.path);
      if (r === undefined) return undefined;
      const found = variantFor(request);
      const fail = (why: NoVariant) => answerError(selectCors(answers[why], request.headers), request.method);
      if (typeof found === 'string') return fail(found);
      if (!(found instanceof Promise)) return serve(found, r.route, request);
      return found.then((entry) => (entry === 'unavailable' ? fail(entry) : serve(entry, r.route, request)));
    },
    update() {
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        'update: the card is a function, built per request. Change what the card function returns instead (variantMaxAge rebuilds cached variants).',
      );
    },
  };
  internals.set(responder, {
    async extended(request) {
      const found = await variantFor({
        method: 'GET',
        path: AGENT_CARD_PATH,
        ...(request as ExtendedCardRequest<Req>),
      });
      if (typeof found === 'string') {
        return {
          error: toJsonRpcError(EXTENDED_CARD_UNAVAILABLE),
          status: EXTENDED_CARD_UNAVAILABLE.httpStatus,
          headers: { 'retry-after': String(o.retryAfter) },
        };
      }
      return found.variant.extended.resolve(request);
    },
  });
  return Object.freeze(responder);
}

/**
 * The extended card for a JSON-RPC `GetExtendedAgentCard` handler (spec §3.1.11, §9.4.8): runs
 * `authenticate` on `request.raw` and returns `{ card }`, or `{ error, status, headers }` where
 * `error` is the JSON-RPC error object to send (`-32004` UnsupportedOperationError, `-32007`
 * ExtendedAgentCardNotConfiguredError, `-32000` unauthenticated with status 401 and a
 * `WWW-Authenticate` header to set).
 *
 * Pass the responder the adapter uses, or the options object the adapter was built with: the
 * responder built last from that object answers (one is built on the first call if there is none),
 * so what the adapter serves, and changes with `update()`, is what this returns.
 *
 * @example
 * const result = await getExtendedAgentCard(responder, { headers: req.headers, raw: req })
 * if (result.error) res.status(result.status).set(result.headers).json({ jsonrpc: '2.0', id, error: result.error })
 * else res.json({ jsonrpc: '2.0', id, result: result.card })
 * @see https://a2a-protocol.org/latest/specification/#3111-get-extended-agent-card
 */
export async function getExtendedAgentCard<Req = unknown>(
  source: AgentCardResponder<Req> | AgentCardOptions<Req>,
  request: ExtendedCardRequest<Req>,
): Promise<GetExtendedAgentCardResult> {
  let found = internals.get(source);
  if (found === undefined) {
    const responder = responders.get(source) ?? createAgentCardResponder(source as AgentCardOptions<Req>);
    found = internals.get(responder)!;
  }
  return found.extended(request as ExtendedCardRequest<unknown>);
}
