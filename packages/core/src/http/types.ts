// The public types of serving. `AgentCardOptions` is the kernel's options plus one member per
// feature, each typed in the feature's folder.
import type { ValidationProfile } from '../findings';
import type { AgentCard } from '../model';
import type { RuleOverrides } from '../rules';
import type { SignAgentCardOptions } from '../sign/sign';
import type { AgentCardSigningOptions } from '../sign/signing-options';
import type { AgentCardEntryOverrides, AiCatalogServeOptions } from './host/types';
import type { DynamicCardOptions } from './dynamic/types';
import type { ExtendedAgentCardOptions } from './extended/types';
import type { AgentCardContext } from './kernel/exchange';
import type { LegacySetting } from './legacy/alias';
import type { AgentCardServeHook } from './observe/hook';
import type { AgentCardWatchOptions } from './observe/options';
import type { AgentCardViewerOptions } from './viewer/options';
import type { CardStoreDriver } from '../store/types';
import type { AgentCardStoreOptions } from './store/options';
import type { AgentCardTenantOption } from './store/tenancy';

export type {
  AgentCardContext,
  AgentCardRequest,
  AgentCardRequestHeaders,
  AgentCardResponse,
} from './kernel/exchange';
export type { AgentCardResponder, AgentCardUpdate } from './kernel/responder';
export type { ExtendedAgentCardOptions } from './extended/types';
export type { ExtendedCardRequest, GetExtendedAgentCardResult, Principal } from './kernel/extended';
export type { DynamicCardOptions } from './dynamic/types';
export type { AiCatalogServeOptions } from './host/types';
export type { AgentCardViewerOptions } from './viewer/options';
export type { AgentCardRegistryOptions, AgentCardStoreOptions } from './store/options';
export type { AgentCardTenantOption, TenantOwns } from './store/tenancy';

