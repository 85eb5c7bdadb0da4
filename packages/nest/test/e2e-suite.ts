/*
 * The end-to-end suite of @agent-card/nest, shared by the Nest 12 run (packages/nest) and the
 * Nest 11 run (test/nest11): each passes its own copy of the Nest packages and of this library.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type * as NestCommon from '@nestjs/common';
import type * as NestCore from '@nestjs/core';
import type * as NestTesting from '@nestjs/testing';
import type * as AgentCardNest from '../src/index';
import { generateKeyPairSync } from 'node:crypto';
import { AgentCardError, verifyAgentCard, type AgentCard } from '@agent-card/core';
import { computeEtag, type AgentCardOptions } from '@agent-card/core/http';
import { conformanceAgentCard, runAgentCardConformanceSuite } from '@agent-card/core/testing';
import { memoryStore } from '@agent-card/core/store';
import { API_KEY, baseDefinition, baseOptions, createFixture, publicSkillIds } from './fixture-app';

export interface Platform {
  name: 'express' | 'fastify';
  adapter: () => NestCore.AbstractHttpAdapter;
}

export interface SuiteDeps {
  common: typeof NestCommon;
  core: typeof NestCore;
  testing: typeof NestTesting;
  lib: typeof AgentCardNest;
  platforms: Platform[];
  /** The major version of @nestjs/core this run must use. */
  major: number;
  /** The version of @nestjs/core the library resolved. */
  nestVersion: string;
}

type App = NestCommon.INestApplication;

