// A user's module importing every package, resolved as a bundler does; type-checked with skipLibCheck: false.
import { AgentCardModule, type AgentCardModuleOptions, type NestAgentCardOptions, Skill } from '@agent-card/nest';
import { createProgram, diffAgentCards } from '@agent-card/cli';
import {
  type AgentCard,
  AgentCardError,
  defineAgentCard,
  type Finding,
  signAgentCard,
  validateAgentCard,
  verifyAgentCard,
} from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { renderAgentCardPage, VIEWER_CONTENT_SECURITY_POLICY } from '@agent-card/core/view';
import { type DiscoveryOptions, type DiscoveryReport, discoverAgentCard } from '@agent-card/discovery';
import { type ExpressAgentCardOptions, agentCard as expressAgentCard } from '@agent-card/express';
import { type KoaAgentCardOptions, type KoaContextLike, agentCard as koaAgentCard } from '@agent-card/koa';
import {
  type A2aJsAgentCardOptions,
  type A2aJsAgentCard,
  type A2aJsExtendedCardProvider,
  type A2aJsExtendedCardRequest,
  type ExtendedCardProviderSettings,
  extendedCardProvider,
  fromA2aJsCard,
  toA2aJsCard,
} from '@agent-card/a2a-js';
import {
  type AgentCardDecorator,
  type AgentCardPluginOptions,
  type AgentCardOptions as FastifyAgentCardOptions,
  type FastifyAgentCardOptions as FastifyCardOptions,
  agentCard as fastifyAgentCard,
} from '@agent-card/fastify';
import {
  type AgentCardMiddleware as HonoAgentCardMiddleware,
  type AgentCardMiddlewareSettings,
  type AgentCardOptions as HonoAgentCardOptions,
  type HonoAgentCardOptions as HonoCardOptions,
  agentCard as honoAgentCard,
} from '@agent-card/hono';
import { fastify, type FastifyRequest } from 'fastify';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import express from 'express';

const card: AgentCard = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});
const findings: readonly Finding[] = validateAgentCard(card).findings;
express().use(expressAgentCard({ card }));
// Koa's own types are left out (see the consumer suite); the middleware fits any Koa context.
export const koa: (ctx: KoaContextLike, next: () => Promise<unknown>) => unknown = koaAgentCard({ card });
const options: AgentCardModuleOptions = {
  definition: { name: 'Acme Shop', description: 'Places orders.', version: '1.0.0' },
};
export const cardModule = AgentCardModule.forRoot(options);
export const decorator: MethodDecorator = Skill({ description: 'Places an order.', tags: ['orders'] });
export const checks = [findings, AgentCardError, discoverAgentCard, signAgentCard, verifyAgentCard];
export const cli = [createProgram, diffAgentCards];
export const discover: (input: string, options?: DiscoveryOptions) => Promise<DiscoveryReport> = discoverAgentCard;
export const page: string = renderAgentCardPage(card, { cspMeta: true });
export const policy: string = VIEWER_CONTENT_SECURITY_POLICY;

// Fastify: the plugin's options typed on `register`, `authenticate` given Fastify's request.
const fastifyOptions: AgentCardPluginOptions = {
  card,
  prefix: '/api',
  extended: { authenticate: (request: FastifyRequest) => request.headers['x-api-key'] },
};
export const fastifyApp = fastify().register(fastifyAgentCard, fastifyOptions);
export const fastifyCardOptions: FastifyAgentCardOptions<FastifyRequest> = { card };

// Hono: a MiddlewareHandler of the app's Env; `authenticate` gets the Context.
type AppEnv = { Variables: { partner: string | undefined } };
const honoOptions: HonoAgentCardOptions<Context<AppEnv>> = {
  card,
  extended: { authenticate: (c: Context<AppEnv>) => c.get('partner') },
};
const honoSettings: AgentCardMiddlewareSettings<AppEnv> = { basePath: '/api', remoteAddress: () => undefined };
const honoMiddleware: HonoAgentCardMiddleware<AppEnv> = honoAgentCard<AppEnv>(honoOptions, honoSettings);
const honoHandler: MiddlewareHandler<AppEnv> = honoMiddleware;
export const honoApp = new Hono<AppEnv>().use(honoHandler);

// The run-time card change each adapter hands out, typed (Fastify's through its decorator).
const fastifyDecorator: AgentCardDecorator = fastify().agentCard;
export const updates: ((next: AgentCard) => void)[] = [
  expressAgentCard({ card }).update,
  koaAgentCard({ card }).update,
  honoMiddleware.update,
  fastifyDecorator.update,
  (next) => fastify().agentCard.update(next, { extendedCard: [] }),
];

// @a2a-js/sdk: the card converters and the provider for DefaultRequestHandler.
const sdkCard: A2aJsAgentCard = toA2aJsCard(card);
export const backToProtoJson: AgentCard = fromA2aJsCard(sdkCard);
const providerSettings: ExtendedCardProviderSettings<A2aJsExtendedCardRequest> = {
  request: (context) => ({ headers: {}, user: context.user, context }),
};
export const provider: A2aJsExtendedCardProvider = extendedCardProvider(
  createAgentCardResponder({
    card,
    extended: { authenticate: (req: A2aJsExtendedCardRequest) => req.headers['x-api-key'] },
  }),
  providerSettings,
);

// Options typed on their own, before they reach the adapter: each adapter's options type gives a
// function option its request without an annotation (`strict` has no implicit any).
const sharedExpress = {
  card,
  extended: { authenticate: (req) => req.headers['x-api-key'] },
} satisfies ExpressAgentCardOptions;
const sharedKoa = { card, extended: { authenticate: (ctx) => ctx.get('x-api-key') } } satisfies KoaAgentCardOptions;
const sharedFastify = {
  card,
  extended: { authenticate: (request) => request.headers['x-api-key'] },
} satisfies FastifyCardOptions;
const sharedHono = { card, extended: { authenticate: (c) => c.get('partner') } } satisfies HonoCardOptions<AppEnv>;
const sharedNest = {
  definition: { name: 'Acme Shop' },
  extended: { authenticate: (req) => req.headers },
} satisfies NestAgentCardOptions;
// One object for the Express middleware and the SDK's JSON-RPC provider.
const sharedA2a = {
  card,
  extended: { authenticate: (req) => req.headers['x-api-key'] },
} satisfies A2aJsAgentCardOptions;
const a2aMiddleware = expressAgentCard(sharedA2a);
export const shared = [
  express().use(expressAgentCard(sharedExpress)),
  koaAgentCard(sharedKoa),
  fastify().register(fastifyAgentCard, sharedFastify),
  new Hono<AppEnv>().use(honoAgentCard<AppEnv>(sharedHono)),
  AgentCardModule.forRoot(sharedNest),
  express().use(a2aMiddleware),
  extendedCardProvider(a2aMiddleware),
];
