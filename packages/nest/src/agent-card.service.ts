import { Inject, Injectable, Logger, type CanActivate, type OnModuleInit, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  AgentCardError,
  createAgentCardResponder,
  getExtendedAgentCard,
  mergeExtendedCard,
  type AgentCard,
  type AgentCardContext,
  type AgentCardDefinition,
  type AgentCardOptions,
  type AgentCardRequest,
  type AgentCardResponder,
  type AgentCardResponse,
  type AgentSkill,
  type ExtendedAgentCardOptions,
  type ExtendedCardRequest,
  type GetExtendedAgentCardResult,
  type Principal,
} from '@agent-card/core';
import { AGENT_CARD_MODULE_OPTIONS } from './agent-card.module-definition';
import type {
  AgentCardBuild,
  AgentCardGuard,
  AgentCardModuleOptions,
  AgentCardServingOption,
} from './agent-card.options';
import {
  annotateSkillErrors,
  assembleAgentCard,
  checkSkills,
  explainBuildFailure,
  type AssembleAgentCardInput,
} from './assemble-agent-card';
import { deprecatedSkill, excludedSkill, excludedSkills } from './agent-card.messages';
import { createHttpExecutionContext, runGuards } from './guard-context';
import { SkillExplorer } from './skill.explorer';
import { skillFromOptions, type SkillSource } from './skill-source';

/** Option keys that belong to the responder, not to the card. */
const RESPONDER_KEYS = [
  'profile',
  'contentType',
  'cacheControl',
  'cors',
  'legacy',
  'trustProxy',
  'allowedOrigins',
  'maxConcurrentBuilds',
  'cacheKey',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'retryAfter',
  'onError',
  'logger',
  'sign',
] as const satisfies readonly AgentCardServingOption[];

type CardFunction = (ctx: AgentCardContext<any>) => AgentCard | Promise<AgentCard>;
type ExtendedContent = ExtendedAgentCardOptions<any>['card'];

/** Appends the decorated public skills to every variant of a per-request card. */
function withSkills(card: CardFunction, skills: readonly AgentSkill[]): CardFunction {
  if (skills.length === 0) return card;
  const add = (variant: AgentCard): AgentCard => ({ ...variant, skills: [...(variant.skills ?? []), ...skills] });
  return (ctx) => {
    const variant = card(ctx);
    return variant instanceof Promise ? variant.then(add) : add(variant);
  };
}

/**
 * For a per-request card: the extended content core merges over each variant, i.e. the
 * `extended: true` skills followed by what `extended.card` returns.
 */
function withExtendedSkills(extra: ExtendedContent, skills: readonly AgentSkill[]): ExtendedContent {
  if (skills.length === 0) return extra;
  const combine = (
    content: Partial<AgentCard> | readonly AgentSkill[] | undefined,
  ): Partial<AgentCard> | readonly AgentSkill[] => {
    if (content === undefined) return skills;
    if (Array.isArray(content)) return [...skills, ...(content as readonly AgentSkill[])];
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      'AgentCardModule: extended.card returned a partial card while card is a function and some skills are extended: true. Return a list of extra skills from extended.card instead.',
    );
  };
  if (typeof extra === 'function') return async (principal: Principal) => combine(await extra(principal));
  return combine(extra);
}

/**
 * `forRoot({ agents })`: the core options, with each decorated skill appended to the card (or,
 * for `extended: true`, the extended card) of the agent it names. A skill that names no known
 * agent, or none while there is no `default` agent, fails start-up naming `Controller#method`.
 */
