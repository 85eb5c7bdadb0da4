// The responder, composed like helmet's index.ts. Three foundations every room stands on:
//
//   kernel/    documents, ETag, CORS, encoding, protocol errors, paths, the request's origin and
//              trusted proxies, the card's own options, and derived.ts: the one loop that builds a
//              document from the responders' current variants (the catalog, the manifest, the pages)
//   card/      one prepared variant and the static responder (legacy and extended parts handed in here)
//   host/      what the documents about a host share: the agent, their settings, the catalog types
//
// and one folder (room) per serving feature, each with its options type, its resolver and its part
// of the answer; no room imports another (rooms.test.ts), they are composed here and in
// multi-agent.ts and store-host.ts:
//
//   legacy/    /.well-known/agent.json, an alias or the v0.3 card          option: legacy
//   extended/  the authenticated extended card, REST and JSON-RPC          option: extended
//   dynamic/   card functions: variants per origin/tenant                  option: dynamic
//   jwks/      the signing keys' JWK Set                                   option: sign (publish)
//   viewer/    pages people can read, behind every other route            option: viewer
//   agents/    several agents: their options, router and the AI Catalog    options: agents, default, catalog
//   ard/       the ARD manifest at /.well-known/ard.json, the registry API option: ard
//   store/     cards from a store, a host per tenant                       options: store, tenant
//   observe/   the serve hook, status, routes and the watch, on top         options: onServe, watch
//
// Every resolver adds its problems to one list, thrown once with every problem in it. A new
// feature is one folder, one member of AgentCardOptions (types.ts), and one line in each phase
// of createAgentCardResponder: its resolver, then where it is served. A new document about the
// host is one build function over createDerived (kernel/derived.ts) and one line here.
import { ardLink, ardPageLink, withArdRoute } from './ard/route';
import { cardArdRoute, resolveArdOption } from './ard/serve';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { unknownOption } from '../nearest';
import { showValue } from '../util';
import { resolveProfile } from '../validate/validate';
import { loadZeroConfigCard, watchServedCard } from '../zero-config';
import { createMultiAgentResponder } from './multi-agent';
import { createStaticResponder } from './card/static';
import type { VariantSettings } from './card/variant';
import { resolveDynamic } from './dynamic/options';
import { createDynamicResponder } from './dynamic/responder';
import { createExtendedEndpoint } from './extended/endpoint';
import { type ResolvedExtendedOptions, resolveExtended } from './extended/options';
import { withJwksRoute } from './jwks/route';
import { createHealth } from './kernel/health';
import { type CardContext, DYNAMIC_KEYS, KERNEL_KEYS, reportMovedOptions, resolveCardSettings } from './kernel/options';
import { optionsError, reporter, throwProblems } from './kernel/problems';
import type { AgentCardResponder } from './kernel/responder';
import { createWarner } from './kernel/warnings';
import { prepareLegacyDocument, resolveLegacy } from './legacy/alias';
import { finishResponder } from './observe/finish';
import { OBSERVE_KEYS, resolveObserve } from './observe/options';
import { candidatePaths } from './observe/routes';
import type { AgentCardOptions } from './types';
import { resolveViewerOption } from './viewer/options';
import { withCardViewer } from './viewer/serve';
import { createStoreHost } from './store-host';

/** Every top-level option of a single card (the old dynamic spelling is known, and refused). */
const OPTION_KEYS = new Set([...KERNEL_KEYS, 'legacy', 'extended', 'dynamic', 'viewer', 'ard', ...OBSERVE_KEYS]);

/**
 * Builds the framework-neutral responder every adapter uses. Options are validated and the
 * static card is validated, serialised and hashed here, once; `respond` then only compares the
 * path, reads the method and `If-None-Match`, and returns a prebuilt, frozen response.
 *
 * Answers (see the HTTP behaviour table in docs/serving.md):
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
  const o = optionsObject(options);
  const problems: string[] = [];
  const observe = resolveObserve(o, reporter(problems));
  const health = createHealth();
  const context: ZeroConfigContext = { health };
  let inner: AgentCardResponder<Req>;
  try {
    const single = <R>(own: AgentCardOptions<R>, agent: string) => createCardResponder(own, { agent, health });
    inner =
      options?.store !== undefined
        ? createStoreHost(options, health, single)
        : options?.agents !== undefined
          ? createMultiAgentResponder(options, single)
          : createCardResponder(options, context);
  } catch (error) {
    throw withProblems(error, problems);
  }
  throwProblems(problems);
  const watch =
    observe.watch === undefined || context.loaded === undefined
      ? undefined
      : watchServedCard(context.loaded, {
          profile: resolveProfile(o.profile),
          debounce: observe.watch,
          logger: (o.logger as Pick<Console, 'warn'> | undefined) ?? console,
          health,
          update: (card) => inner.update(card),
        });
  return finishResponder(inner, {
    observe,
    onError: (o.onError as ((error: unknown) => void) | undefined) ?? (() => {}),
    health,
    candidates: candidatePaths(o),
    close: () => watch?.close(),
  });
}

/** What the single-card responder tells its caller: the card it read from `agent-card.json`. */
interface ZeroConfigContext extends CardContext {
  loaded?: AgentCard;
}

