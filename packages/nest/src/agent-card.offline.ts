import type { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AGENT_CARD_PATH, AgentCardError, type AgentCard, type Principal } from '@agent-card/core';
import * as messages from './agent-card.messages';
import { AgentCardService } from './agent-card.service';

/** Options of {@link buildAgentCard}. */
export interface BuildAgentCardOptions {
  /**
   * The principal the extended card is built for (what `extended.card(principal)` receives).
   * @default true
   */
  principal?: Principal;
  /**
   * Nest's logger while the module initialises (`NestFactory.createApplicationContext`).
   * @default false
   */
  logger?: LoggerService | LogLevel[] | false;
}

/** What {@link buildAgentCard} returns. */
export interface BuiltAgentCard {
  /** The public card, as `AgentCardService.getCard()` returns it. */
  card: AgentCard;
  /**
   * The exact bytes `GET /.well-known/agent-card.json` would serve, as UTF-8 text (signed when
   * the module signs): what a build step writes to `agent-card.json`.
   */
  json: string;
  /** The extended card for `principal`, when the card declares `capabilities.extendedAgentCard`. */
  extendedCard?: AgentCard;
}

const isContext = (value: unknown): value is INestApplicationContext =>
  typeof (value as { get?: unknown }).get === 'function' && typeof (value as { init?: unknown }).init === 'function';

/**
 * Builds the application's Agent Card without an HTTP server: initialises `module` as a Nest
 * application context (providers are created and `onModuleInit` hooks run; nothing listens),
 * reads the card the {@link AgentCardModule} built, and closes the context. The card is
 * validated exactly as at start-up, so an invalid card rejects with the same `AgentCardError`.
 *
 * Pass an application context you made yourself (e.g. a `TestingModule` with providers
 * overridden) to build from it instead; it is initialised but not closed.
 *
 * @throws AgentCardError `ERR_AGENT_CARD_INVALID` (and the module's other start-up errors);
 *   `ERR_AGENT_CARD_CONFIG` when the module has no `AgentCardModule` or the card is per request.
 * @example
 * ```ts
 * // scripts/agent-card.mjs: a build step that writes the card, and fails the build on an invalid one
 * import 'reflect-metadata';
 * import { writeFile } from 'node:fs/promises';
 * import { buildAgentCard } from '@agent-card/nest';
 * import { AppModule } from '../dist/app.module.js';
 *
 * const { json } = await buildAgentCard(AppModule);
 * await writeFile('agent-card.json', json);
 * ```
 */
export async function buildAgentCard(
  module: Type<unknown> | DynamicModule | INestApplicationContext,
  options: BuildAgentCardOptions = {},
): Promise<BuiltAgentCard> {
  const owned = !isContext(module);
  const context = owned
    ? await NestFactory.createApplicationContext(module, { logger: options.logger ?? false, abortOnError: false })
    : module;
  try {
    if (!owned) await context.init();
    let service: AgentCardService;
    try {
      service = context.get(AgentCardService, { strict: false });
    } catch (error) {
      throw new AgentCardError('ERR_AGENT_CARD_CONFIG', messages.noAgentCardModule, { cause: error });
    }
    const card = service.getCard();
    const response = await service.respond({ method: 'GET', path: AGENT_CARD_PATH, headers: {} });
    const json = new TextDecoder().decode(response!.body);
    const built: BuiltAgentCard = { card, json };
    if (card.capabilities.extendedAgentCard === true) {
      built.extendedCard = await service.getExtendedCard(options.principal ?? true);
    }
    return built;
  } finally {
    if (owned) await context.close();
  }
}