export function agentCardE2E(deps: SuiteDeps): void {
  const { common, testing, lib, platforms } = deps;
  const fx = createFixture({ common, lib });
  const { Controller, Get, Inject, Injectable, Module } = common;
  const { AgentCardModule, AgentCardService, AgentSkills, Skill } = lib;

  async function start(
    module: NestCommon.Type<unknown>,
    platform: Platform,
    prefix = 'api',
  ): Promise<{ app: App; base: string }> {
    const ref = await testing.Test.createTestingModule({ imports: [module] }).compile();
    const app = ref.createNestApplication(platform.adapter(), { logger: false });
    if (prefix) app.setGlobalPrefix(prefix);
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    return { app, base: `http://127.0.0.1:${address.port}` };
  }

  async function boot(module: NestCommon.Type<unknown>, platform = platforms[0]!): Promise<App> {
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

  async function bootError(module: NestCommon.Type<unknown>): Promise<AgentCardError> {
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

  it(`runs on Nest ${deps.major}`, () => {
    expect(Number(deps.nestVersion.split('.')[0])).toBe(deps.major);
  });

  describe.each(platforms)('on platform-$name with global prefix /api', (platform) => {
    let app: App;
    let base = '';
    let invoicesBefore = 0;
    beforeAll(async () => {
      invoicesBefore = fx.InvoicesController.instances;
      ({ app, base } = await start(fx.appModule(), platform));
    });
    afterAll(() => app?.close());

    it('serves the card built from the decorators, in module and declaration order', async () => {
      const res = await fetch(`${base}/.well-known/agent-card.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/a2a+json');
      const card = (await res.json()) as AgentCard;
      expect(card.skills.map((s) => s.id)).toEqual(publicSkillIds);
      expect(card.skills[0]).toEqual({
        id: 'list-orders',
        name: 'List orders',
        description: 'Lists the orders of the current customer.',
        tags: ['orders', 'history'],
        outputModes: ['application/json'],
      });
      expect(card.skills[1]).toMatchObject({
        id: 'place-order',
        name: 'Place order',
        tags: ['orders'],
        examples: ['Order two blue mugs'],
      });
      expect(card.skills[2]).toEqual({
        id: 'get-invoice',
        name: 'Get invoice',
        description: 'Fetches an invoice by its number.',
        tags: ['billing', 'invoices'],
      });
      expect(card.capabilities.extendedAgentCard).toBe(true);
      expect(card).toEqual(JSON.parse(JSON.stringify(app.get(AgentCardService).getCard())));
    });

    it('returns the card frozen all the way down, so a change through it reaches neither card', async () => {
      const service = app.get(AgentCardService);
      const card = service.getCard() as unknown as { name: string; skills: { name: string; tags: string[] }[] };
      expect([Object.isFrozen(card), Object.isFrozen(card.skills), Object.isFrozen(card.skills[2])]).toEqual([
        true,
        true,
        true,
      ]);
      expect(() => {
        card.name = 'Someone else';
      }).toThrow(TypeError);
      expect(() => card.skills[2]!.tags.push('stolen')).toThrow(TypeError);
      expect((await service.getExtendedCard({ id: 'ops' })).skills[2]?.tags).toEqual(['billing', 'invoices']);
    });

    it('keeps the well-known path at the root while routes live under the prefix', async () => {
      const orders = await fetch(`${base}/api/orders`);
      expect(orders.status).toBe(200);
      expect(await orders.json()).toEqual([{ id: 'o-1' }]);
      expect((await fetch(`${base}/api/.well-known/agent-card.json`)).status).toBe(404);
      expect((await fetch(`${base}/orders`)).status).toBe(404);
      const legacy = await fetch(`${base}/.well-known/agent.json`);
      expect(legacy.status).toBe(200);
      expect(legacy.headers.get('link')).toContain('/.well-known/agent-card.json');
    });

    it('answers HEAD, conditional GET and other methods through the core responder', async () => {
      const get = await fetch(`${base}/.well-known/agent-card.json`);
      const body = new Uint8Array(await get.arrayBuffer());
      const etag = get.headers.get('etag')!;
      const head = await fetch(`${base}/.well-known/agent-card.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(body.byteLength));
      expect(head.headers.get('etag')).toBe(etag);
      const notModified = await fetch(`${base}/.well-known/agent-card.json?x=1`, {
        headers: { 'if-none-match': etag },
      });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(etag);
      const post = await fetch(`${base}/.well-known/agent-card.json`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });

    it('leaves other paths to the application (its 404)', async () => {
      // Outside the global prefix the app's own 404 answers (Express' HTML page, Fastify's JSON).
      const res = await fetch(`${base}/.well-known/security.txt`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).not.toContain('a2a');
      expect(await res.text()).not.toContain('"skills"');
      const prefixed = await fetch(`${base}/api/nothing-here`);
      expect(prefixed.status).toBe(404);
      expect(await prefixed.json()).toMatchObject({ statusCode: 404 });
    });

    it('hides extended skills from the public card and shows them behind the guard', async () => {
      const url = `${base}/a2a/extendedAgentCard`;
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('ApiKey');
      expect((await fetch(url, { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
      const ok = await fetch(url, { headers: { 'x-api-key': API_KEY } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toBe('private, no-store');
      expect(ok.headers.get('x-guard')).toBe('api-key'); // the guard saw the real response
      const card = (await ok.json()) as AgentCard;
      expect(card.skills.map((s) => s.id)).toEqual([...publicSkillIds, 'export-all']);
      expect(card.skills[3]).toMatchObject({ tags: ['orders'], outputModes: ['text/csv'] });
      const service = app.get(AgentCardService);
      expect((await service.getExtendedCard({ id: 'ops-team' })).skills.map((s) => s.id)).toEqual(
        card.skills.map((s) => s.id),
      );
    });

    it('counts request-scoped controllers without instantiating them', () => {
      expect(fx.InvoicesController.instances).toBe(invoicesBefore);
    });
  });

  // The shared HTTP conformance suite, with the core options handed to AgentCardModule.forRoot()
  // of an app whose ordinary routes are Nest controllers.
  describe.each(platforms)('conformance on platform-$name', (platform) => {
    @Controller()
    class RoutesController {
      @Get('api/ping') ping() {
        return 'pong';
      }
      @Get('.well-known/other') other() {
        return 'other';
      }
    }
    runAgentCardConformanceSuite({
      name: `Nest ${deps.major} platform-${platform.name}`,
      async start(options: AgentCardOptions<any>) {
        @Module({
          imports: [AgentCardModule.forRoot(options as AgentCardNest.AgentCardModuleOptions)],
          controllers: [RoutesController],
        })
        class ConformanceModule {}
        const { app, base } = await start(ConformanceModule, platform, '');
        return { url: base, close: () => app.close() };
      },
    });
  });

  describe('logging and readiness', () => {
    it("logs the card's routes next to Nest's Mapped lines, and status() is ok", async () => {
      const lines: [string | undefined, string][] = [];
      const log = (message: unknown, context?: string) => void lines.push([context, String(message)]);
      const logger = { log, error: log, warn: log, debug: log, verbose: log, fatal: log };
      const ref = await testing.Test.createTestingModule({ imports: [fx.appModule()] }).compile();
      const app = ref.createNestApplication(platforms[0]!.adapter(), { logger });
      try {
        await app.init();
        const card = lines.filter(([context]) => context === 'AgentCardModule').map(([, message]) => message);
        expect(card).toEqual(
          expect.arrayContaining([
            'Mapped {/.well-known/agent-card.json, GET} agent card',
            'Mapped {/.well-known/agent.json, GET} agent card (legacy path)',
          ]),
        );
        const lastNestRoute = lines.map(([context]) => context).lastIndexOf('RouterExplorer');
        expect(lastNestRoute).toBeGreaterThan(-1);
        expect(lines.findIndex(([, message]) => message === card[0])).toBeGreaterThan(lastNestRoute);
        expect(app.get(AgentCardService).status()).toMatchObject({ state: 'ok', ready: true });
      } finally {
        await app.close();
      }
    });
  });

  describe('forRoot({ store, tenant })', () => {
    const storeOptions = () => ({
      store: memoryStore(),
      tenant: { from: 'path' as const, prefix: '/t', owns: () => true },
      default: 'main',
      profile: 'development' as const,
      logger: { warn: () => {} },
    });

    for (const platform of platforms)
      it(`serves each tenant's cards from the store, written through service.store() (${platform.name})`, async () => {
        @Module({ imports: [AgentCardModule.forRoot(storeOptions())] })
        class AppModule {}
        const { app, base } = await start(AppModule, platform);
        try {
          const service = app.get(AgentCardService);
          expect((await fetch(`${base}/t/acme/.well-known/agent-card.json`)).status).toBe(404);
          await service.store().put('acme', 'main', conformanceAgentCard('acme'));
          const res = await fetch(`${base}/t/acme/.well-known/agent-card.json`);
          expect(res.status).toBe(200);
          expect(((await res.json()) as AgentCard).name).toBe('Conformance acme');
          expect((await fetch(`${base}/t/ACME/.well-known/agent-card.json`)).status).toBe(400);
          expect(() => service.addSkill({ id: 'x', name: 'X', description: 'X.', tags: ['x'] })).toThrow(
            'AgentCardService: the module serves the cards of a store (forRoot({ store })), one set per tenant, so there is no single card to read or change. Write through the store: await service.store().put(tenant, agent, card).',
          );
        } finally {
          await app.close();
        }
      });

    it('refuses decorated skills next to store, naming Controller#method', async () => {
      @Controller('refunds')
      class RefundsController {
        @Get() @Skill({ description: 'Refunds.', tags: ['refunds'] }) refund() {}
      }
      @Module({ imports: [AgentCardModule.forRoot(storeOptions())], controllers: [RefundsController] })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.message).toBe(
        "AgentCardModule:\n  - @Skill() on RefundsController#refund: cannot be used with store: the cards are the records of the store. Write each tenant's cards (with their skills) through agentCardStore(…).put(tenant, agent, card), or remove store.",
      );
    });
  });

  describe('forRoot({ agents })', () => {
    const agents = () => [
      { id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing') },
      { id: 'support', path: '/agents/support', card: conformanceAgentCard('support') },
    ];

    it('routes @AgentSkills({ agent }) and @Skill({ agent }) skills to that agent only', async () => {
      @Controller('invoices')
      @AgentSkills({ agent: 'billing', tags: ['invoices'] })
      class InvoicesController {
        @Get() @Skill({ description: 'Finds an invoice.' }) findInvoice() {}
        @Get('help') @Skill({ agent: 'support', description: 'Explains an invoice.' }) explainInvoice() {}
      }
      @Module({
        imports: [AgentCardModule.forRoot({ agents: agents(), default: 'support', logger: { warn: () => {} } })],
        controllers: [InvoicesController],
      })
      class AppModule {}
      const { app, base } = await start(AppModule, platforms[0]!);
      try {
        const ids = async (path: string) =>
          ((await (await fetch(base + path)).json()) as AgentCard).skills.map((skill) => skill.id);
        expect(await ids('/agents/billing/.well-known/agent-card.json')).toEqual(['billing-answer', 'find-invoice']);
        expect(await ids('/agents/support/.well-known/agent-card.json')).toEqual(['support-answer', 'explain-invoice']);
        const catalog = (await (await fetch(`${base}/.well-known/ai-catalog.json`)).json()) as { entries: unknown[] };
        expect(catalog.entries).toHaveLength(2);
        // Several cards and a catalog listing them: no single card to change at run time.
        expect(() =>
          app.get(AgentCardService).addSkill({ id: 'x', name: 'X', description: 'X.', tags: ['x'] }),
        ).toThrow(
          'AgentCardService: the module serves several agents (forRoot({ agents })), so there is no single card to read or change. Use respond(), or give each agent its card in agents.',
        );
      } finally {
        await app.close();
      }
    });

    it('a skill naming an unknown agent fails start-up naming Controller#method', async () => {
      @Controller('refunds')
      class RefundsController {
        @Get() @Skill({ agent: 'refunds', description: 'Refunds.', tags: ['refunds'] }) refund() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ agents: agents() })], controllers: [RefundsController] })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.message).toBe(
        'AgentCardModule:\n  - @Skill() on RefundsController#refund: names an unknown agent ("refunds"). Use one of the agent ids: billing, support.',
      );
    });
  });

  describe('start-up errors', () => {
    it('refuses the old, flat spelling of forRoot, listing every key with where it goes now', async () => {
      const { name, description, version, url, binding } = baseOptions.definition;
      const flat = { name, description, version, url, binding, tenant: 'acme', guards: [fx.ApiKeyGuard] };
      @Module({
        imports: [
          AgentCardModule.forRoot({
            ...flat,
            allowedOrigins: ['https://acme-corp.io'],
            profile: 'development',
            logger: { warn: () => {} },
            retries: 3,
          } as never),
        ],
      })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
      expect(error.message).toBe(
        [
          'AgentCardModule.forRoot(): the options have 9 problems. Fix each one below.',
          '  - name: a card field at the top level. Move it into definition: { name }.',
          '  - description: a card field at the top level. Move it into definition: { description }.',
          '  - version: a card field at the top level. Move it into definition: { version }.',
          '  - url: a card field at the top level. Move it into definition: { url }.',
          '  - binding: a card field at the top level. Move it into definition: { binding }.',
          '  - tenant: a card field at the top level. Move it into definition: { tenant }.',
          '  - guards: at the top level. Move it into extended: { guards }.',
          '  - allowedOrigins: a dynamic-card option at the top level. Move it into dynamic: { allowedOrigins }.',
          '  - retries: not an option of AgentCardModule.forRoot(). Use one of: definition, card, skills, extended, dynamic, agents, default, catalog, openApi, serve, profile, rules, contentType, cacheControl, cors, legacy, onError, logger, sign, viewer, ard, onServe, store, tenant.',
        ].join('\n'),
      );
    });

    it('refuses a complete card and its fields together', async () => {
      @Module({
        imports: [AgentCardModule.forRoot({ ...baseOptions, card: conformanceAgentCard('acme') } as never)],
      })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.message).toContain(
        '  - card and definition: both are set. Pass either a complete card in card, or its fields in definition, not both.',
      );
    });

    it('names both origins of a duplicate id', async () => {
      @Controller('alpha')
      class AlphaController {
        @Get() @Skill('lookup', { description: 'Looks things up.', tags: ['a'] }) run() {}
      }
      @Controller('beta')
      class BetaController {
        @Get() @Skill('lookup', { description: 'Looks other things up.', tags: ['b'] }) go() {}
      }
      @Module({
        imports: [AgentCardModule.forRoot({ ...baseOptions })],
        controllers: [AlphaController, BetaController],
      })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
      expect(error.message).toContain(
        `  - [skill-id-unique] /skills/1/id: Duplicate skill id "lookup": declared by AlphaController#run and by BetaController#go. Give one of them another id, e.g. @Skill({ id: '…' }).`,
      );
      expect(error.findings.map((f) => f.rule)).toContain('skill-id-unique');
    });

    it('names a static skill that clashes with a decorated one', async () => {
      const error = await bootError(
        fx.appModule({
          skills: [{ id: 'get-invoice', name: 'Invoice', description: 'Old invoice lookup.', tags: ['billing'] }],
        }),
      );
      expect(error.message).toContain(
        'Duplicate skill id "get-invoice": declared by AgentCardModule skills[0] and by InvoicesController#getInvoice.',
      );
    });

    it('names the decorator to fix when a description or tags are missing, listing every problem at once', async () => {
      @Controller('lonely')
      class LonelyController {
        @Get() @Skill('ping') handle() {}
        @Get('x') @Skill({ description: 'Says hello.' }) greet() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [LonelyController] })
      class AppModule {}
      const error = await bootError(AppModule);
      // The exact text the package README shows.
      expect(error.message).toBe(
        [
          'AgentCardModule: the agent card built from the module options and @Skill() decorators has 3 errors. Fix each one below.',
          '  - [skill-required-fields] /skills/0/description: LonelyController#handle: the skill has no description (skill "ping"). Add description: \'What the skill does\' to @Skill() on LonelyController#handle.',
          '  - [skill-tags-required] /skills/0/tags: LonelyController#handle: the skill has no tags (skill "ping"). Add tags: [\'keyword\'] to @Skill() on LonelyController#handle, or to @AgentSkills() on LonelyController.',
          '  - [skill-tags-required] /skills/1/tags: LonelyController#greet: the skill has no tags (skill "greet"). Add tags: [\'keyword\'] to @Skill() on LonelyController#greet, or to @AgentSkills() on LonelyController.',
        ].join('\n'),
      );
      expect(error.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.path])).toEqual([
        ['skill-required-fields', '/skills/0/description'],
        ['skill-tags-required', '/skills/0/tags'],
        ['skill-tags-required', '/skills/1/tags'],
      ]);
    });

    it('names the decorator to fix when the first skill is fine and a later one is not', async () => {
      @AgentSkills({ tags: ['stock'] })
      @Controller('stock')
      class StockController {
        @Get() @Skill({ description: 'Counts the items in stock.' }) count() {}
        @Get('a') @Skill({ description: '  ' }) audit() {}
        @Get('r') @Skill('count', { description: 'Recounts the items.' }) recount() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [StockController] })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.message).toBe(
        [
          'AgentCardModule: the agent card built from the module options and @Skill() decorators has 2 errors. Fix each one below.',
          '  - [skill-required-fields] /skills/1/description: StockController#audit: the skill has no description (skill "audit"). Add description: \'What the skill does\' to @Skill() on StockController#audit.',
          `  - [skill-id-unique] /skills/2/id: Duplicate skill id "count": declared by StockController#count and by StockController#recount. Give one of them another id, e.g. @Skill({ id: '…' }).`,
        ].join('\n'),
      );
    });

    it('names the decorator of an invalid extended skill', async () => {
      @Controller('vault')
      class VaultController {
        @Get() @Skill({ description: 'Lists the vaults.', tags: ['vault'] }) list() {}
        @Get('o') @Skill({ description: 'Opens a vault.', extended: true }) open() {}
      }
      @Module({
        imports: [AgentCardModule.forRoot({ ...baseOptions, extended: { authenticate: () => true } })],
        controllers: [VaultController],
      })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.path, f.message])).toEqual([
        ['skill-tags-required', '/skills/1/tags', 'VaultController#open: the skill has no tags (skill "open").'],
      ]);
    });

    it('names the decorator to fix when the card is built per request', async () => {
      @Controller('desk')
      class DeskController {
        @Get() @Skill({ description: 'Books a desk.', tags: ['desks'] }) book() {}
        @Get('f') @Skill('book', { tags: ['desks'] }) free() {}
      }
      const card = (): AgentCard => ({
        name: 'Desks',
        description: 'Books desks in Acme offices.',
        version: '1.0.0',
        supportedInterfaces: [
          { url: 'https://desks.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      });
      @Module({
        imports: [AgentCardModule.forRoot({ card, profile: 'development', logger: { warn: () => {} } })],
        controllers: [DeskController],
      })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.path, f.message])).toEqual([
        [
          'skill-required-fields',
          '/skills/1/description',
          'DeskController#free: the skill has no description (skill "book").',
        ],
        [
          'skill-id-unique',
          '/skills/1/id',
          'Duplicate skill id "book": declared by DeskController#book and by DeskController#free.',
        ],
      ]);
    });

    it('reports a string given where a list belongs against its method, instead of splitting it into characters', async () => {
      @Controller('notes')
      class NotesController {
        // What a JavaScript caller can write; TypeScript would stop it.
        @Get()
        @Skill({ description: 'Takes a note.', tags: ['notes'], examples: 'Note that milk is low' as never })
        take() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [NotesController] })
      class AppModule {}
      const error = await bootError(AppModule);
      const finding = error.findings.find((f) => f.path === '/skills/0/examples' && f.severity === 'error');
      expect(finding?.rule).toBe('field-types');
      expect(finding?.message).toMatch(/^NotesController#take: skills\[0\]\.examples: expected an array, got string/);
    });

    it('reports tags given as a string against its method, instead of publishing its characters as tags', async () => {
      @Controller('notes')
      class NotesController {
        @Get()
        @Skill({ description: 'Takes a note.', tags: 'notes' as never })
        take() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [NotesController] })
      class AppModule {}
      const error = await bootError(AppModule);
      const finding = error.findings.find((f) => f.path === '/skills/0/tags' && f.severity === 'error');
      expect(finding?.message).toMatch(/^NotesController#take: skills\[0\]\.tags: expected an array, got string/);
    });

    it("prefixes core's findings about a skill with its Controller#method", async () => {
      @AgentSkills({ tags: ['reports'] })
      @Controller('reports')
      class ReportsController {
        @Get()
        @Skill({
          description: 'Builds a report.',
          securityRequirements: [{ schemes: { oauth: { list: ['reports:read'] } } }],
        })
        build() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [ReportsController] })
      class AppModule {}
      const error = await bootError(AppModule);
      const finding = error.findings.find((f) => f.rule === 'security-scheme-reference' && f.severity === 'error');
      expect(finding?.message).toMatch(/^ReportsController#build: /);
      expect(error.message).toContain('ReportsController#build: ');
    });

    it('refuses an extended skill that nothing can authenticate', async () => {
      @Controller('admin')
      class AdminController {
        @Get() @Skill({ description: 'Purges caches.', tags: ['ops'], extended: true }) purge() {}
        @Get('s') @Skill({ description: 'Shows status.', tags: ['ops'] }) status() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [AdminController] })
      class AppModule {}
      const error = await bootError(AppModule);
      expect(error.message).toContain(
        'AdminController#purge is extended: true but nothing authenticates extended-card requests.',
      );
      expect(error.message).toContain('Add extended: { guards: [YourAuthGuard] } or extended: { authenticate }');
    });
  });

  describe('configuration', () => {
    const CONFIG = Symbol('CONFIG');
    @Module({
      providers: [{ provide: CONFIG, useValue: { publicUrl: 'https://orders.acme-corp.io/a2a' } }],
      exports: [CONFIG],
    })
    class ConfigLikeModule {}

    it('forRootAsync({ imports, inject, useFactory }) reads the public URL from a provider', async () => {
      @Module({
        imports: [
          AgentCardModule.forRootAsync({
            imports: [ConfigLikeModule],
            inject: [CONFIG],
            useFactory: (config: { publicUrl: string }) => ({
              ...baseOptions,
              definition: { ...baseOptions.definition, url: config.publicUrl },
              extended: { guards: [fx.ApiKeyGuard] },
            }),
          }),
          fx.OrdersModule,
        ],
      })
      class AppModule {}
      const app = await boot(AppModule);
      const card = app.get(AgentCardService).getCard();
      expect(card.supportedInterfaces[0]!.url).toBe('https://orders.acme-corp.io/a2a');
      expect(card.skills.map((s) => s.id)).toEqual(['list-orders', 'place-order']);
      await app.close();
    });

    it('sign: serves the card signed once at start-up, verifiable with the public key', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      @Module({
        imports: [
          AgentCardModule.forRoot({
            ...baseOptions,
            extended: { guards: [fx.ApiKeyGuard] },
            sign: { privateKey, kid: 'nest-key', alg: 'EdDSA' },
          }),
          fx.OrdersModule,
        ],
      })
      class AppModule {}
      const { app, base } = await start(AppModule, platforms[0]!);
      try {
        const first = await fetch(`${base}/.well-known/agent-card.json`);
        const card = (await first.json()) as AgentCard;
        expect(card.signatures).toHaveLength(1);
        const result = await verifyAgentCard(card, { keys: { 'nest-key': publicKey } });
        expect(result).toMatchObject({ valid: true, signatures: [{ kid: 'nest-key', alg: 'EdDSA', valid: true }] });
        // Signed once: the same bytes and ETag on every request, so revalidation keeps working.
        const again = await fetch(`${base}/.well-known/agent-card.json`, {
          headers: { 'if-none-match': first.headers.get('etag')! },
        });
        expect(again.status).toBe(304);
      } finally {
        await app.close();
      }
    });

    it('forRootAsync({ useClass }) and isGlobal make the service injectable everywhere', async () => {
      @Injectable()
      class CardOptionsFactory {
        createAgentCardOptions() {
          return {
            ...baseOptions,
            skills: [
              { id: 'static', name: 'Static', description: 'A skill no controller implements.', tags: ['misc'] },
            ],
          };
        }
      }
      @Injectable()
      class Consumer {
        constructor(@Inject(AgentCardService) readonly cards: InstanceType<typeof AgentCardService>) {}
      }
      @Module({ providers: [Consumer] })
      class FeatureModule {}
      @Module({
        imports: [
          AgentCardModule.forRootAsync({ useClass: CardOptionsFactory, isGlobal: true }),
          FeatureModule,
          fx.BillingModule,
        ],
      })
      class AppModule {}
      const app = await boot(AppModule);
      expect(
        app
          .get(Consumer)
          .cards.getCard()
          .skills.map((s) => s.id),
      ).toEqual(['static', 'get-invoice']);
      await app.close();
    });

    it('instantiates a guard that is not a provider, and accepts an Observable result', async () => {
      const { of } = await import('rxjs');
      @Injectable()
      class HeaderGuard {
        canActivate(context: NestCommon.ExecutionContext) {
          return of(
            context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-team'] === 'ops',
          );
        }
      }
      const app = await boot(
        fx.appModule({ extended: { guards: [HeaderGuard], authenticate: () => ({ team: 'ops' }) } }),
      );
      const service = app.get(AgentCardService);
      expect(await service.authenticate({ headers: { 'x-team': 'ops' } })).toEqual({ team: 'ops' });
      expect(await service.authenticate({ headers: {} })).toBeUndefined();
      const denied = await service.getExtendedAgentCard({ headers: {}, raw: { headers: {} } });
      expect(denied.error).toBeDefined();
      expect(denied.card).toBeUndefined();
      const allowed = await service.getExtendedAgentCard({
        headers: { 'x-team': 'ops' },
        raw: { headers: { 'x-team': 'ops' } },
      });
      expect(allowed.card?.skills.map((s) => s.id)).toContain('export-all');
      await app.close();
    });

    it('serve: false leaves the HTTP adapter alone', async () => {
      const { app, base } = await start(fx.appModule({ serve: false }), platforms[0]!, '');
      expect((await fetch(`${base}/.well-known/agent-card.json`)).status).toBe(404);
      expect(
        app
          .get(AgentCardService)
          .getCard()
          .skills.map((s) => s.id),
      ).toEqual(publicSkillIds);
      await app.close();
    });
  });

  describe('buildAgentCard(module): the card without a server', () => {
    const { buildAgentCard } = lib;

    it('gives the public card, the exact bytes a request gets, and the extended card', async () => {
      const built = await buildAgentCard(fx.appModule());
      expect(built.card.skills.map((s) => s.id)).toEqual(publicSkillIds);
      expect(built.extendedCard?.skills.map((s) => s.id)).toEqual([...publicSkillIds, 'export-all']);
      const { app, base } = await start(fx.appModule(), platforms[0]!);
      try {
        const served = await fetch(`${base}/.well-known/agent-card.json`);
        expect(built.json).toBe(await served.text());
      } finally {
        await app.close();
      }
    });

    it('writes the signed bytes when the module signs', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const built = await buildAgentCard(
        fx.appModule({ sign: { privateKey, kid: 'build-key', alg: 'EdDSA' } } as never),
      );
      const card = JSON.parse(built.json) as AgentCard;
      expect(await verifyAgentCard(card, { keys: { 'build-key': publicKey } })).toMatchObject({ valid: true });
      expect(built.card.signatures).toBeUndefined();
    });

    it('rejects an invalid card with the start-up error, so a CI step fails before deploy', async () => {
      @Controller('lonely')
      class LonelyController {
        @Get() @Skill('ping') handle() {}
      }
      @Module({ imports: [AgentCardModule.forRoot({ ...baseOptions })], controllers: [LonelyController] })
      class AppModule {}
      const error = await buildAgentCard(AppModule).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentCardError);
      expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_INVALID');
      expect((error as AgentCardError).message).toContain(
        '[skill-required-fields] /skills/0/description: LonelyController#handle: the skill has no description (skill "ping").',
      );
    });

    it('forRoot({ rules }): the settings decide what stops the start-up, and a misspelt id names the nearest', async () => {
      @Controller('pinged')
      class PingController {
        @Get() @Skill('ping', { description: 'Answers ping.', tags: ['health'] }) handle() {}
      }
      const production = { ...baseOptions, profile: 'production' as const };
      @Module({ imports: [AgentCardModule.forRoot(production)], controllers: [PingController] })
      class StrictModule {}
      const refused = await buildAgentCard(StrictModule).catch((e: unknown) => e);
      expect((refused as AgentCardError).message).toContain('[url-localhost] /url:');
      const rules = { 'url-https': 'warning', 'url-localhost': 'off' } as const;
      @Module({ imports: [AgentCardModule.forRoot({ ...production, rules })], controllers: [PingController] })
      class TunedModule {}
      expect((await buildAgentCard(TunedModule)).card.supportedInterfaces[0]?.url).toBe(baseDefinition.url);
      const misspelt = { 'url-localhst': 'off' } as unknown as typeof rules;
      @Module({ imports: [AgentCardModule.forRoot({ ...production, rules: misspelt })], controllers: [PingController] })
      class MisspeltModule {}
      const error = await buildAgentCard(MisspeltModule).catch((e: unknown) => e);
      expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_OPTIONS');
      expect((error as AgentCardError).message).toContain(
        'options.rules["url-localhst"]: unknown rule ("url-localhst"). Did you mean "url-localhost"?',
      );
    });

    it('names the fix when the module has no AgentCardModule', async () => {
      @Module({ controllers: [] })
      class PlainModule {}
      const error = await buildAgentCard(PlainModule).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentCardError);
      expect((error as AgentCardError).message).toBe(
        'buildAgentCard: the module does not import AgentCardModule. Pass the application module that imports AgentCardModule.forRoot() or forRootAsync().',
      );
    });

    it('builds from a testing module with providers overridden, and leaves it open', async () => {
      const ref = await testing.Test.createTestingModule({ imports: [fx.appModule()] })
        .overrideProvider(fx.KeyStore)
        .useValue({ isValid: () => false })
        .compile();
      const built = await buildAgentCard(ref);
      expect(built.card.skills.map((s) => s.id)).toEqual(publicSkillIds);
      expect(ref.get(fx.KeyStore).isValid(API_KEY)).toBe(false);
      await ref.close();
    });
  });

  describe.each(platforms)('changing the card at run time on platform-$name', (platform) => {
    const returns = { id: 'returns', name: 'Returns', description: 'Starts the return of an order.', tags: ['orders'] };
    let app: App;
    let base = '';
    let cards: InstanceType<typeof AgentCardService>;
    const card = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}/.well-known/agent-card.json`, { headers });
      return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
    };
    const ids = (text: string) => (JSON.parse(text) as AgentCard).skills.map((s) => s.id);

    beforeAll(async () => {
      ({ app, base } = await start(fx.appModule(), platform));
      cards = app.get(AgentCardService);
    });
    afterAll(() => app?.close());

    it('addSkill serves the new card with its own ETag, and an old ETag gets 200', async () => {
      const before = await card();
      const added = cards.addSkill(returns);
      const after = await card();
      expect(ids(after.text)).toEqual([...publicSkillIds, 'returns']);
      expect(added.skills.map((s) => s.id)).toEqual(ids(after.text));
      expect(cards.getCard().skills.map((s) => s.id)).toEqual(ids(after.text));
      expect(after.etag).not.toBe(before.etag);
      expect((await card({ 'if-none-match': before.etag! })).status).toBe(200);
      expect((await card({ 'if-none-match': after.etag! })).status).toBe(304);
      cards.removeSkill('returns');
      expect(await card()).toEqual(before);
    });

    it('refuses an invalid skill with the findings, and keeps serving the old bytes and ETag', async () => {
      const before = await card();
      let error: unknown;
      try {
        cards.addSkill({ id: 'blank', name: 'Blank', description: ' ', tags: [] });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AgentCardError);
      expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_INVALID');
      expect((error as AgentCardError).message).toMatch(
        /^AgentCardService\.addSkill: the card after this change has \d+ errors, so the served card is unchanged\. Fix each one below\.\n/,
      );
      expect((error as AgentCardError).findings.map((f) => f.path)).toContain('/skills/3/tags');
      expect(() => cards.addSkill({ ...returns, id: 'list-orders' })).toThrow(
        'AgentCardService.addSkill: the card already has a skill with the id "list-orders"; the served card is unchanged. Remove it first with removeSkill("list-orders"), or give the new skill another id.',
      );
      expect(() => cards.removeSkill('nope')).toThrow(
        'AgentCardService.removeSkill: no skill has the id "nope". Use one of: "list-orders", "place-order", "get-invoice", "export-all".',
      );
      expect(await card()).toEqual(before);
    });

    it('adds an extended skill to the extended card only, behind the guard', async () => {
      const audit = { id: 'audit', name: 'Audit', description: 'Audits the order book.', tags: ['ops'] };
      cards.addSkill(audit, { extended: true });
      try {
        expect(ids((await card()).text)).toEqual(publicSkillIds);
        const extended = await fetch(`${base}/a2a/extendedAgentCard`, { headers: { 'x-api-key': API_KEY } });
        expect(extended.status).toBe(200);
        expect(((await extended.json()) as AgentCard).skills.map((s) => s.id)).toEqual([
          ...publicSkillIds,
          'export-all',
          'audit',
        ]);
        expect((await cards.getExtendedCard(true)).skills.map((s) => s.id)).toContain('audit');
      } finally {
        cards.removeSkill('audit');
      }
      expect((await cards.getExtendedCard(true)).skills.map((s) => s.id)).not.toContain('audit');
    });

    it('replaceCard serves a complete card as given', async () => {
      const before = cards.getCard();
      cards.replaceCard({ ...before, name: 'Acme Orders (maintenance)', skills: [before.skills[0]!] });
      try {
        const after = JSON.parse((await card()).text) as AgentCard;
        expect(after.name).toBe('Acme Orders (maintenance)');
        expect(after.skills.map((s) => s.id)).toEqual(['list-orders']);
      } finally {
        cards.replaceCard(before);
      }
      expect(ids((await card()).text)).toEqual(publicSkillIds);
    });

    it('refuses run-time changes of a per-request card, whose function decides each variant', async () => {
      @Controller('desk')
      class DeskController {
        @Get() @Skill({ description: 'Books a desk.', tags: ['desks'] }) book() {}
      }
      const perRequest = (): AgentCard => ({
        ...cards.getCard(),
        skills: [],
      });
      @Module({
        imports: [
          AgentCardModule.forRoot({
            card: perRequest,
            dynamic: { allowedOrigins: ['http://127.0.0.1'] },
            profile: 'development',
            logger: { warn: () => {} },
          } as never),
        ],
        controllers: [DeskController],
      })
      class AppModule {}
      const other = await boot(AppModule, platform);
      try {
        const service = other.get(AgentCardService);
        const message =
          'AgentCardService: the card is built per request (card is a function), so there is no single card. Use respond() or getExtendedAgentCard(request).';
        expect(() => service.addSkill(returns)).toThrow(message);
        expect(() => service.removeSkill('book')).toThrow(message);
        expect(() => service.replaceCard(cards.getCard())).toThrow(message);
      } finally {
        await other.close();
      }
    });

    it('answers concurrent requests during swaps each with one whole card and its own ETag', async () => {
      const variants = [
        cards.getCard(),
        { ...cards.getCard(), skills: [...cards.getCard().skills, returns] },
        { ...cards.getCard(), version: '2.1.1' },
      ];
      const original = variants[0]!;
      let swaps = 0;
      const swapper = setInterval(() => cards.replaceCard(variants[++swaps % variants.length]!), 2);
      let results: { etag: string | null; body: Uint8Array }[];
      try {
        results = await Promise.all(
          Array.from({ length: 120 }, async () => {
            const res = await fetch(`${base}/.well-known/agent-card.json`);
            return { etag: res.headers.get('etag'), body: new Uint8Array(await res.arrayBuffer()) };
          }),
        );
      } finally {
        clearInterval(swapper);
        cards.replaceCard(original);
      }
      const seen = new Set<number>();
      for (const { etag, body } of results) {
        expect(etag).toBe(computeEtag(body));
        const index = variants.findIndex((v) => JSON.stringify(v) === new TextDecoder().decode(body));
        expect(index).not.toBe(-1);
        seen.add(index);
      }
      expect(seen.size).toBeGreaterThan(1);
    });
  });
}
