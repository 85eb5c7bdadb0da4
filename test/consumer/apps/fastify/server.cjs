// Fastify (4 or 5) as a CommonJS app: require() of the CJS builds.
const Fastify = require('fastify');
const { agentCard } = require('@agent-card/fastify');
const { defineAgentCard } = require('@agent-card/core');

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const app = Fastify();
app.register(agentCard, { card, viewer: true });
app.get('/api/ping', async () => ({
  framework: 'fastify',
  version: require('fastify/package.json').version,
  module: 'commonjs',
}));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
