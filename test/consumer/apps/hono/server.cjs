// Hono 4 on @hono/node-server as a CommonJS app: require() of the CJS builds.
const { serve } = require('@hono/node-server');
const { Hono } = require('hono');
const { agentCard } = require('@agent-card/hono');
const { defineAgentCard } = require('@agent-card/core');

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const app = new Hono();
app.use(agentCard({ card, viewer: true }));
app.get('/api/ping', (c) =>
  c.json({ framework: 'hono', version: require(`${__dirname}/node_modules/hono/package.json`).version, module: 'commonjs' }),
);
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
