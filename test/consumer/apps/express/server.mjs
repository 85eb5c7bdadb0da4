// Express (4 or 5) as an ES module app: import of the ESM builds.
import { createRequire } from 'node:module';
import { defineAgentCard } from '@agent-card/core';
import { agentCard } from '@agent-card/express';
import express from 'express';

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const { version } = createRequire(import.meta.url)('express/package.json');
const app = express();
app.use(agentCard({ card, viewer: true }));
app.get('/api/ping', (_req, res) => {
  res.json({ framework: 'express', version, module: 'module' });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
