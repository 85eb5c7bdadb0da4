import type { CanActivate, Type } from '@nestjs/common';
import {
  AgentCardError,
  AgentCardSchema,
  type AgentCard,
  type AgentCardDefinition,
  type AgentSkill,
} from '@agent-card/core';
import type { AgentCardContext, AgentCardOptions, ExtendedAgentCardOptions, Principal } from '@agent-card/core/http';

/** Core's serving options, which `forRoot` takes at the top level, as core does. */
type ServingKey = Exclude<
  keyof AgentCardOptions<any>,
  // `watch` reloads agent-card.json, and the module builds its card from options and decorators.
  'card' | 'extended' | 'agents' | 'default' | 'catalog' | 'dynamic' | 'watch'
>;
// A record, not a list: it fails to compile when core gains an option (else refused as unknown).
const SERVING: Record<ServingKey, true> = {
  profile: true,
  rules: true,
  contentType: true,
  cacheControl: true,
  cors: true,
  legacy: true,
  onError: true,
  logger: true,
  sign: true,
  viewer: true,
  ard: true,
  onServe: true,
  store: true,
  tenant: true,
};
const SERVING_KEYS = Object.keys(SERVING) as ServingKey[];

/** A Nest guard, as a class (resolved through the container) or an instance. */
export type AgentCardGuard = Type<CanActivate> | CanActivate;

/** A per-request card: the `card` option as a function of the request context. */
export type CardFunction = (ctx: AgentCardContext<any>) => AgentCard | Promise<AgentCard>;

/**
 * `forRoot({ extended })`: core's extended-card settings, plus the Nest `guards` that protect the
 * extended card (every guard must pass; `false` or an `HttpException` gives 401).
 * @see A2A spec §3.1.11, §13.3
 */
export interface AgentCardModuleExtendedOptions<P extends Principal = Principal>
  extends Omit<ExtendedAgentCardOptions<any, P>, 'authenticate'> {
  /**
   * Runs after `guards` have passed: a principal, or nothing for 401.
   * @default the principal is `request.user ?? true`
   */
  authenticate?: ExtendedAgentCardOptions<any, P>['authenticate'];
  /** Guard classes (from the container, else instantiated) or instances, e.g. `[ApiKeyGuard]`. */
  guards?: AgentCardGuard[];
}

/** Options of `AgentCardModule.forRoot` / `forRootAsync`: core's `AgentCardOptions` and the Nest-specific ones. */
export interface AgentCardModuleOptions extends Pick<AgentCardOptions<any>, ServingKey> {
  /** The card's fields as `defineAgentCard` takes them, without `skills`; missing ones are reported at start-up. */
  definition?: Partial<Omit<AgentCardDefinition, 'skills'>>;
  /** A complete card served as given, or a function of the request context for a per-request card. */
  card?: AgentCard | CardFunction;
  /** Skills no controller method implements; listed before the decorated ones. */
  skills?: AgentSkill[];
  /** Extended card settings and `guards`. */
  extended?: AgentCardModuleExtendedOptions;
  /** Options of a per-request `card` (core's `dynamic` group). */
  dynamic?: AgentCardOptions<any>['dynamic'];
  /** Several agents (core `agents`); decorated skills go to the agent their decorator names. */
  agents?: AgentCardOptions<any>['agents'];
  /** With `agents`: the agent served at the root, and the one undecorated skills go to. */
  default?: string;
  /** With `agents`: the AI Catalog (core `catalog`). */
  catalog?: AgentCardOptions<any>['catalog'];
  /** Read each `@Skill()` route's `@nestjs/swagger` decorators as defaults. @default true */
  openApi?: boolean;
  /** Serve the card on the HTTP adapter; off, serve it with `AgentCardService.respond()`. @default true */
  serve?: boolean;
}

/** {@link AgentCardModuleOptions} under the name every adapter gives its options. */
export type NestAgentCardOptions = AgentCardModuleOptions;

const DYNAMIC_KEYS = new Set<string>([
  ...['allowedOrigins', 'allowedTenants', 'trustProxy', 'tenant', 'cacheKey', 'maxVariants'],
  ...['variantMaxAge', 'staleIfError', 'maxConcurrentBuilds', 'retryAfter'],
]);
const CARD_FIELDS = new Set([...Object.keys(AgentCardSchema.shape), 'url', 'binding', 'protocolVersion']);
const OWN_KEYS = ['definition', 'card', 'skills', 'extended', 'dynamic', 'agents', 'default', 'catalog', 'openApi'];
const KNOWN = new Set<string>([...OWN_KEYS, 'serve', ...SERVING_KEYS]);

/** Where a top-level key of the old, flat spelling goes now: [is it, what it is, its group]. */
const MOVED: [(key: string, value: unknown) => boolean, string, string][] = [
  [(key, value) => key === 'tenant' && typeof value === 'string', 'a card field ', 'definition'],
  [(key) => DYNAMIC_KEYS.has(key), 'a dynamic-card option ', 'dynamic'],
  [(key) => CARD_FIELDS.has(key), 'a card field ', 'definition'],
  [(key) => key === 'guards', '', 'extended'],
];

/** The problem with one top-level key, or `undefined` for a current one (or one left `undefined`). */
function newHome(key: string, value: unknown): string | undefined {
  // `tenant` is the store's option (an object); a string is the card field of the old spelling, a
  // function the dynamic card's.
  const oldTenant = key === 'tenant' && (typeof value !== 'object' || value === null);
  if (value === undefined || (KNOWN.has(key) && !oldTenant)) return undefined;
  const moved = MOVED.find(([is]) => is(key, value));
  if (moved) return `${key}: ${moved[1]}at the top level. Move it into ${moved[2]}: { ${key} }.`;
  return `${key}: not an option of AgentCardModule.forRoot(). Use one of: ${[...KNOWN].join(', ')}.`;
}

/**
 * Checks the shape of the options once, at start-up: every key of the old, flat spelling and
 * every unknown key is listed in one `ERR_AGENT_CARD_OPTIONS` that says where each one goes now.
 */
export function checkModuleOptions(options: AgentCardModuleOptions): void {
  const problems = Object.entries(options).flatMap(([key, value]) => newHome(key, value) ?? []);
  if ((options.definition as { skills?: unknown } | undefined)?.skills !== undefined)
    problems.push('definition.skills: skills are not a card field here. Move them into skills.');
  if (options.card !== undefined && options.definition !== undefined)
    problems.push(
      'card and definition: both are set. Pass either a complete card in card, or its fields in definition, not both.',
    );
  if (problems.length === 0) return;
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  throw new AgentCardError(
    'ERR_AGENT_CARD_OPTIONS',
    `AgentCardModule.forRoot(): the options have ${count}. Fix each one below.\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
}

/** The validation settings of the module options, as `defineAgentCard` takes them. */
export type ValidationSettings = Pick<AgentCardModuleOptions, 'profile' | 'rules'>;

/** Core's responder options of these module options (each mode adds its cards). */
export function coreOptions(options: AgentCardModuleOptions, fallbackLogger: Pick<Console, 'warn'>) {
  const core: AgentCardOptions<any> = { logger: options.logger ?? fallbackLogger };
  const keys: (keyof AgentCardModuleOptions)[] = [...SERVING_KEYS, 'dynamic'];
  // Core refuses `default` and `catalog` beside a single card.
  if (options.agents !== undefined || options.store !== undefined) keys.push('default', 'catalog');
  for (const key of keys) if (options[key] !== undefined) (core as Record<string, unknown>)[key] = options[key];
  return core;
}
