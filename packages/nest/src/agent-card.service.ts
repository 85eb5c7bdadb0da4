import {
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type OnModuleInit,
  type Type,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  AgentCardError,
  createAgentCardResponder,
  getExtendedAgentCard,
  mergeExtendedCard,
  type AgentCard,
  type AgentCardDefinition,
  type AgentCardOptions,
  type AgentCardRequest,
  type AgentCardResponder,
  type AgentCardResponse,
  type ExtendedCardRequest,
  type GetExtendedAgentCardResult,
  type Principal,
} from '@agent-card/core';
import { AGENT_CARD_MODULE_OPTIONS } from './agent-card.module-definition';
import type { AgentCardBuild, AgentCardGuard, AgentCardModuleOptions, AgentCardServingOption } from './agent-card.options';
import { buildAgentCard } from './build-agent-card';
import { createHttpExecutionContext, runGuards } from './guard-context';
import { SkillExplorer } from './skill.explorer';
import { skillFromOptions } from './skill-source';

/** Option keys that belong to the responder, not to the card. */
const RESPONDER_KEYS = [
  'profile',
  'contentType',
  'cacheControl',
  'cors',
  'legacy',
  'retryAfter',
  'onError',
  'logger',
] as const satisfies readonly AgentCardServingOption[];
/** Option keys that are Nest-specific. */
const MODULE_KEYS = ['skills', 'extended', 'guards', 'serve'] as const;

type Awaitable<T> = T | Promise<T>;

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
    const options = this.options;
    this.guards = await Promise.all((options.guards ?? []).map((guard) => this.resolveGuard(guard)));
    const canAuthenticate = this.guards.length > 0 || typeof options.extended?.authenticate === 'function';

    const definition: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      if (!(RESPONDER_KEYS as readonly string[]).includes(key) && !(MODULE_KEYS as readonly string[]).includes(key)) {
        definition[key] = value;
      }
    }
    const sources = [...(options.skills ?? []).map((skill, i) => skillFromOptions(skill, i)), ...this.explorer.explore()];
    const logger = options.logger ?? this.logger;
    this.build = buildAgentCard({
      definition: definition as unknown as Omit<AgentCardDefinition, 'skills'>,
      sources,
      canAuthenticate,
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      logger,
    });

    const responderOptions: AgentCardOptions<any> = { logger };
    for (const key of RESPONDER_KEYS) {
      if (options[key] !== undefined) (responderOptions as Record<string, unknown>)[key] = options[key];
    }
    responderOptions.card = this.build.card;
    if (this.build.card.capabilities.extendedAgentCard === true && canAuthenticate) {
      const { authenticate: _authenticate, card: extra, ...rest } = options.extended ?? {};
      // Handing core the whole extended card keeps one merge rule for the REST endpoint and
      // getExtendedCard(); a static one is then validated and hashed once, at start-up.
      this.staticExtended = typeof extra === 'function' ? undefined : await this.getExtendedCard(true);
      responderOptions.extended = {
        ...rest,
        authenticate: (request: object) => this.authenticate(request, this.responses.get(request)),
        card: this.staticExtended ?? ((principal: Principal) => this.getExtendedCard(principal)),
      };
    }
    this.responder = createAgentCardResponder(responderOptions);
  }

  /** The public card, frozen. Available once the module has initialised. */
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
      const context = createHttpExecutionContext(request, response, AgentCardService, AgentCardService.prototype.getExtendedCard);
      if (!(await runGuards(this.guards, context))) return undefined;
    }
    const authenticate = this.options.extended?.authenticate;
    if (authenticate) return (await authenticate(request)) || undefined;
    return (request as { user?: Principal }).user ?? true;
  }

  /**
   * Answers one request through the core responder; `undefined` means "not for the card".
   * The HTTP adapters of this module call it; `response` is what guards see as the response.
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
        'AgentCardService: the card is not built yet (the module has not initialised). Call it after app.init(), e.g. in onApplicationBootstrap or a request handler.',
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