function routeSkillsToAgents(
  options: AgentCardModuleOptions,
  sources: readonly SkillSource[],
  fallbackLogger: Pick<Console, 'warn'>,
): AgentCardOptions<any> {
  const { agents, default: defaultId, catalog, serve: _serve, ...rest } = options;
  const ids = new Set((agents ?? []).map((a) => a.id));
  const problems: string[] = [];
  const byAgent = new Map<string, { public: AgentSkill[]; extended: AgentSkill[] }>();
  for (const source of sources) {
    const id = source.agent ?? defaultId;
    if (id === undefined || !ids.has(id)) {
      problems.push(
        id === undefined
          ? `${source.declaredBy}: names no agent (none). Add agent: '<id>' to @Skill() or @AgentSkills(), or set default in forRoot({ agents }).`
          : `${source.declaredBy}: names an unknown agent (${JSON.stringify(id)}). Use one of the agent ids: ${[...ids].join(', ')}.`,
      );
      continue;
    }
    let list = byAgent.get(id);
    if (list === undefined) {
      list = { public: [], extended: [] };
      byAgent.set(id, list);
    }
    (source.extended ? list.extended : list.public).push(source.skill);
  }
  if (problems.length > 0)
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `AgentCardModule:\n  - ${problems.join('\n  - ')}`);
  const responder: Record<string, unknown> = {};
  for (const key of RESPONDER_KEYS) if (rest[key] !== undefined) responder[key] = rest[key];
  return {
    logger: fallbackLogger,
    ...responder,
    ...(defaultId === undefined ? {} : { default: defaultId }),
    ...(catalog === undefined ? {} : { catalog }),
    agents: (agents ?? []).map((agent) => {
      const skills = byAgent.get(agent.id);
      if (skills === undefined) return agent;
      const card =
        typeof agent.card === 'function'
          ? withSkills(agent.card, skills.public)
          : mergeExtendedCard(agent.card, skills.public);
      if (skills.extended.length === 0) return { ...agent, card };
      if (agent.extended === undefined)
        throw new AgentCardError(
          'ERR_AGENT_CARD_OPTIONS',
          `AgentCardModule: agent "${agent.id}" has extended: true skills but no extended option. Add extended: { authenticate } to that agent.`,
        );
      return {
        ...agent,
        card,
        extended: { ...agent.extended, card: withExtendedSkills(agent.extended.card, skills.extended) },
      };
    }),
  };
}

type Awaitable<T> = T | Promise<T>;

/**
 * What the OpenAPI metadata of the skills' routes asks for. A public skill on a route
 * `@ApiExcludeEndpoint()` / `@ApiExcludeController()` hides is a start-up error rather than left
 * out: the two decorators contradict each other and either silent choice loses one of them (an
 * extended skill is fine: hidden from the public document, shown to authenticated callers). A
 * deprecated operation's skill is still published, with one warning.
 */
