// The responder of a card function: one variant per origin (and tenant, or `cacheKey`), built
// on first request, bounded in number, in concurrent builds and in age.
import { AgentCardError } from '../../errors';
import type { Finding } from '../../findings';
import type { AgentCard } from '../../model';
import { startsWithOneOf } from '../card/static';
import { type PreparedVariant, prepareVariant, type VariantSettings } from '../card/variant';
import { type CorsSetting, type CorsVariants, selectCors } from '../kernel/cors';
import { answerDocument, answerError, type ErrorResponseSet, prepareErrorResponses } from '../kernel/documents';
import type { AgentCardContext, AgentCardRequest } from '../kernel/exchange';
import { LruCache } from '../kernel/lru';
import { AGENT_CARD_PATH, comparablePath, LEGACY_AGENT_CARD_PATH, WELL_KNOWN_PREFIX } from '../kernel/paths';
import { EXTENDED_CARD_UNAVAILABLE, toJsonRpcError } from '../kernel/protocol-errors';
import { type AgentCardResponder, sealResponder } from '../kernel/responder';
import type { ServedDocument } from '../kernel/served';
import type { DynamicSettings } from './options';
import { requestOrigin } from '../kernel/origin';

interface VariantEntry {
  variant: PreparedVariant;
  /** When the variant must be rebuilt (ms since epoch); Infinity without `variantMaxAge`. */
  expiresAt: number;
}

type Route = 'main' | 'legacy' | 'extended';

/** Why a request got no variant; each has one fixed answer. */
type NoVariant = 'bad-host' | 'unknown-host' | 'unknown-tenant' | 'busy' | 'unavailable';

type Found = VariantEntry | Promise<VariantEntry | 'unavailable'> | NoVariant;

/** The fixed answer of each reason a request gets no variant. */
function noVariantAnswers(
  cors: CorsSetting,
  retryAfter: number,
  served: ServedDocument,
): Record<NoVariant, CorsVariants<ErrorResponseSet>> {
  const fixed = (status: number, code: string, message: string, retry = false) =>
    prepareErrorResponses({
      served,
      status,
      body: { error: { code: status, status: code, message } },
      headers: retry ? { 'retry-after': String(retryAfter) } : undefined,
      cors,
    });
  const unavailable = 'The agent card is temporarily unavailable. Retry later.';
  return {
    'bad-host': fixed(400, 'INVALID_ARGUMENT', 'Missing or invalid Host header.'),
    'unknown-host': fixed(400, 'INVALID_ARGUMENT', 'No agent card is served for this host.'),
    'unknown-tenant': fixed(400, 'INVALID_ARGUMENT', 'No agent card is served for this tenant.'),
    busy: fixed(503, 'UNAVAILABLE', unavailable, true),
    unavailable: fixed(503, 'UNAVAILABLE', unavailable, true),
  };
}

/**
 * The variants of a card function: found by key, built once however many requests wait for
 * them, at most `maxConcurrentBuilds` at a time, kept in a bounded LRU, rebuilt after
 * `variantMaxAge`, and served stale on a failed rebuild with `staleIfError`.
 */
function createVariantStore<Req>(
  provider: (ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>,
  settings: VariantSettings,
  d: DynamicSettings<Req>,
  warn: (f: Finding[]) => void,
): (request: AgentCardRequest<Req>) => Found {
  const cache = new LruCache<string, VariantEntry>(d.maxVariants);
  const inflight = new Map<string, Promise<VariantEntry | undefined>>();
  const maxAgeMs = d.variantMaxAge === undefined ? Infinity : d.variantMaxAge * 1000;
  const onError = settings.card.onError;
  const health = settings.card.health;
  // The error of the last failed build, for the status (a stale variant or a 503).
  let lastError: unknown;

  const build = (key: string, ctx: AgentCardContext<Req>): Promise<VariantEntry | undefined> | 'busy' => {
    let pending = inflight.get(key);
    if (pending !== undefined) return pending;
    if (inflight.size >= d.maxConcurrentBuilds) return 'busy';
    pending = (async () => {
      try {
        const card = await provider(ctx);
        const entry: VariantEntry = { variant: prepareVariant(card, settings, warn), expiresAt: Date.now() + maxAgeMs };
        cache.set(key, entry);
        health.ok();
        return entry;
      } catch (error) {
        onError(error);
        lastError = error;
        return undefined;
      }
    })()
      // Never synchronously: a provider that throws before its first await would otherwise leave
      // the key in flight for good (503 forever, and a build slot taken).
      .finally(() => inflight.delete(key));
    inflight.set(key, pending);
    return pending;
  };

  /** Keeps serving `entry` (expired) when `staleIfError` allows it, for `retryAfter` seconds. */
  const stale = (key: string, entry: VariantEntry | undefined): VariantEntry | undefined => {
    if (entry === undefined || !d.staleIfError) return undefined;
    entry.expiresAt = Date.now() + d.retryAfter * 1000;
    cache.set(key, entry);
    return entry;
  };

  return (request) => {
    const origin = requestOrigin(request, d.trustProxy);
    if (origin === undefined) return 'bad-host';
    if (d.allowOrigin !== undefined && !d.allowOrigin(origin)) return 'unknown-host';
    let key: string;
    let ctx: AgentCardContext<Req>;
    try {
      const tenant = d.tenant?.(request);
      // Before any lookup: a tenant the client made up never calls card nor evicts a variant.
      if (tenant !== undefined && d.allowTenant !== undefined && !d.allowTenant(tenant)) return 'unknown-tenant';
      ctx =
        tenant === undefined
          ? { origin, headers: request.headers, raw: request.raw }
          : { origin, tenant, headers: request.headers, raw: request.raw };
      key = d.cacheKey ? String(d.cacheKey(ctx)) : tenant === undefined ? origin : `${origin}\n${tenant}`;
    } catch (error) {
      onError(error);
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
      if (kept !== undefined) {
        health.stale(lastError);
        return kept;
      }
      health.failing(lastError);
      if (entry !== undefined) cache.delete(key);
      return 'unavailable' as const;
    });
  };
}

