/*
 * A small "existing service" used by the e2e tests on Nest 12 (packages/nest) and Nest 11
 * (test/nest11). It takes the Nest packages as arguments so that each suite decorates its
 * classes with its own copy of @nestjs/common.
 */
import type * as NestCommon from '@nestjs/common';
import type * as AgentCardNest from '../src/index';

export interface FixtureDeps {
  common: typeof NestCommon;
  lib: typeof AgentCardNest;
}

/** The secret the fixture's ApiKeyGuard accepts in `x-api-key`. */
export const API_KEY = 'k-7f3a9c';

/** The static card fields the fixture app publishes. */
export const baseDefinition = {
  name: 'Acme Orders',
  description: 'Places, tracks and exports orders for Acme products.',
  version: '2.1.0',
  url: 'http://127.0.0.1:4000/a2a',
  binding: 'HTTP+JSON' as const,
  provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header' as const, name: 'x-api-key' } } },
};

/** The module options of the fixture app, without guards. */
export const baseOptions = {
  definition: baseDefinition,
  profile: 'development' as const,
  logger: { warn: () => {} },
};

/** Builds the fixture's controllers, modules and guard with the given Nest copy. */
export function createFixture({ common, lib }: FixtureDeps) {
  const { Controller, Get, Post, Param, Inject, Injectable, Module, Scope, UnauthorizedException } = common;
  const { AgentSkills, Skill, AgentCardModule, AgentCardService } = lib;

  @Injectable()
  class KeyStore {
    isValid(key: unknown): boolean {
      return key === API_KEY;
    }
  }

  /** The kind of guard an existing service already has: it throws 401 and sets request.user. */
  @Injectable()
  class ApiKeyGuard {
    constructor(@Inject(KeyStore) private readonly keys: KeyStore) {}
    canActivate(context: NestCommon.ExecutionContext): boolean {
      const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: unknown }>();
      if (!this.keys.isValid(request.headers['x-api-key'])) throw new UnauthorizedException();
      request.user = { id: 'ops-team' };
      // Express' res.header() and Fastify's reply.header() both set a response header.
      context
        .switchToHttp()
        .getResponse<{ header(name: string, value: string): unknown }>()
        .header('x-guard', 'api-key');
      return true;
    }
  }

  @AgentSkills({ tags: ['orders'], outputModes: ['application/json'] })
  @Controller('orders')
  class OrdersController {
    @Get()
    @Skill({ description: 'Lists the orders of the current customer.', tags: ['history'] })
    listOrders() {
      return [{ id: 'o-1' }];
    }

    @Post()
    @Skill('place-order', {
      description: 'Places an order for one or more products.',
      examples: ['Order two blue mugs'],
    })
    create() {
      return { id: 'o-2' };
    }

    @Get('export')
    @Skill({
      description: 'Exports every order as CSV for the operations team.',
      outputModes: ['text/csv'],
      extended: true,
    })
    exportAll() {
      return 'id\no-1\n';
    }

    @Get('health')
    health() {
      return { ok: true };
    }
  }

  // Request-scoped: the explorer must read its metadata from the class, never instantiate it.
  @Controller({ path: 'invoices', scope: Scope.REQUEST })
  class InvoicesController {
    static instances = 0;
    constructor() {
      InvoicesController.instances++;
    }

    @Get(':id')
    @Skill({ description: 'Fetches an invoice by its number.', tags: ['billing', 'invoices'] })
    getInvoice(@Param('id') id: string) {
      return { id };
    }
  }

  @Module({ controllers: [OrdersController], providers: [KeyStore, ApiKeyGuard], exports: [KeyStore] })
  class OrdersModule {}

  @Module({ controllers: [InvoicesController] })
  class BillingModule {}

  /** The application module, with AgentCardModule.forRoot(options). */
  function appModule(options: Partial<AgentNestOptions> = {}) {
    @Module({
      imports: [
        AgentCardModule.forRoot({
          ...baseOptions,
          ...options,
          extended: { guards: [ApiKeyGuard], ...options.extended },
        } as AgentNestOptions),
        OrdersModule,
        BillingModule,
      ],
    })
    class AppModule {}
    return AppModule;
  }

  return {
    KeyStore,
    ApiKeyGuard,
    OrdersController,
    InvoicesController,
    OrdersModule,
    BillingModule,
    appModule,
    AgentCardService,
  };
}

type AgentNestOptions = AgentCardNest.AgentCardModuleForRootOptions;

/** The public skills the fixture publishes, in order. */
export const publicSkillIds = ['list-orders', 'place-order', 'get-invoice'];
