import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import {
  AgentCardError,
  agentCardStatus,
  agentCardStore,
  closeAgentCard,
  formatFindings,
  type AgentCard,
  type AgentCardStatus,
  type AgentSkill,
} from '@agent-card/core';
import {
  agentCardRoutes,
  deepFreeze,
  getExtendedAgentCard,
  type AgentCardRequest,
  type AgentCardResponse,
  type AgentCardRoute,
  type ExtendedCardRequest,
  type GetExtendedAgentCardResult,
  type Principal,
} from '@agent-card/core/http';
import type { CardStore } from '@agent-card/core/store';
import { extendedContentOf, type BootedCard } from './agent-card.boot';
import * as messages from './agent-card.messages';
import { AGENT_CARD_MODULE_OPTIONS } from './agent-card.module-definition';
import type { AgentCardModuleOptions } from './agent-card.options';
import type { AgentCardBuild } from './assemble-agent-card';
import { createHttpExecutionContext, runGuards } from './guard-context';

/**
 * The card of the application at run time, built at start-up by `AgentCardModule`: read it,
 * change it, or answer requests the module does not serve (README: "AgentCardService").
 */
@Injectable()
export class AgentCardService {
  private booted?: BootedCard;
  private guards: readonly CanActivate[] = [];
  /** Responses of in-flight requests, so guards can see them through `switchToHttp()`. */
  private readonly responses = new WeakMap<object, unknown>();

  constructor(@Inject(AGENT_CARD_MODULE_OPTIONS) private readonly options: AgentCardModuleOptions) {}

  /** Whether guards or `extended.authenticate` authenticate extended-card requests. */
  get canAuthenticate(): boolean {
    return this.guards.length > 0 || typeof this.options.extended?.authenticate === 'function';
  }

  /** Called by the module: the resolved guards, then the booted card. */
  useGuards(guards: readonly CanActivate[]): void {
    this.guards = guards;
  }

  start(booted: BootedCard): void {
    this.booted = booted;
  }

  /**
   * Adds a skill (with `extended: true`, to the extended card), validated and swapped in whole
   * like at start-up; returns the new public card.
   * @throws AgentCardError `ERR_AGENT_CARD_INVALID` (the served card is unchanged).
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

  /** Removes the skill with this id (public or extended) like {@link addSkill}; returns the new public card. */
  removeSkill(id: string): AgentCard {
    const { card, extendedSkills } = this.built();
    const skills = card.skills.filter((s) => s.id !== id);
    const extended = extendedSkills.filter((s) => s.id !== id);
    if (skills.length === card.skills.length && extended.length === extendedSkills.length) {
      throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.noSuchSkill(id, [...card.skills, ...extendedSkills]));
    }
    return this.change('removeSkill', { ...card, skills }, extended);
  }

  /** Serves a complete public card (and `extendedSkills`) instead, like {@link addSkill}; returns it. */
  replaceCard(card: AgentCard, options: { extendedSkills?: readonly AgentSkill[] } = {}): AgentCard {
    const { extendedSkills } = this.built();
    return this.change('replaceCard', structuredClone(card), structuredClone(options.extendedSkills ?? extendedSkills));
  }

  /** Validates, prepares and swaps in a changed card; the served card stays when it throws. */
  private change(operation: string, card: AgentCard, extendedSkills: readonly AgentSkill[]): AgentCard {
    const { responder } = this.ready();
    const build: AgentCardBuild = { card: deepFreeze(card), extendedSkills };
    const extended = this.canAuthenticate ? extendedContentOf(build, this.options.extended?.card) : undefined;
    try {
      responder.update(build.card, extended === undefined ? undefined : { extendedCard: extended });
    } catch (error) {
      if (!(error instanceof AgentCardError) || error.code !== 'ERR_AGENT_CARD_INVALID') throw error;
      const errors = error.findings.filter((f) => f.severity === 'error');
      throw new AgentCardError(
        'ERR_AGENT_CARD_INVALID',
        messages.changeRefused(operation, errors.length, formatFindings(errors, { max: 20, rest: 'error.findings' })),
        { findings: error.findings, cause: error },
      );
    }
    this.booted = { responder, build, extended };
    return build.card;
  }

  /** The public card, frozen, once the module has initialised (with `sign`: the card that was signed). */
  getCard(): AgentCard {
    // Frozen on first use, not on every boot; a changed card is frozen when it is swapped in.
    return deepFreeze(this.built().card);
  }

  /** The extended card for a principal: the public card, the extended skills, then `extended.card` merged. */
  async getExtendedCard(principal: Principal): Promise<AgentCard> {
    const build = this.built();
    // The content core serves; without authentication, the same merge made now.
    const content = this.booted?.extended ?? extendedContentOf(build, this.options.extended?.card);
    return (typeof content === 'function' ? await content(principal) : content) as AgentCard;
  }

  /**
   * Answers a JSON-RPC `GetExtendedAgentCard` call: the card for an authenticated request, else the
   * spec's error with the HTTP status and headers to send (core's `getExtendedAgentCard`).
   */
  getExtendedAgentCard(request: ExtendedCardRequest<any>, response?: unknown): Promise<GetExtendedAgentCardResult> {
    this.remember(request.raw, response);
    return getExtendedAgentCard(this.ready().responder, request);
  }

  /** The principal of a request once every guard and `extended.authenticate` pass, else `undefined`. */
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

  /** Answers one request through core (`undefined`: not for the card); guards see `response` (default `raw.res`). */
  respond(
    request: AgentCardRequest<any>,
    response?: unknown,
  ): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> {
    const { responder } = this.ready();
    this.remember(request.raw, response);
    return responder.respond(request);
  }

  /** What the module serves now, `ok`, `stale` or `failing` (core's `agentCardStatus`), for a readiness probe. */
  status(): AgentCardStatus {
    return agentCardStatus(this.ready().responder);
  }

  /**
   * With `forRoot({ store, tenant })`: the cards of the store, written with `put` (core's `agentCardStore`).
   * @example await this.cards.store().put('acme', 'main', card)
   */
  store(): CardStore {
    return agentCardStore(this.ready().responder);
  }

  /** The paths the module serves, with the kind of document at each (core's `agentCardRoutes`). */
  routes(): Promise<AgentCardRoute[]> {
    return agentCardRoutes(this.ready().responder);
  }

  /** Stops what runs beside the card; called by the module when the application closes. */
  close(): void {
    if (this.booted) closeAgentCard(this.booted.responder);
  }

  private remember(raw: unknown, response: unknown): void {
    if (response !== undefined && raw !== null && typeof raw === 'object') this.responses.set(raw, response);
  }

  private ready(): BootedCard {
    if (!this.booted) throw new AgentCardError('ERR_AGENT_CARD_CONFIG', messages.notInitialisedForRequest);
    return this.booted;
  }

  private built(): AgentCardBuild {
    if (this.booted?.build) return this.booted.build;
    throw new AgentCardError('ERR_AGENT_CARD_CONFIG', messages.noSingleCard(this.booted !== undefined, this.options));
  }
}