/** Serves a card function's variants at the card, legacy and declared extended-card paths. */
export function createDynamicResponder<Req>(
  provider: (ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>,
  settings: VariantSettings,
  d: DynamicSettings<Req>,
  warn: (f: Finding[]) => void,
): AgentCardResponder<Req> {
  const variantFor = createVariantStore(provider, settings, d, warn);
  // One set per route, so that each answer says which document it is about.
  const agent = settings.card.agent;
  const answers: Record<Route, Record<NoVariant, CorsVariants<ErrorResponseSet>>> = {
    main: noVariantAnswers(settings.card.cors, d.retryAfter, { kind: 'card', agent }),
    legacy: noVariantAnswers(settings.card.cors, d.retryAfter, { kind: 'alias', agent }),
    extended: noVariantAnswers(settings.card.cors, d.retryAfter, { kind: 'extended', agent }),
  };
  // Only declared paths build a variant (a card function must declare them, see extended/options.ts).
  const extendedPaths: readonly string[] = settings.extended?.path || [];

  const routeOf = (path: string): Route | undefined => {
    if (!path.startsWith(WELL_KNOWN_PREFIX) && !startsWithOneOf(path, extendedPaths)) return undefined;
    const p = comparablePath(path);
    if (p === AGENT_CARD_PATH) return 'main';
    if (p === LEGACY_AGENT_CARD_PATH) return settings.legacyPath ? 'legacy' : undefined;
    if (extendedPaths.includes(p)) return 'extended';
    return undefined;
  };

  const serve = (entry: VariantEntry, route: Route, request: AgentCardRequest<Req>) => {
    const v = entry.variant;
    if (route === 'main') return answerDocument(v.main, request);
    if (route === 'legacy') return v.legacy === undefined ? undefined : answerDocument(v.legacy, request);
    return v.extended.handle(request);
  };

  const responder: AgentCardResponder<Req> = {
    respond(request) {
      const route = routeOf(request.path);
      if (route === undefined) return undefined;
      const found = variantFor(request);
      const fail = (why: NoVariant) => answerError(selectCors(answers[route][why], request.headers), request.method);
      if (typeof found === 'string') return fail(found);
      if (!(found instanceof Promise)) return serve(found, route, request);
      return found.then((entry) => (entry === 'unavailable' ? fail(entry) : serve(entry, route, request)));
    },
    update() {
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        'update: the card is a function, built per request. Change what the card function returns instead (variantMaxAge rebuilds cached variants).',
      );
    },
  };
  const unavailable = Object.freeze({
    error: toJsonRpcError(EXTENDED_CARD_UNAVAILABLE),
    status: EXTENDED_CARD_UNAVAILABLE.httpStatus,
    headers: Object.freeze({ 'retry-after': String(d.retryAfter) }),
  });
  return sealResponder(responder, {
    variant(request) {
      if (routeOf(request.path) !== 'main') return undefined;
      const found = variantFor(request);
      const fail = (why: NoVariant) => answerError(selectCors(answers.main[why], request.headers), request.method);
      if (typeof found === 'string') return fail(found);
      if (!(found instanceof Promise)) return found.variant.variant;
      return found.then((entry) => (entry === 'unavailable' ? fail(entry) : entry.variant.variant));
    },
    async extended(request) {
      // The request's own method and path, when a caller passes them, reach `tenant` as before.
      const found = await variantFor({
        method: 'GET',
        path: AGENT_CARD_PATH,
        ...(request as Partial<AgentCardRequest<Req>>),
      } as AgentCardRequest<Req>);
      return typeof found === 'string' ? unavailable : found.variant.extended.resolve(request);
    },
  });
}
