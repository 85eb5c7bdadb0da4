import { Inject, Injectable, Logger, type CanActivate, type OnModuleInit, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  AgentCardError,
  createAgentCardResponder,
  formatFindings,
  getExtendedAgentCard,
  mergeExtendedCard,
  type AgentCard,
  type AgentCardDefinition,
  type AgentCardOptions,
  type AgentCardRequest,
  type AgentCardResponder,
  type AgentCardResponse,
  type AgentSkill,
  type ExtendedCardRequest,
  type GetExtendedAgentCardResult,
  type Principal,
} from '@agent-card/core';
import { AGENT_CARD_MODULE_OPTIONS } from './agent-card.module-definition';
import type { AgentCardBuild, AgentCardGuard, AgentCardModuleOptions } from './agent-card.options';
import {
  annotateSkillErrors,
  assembleAgentCard,
  checkSkills,
  explainBuildFailure,
  type AssembleAgentCardInput,
} from './assemble-agent-card';
import * as messages from './agent-card.messages';
import { extendedCardOf, staticCardOf, type ExtendedContent } from './extended-card';
import { RESPONDER_KEYS, splitOptions } from './module-options';
import { checkOpenApi } from './openapi-route';
import { withExtendedSkills, withSkills, type CardFunction } from './per-request-card';
import { createHttpExecutionContext, runGuards } from './guard-context';
import { SkillExplorer } from './skill.explorer';
import { skillFromOptions, type SkillSource } from './skill-source';

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

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A run-time change core refused, said from the caller's side; other errors pass unchanged. */
function changeFailed(operation: string, error: unknown): unknown {
  if (!(error instanceof AgentCardError) || error.code !== 'ERR_AGENT_CARD_INVALID') return error;
  const errors = error.findings.filter((f) => f.severity === 'error');
  return new AgentCardError(
    'ERR_AGENT_CARD_INVALID',
    messages.changeRefused(operation, errors.length, formatFindings(errors)),
    { findings: error.findings, cause: error },
  );
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
  private canAuthenticate = false;
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
    const { base, definition, responderOptions } = splitOptions(this.options, this.logger);
    this.guards = await Promise.all((this.options.guards ?? []).map((guard) => this.resolveGuard(guard)));
    this.canAuthenticate = this.guards.length > 0 || typeof this.options.extended?.authenticate === 'function';
    const decorated = this.explorer.explore(this.options.openApi !== false);
    checkOpenApi(decorated, responderOptions.logger!);
    if (typeof base === 'function') {
      this.responder = this.createPerRequestResponder(base, decorated, responderOptions);
      return;
    }
    const input: AssembleAgentCardInput = {
      definition: (base ?? definition) as unknown as Omit<AgentCardDefinition, 'skills'>,
      ...(base ? { card: base } : {}),
      sources: [...[...(base?.skills ?? []), ...(this.options.skills ?? [])].map(skillFromOptions), ...decorated],
      canAuthenticate: this.canAuthenticate,
      ...(this.options.profile === undefined ? {} : { profile: this.options.profile }),
    };
    const build = assembleAgentCard(input);
    try {
      const extendedCard = this.canAuthenticate ? await this.extendedContent(build) : undefined;
      this.responder = createAgentCardResponder({
        ...responderOptions,
        card: build.card,
        ...this.extendedOptions(extendedCard),
      });
      this.build = build;
      this.staticExtended = staticCardOf(extendedCard);
    } catch (error) {
      // Core rejected the card: the Nest-level checks name the decorator or option to fix.
      throw explainBuildFailure(input) ?? annotateSkillErrors(error, build.sources);
    }
  }

  /** A per-request card: the skills are checked now, each variant by core on first use. */
  private createPerRequestResponder(
    base: CardFunction,
    decorated: readonly SkillSource[],
    responderOptions: AgentCardOptions<any>,
  ): AgentCardResponder<any> {
    const { publicSkills, extendedSkills } = checkSkills({
      sources: [...(this.options.skills ?? []).map(skillFromOptions), ...decorated],
      logger: responderOptions.logger!,
      ...(this.options.profile === undefined ? {} : { profile: this.options.profile }),
    });
    if (extendedSkills.length > 0 && !this.canAuthenticate) {
      throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.extendedWithoutAuthentication);
    }
    const extendedCard = this.canAuthenticate
      ? withExtendedSkills(this.options.extended?.card, extendedSkills)
      : undefined;
    return createAgentCardResponder({
      ...responderOptions,
      card: withSkills(base, publicSkills),
      ...this.extendedOptions(extendedCard),
    });
  }

  /**
   * The whole extended card of `build`, for core to serve: handing core the whole card keeps one
   * merge rule for the REST endpoint and getExtendedCard(); a static one is validated and hashed
   * once. A function of the principal when `extended.card` is one.
   */
  private async extendedContent(build: AgentCardBuild): Promise<ExtendedContent> {
    const extra = this.options.extended?.card;
    if (typeof extra === 'function')
      return async (principal: Principal) => extendedCardOf(build, await extra(principal));
    return extendedCardOf(build, extra);
  }

  /** The responder's `extended` option, when something authenticates extended-card requests. */
  private extendedOptions(card: ExtendedContent): Pick<AgentCardOptions<any>, 'extended'> {
    if (!this.canAuthenticate) return {};
    const { authenticate: _authenticate, card: _card, ...rest } = this.options.extended ?? {};
    return {
      extended: {
        ...rest,
        authenticate: (request: object) =>
          this.authenticate(request, this.responses.get(request) ?? (request as { res?: unknown }).res),
        ...(card === undefined ? {} : { card }),
      },
    };
  }

  /**
   * Adds a skill to the served card (appended to the public skills, or with `extended: true` to
   * the extended card's). The new card is validated like at start-up, signed, serialised and
   * hashed once, then swapped in: every request gets the old bytes or the new ones, each with its
   * own ETag. Returns the new public card.
   * @throws AgentCardError `ERR_AGENT_CARD_INVALID` (the served card is unchanged), e.g. for an id
   *   the card already has; `ERR_AGENT_CARD_CONFIG` before `app.init()` or with a per-request card.
   * @example
   * ```ts
   * cards.addSkill({ id: 'returns', name: 'Returns', description: 'Starts a return.', tags: ['orders'] });
   * ```
   */
  addSkill(skill: AgentSkill, options: { extended?: boolean } = {}): AgentCard {
    const { card, extendedSkills } = this.built();
    const added = structuredClone(skill);
    if (typeof added.id === 'string' && [...card.skills, ...extendedSkills].some((s) => s.id === added.id)) {
      throw new AgentCardError('ERR_AGENT_CARD_INVALID', messages.skillExists(added.id));
    }
    if (options.extended !== true)
      return this.change('addSkill', { ...card, skills: [...card.skills, added] }, extendedSkills);
    if (!this.canAuthenticate)
      throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.extendedWithoutAuthentication);
    return this.change('addSkill', card, [...extendedSkills, added]);
  }

  /**
   * Removes the skill with this id from the served card (public or extended), swapped in like
   * {@link addSkill}. Returns the new public card.
   * @throws AgentCardError `ERR_AGENT_CARD_OPTIONS` when no skill has the id;
   *   `ERR_AGENT_CARD_INVALID` when the card would be invalid (e.g. no public skill left).
   */
  removeSkill(id: string): AgentCard {
    const { card, extendedSkills } = this.built();
    const skills = card.skills.filter((s) => s.id !== id);
    const extended = extendedSkills.filter((s) => s.id !== id);
    if (skills.length === card.skills.length && extended.length === extendedSkills.length) {
      throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.noSuchSkill(id, [...card.skills, ...extendedSkills]));
    }
    return this.change('removeSkill', { ...card, skills }, extended);
  }

  /**
   * Serves `card` (a complete public card, in its own key order) instead of the current one, and
   * `extendedSkills` (default: the current ones) in the extended card; swapped in like
   * {@link addSkill}. Returns the new public card.
   * @throws AgentCardError `ERR_AGENT_CARD_INVALID` (the served card is unchanged).
   */
  replaceCard(card: AgentCard, options: { extendedSkills?: readonly AgentSkill[] } = {}): AgentCard {
    const { extendedSkills } = this.built();
    return this.change('replaceCard', structuredClone(card), structuredClone(options.extendedSkills ?? extendedSkills));
  }

  /** Validates, prepares and swaps in a changed card; the served card stays when it throws. */
  private change(operation: string, card: AgentCard, extendedSkills: readonly AgentSkill[]): AgentCard {
    const responder = this.ready();
    const build: AgentCardBuild = { card: deepFreeze(card), extendedSkills, sources: [] };
    const extra = this.options.extended?.card;
    const extendedCard: ExtendedContent = !this.canAuthenticate
      ? undefined
      : typeof extra === 'function'
        ? async (principal: Principal) => extendedCardOf(build, await extra(principal))
        : extendedCardOf(build, extra);
    try {
      responder.update(build.card, extendedCard === undefined ? undefined : { extendedCard });
    } catch (error) {
      throw changeFailed(operation, error);
    }
    this.build = build;
    this.staticExtended = staticCardOf(extendedCard);
    return build.card;
  }

  /**
   * The public card, frozen. Available once the module has initialised. With the `sign` option
   * the served card also carries the signature the responder computed at start-up; this is the
   * card it signed.
   */
  getCard(): AgentCard {
    // Frozen on first use rather than at start-up, where a thousand skills would pay for it on
    // every boot; a changed card is frozen when it is swapped in.
    return deepFreeze(this.built().card);
  }

  /**
   * The extended card for a principal: the public card plus every `extended: true` skill, with
   * what `extended.card` returns merged over it by core's `mergeExtendedCard` (a skill list is
   * appended, a skill with an existing id replaces it; a partial card replaces the top-level
   * fields it sets).
   */
  async getExtendedCard(principal: Principal): Promise<AgentCard> {
    if (this.staticExtended) return this.staticExtended;
    const build = this.built();
    const extra = this.options.extended?.card;
    return extendedCardOf(build, typeof extra === 'function' ? await extra(principal) : extra);
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
      throw new AgentCardError('ERR_AGENT_CARD_CONFIG', messages.notInitialisedForRequest);
    }
    return this.responder;
  }

  private built(): AgentCardBuild {
    if (!this.build) {
      const why = !this.responder
        ? messages.notBuiltYet
        : this.options.agents !== undefined
          ? messages.severalAgents
          : messages.noSingleCard;
      throw new AgentCardError('ERR_AGENT_CARD_CONFIG', why);
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
