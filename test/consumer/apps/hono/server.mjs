// Hono 4 on @hono/node-server as an ES module app: import of the ESM builds.
import { createRequire } from 'node:module';
import { defineAgentCard } from '@agent-card/core';
import { agentCard } from '@agent-card/hono';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const { version } = createRequire(import.meta.url)('./node_modules/hono/package.json');
const app = new Hono();
app.use(agentCard({ card, viewer: true }));
app.get('/api/ping', (c) => c.json({ framework: 'hono', version, module: 'module' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
