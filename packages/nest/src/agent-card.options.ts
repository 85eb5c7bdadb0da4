import type { CanActivate, Type } from '@nestjs/common';
import {
  AgentCardError,
  AgentCardSchema,
  type AgentCard,
  type AgentCardContext,
  type AgentCardDefinition,
  type AgentCardOptions,
  type AgentSkill,
  type ExtendedAgentCardOptions,
  type Principal,
} from '@agent-card/core';

/**
 * The dynamic-card options, which core groups under `dynamic` (member names unchanged):
 * `forRoot({ dynamic })` takes the same group.
 */
export const DYNAMIC_KEYS = [
  'allowedOrigins',
  'allowedTenants',
  'trustProxy',
  'tenant',
  'cacheKey',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'maxConcurrentBuilds',
  'retryAfter',
] as const;

/** The core responder options `forRoot` takes at the top level, as core does. */
export const SERVING_KEYS = [
  'profile',
  'contentType',
  'cacheControl',
  'cors',
  'legacy',
  'onError',
  'logger',
  'sign',
  'viewer',
] as const;

type ServingKey = (typeof SERVING_KEYS)[number];

// Fails to compile when core gains a responder option these lists lack, which would otherwise be
// refused as an unknown option.
const everyCoreOption: Exclude<
  keyof AgentCardOptions<any>,
  ServingKey | 'card' | 'extended' | 'agents' | 'default' | 'catalog' | 'dynamic'
> extends never
  ? true
  : never = true;
void everyCoreOption;

/** A Nest guard, as a class (resolved through the container) or an instance. */
export type AgentCardGuard = Type<CanActivate> | CanActivate;

/** A per-request card: the `card` option as a function of the request context. */
export type CardFunction = (ctx: AgentCardContext<any>) => AgentCard | Promise<AgentCard>;

/**
 * `forRoot({ dynamic })`: the options of a card built per request, as core's `dynamic` group
 * (`allowedOrigins`, `allowedTenants`, `trustProxy`, `tenant`, `cacheKey`, `maxVariants`,
 * `variantMaxAge`, `staleIfError`, `maxConcurrentBuilds`, `retryAfter`).
 */
export type AgentCardModuleDynamicOptions = NonNullable<AgentCardOptions<any>['dynamic']>;

/**
 * `forRoot({ extended })`: core's extended-card settings, plus the Nest `guards` that protect
 * the extended card; `authenticate` is optional because the guards can decide instead.
 * @see A2A spec §3.1.11, §13.3
 */
export interface AgentCardModuleExtendedOptions<P extends Principal = Principal>
  extends Omit<ExtendedAgentCardOptions<any, P>, 'authenticate'> {
  /**
   * Decides who may read the extended card; runs after `guards` have passed. Return a principal,
   * or nothing for 401.
   * @default the principal is `request.user ?? true` once every guard has passed
   */
  authenticate?: ExtendedAgentCardOptions<any, P>['authenticate'];
  /**
   * Nest guards that protect the extended card, e.g. `[ApiKeyGuard]`. Each runs `canActivate`
   * with an HTTP execution context for the extended-card request; every guard must pass. A guard
   * that returns `false` or throws an `HttpException` (e.g. `UnauthorizedException`) gives 401.
   * Guard classes are taken from the container when they are providers, otherwise instantiated
   * with their dependencies.
   * @default []
   */
  guards?: AgentCardGuard[];
}

/**
 * Options of {@link AgentCardModule.forRoot} / `forRootAsync`, in the groups of core's
 * `AgentCardOptions`: the card as `definition` (fields, built by `defineAgentCard`) or `card`
 * (complete, or a function of the request), `extended`, `dynamic`, core's serving options at the
 * top level, `agents` for several agents, and the Nest-specific `skills`, `openApi` and `serve`.
 *
 * The card's skills are the static `skills` followed by every `@Skill()` found on the
 * application's controllers.
 *
 * @example
 * ```ts
 * AgentCardModule.forRoot({
 *   definition: {
 *     name: 'Acme Orders',
 *     description: 'Places and tracks orders for Acme products.',
 *     version: '1.4.0',
 *     url: 'https://orders.acme-corp.io/a2a/v1',
 *     binding: 'JSONRPC',
 *   },
 *   extended: { guards: [ApiKeyGuard] },
 * })
 * ```
 */
