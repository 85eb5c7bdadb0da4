// Fastify (4 or 5) as an ES module app: import of the ESM builds.
import { createRequire } from 'node:module';
import { defineAgentCard } from '@agent-card/core';
import { agentCard } from '@agent-card/fastify';
import Fastify from 'fastify';

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const { version } = createRequire(import.meta.url)('fastify/package.json');
const app = Fastify();
await app.register(agentCard, { card, viewer: true });
app.get('/api/ping', async () => ({ framework: 'fastify', version, module: 'module' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
