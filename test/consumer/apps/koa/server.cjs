// Koa (2 or 3) as a CommonJS app: require() of the CJS builds.
const Koa = require('koa');
const { agentCard } = require('@agent-card/koa');
const { defineAgentCard } = require('@agent-card/core');

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  url: 'https://orders.acme-corp.io/a2a',
  binding: 'JSONRPC',
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});

const app = new Koa();
app.use(agentCard({ card, viewer: true }));
app.use((ctx) => {
  if (ctx.path === '/api/ping') {
    ctx.body = { framework: 'koa', version: require('koa/package.json').version, module: 'commonjs' };
  }
});
app.listen(Number(process.env.PORT), '127.0.0.1');