/** `error` with the observing options' problems listed first, when there are any. */
function withProblems(error: unknown, problems: readonly string[]): unknown {
  if (problems.length === 0 || !(error instanceof AgentCardError) || error.code === 'ERR_AGENT_CARD_CONFIG')
    return error;
  // An options error's lines join ours; any other error (an invalid card) is one line of its own.
  const lines = error.message.startsWith('Invalid agent card options:')
    ? error.message
        .split('\n')
        .filter((line) => /^\s+- /.test(line))
        .map((line) => line.replace(/^\s+- /, ''))
    : [error.message];
  return optionsError([...problems, ...lines], error.findings);
}

/** One card's responder (a single card, or one agent of `agents`), before it is observed. */
function createCardResponder<Req>(
  options: AgentCardOptions<Req> | undefined,
  context: ZeroConfigContext,
): AgentCardResponder<Req> {
  const o = optionsObject(options);
  const problems: string[] = [];
  const err = reporter(problems);
  checkKeys(o, problems);
  // Each feature checks its own options; every problem is thrown together.
  const kernel = resolveCardSettings<Req>(o, err, problems, context);
  const legacy = resolveLegacy(o.legacy, err);
  const dynamic = resolveDynamic<Req>(o.dynamic, kernel, err, problems);
  const extended = resolveExtended<Req>(o.extended, dynamic.card !== undefined, err, problems);
  const viewer = resolveViewerOption(o.viewer, problems);
  const ard = resolveArdOption(o.ard, false, problems);
  throwProblems(problems);

  // The card: static, or a card function's variants; each variant has its legacy alias and
  // extended card. Then the features served in front of it or behind it.
  const settings: VariantSettings = {
    card: kernel,
    legacyPath: legacy !== false,
    extended,
    parts: {
      legacy: (card, main, headers) => prepareLegacyDocument(legacy, card, main, headers),
      // The extended option a variant holds is the one resolved here (update() replaces its card).
      extended: (card, s, w) =>
        createExtendedEndpoint(card, { ...s, extended: s.extended as ResolvedExtendedOptions<Req> | undefined }, w),
    },
    vary: dynamic.vary,
    retryAfter: dynamic.retryAfter,
    link: ard ? ardLink(undefined) : undefined,
  };
  const warn = createWarner(kernel.logger);
  for (const warning of kernel.signing?.warnings ?? []) kernel.logger.warn(`agent card: ${warning}`);
  if (dynamic.card === undefined && kernel.card === undefined) context.loaded = loadZeroConfigCard(kernel.profile);
  let responder =
    dynamic.card !== undefined
      ? createDynamicResponder(dynamic.card, settings, dynamic, warn)
      : createStaticResponder<Req>((kernel.card as AgentCard | undefined) ?? context.loaded!, settings, warn);
  responder = withArdRoute(responder, ard ? cardArdRoute(responder, kernel, dynamic) : undefined);
  responder = withJwksRoute(responder, kernel.signing, kernel);
  responder = withCardViewer(
    responder,
    viewer,
    { cacheControl: kernel.cacheControl, maxVariants: dynamic.maxVariants },
    ard ? [ardPageLink(undefined)] : [],
  );
  return responder;
}

/** The options as an object of members (none when they are not given). */
function optionsObject(input: unknown): Record<string, unknown> {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      `options: expected an object (${showValue(input)}). Pass { card } or nothing to load agent-card.json.`,
    );
  return input as Record<string, unknown>;
}

/** Unknown options, and the dynamic-card options written where they were before `dynamic`. */
function checkKeys(o: Record<string, unknown>, problems: string[]): void {
  for (const key of Object.keys(o)) {
    if (!OPTION_KEYS.has(key) && !(DYNAMIC_KEYS as readonly string[]).includes(key))
      problems.push(
        unknownOption(`options.${key}`, key, OPTION_KEYS, "AgentCardOptions and @agent-card/core's docs/serving.md"),
      );
  }
  reportMovedOptions(o, problems);
}
