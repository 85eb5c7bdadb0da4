// Koa (2 or 3) as an ES module app: import of the ESM builds.
import { createRequire } from 'node:module';
import { defineAgentCard } from '@agent-card/core';
import { agentCard } from '@agent-card/koa';
import Koa from 'koa';

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const { version } = createRequire(import.meta.url)('koa/package.json');
const app = new Koa();
app.use(agentCard({ card, viewer: true }));
app.use((ctx) => {
  if (ctx.path === '/api/ping') ctx.body = { framework: 'koa', version, module: 'module' };
});
app.listen(Number(process.env.PORT), '127.0.0.1');
