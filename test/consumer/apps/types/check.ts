// A user's module importing every package, resolved as a bundler does; type-checked with skipLibCheck: false.
import { AgentCardModule, type AgentCardModuleOptions, Skill } from '@agent-card/nest';
import { createProgram, diffAgentCards } from '@agent-card/cli';
import {
  type AgentCard,
  AgentCardError,
  defineAgentCard,
  discoverAgentCard,
  type Finding,
  signAgentCard,
  validateAgentCard,
  verifyAgentCard,
} from '@agent-card/core';
import { renderAgentCardPage, VIEWER_CONTENT_SECURITY_POLICY } from '@agent-card/core/view';
import { agentCard as expressAgentCard } from '@agent-card/express';
import { type KoaContextLike, agentCard as koaAgentCard } from '@agent-card/koa';
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
const options: AgentCardModuleOptions = { name: 'Acme Shop', description: 'Places orders.', version: '1.0.0' };
export const cardModule = AgentCardModule.forRoot(options);
export const decorator: MethodDecorator = Skill({ description: 'Places an order.', tags: ['orders'] });
export const checks = [findings, AgentCardError, discoverAgentCard, signAgentCard, verifyAgentCard];
export const cli = [createProgram, diffAgentCards];
export const page: string = renderAgentCardPage(card, { cspMeta: true });
export const policy: string = VIEWER_CONTENT_SECURITY_POLICY;
