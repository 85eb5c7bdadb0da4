// Express (4 or 5) as a CommonJS app: require() of the CJS builds.
const express = require('express');
const { agentCard } = require('@agent-card/express');
const { defineAgentCard } = require('@agent-card/core');

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const app = express();
app.use(agentCard({ card, viewer: true }));
app.get('/api/ping', (_req, res) => {
  res.json({ framework: 'express', version: require('express/package.json').version, module: 'commonjs' });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
