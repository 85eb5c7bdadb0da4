import { Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { AgentCardMetadataAccessor } from './agent-card-metadata.accessor';
import { AGENT_CARD_MODULE_OPTIONS, AgentCardConfigurableModule } from './agent-card.module-definition';
import type { AgentCardModuleOptions } from './agent-card.options';
import { registerAgentCardHandler } from './agent-card.http';
import { AgentCardService } from './agent-card.service';
import { SkillExplorer } from './skill.explorer';

/**
 * Publishes the application's A2A Agent Card at `/.well-known/agent-card.json` (plus the legacy
 * alias and, when configured, the extended card), built from the module options and every
 * `@Skill()` on the application's controllers.
 *
 * The card is built and validated while the application initialises, so an invalid card stops
 * the start-up with an `AgentCardError`. It is served by a handler registered directly on the
 * HTTP adapter (Express or Fastify), outside any global prefix.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     AgentCardModule.forRoot({
 *       name: 'Acme Orders',
 *       description: 'Places and tracks orders for Acme products.',
 *       version: '1.4.0',
 *       url: 'https://orders.acme-corp.io/a2a/v1',
 *       binding: 'JSONRPC',
 *     }),
 *     OrdersModule,
 *   ],
 * })
 * export class AppModule {}
 * ```
 * @see A2A spec §8.2 (well-known URI)
 */
@Module({
  imports: [DiscoveryModule],
  providers: [AgentCardMetadataAccessor, SkillExplorer, AgentCardService],
  exports: [AgentCardService],
})
export class AgentCardModule extends AgentCardConfigurableModule implements NestModule {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(AgentCardService) private readonly service: AgentCardService,
    @Inject(AGENT_CARD_MODULE_OPTIONS) private readonly options: AgentCardModuleOptions,
  ) {
    super();
  }

  /**
   * Nest calls `configure` only for HTTP applications, before it registers controller routes
   * and long before its 404 handler: the card handler goes first on the adapter's instance.
   */
  configure(_consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost.httpAdapter;
    if (this.options.serve === false || !adapter) return;
    registerAgentCardHandler(adapter, this.service);
  }
}
