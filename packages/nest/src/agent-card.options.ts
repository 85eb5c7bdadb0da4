import type { CanActivate, Type } from '@nestjs/common';
import type {
  AgentCard,
  AgentCardDefinition,
  AgentCardOptions,
  AgentSkill,
  ExtendedAgentCardOptions,
  Principal,
} from '@agent-card/core';

/**
 * The core responder options the module takes. The options for dynamic cards (`card` as a
 * function, `tenant`, `cacheKey`, `maxVariants`, `variantMaxAge`, `staleIfError`, `trustProxy`)
 * are left out: a card built from decorators is static.
 */
export type AgentCardServingOption =
  | 'profile'
  | 'contentType'
  | 'cacheControl'
  | 'cors'
  | 'legacy'
  | 'retryAfter'
  | 'onError'
  | 'logger';

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
 * Options of {@link AgentCardModule.forRoot} / `forRootAsync`: the static card fields of
 * `defineAgentCard` (the `url` + `binding` shorthand included), the serving options of the core
 * responder, and Nest-specific options.
 *
 * The card's skills are the static `skills` below followed by every `@Skill()` found on the
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
  extends Omit<AgentCardDefinition, 'skills'>,
    Pick<AgentCardOptions<any>, AgentCardServingOption> {
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
   * that returns `false` or throws (e.g. `UnauthorizedException`) gives 401.
   * Guard classes are taken from the container when they are providers, otherwise instantiated
   * with their dependencies.
   * @default []
   */
  guards?: AgentCardGuard[];
  /**
   * Serve the card on the HTTP adapter. Turn off to serve it yourself through
   * `AgentCardService` (e.g. in a serverless handler).
   * @default true
   */
  serve?: boolean;
}

/** Internal: a fully-built card and what goes only into the extended card. */
export interface AgentCardBuild {
  card: AgentCard;
  extendedSkills: readonly AgentSkill[];
}