/** Options shared by every adapter (`agentCard(options)`) and {@link createAgentCardResponder}. */
export interface AgentCardOptions<Req = unknown> {
  /**
   * The card, or a function of the request that returns it (sync or async). Functions are
   * called once per distinct variant and cached (see `dynamic`).
   * @default `loadAgentCardConfig()` — `agent-card.json` plus `package.json` from the cwd
   */
  card?: AgentCard | ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>);
  /** Validation profile. @default `production` when NODE_ENV=production, else `development` */
  profile?: ValidationProfile;
  /**
   * Per-rule settings for the validation of every card served (checked at start-up): `'off'`
   * leaves a rule's findings out, `'info'`, `'warning'` or `'error'` sets their severity. An
   * unknown rule id or setting is a start-up error naming the nearest id. `extended-card-requires-security`
   * stays an error whatever it says: an extended card nobody can authenticate for is never served.
   * @example { 'metadata-quality': 'off', 'url-private-host': 'error' }
   */
  rules?: RuleOverrides;
  /** @default `application/a2a+json` */
  contentType?: string;
  /** `Cache-Control` of the public card; `false` sends none. @default `public, max-age=3600` */
  cacheControl?: string | false;
  /**
   * CORS: `*` (default), a list of allowed origins (echoed, with `Vary: Origin`), or `false`.
   * @default '*'
   */
  cors?: '*' | readonly string[] | false;
  /** Called with provider and authenticate errors (never with a request's secrets). */
  onError?: (error: unknown) => void;
  /**
   * Where warnings go (`warn`). A pino-style logger (`child()` and a string `level`: pino,
   * Fastify's `fastify.log`) gets each finding as fields, `warn({ rule, path, severity, hint },
   * message)`, so that a log pipeline can filter by rule; any other logger gets lines of text.
   * @default console
   */
  logger?: Pick<Console, 'warn'>;
  /**
   * Called after each answered request with what was served: the document's `kind` (`card`,
   * `alias`, `extended`, `catalog`, `jwks`, `viewer`), the `agent` id, the `status`, the
   * `A2A-Version` asked for and a coarse `client` family from `User-Agent`. Runs in a microtask,
   * after the adapter has the answer; a throw (or a rejected promise) goes to `onError`, never to
   * the response. Without it, `respond` does no extra work at all.
   * `agentCardMetrics()` of `@agent-card/core/otel` is one, counting documents with OpenTelemetry.
   * @example onServe: (e) => log.info(e, 'agent card served')
   */
  onServe?: AgentCardServeHook;
  /**
   * With no `card` (zero-config): read `agent-card.json` (and its `package.json`) again when they
   * change, including a Kubernetes ConfigMap's swap of its `..data` link, and serve the new card,
   * validated as at start-up. A file that does not validate leaves the card served as it was,
   * is logged once with why, and makes `agentCardStatus` `stale`. Changes within `debounce`
   * milliseconds make one reload. Node.js only; the watchers never keep the process alive, and
   * `closeAgentCard` (called by the Fastify plugin and the Nest module on close) stops them.
   * @default false
   * @example watch: true
   */
  watch?: boolean | AgentCardWatchOptions;
  /**
   * Signs the served card (JWS over the canonical card, spec §8.4, see `signAgentCard`): once
   * per variant when it is built (at start-up for a static card), never per request, so the
   * bytes, the ETag and 304 answers stay stable. The signatures (one per key and canonical
   * form) are appended to any the card already has; the legacy v0.3 card and the extended card
   * are served unsigned. One key, a list of keys (rotation), or `{ keys, publish, jwksPath }`;
   * the public keys are served as a JWK Set at `/.well-known/jwks.json` unless `jwksPath: false`.
   *
   * A signature must never cover URLs taken from request headers, so with a card function
   * `sign` requires an explicit `dynamic.cacheKey`, refuses `dynamic.trustProxy`, and
   * `ctx.origin` is not available to `card` and `cacheKey` (reading it throws): build URLs from
   * configuration.
   * @example sign: { privateKey: process.env.CARD_KEY_PEM, alg: 'ES256' }
   * @example sign: { keys: [newKey, oldKey], publish: [nextPublicJwk] }
   */
  sign?: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions;
  /**
   * `/.well-known/agent.json`: `true` serves a byte-identical alias, `'v0.3'` serves a
   * v0.3-compatible superset card, `false` leaves the path to the app.
   * @default true
   */
  legacy?: LegacySetting;
  /** Extended card, when `capabilities.extendedAgentCard` is true. */
  extended?: ExtendedAgentCardOptions<Req, any>;
  /**
   * A card function's variants: which origins and tenants may have one, how they are keyed,
   * how many are kept and built at once, how long they live, and which proxies may tell the
   * origin.
   * @example dynamic: { allowedOrigins: ['https://agent.example.com'], maxVariants: 50 }
   */
  dynamic?: DynamicCardOptions<Req>;
  /**
   * Several agents from one middleware: each card at `{path}/.well-known/agent-card.json` with
   * everything a single card has (ETag, 304, CORS, its own extended card, signing, card
   * functions). The other top-level options apply to every agent that does not set its own
   * (`extended` is per agent; `dynamic` is merged member by member). Cannot be combined with
   * `card`.
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
   * The ARD manifest (Agentic Resource Discovery v0.91) at `/.well-known/ard.json`: one JSON-LD
   * entry per agent the catalog lists (`identifier`, `displayName`, `type`, `url`, `description`,
   * `version`, the skills' ids as `capabilities` and up to five of their `examples` as
   * `representativeQueries`), then the catalog's declared `entries` ARD can carry. Built from
   * the served cards, prepared once per set of card variants; named by `Link: <…>; rel="ard"` on
   * every card answer. `false` serves none.
   * @default true with `agents`, false for a single card
   * @example ard: false
   */
  ard?: boolean;
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
  /**
   * Serves the cards of a store, one set per tenant: each tenant's records (agent → card) are one
   * host with everything `agents` has (cards, legacy aliases, ETag, 304, CORS, the AI Catalog, the
   * ARD manifest, the JWK Set of `sign`, the viewer's pages). The agent named by `default` is
   * served at the tenant's root, every agent at `store.agentPath` (`/agents/{agent}`). A replica
   * keeps the prepared answers of the tenants it serves (bounded by count and bytes) and swaps a
   * tenant's answers when the store announces a change; records are validated when read and an
   * invalid one is never served. Requires `tenant`; cannot be combined with `card`, `agents`,
   * `extended`, `dynamic` or `watch`. Write with `agentCardStore(responder).put(tenant, agent, card)`.
   * @example store: memoryStore(), tenant: { from: 'host', hosts: ['{tenant}.agents.example.com'] }, default: 'main'
   */
  store?: CardStoreDriver | AgentCardStoreOptions;
  /** With `store`: where a request's tenant comes from (see {@link AgentCardTenantOption}). */
  tenant?: AgentCardTenantOption<Req>;
}

/**
 * One agent of a multi-agent responder: its own card and card options, served under `path`.
 * Options it leaves out are taken from the top level (except `extended`, which is per agent).
 */
export interface AgentOptions<Req = unknown>
  extends Omit<AgentCardOptions<Req>, 'agents' | 'default' | 'catalog' | 'ard' | 'card' | 'viewer'> {
  /** Stable id: letters, digits, `.`, `_`, `-` (e.g. `billing`). Names the agent in errors and logs. */
  id: string;
  /**
   * Where the agent lives, relative to the mount point: its card is served at
   * `{path}/.well-known/agent-card.json`. Starts with `/`, no trailing slash, no query.
   * @example '/agents/billing'
   */
  path: string;
  /** The card, or a function of the request that returns it (a dynamic card). */
  card: NonNullable<AgentCardOptions<Req>['card']>;
  /**
   * The agent's catalog entry: members that replace what the card gives (`identifier`,
   * `displayName`, `description`, `tags`, `version`, `publisher`, `metadata`…), or `false` to
   * leave the agent out of the catalog.
   * @default identifier `urn:agent-card:{host}:{id}`, the rest from the card
   */
  catalogEntry?: AgentCardEntryOverrides | false;
}
