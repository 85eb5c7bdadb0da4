/*
 * The @nestjs/swagger reuse of @agent-card/nest, against the real decorators: the Nest 12 run
 * (packages/nest) passes @nestjs/swagger 12, the Nest 11 run (test/nest11) @nestjs/swagger 11.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as NestSwagger from '@nestjs/swagger';
import { AgentCardError, type AgentCard } from '@agent-card/core';
import { baseOptions } from './fixture-app';
import type { SuiteDeps } from './e2e-suite';

export interface OpenApiSuiteDeps extends SuiteDeps {
  swagger: typeof NestSwagger;
  /** The major version of @nestjs/swagger this run must use. */
  swaggerVersion: string;
}

type App = import('@nestjs/common').INestApplication;

/** The schemes the swagger decorators below name. */
const securitySchemes = {
  apiKey: { apiKeySecurityScheme: { location: 'header' as const, name: 'x-api-key' } },
  bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
  oauth: {
    oauth2SecurityScheme: {
      flows: {
        clientCredentials: {
          tokenUrl: 'https://auth.acme-corp.io/oauth/token',
          scopes: { 'orders:write': 'Change orders' },
        },
      },
    },
  },
};

export function openApiE2E(deps: OpenApiSuiteDeps): void {
  const { common, testing, lib, platforms, swagger } = deps;
  const { Controller, Get, Post, Delete, Module, Version } = common;
  const { AgentCardModule, AgentCardService, AgentSkills, Skill } = lib;
  const { ApiBearerAuth, ApiExcludeController, ApiExcludeEndpoint, ApiOAuth2, ApiOperation, ApiSecurity, ApiTags } =
    swagger;

  async function boot(module: import('@nestjs/common').Type<unknown>, platform = platforms[0]!): Promise<App> {
    const ref = await testing.Test.createTestingModule({ imports: [module] }).compile();
    const app = ref.createNestApplication(platform.adapter(), { logger: false });
    try {
      await app.init();
    } catch (error) {
      await app.close().catch(() => {});
      throw error;
    }
    return app;
  }

  async function bootError(module: import('@nestjs/common').Type<unknown>): Promise<AgentCardError> {
    const error = await boot(module).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentCardError);
    return error as AgentCardError;
  }

  const appWith = (controllers: Function[], options: Record<string, unknown> = {}) => {
    @Module({
      imports: [
        AgentCardModule.forRoot({
          ...baseOptions,
          definition: { ...baseOptions.definition, securitySchemes },
          ...options,
        } as never),
      ],
      controllers: controllers as never,
    })
    class AppModule {}
    return AppModule;
  };

  it(`decorates with @nestjs/swagger ${deps.major}`, () => {
    expect(Number(deps.swaggerVersion.split('.')[0])).toBe(deps.major);
  });

  describe.each(platforms)('skills from OpenAPI metadata on platform-$name', (platform) => {
    const warnings: string[] = [];
    let app: App;
    let card: AgentCard;
    let extended: AgentCard;

    beforeAll(async () => {
      @AgentSkills({ tags: ['shop'] })
      @ApiTags('orders')
      @Controller('orders')
      class OrdersController {
        @Get(':id')
        @ApiOperation({ summary: 'Track an order', description: 'Reports where an order is and when it arrives.' })
        @ApiTags('tracking')
        @ApiBearerAuth()
        @Skill()
        track() {}

        @Delete(':id')
        @ApiOperation({ summary: 'Cancel an order' })
        @Skill({ name: 'Cancel', tags: ['cancellation'] })
        cancel() {}

        @Post()
        @Version('2')
        @ApiOperation({ summary: 'Place an order', description: 'Places an order.', deprecated: true })
        @ApiOAuth2(['orders:write'], 'oauth')
        @Skill()
        place() {}

        @Post('purge')
        @ApiExcludeEndpoint()
        @ApiOperation({ summary: 'Purge orders', description: 'Deletes every cancelled order.' })
        @Skill({ extended: true })
        purge() {}

        @Get('legacy/:id')
        @ApiExcludeEndpoint(false)
        @ApiOperation({ summary: 'Legacy lookup', description: 'Looks an order up by its old number.' })
        @Skill()
        legacy() {}
      }

      @ApiSecurity('apiKey')
      @Controller('stock')
      class StockController {
        @Get()
        @ApiOperation({ description: 'Counts the items in stock.' })
        @Skill({ tags: ['stock'] })
        count() {}

        @Get('own')
        @ApiOperation({ description: 'Counts reserved items.' })
        @Skill({ tags: ['stock'], securityRequirements: [{ schemes: { oauth: { list: ['orders:write'] } } }] })
        reserved() {}

        @Post('restock')
        @ApiOperation({ description: 'Orders more of an item.' })
        @ApiBearerAuth()
        @Skill({ tags: ['stock'] })
        restock() {}
      }

      // Class-level metadata reaches the routes of a controller that extends the decorated class.
      @AgentSkills({ tags: ['after-sales'] })
      @ApiTags('returns')
      @ApiBearerAuth()
      class AfterSalesController {}

      @Controller('returns')
      class ReturnsController extends AfterSalesController {
        @Post()
        @ApiOperation({ summary: 'Start a return', description: 'Opens a return for a delivered order.' })
        @Skill()
        startReturn() {}
      }

      app = await boot(
        appWith([OrdersController, StockController, ReturnsController], {
          logger: { warn: (message: string) => warnings.push(message) },
          extended: { authenticate: () => ({ id: 'ops' }) },
        }),
        platform,
      );
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as { port: number };
      card = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).json()) as AgentCard;
      extended = await app.get(AgentCardService).getExtendedCard({ id: 'ops' });
    });
    afterAll(() => app?.close());

    it('takes name, description, tags and security from the route when @Skill() does not say', () => {
      expect(card.skills[0]).toEqual({
        id: 'track',
        name: 'Track an order',
        description: 'Reports where an order is and when it arrives.',
        tags: ['shop', 'orders', 'tracking'],
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      });
    });

    it("lets @Skill()'s own values win, and uses the summary as the description when there is no other", () => {
      expect(card.skills[1]).toEqual({
        id: 'cancel',
        name: 'Cancel',
        description: 'Cancel an order',
        tags: ['shop', 'cancellation'],
      });
    });

    it('maps @ApiOAuth2 scopes, ignores @Version() in the id, and warns once about a deprecated operation', () => {
      expect(card.skills[2]).toEqual({
        id: 'place',
        name: 'Place an order',
        description: 'Places an order.',
        tags: ['shop', 'orders'],
        securityRequirements: [{ schemes: { oauth: { list: ['orders:write'] } } }],
      });
      expect(warnings.filter((w) => w.includes('deprecated'))).toEqual([
        'AgentCardModule: OrdersController#place: the skill "place" is on an operation marked deprecated (@ApiOperation({ deprecated: true })); the card still lists it, and agents cannot tell. Remove @Skill() when agents should stop choosing it.',
      ]);
    });

    it('publishes an extended skill on an excluded route only in the extended card, and honours @ApiExcludeEndpoint(false)', () => {
      expect(card.skills.map((s) => s.id)).toEqual([
        'track',
        'cancel',
        'place',
        'legacy',
        'count',
        'reserved',
        'restock',
        'start-return',
      ]);
      expect(extended.skills.map((s) => s.id)).toContain('purge');
      expect(extended.skills.find((s) => s.id === 'purge')?.description).toBe('Deletes every cancelled order.');
    });

    it('takes class-level @ApiSecurity, unless @Skill() sets its own requirements', () => {
      expect(card.skills[4]?.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
      expect(card.skills[5]?.securityRequirements).toEqual([{ schemes: { oauth: { list: ['orders:write'] } } }]);
    });

    it('takes @AgentSkills(), @ApiTags() and @ApiBearerAuth() from the class a controller extends', () => {
      expect(card.skills[7]).toEqual({
        id: 'start-return',
        name: 'Start a return',
        description: 'Opens a return for a delivered order.',
        tags: ['after-sales', 'returns'],
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      });
    });

    it("adds a route's own requirements after the class's, leaving the controller's other routes as they were", () => {
      expect(card.skills[6]?.securityRequirements).toEqual([
        { schemes: { apiKey: { list: [] } } },
        { schemes: { bearer: { list: [] } } },
      ]);
      expect(card.skills[4]?.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
      // The class's requirements are converted once and shared by the routes that add none,
      // frozen: a change made through one skill of the returned card cannot reach another.
      const skills = app.get(AgentCardService).getCard().skills;
      expect(skills[4]?.securityRequirements).not.toBe(skills[6]?.securityRequirements);
      expect(() => {
        (skills[4]!.securityRequirements![0]!.schemes as Record<string, unknown>).other = { list: [] };
      }).toThrow(TypeError);
      expect(skills[4]?.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
    });
  });

  describe('start-up errors from OpenAPI metadata', () => {
    it('names Controller#method and the swagger decorator when a scheme is not declared by the card', async () => {
      @Controller('track')
      class TrackController {
        @Get()
        @ApiOperation({ summary: 'Track', description: 'Tracks parcels.' })
        @ApiTags('parcels')
        @ApiBearerAuth('jwt')
        @Skill()
        track() {}
      }
      const error = await bootError(appWith([TrackController]));
      expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
      expect(error.message).toContain(
        '  - [security-scheme-reference] /skills/0/securityRequirements/0/schemes/jwt: TrackController#track: skills[0].securityRequirements[0].schemes.jwt: names a scheme that securitySchemes does not define ("jwt"). Add securitySchemes.jwt, or use one of: "apiKey", "bearer", "oauth". (declared by @ApiSecurity() / @ApiBearerAuth() / @ApiOAuth2() on TrackController#track)',
      );
    });

    it('refuses a public skill on a route hidden from the OpenAPI document, listing every one', async () => {
      @Controller('admin')
      class AdminController {
        @Get()
        @ApiExcludeEndpoint()
        @Skill({ description: 'Shows internal status.', tags: ['ops'] })
        status() {}
      }
      @ApiExcludeController()
      @Controller('internal')
      class InternalController {
        @Get()
        @Skill({ description: 'Rebuilds the search index.', tags: ['ops'] })
        reindex() {}
      }
      const error = await bootError(appWith([AdminController, InternalController]));
      expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
      expect(error.message).toBe(
        [
          'AgentCardModule: 2 public skills are on routes hidden from the OpenAPI document. Fix each one below.',
          '  - AdminController#status: @Skill() publishes the route in the public agent card, but @ApiExcludeEndpoint() hides it from the OpenAPI document. Remove one of the two, or add extended: true to the @Skill() to publish it only in the extended card.',
          '  - InternalController#reindex: @Skill() publishes the route in the public agent card, but @ApiExcludeController() hides it from the OpenAPI document. Remove one of the two, or add extended: true to the @Skill() to publish it only in the extended card.',
        ].join('\n'),
      );
    });

    it('gives two versions of a route one skill id, so the duplicate names both', async () => {
      @Controller({ path: 'quotes', version: '1' })
      class QuotesV1Controller {
        @Get() @Skill({ description: 'Quotes a price.', tags: ['quotes'] }) quote() {}
      }
      @Controller({ path: 'quotes', version: '2' })
      class QuotesV2Controller {
        @Get() @Skill({ description: 'Quotes a price, with taxes.', tags: ['quotes'] }) quote() {}
      }
      const error = await bootError(appWith([QuotesV1Controller, QuotesV2Controller]));
      expect(error.message).toContain(
        'Duplicate skill id "quote": declared by QuotesV1Controller#quote and by QuotesV2Controller#quote.',
      );
    });

    it('openApi: false ignores the swagger decorators', async () => {
      @Controller('notes')
      class NotesController {
        @Get()
        @ApiOperation({ summary: 'Take a note', description: 'Takes a note.' })
        @ApiTags('notes')
        @Skill()
        take() {}
      }
      const error = await bootError(appWith([NotesController], { openApi: false }));
      expect(error.message).toContain('NotesController#take: the skill has no description (skill "take").');
      expect(error.message).toContain('NotesController#take: the skill has no tags (skill "take").');
    });
  });
}