export interface AgentCardModuleOptions extends Pick<AgentCardOptions<any>, ServingKey> {
  /**
   * The card's fields, as `defineAgentCard` takes them (the `url` + `binding` shorthand and its
   * `tenant` included), without `skills`: those come from `skills` and the decorators.
   */
  definition?: Omit<AgentCardDefinition, 'skills'>;
  /**
   * A complete card, served as given (in its own key order) instead of one built from
   * `definition`, or a function of the request context for a per-request card (per origin or
   * tenant; see the core `card` option and `dynamic`). The decorated skills are appended to it (to
   * every variant); a function's variants are validated by core on first use, the skills at
   * start-up.
   */
  card?: AgentCard | CardFunction;
  /**
   * Skills that no controller method implements; listed before the decorated ones.
   * @default []
   */
  skills?: AgentSkill[];
  /**
   * Extended card settings and `guards`. The module turns the extended card on by itself
   * (`capabilities.extendedAgentCard: true`) when a skill is `extended: true` or something
   * authenticates (guards or `authenticate`).
   */
  extended?: AgentCardModuleExtendedOptions;
  /** Options of a per-request `card` (core's `dynamic` group). */
  dynamic?: AgentCardModuleDynamicOptions;
  /**
   * Several agents (core `agents`): each agent's card is given whole, and the decorated skills go
   * to the agent named by `@Skill({ agent })` or `@AgentSkills({ agent })` (else the `default`
   * agent); `extended: true` skills go to that agent's extended card. `definition`, `card`,
   * `skills` and `extended` of these options do not apply then.
   */
  agents?: AgentCardOptions<any>['agents'];
  /** With `agents`: the agent also served at the root, and the one undecorated skills go to. */
  default?: string;
  /** With `agents`: the AI Catalog (core `catalog`). */
  catalog?: AgentCardOptions<any>['catalog'];
  /**
   * Read the `@nestjs/swagger` decorators of each `@Skill()` route (`@ApiOperation`, `@ApiTags`,
   * `@ApiSecurity` and its shorthands, `@ApiExclude*`) as defaults for the skill. `@nestjs/swagger`
   * is never imported; only its metadata keys are read.
   * @default true
   */
  openApi?: boolean;
  /**
   * Serve the card on the HTTP adapter. Turn off to serve it yourself through
   * `AgentCardService.respond()` (e.g. in a serverless handler).
   * @default true
   */
  serve?: boolean;
}

/**
 * {@link AgentCardModuleOptions} under the name every adapter gives its options
 * (`ExpressAgentCardOptions`, `FastifyAgentCardOptions`, …). `authenticate` and a dynamic `card`
 * receive the platform's request (Express' or Fastify's), typed `any` as either may run.
 */
export type NestAgentCardOptions = AgentCardModuleOptions;

/** The card fields `definition` takes (the card's, and the `url` shorthand's): at the top level, the old spelling. */
const CARD_FIELDS = new Set([...Object.keys(AgentCardSchema.shape), 'url', 'binding', 'protocolVersion']);

const OWN_KEYS = ['definition', 'card', 'skills', 'extended', 'dynamic', 'agents', 'default', 'catalog', 'openApi'];
const KNOWN = new Set<string>([...OWN_KEYS, 'serve', ...SERVING_KEYS]);

/** Where a top-level key of the old, flat spelling goes now, or `undefined` for a current one. */
function newHome(key: string, value: unknown): string | undefined {
  if (KNOWN.has(key)) return undefined;
  if (key === 'tenant' && typeof value === 'string')
    return `tenant: a card field at the top level. Move it into definition: { tenant }.`;
  if ((DYNAMIC_KEYS as readonly string[]).includes(key))
    return `${key}: a dynamic-card option at the top level. Move it into dynamic: { ${key} }.`;
  if (CARD_FIELDS.has(key)) return `${key}: a card field at the top level. Move it into definition: { ${key} }.`;
  if (key === 'guards') return 'guards: at the top level. Move it into extended: { guards }.';
  return `${key}: not an option of AgentCardModule.forRoot(). Use one of: ${[...KNOWN].join(', ')}.`;
}

/**
 * Checks the shape of the options once, at start-up: every key of the old, flat spelling (a card
 * field, a dynamic-card option or `guards` at the top level) and every unknown key is listed in
 * one `AgentCardError` (`ERR_AGENT_CARD_OPTIONS`) that says where each one goes now.
 */
export function checkModuleOptions(options: AgentCardModuleOptions): void {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const problem = newHome(key, value);
    if (problem !== undefined) problems.push(problem);
  }
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

/**
 * The core responder's options of these module options (without `card` and `extended`, which
 * each mode builds itself), the logger defaulting to `fallbackLogger`.
 */
export function coreOptions(options: AgentCardModuleOptions, fallbackLogger: Pick<Console, 'warn'>) {
  const core: AgentCardOptions<any> = { logger: options.logger ?? fallbackLogger };
  const set = core as Record<string, unknown>;
  for (const key of SERVING_KEYS) if (options[key] !== undefined) set[key] = options[key];
  if (options.dynamic !== undefined) core.dynamic = options.dynamic;
  return core;
}
