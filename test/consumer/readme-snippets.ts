// The adapters' README code blocks, type-checked under `strict` by a user's TypeScript in the
// types apps: each snippet with the names it takes as given declared around it.
import { readmeTypeScript } from './harness';

// What the README snippets take as given, declared for their strict type-check.
const given = `
import { type AgentCard, type AgentSkill, defineAgentCard } from '@agent-card/core';
const card = {} as AgentCard;
const skills = [] as AgentSkill[];
const newSkill = {} as AgentSkill;
const refund = {} as AgentSkill;
const refundSkill = {} as AgentSkill;
const adminSkill = {} as AgentSkill;
const audit = {} as AgentSkill;
const billingCard = {} as AgentCard;
const supportCard = {} as AgentCard;
const billingExtras = [] as AgentSkill[];
const partners = new Map<string, string>();
`;
/** The README code blocks of the adapters, as files of the types apps (`tsconfig.readme.json`). */
export const readmeTypeChecks: Record<string, string> = {
  ...readmeTypeScript(
    'packages/express/README.md',
    `import express from 'express';
import { agentCard } from '@agent-card/express';
${given}
const app = express();
const users = { byToken: (token: string | undefined) => (token ? 'user' : undefined) };
const authenticate = (req: { headers: Record<string, unknown> }) => (req.headers.authorization ? 'partner' : undefined);`,
  ),
  ...readmeTypeScript(
    'packages/koa/README.md',
    // No @types/koa in this app (see below): the app is what the middleware needs of it.
    `import { agentCard, type KoaContextLike } from '@agent-card/koa';
${given}
const app = { use: (middleware: (ctx: KoaContextLike, next: () => Promise<unknown>) => unknown) => app };
const router = { routes: () => () => undefined, allowedMethods: () => () => undefined };
const staff = { byToken: (token: string | undefined) => (token ? 'staff' : undefined) };
const authenticate = (ctx: KoaContextLike) => (ctx.get('authorization') ? 'partner' : undefined);`,
    // server.mjs needs koa's own types, which this app leaves out.
    { server: false },
  ),
  ...readmeTypeScript(
    'packages/fastify/README.md',
    `import Fastify from 'fastify';
import { agentCard } from '@agent-card/fastify';
${given}
const app = Fastify();
const ordersCard = card;
const nextBillingCard = card;
const authenticate = () => 'partner';`,
  ),
  ...readmeTypeScript(
    'packages/hono/README.md',
    `import { Hono } from 'hono';
import { agentCard } from '@agent-card/hono';
${given}
const app = new Hono();
type Partner = string;
const authenticate = () => 'partner';`,
  ),
  ...readmeTypeScript(
    'packages/a2a-js/README.md',
    `import express from 'express';
import type { Client } from '@a2a-js/sdk/client';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { extendedCardChallenge } from '@agent-card/a2a-js';
${given}
const app = express();
const requestHandler = {} as DefaultRequestHandler;
const userBuilder = UserBuilder.noAuthentication;
const client = {} as Client;`,
  ),
};
