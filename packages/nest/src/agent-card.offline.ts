import type { DynamicModule, INestApplicationContext, LoggerService, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AgentCardError, type AgentCard } from '@agent-card/core';
import { AGENT_CARD_PATH, type Principal } from '@agent-card/core/http';
import * as messages from './agent-card.messages';
import { AgentCardService } from './agent-card.service';

/** Options of {@link buildAgentCard}. */
export interface BuildAgentCardOptions {
  /** The principal the extended card is built for. @default true */
  principal?: Principal;
  /** Nest's logger while the module initialises. @default false */
  logger?: LoggerService | LogLevel[] | false;
}

/** What {@link buildAgentCard} returns. */
export interface BuiltAgentCard {
  /** The public card, as `AgentCardService.getCard()` returns it. */
  card: AgentCard;
  /** The exact bytes `GET /.well-known/agent-card.json` would serve, as text (signed when the module signs). */
  json: string;
  /** The extended card for `principal`, when the card declares `capabilities.extendedAgentCard`. */
  extendedCard?: AgentCard;
}

const isContext = (value: unknown): value is INestApplicationContext =>
  typeof (value as { get?: unknown }).get === 'function' && typeof (value as { init?: unknown }).init === 'function';

/**
 * Builds the application's Agent Card without an HTTP server, validated exactly as at start-up:
 * initialises `module` as an application context and closes it (a context you pass is
 * initialised, not closed). README: "The card without a server".
 * @example
 * ```ts
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
