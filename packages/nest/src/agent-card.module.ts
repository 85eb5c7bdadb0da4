import {
  Inject,
  Logger,
  Module,
  type MiddlewareConsumer,
  type NestModule,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryModule, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { AgentCardMetadataAccessor } from './agent-card-metadata.accessor';
import { bootAgentCard } from './agent-card.boot';
import { serveAgentCard } from './agent-card.http';
import { mappedLine } from './agent-card.messages';
import { AGENT_CARD_MODULE_OPTIONS, AgentCardConfigurableModule } from './agent-card.module-definition';
import { checkModuleOptions, type AgentCardModuleOptions } from './agent-card.options';
import { AgentCardService } from './agent-card.service';
import { SkillExplorer } from './skill.explorer';

/**
 * Publishes the application's A2A Agent Card, built and validated while the application
 * initialises from the module options and every `@Skill()`, and served on the HTTP adapter
 * outside any global prefix. Options: `forRoot` / `forRootAsync` (README: "Options").
 * @see A2A spec §8.2 (well-known URI)
 */
@Module({
  imports: [DiscoveryModule],
  providers: [AgentCardMetadataAccessor, SkillExplorer, AgentCardService],
  exports: [AgentCardService],
})
export class AgentCardModule extends AgentCardConfigurableModule implements NestModule, OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(AGENT_CARD_MODULE_OPTIONS) private readonly options: AgentCardModuleOptions,
    @Inject(AgentCardService) private readonly service: AgentCardService,
    @Inject(SkillExplorer) private readonly explorer: SkillExplorer,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
  }

  /** Checks the options, collects the skills, builds and validates the card, and hands it to the service. */
  async onModuleInit(): Promise<void> {
    const { options, service } = this;
    checkModuleOptions(options);
    if (options.agents === undefined) {
      const guards = options.extended?.guards ?? [];
      service.useGuards(await Promise.all(guards.map((guard) => this.resolveGuard(guard))));
    }
    const decorated = this.explorer.explore(options.openApi !== false);
    const authenticate = service.canAuthenticate ? service.authenticateRequest : undefined;
    const logger = new Logger('AgentCardModule');
    service.start(await bootAgentCard({ options, decorated, logger, authenticate }));
    // Next to Nest's "Mapped {/path, GET} route" lines: the paths the card is served at.
    if (this.options.serve !== false && this.adapterHost.httpAdapter)
      for (const route of await service.routes()) logger.log(mappedLine(route.path, route.kind));
  }

  /** Stops what runs beside the card (a watch), with the application. */
  onModuleDestroy(): void {
    this.service.close();
  }

  /** Called only for HTTP applications, before the controller routes: the card handler goes first. */
  configure(_consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost.httpAdapter;
    if (this.options.serve === false || !adapter) return;
    serveAgentCard(adapter, this.service);
  }

  /** A guard class from the container when it is a provider, else built here with its dependencies. */
  private async resolveGuard<T extends object>(guard: T | (new (...args: never[]) => T)): Promise<T> {
    if (typeof guard !== 'function') return guard;
    try {
      return this.moduleRef.get(guard, { strict: false });
    } catch {
      return this.moduleRef.create(guard as never);
    }
  }
}
