import type { CanActivate, Type } from '@nestjs/common';
import type {
  AgentCard,
  AgentCardContext,
  AgentCardDefinition,
  AgentCardOptions,
  AgentCardRequest,
  AgentSkill,
  ExtendedAgentCardOptions,
  Principal,
} from '@agent-card/core';

/**
 * The core responder options the module passes through unchanged: every option of core's
 * `AgentCardOptions` except those the module builds itself (`card`, `extended`, `tenant`, and
 * `agents`, `default`, `catalog` of `forRoot({ agents })`), so an option core adds is a serving
 * option here too.
 */
export type AgentCardServingOption = Exclude<
  keyof AgentCardOptions<any>,
  'card' | 'extended' | 'tenant' | 'agents' | 'default' | 'catalog'
>;

/** A Nest guard, as a class (resolved through the container) or an instance. */
export type AgentCardGuard = Type<CanActivate> | CanActivate;

/**
 * Extended card settings of {@link AgentCardModuleOptions}: the core settings, where
 * `authenticate` is optional because the module's `guards` can decide instead.
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
}

/**
 * Options of {@link AgentCardModule.forRoot} / `forRootAsync`: the card fields of
 * `defineAgentCard` (the `url` + `binding` shorthand included), every serving option of the core
 * responder, and Nest-specific options.
 *
 * The card's skills are the static `skills` followed by every `@Skill()` found on the
 * application's controllers.
 *
 * @example
 * ```ts
 * AgentCardModule.forRoot({
 *   name: 'Acme Orders',
 *   description: 'Places and tracks orders for Acme products.',
 *   version: '1.4.0',
 *   url: 'https://orders.acme-corp.io/a2a/v1',
 *   binding: 'JSONRPC',
 *   guards: [ApiKeyGuard],
 * })
 * ```
 */
export interface AgentCardModuleOptions
  extends Partial<Omit<AgentCardDefinition, 'skills' | 'tenant'>>,
    Pick<AgentCardOptions<any>, AgentCardServingOption> {
  /**
   * A complete card, served as given (in its own key order) instead of one built from the
   * separate fields, or a function of the request context for a per-request card (per origin or
   * tenant; see the core `card` option). The decorated skills are appended to it (to every
   * variant); a function's variants are validated by core on first use, the skills at start-up.
   * @default built from the fields of these options
   */
  card?: AgentCard | ((ctx: AgentCardContext<any>) => AgentCard | Promise<AgentCard>);
  /**
   * The tenant: a string is the `tenant` of the `url` shorthand interface; a function resolves the
   * tenant of a request for a per-request `card` (core `tenant` option).
   */
  tenant?: string | ((request: AgentCardRequest<any>) => string | undefined);
  /**
   * Skills that no controller method implements; listed before the decorated ones.
   * @default []
   */
  skills?: AgentSkill[];
  /**
   * Extended card settings. The module turns the extended card on by itself
   * (`capabilities.extendedAgentCard: true`) when a skill is `extended: true` or `guards` are set.
   */
  extended?: AgentCardModuleExtendedOptions;
  /**
   * Nest guards that protect the extended card, e.g. `[ApiKeyGuard]`. Each runs `canActivate`
   * with an HTTP execution context for the extended-card request; every guard must pass. A guard
   * that returns `false` or throws an `HttpException` (e.g. `UnauthorizedException`) gives 401.
   * Guard classes are taken from the container when they are providers, otherwise instantiated
   * with their dependencies.
   * @default []
   */
  guards?: AgentCardGuard[];
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
  /**
   * Several agents (core `agents`): each agent's card is given whole, and the decorated skills go
   * to the agent named by `@Skill({ agent })` or `@AgentSkills({ agent })` (else the `default`
   * agent); `extended: true` skills go to that agent's extended card. The card fields, `card`,
   * `skills`, `extended` and `guards` of these options do not apply then.
   */
  agents?: AgentCardOptions<any>['agents'];
  /** With `agents`: the agent also served at the root, and the one undecorated skills go to. */
  default?: string;
  /** With `agents`: the AI Catalog (core `catalog`). */
  catalog?: AgentCardOptions<any>['catalog'];
}

/** Internal: a fully-built card and what goes only into the extended card. */
export interface AgentCardBuild {
  card: AgentCard;
  extendedSkills: readonly AgentSkill[];
  /** Where each skill came from: the public skills in card order, then the extended ones. */
  sources: readonly import('./skill-source').SkillSource[];
}

/**
 * {@link AgentCardModuleOptions} under the name every adapter gives its options
 * (`ExpressAgentCardOptions`, `FastifyAgentCardOptions`, …). `authenticate` and a dynamic `card`
 * receive the platform's request (Express' or Fastify's), typed `any` as either may run.
 */
export type NestAgentCardOptions = AgentCardModuleOptions;