function checkOpenApi(sources: readonly SkillSource[], logger: { warn(message: string): void }): void {
  const excluded: string[] = [];
  for (const source of sources) {
    const route = source.openApi;
    if (route === undefined) continue;
    if (route.excludedBy !== undefined && !source.extended)
      excluded.push(excludedSkill(source.origin, route.excludedBy));
    if (route.deprecated) logger.warn(deprecatedSkill(source.origin, source.skill.id));
  }
  if (excluded.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', excludedSkills(excluded));
}

/**
 * The card of the application, built at start-up from the module options and every `@Skill()`.
 * Inject it to answer JSON-RPC `GetExtendedAgentCard` yourself, or to serve the card from a
 * handler the module does not know about.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class RpcHandler {
 *   constructor(@Inject(AgentCardService) private readonly cards: AgentCardService) {}
 *   async getExtendedAgentCard(req: Request) {
 *     const principal = await this.cards.authenticate(req);
 *     if (!principal) throw new UnauthorizedException();
 *     return this.cards.getExtendedCard(principal);
 *   }
 * }
 * ```
 * @see A2A spec §3.1.11 (GetExtendedAgentCard)
 */
@Injectable()
export class AgentCardService implements OnModuleInit {
  private readonly logger = new Logger('AgentCardModule');
  private build?: AgentCardBuild;
  private responder?: AgentCardResponder<any>;
  private guards: CanActivate[] = [];
  private staticExtended?: AgentCard;
  /** Responses of in-flight requests, so guards can see them through `switchToHttp()`. */
  private readonly responses = new WeakMap<object, unknown>();

  constructor(
    @Inject(AGENT_CARD_MODULE_OPTIONS) private readonly options: AgentCardModuleOptions,
    @Inject(SkillExplorer) private readonly explorer: SkillExplorer,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
  ) {}

  /** Collects the skills, builds and validates the card, and prepares the responder. */
  async onModuleInit(): Promise<void> {
    if (this.options.agents !== undefined) {
      const sources = this.explorer.explore(this.options.openApi !== false);
      checkOpenApi(sources, this.options.logger ?? this.logger);
      this.responder = createAgentCardResponder(routeSkillsToAgents(this.options, sources, this.logger));
      return;
    }
    const { card: base, skills, extended, guards, serve: _serve, openApi, tenant, ...fields } = this.options;
    this.guards = await Promise.all((guards ?? []).map((guard) => this.resolveGuard(guard)));
    const canAuthenticate = this.guards.length > 0 || typeof extended?.authenticate === 'function';
    const logger = fields.logger ?? this.logger;

    const responderOptions: AgentCardOptions<any> = { logger };
    const definition: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if ((RESPONDER_KEYS as readonly string[]).includes(key))
        (responderOptions as Record<string, unknown>)[key] = value;
      else definition[key] = value;
    }
    if (typeof tenant === 'function') responderOptions.tenant = tenant;
    else if (tenant !== undefined) definition.tenant = tenant;

    if (base !== undefined && Object.keys(definition).length > 0) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        `AgentCardModule: both card and card fields (${Object.keys(definition).join(', ')}) are set. Pass either a complete card in card, or the fields, not both.`,
      );
    }
    const decorated = this.explorer.explore(openApi !== false);
    checkOpenApi(decorated, logger);
    const profile = fields.profile === undefined ? {} : { profile: fields.profile };
    let extendedSkills: readonly AgentSkill[];
    let buildInput: AssembleAgentCardInput | undefined;
    if (typeof base === 'function') {
      const split = checkSkills({
        sources: [...(skills ?? []).map(skillFromOptions), ...decorated],
        logger,
        ...profile,
      });
      extendedSkills = split.extendedSkills;
      if (extendedSkills.length > 0 && !canAuthenticate) {
        throw new AgentCardError(
          'ERR_AGENT_CARD_OPTIONS',
          'AgentCardModule: some skills are extended: true but nothing authenticates extended-card requests. Add guards: [YourAuthGuard] or extended: { authenticate } to AgentCardModule.forRoot().',
        );
      }
      responderOptions.card = withSkills(base, split.publicSkills);
    } else {
      const statics = [...(base?.skills ?? []), ...(skills ?? [])];
      buildInput = {
        definition: (base ?? definition) as unknown as Omit<AgentCardDefinition, 'skills'>,
        ...(base ? { card: base } : {}),
        sources: [...statics.map(skillFromOptions), ...decorated],
        canAuthenticate,
        ...profile,
      };
      this.build = assembleAgentCard(buildInput);
      extendedSkills = this.build.extendedSkills;
      responderOptions.card = this.build.card;
    }

    try {
      if (canAuthenticate) {
        const { authenticate: _authenticate, card: extra, ...rest } = extended ?? {};
        let content: ExtendedAgentCardOptions<any>['card'];
        if (this.build) {
          // Handing core the whole extended card keeps one merge rule for the REST endpoint and
          // getExtendedCard(); a static one is then validated and hashed once, at start-up.
          content =
            typeof extra === 'function'
              ? (principal: Principal) => this.getExtendedCard(principal)
              : await this.getExtendedCard(true);
          if (typeof extra !== 'function') this.staticExtended = content as AgentCard;
        } else {
          content = withExtendedSkills(extra, extendedSkills);
        }
        responderOptions.extended = {
          ...rest,
          authenticate: (request: object) =>
            this.authenticate(request, this.responses.get(request) ?? (request as { res?: unknown }).res),
          ...(content === undefined ? {} : { card: content }),
        };
      }
      this.responder = createAgentCardResponder(responderOptions);
    } catch (error) {
      const sources = this.build?.sources;
      this.build = undefined;
      this.staticExtended = undefined;
      if (!buildInput || !sources) throw error;
      // Core rejected the card: the Nest-level checks name the decorator or option to fix.
      throw explainBuildFailure(buildInput) ?? annotateSkillErrors(error, sources);
    }
  }

  /**
   * The public card, frozen. Available once the module has initialised. With the `sign` option
   * the served card also carries the signature the responder computed at start-up; this is the
   * card it signed.
   */
  getCard(): AgentCard {
    return this.built().card;
  }

  /**
   * The extended card for a principal: the public card plus every `extended: true` skill, with
   * what `extended.card` returns merged over it by core's `mergeExtendedCard` (a skill list is
   * appended, a skill with an existing id replaces it; a partial card replaces the top-level
   * fields it sets).
   */
  async getExtendedCard(principal: Principal): Promise<AgentCard> {
    if (this.staticExtended) return this.staticExtended;
    const { card, extendedSkills } = this.built();
    const extra = this.options.extended?.card;
    const withSkills = extendedSkills.length > 0 ? mergeExtendedCard(card, extendedSkills) : card;
    return mergeExtendedCard(withSkills, typeof extra === 'function' ? await extra(principal) : extra);
  }

  /**
   * Answers a JSON-RPC `GetExtendedAgentCard` call made over HTTP: authenticates the request
   * (guards, then `extended.authenticate`) and returns the card, or the spec's JSON-RPC error with
   * the HTTP status and headers to send (401 carries `WWW-Authenticate`).
   * @example
   * ```ts
   * const result = await cards.getExtendedAgentCard({ headers: req.headers, raw: req });
   * if (result.error) res.status(result.status).set(result.headers).json({ jsonrpc: '2.0', id, error: result.error });
   * else res.json({ jsonrpc: '2.0', id, result: result.card });
   * ```
   * @see A2A spec §3.1.11, §9 (JSON-RPC binding)
   */
  getExtendedAgentCard(request: ExtendedCardRequest<any>, response?: unknown): Promise<GetExtendedAgentCardResult> {
    if (response !== undefined && request.raw !== null && typeof request.raw === 'object') {
      this.responses.set(request.raw, response);
    }
    return getExtendedAgentCard(this.ready(), request);
  }

  /**
   * Decides whether a request may read the extended card: every guard must pass, then
   * `extended.authenticate` (when set) returns the principal; without it the principal is
   * `request.user ?? true`. Resolves to `undefined` when the caller is not authenticated.
   */
  async authenticate(request: object, response?: unknown): Promise<Principal | undefined> {
    if (this.guards.length > 0) {
      const context = createHttpExecutionContext(
        request,
        response,
        AgentCardService,
        AgentCardService.prototype.getExtendedCard,
      );
      if (!(await runGuards(this.guards, context))) return undefined;
    }
    const authenticate = this.options.extended?.authenticate;
    if (authenticate) return (await authenticate(request)) || undefined;
    return (request as { user?: Principal }).user ?? true;
  }

  /**
   * Answers one request through the core responder; `undefined` means "not for the card".
   * The HTTP adapters of this module call it; `response` is what guards see as the response
   * (by default `request.raw.res`, which Express provides).
   */
  respond(request: AgentCardRequest<any>, response?: unknown): Awaitable<AgentCardResponse | undefined> {
    const responder = this.ready();
    if (response !== undefined && request.raw !== null && typeof request.raw === 'object') {
      this.responses.set(request.raw, response);
    }
    return responder.respond(request);
  }

  private ready(): AgentCardResponder<any> {
    if (!this.responder) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_CONFIG',
        'AgentCardModule: a request arrived before the module initialised. Call app.init() or app.listen() before serving requests.',
      );
    }
    return this.responder;
  }

  private built(): AgentCardBuild {
    if (!this.build) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_CONFIG',
        this.responder
          ? 'AgentCardService: the card is built per request (card is a function), so there is no single card. Use respond() or getExtendedAgentCard(request).'
          : 'AgentCardService: the card is not built yet (the module has not initialised). Call it after app.init(), e.g. in onApplicationBootstrap or a request handler.',
      );
    }
    return this.build;
  }

  private async resolveGuard(guard: AgentCardGuard): Promise<CanActivate> {
    if (typeof guard !== 'function') return guard;
    const type = guard as Type<CanActivate>;
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      // Not a provider anywhere: build it here, with its own dependencies injected.
      return this.moduleRef.create(type);
    }
  }
}
