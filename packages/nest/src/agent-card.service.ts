import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import {
  AgentCardError,
  formatFindings,
  getExtendedAgentCard,
  type AgentCard,
  type AgentCardRequest,
  type AgentCardResponder,
  type AgentCardResponse,
  type AgentSkill,
  type ExtendedCardRequest,
  type GetExtendedAgentCardResult,
  type Principal,
} from '@agent-card/core';
import type { BootedCard } from './agent-card.boot';
import * as messages from './agent-card.messages';
import { AGENT_CARD_MODULE_OPTIONS } from './agent-card.module-definition';
import type { AgentCardModuleOptions } from './agent-card.options';
import { deepFreeze } from './deep-freeze';
import { extendedCardOf, extendedContentOf, staticCardOf, type AgentCardBuild } from './extended-card';
import { createHttpExecutionContext, runGuards } from './guard-context';

/**
 * The card of the application at run time: built at start-up by {@link AgentCardModule} from
 * the module options and every `@Skill()`, read and changed here. Inject it to answer JSON-RPC
 * `GetExtendedAgentCard` yourself, or to serve the card from a handler the module does not know.
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
export class AgentCardService {
  private booted?: BootedCard;
  private guards: readonly CanActivate[] = [];
  /** Responses of in-flight requests, so guards can see them through `switchToHttp()`. */
  private readonly responses = new WeakMap<object, unknown>();

  constructor(@Inject(AGENT_CARD_MODULE_OPTIONS) private readonly options: AgentCardModuleOptions) {}

  /** Whether anything authenticates extended-card requests (guards or `extended.authenticate`). */
  get canAuthenticate(): boolean {
    return this.guards.length > 0 || typeof this.options.extended?.authenticate === 'function';
  }

  /** Takes the resolved guards; called by the module before it boots the card. */
  useGuards(guards: readonly CanActivate[]): void {
    this.guards = guards;
  }

  /** Takes the booted card; called by the module once the card is built and validated. */
  start(booted: BootedCard): void {
    this.booted = booted;
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
    const { responder } = this.ready();
    const build: AgentCardBuild = { card: deepFreeze(card), extendedSkills };
    const extendedCard = this.canAuthenticate ? extendedContentOf(build, this.options.extended?.card) : undefined;
    try {
      responder.update(build.card, extendedCard === undefined ? undefined : { extendedCard });
    } catch (error) {
      if (!(error instanceof AgentCardError) || error.code !== 'ERR_AGENT_CARD_INVALID') throw error;
      const errors = error.findings.filter((f) => f.severity === 'error');
      throw new AgentCardError(
        'ERR_AGENT_CARD_INVALID',
        messages.changeRefused(operation, errors.length, formatFindings(errors)),
        { findings: error.findings, cause: error },
      );
    }
    const staticExtended = staticCardOf(extendedCard);
    this.booted = { responder, build, ...(staticExtended ? { staticExtended } : {}) };
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
    const build = this.built();
    if (this.booted?.staticExtended) return this.booted.staticExtended;
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
    this.remember(request.raw, response);
    return getExtendedAgentCard(this.ready().responder, request);
  }

  /**
   * Decides whether a request may read the extended card: every guard must pass, then
   * `extended.authenticate` (when set) returns the principal; without it the principal is
   * `request.user ?? true`. Resolves to `undefined` when the caller is not authenticated.
   */
  async authenticate(request: object, response?: unknown): Promise<Principal | undefined> {
    if (this.guards.length > 0) {
      const handler = AgentCardService.prototype.getExtendedCard;
      const context = createHttpExecutionContext(request, response, AgentCardService, handler);
      if (!(await runGuards(this.guards, context))) return undefined;
    }
    const authenticate = this.options.extended?.authenticate;
    if (authenticate) return (await authenticate(request)) || undefined;
    return (request as { user?: Principal }).user ?? true;
  }

  /** {@link authenticate} for the responder, with the response the adapter gave for the request. */
  readonly authenticateRequest = (request: object): Promise<Principal | undefined> =>
    this.authenticate(request, this.responses.get(request) ?? (request as { res?: unknown }).res);

  /**
   * Answers one request through the core responder; `undefined` means "not for the card".
   * The HTTP adapters of this module call it; `response` is what guards see as the response
   * (by default `request.raw.res`, which Express provides).
   */
  respond(
    request: AgentCardRequest<any>,
    response?: unknown,
  ): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> {
    const { responder } = this.ready();
    this.remember(request.raw, response);
    return responder.respond(request);
  }

  private remember(raw: unknown, response: unknown): void {
    if (response !== undefined && raw !== null && typeof raw === 'object') this.responses.set(raw, response);
  }

  private ready(): BootedCard & { responder: AgentCardResponder<any> } {
    if (!this.booted) throw new AgentCardError('ERR_AGENT_CARD_CONFIG', messages.notInitialisedForRequest);
    return this.booted;
  }

  private built(): AgentCardBuild {
    const build = this.booted?.build;
    if (build) return build;
    const why = !this.booted
      ? messages.notBuiltYet
      : this.options.agents !== undefined
        ? messages.severalAgents
        : messages.noSingleCard;
    throw new AgentCardError('ERR_AGENT_CARD_CONFIG', why);
  }
}
