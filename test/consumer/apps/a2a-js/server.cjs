// An @a2a-js/sdk server (its REST and JSON-RPC Express handlers) with the middleware in front and
// the bridge answering JSON-RPC GetExtendedAgentCard, as a CommonJS app.
const express = require('express');
const { DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const { jsonRpcHandler, restHandler, UserBuilder } = require('@a2a-js/sdk/server/express');
const { extendedCardProvider, toA2aJsCard } = require('@agent-card/a2a-js');
const { defineAgentCard } = require('@agent-card/core');
const { agentCard } = require('@agent-card/express');

const card = defineAgentCard({
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  // The SDK's JSON-RPC handler answers only the protocol versions of the card's JSONRPC interfaces.
  supportedInterfaces: [
    { url: 'https://orders.acme-corp.io/a2a/rest', protocolBinding: 'HTTP+JSON' },
    { url: 'https://orders.acme-corp.io/a2a/jsonrpc', protocolBinding: 'JSONRPC' },
  ],
  capabilities: { extendedAgentCard: true },
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
});
const refund = { id: 'refund', name: 'Refund', description: 'Refunds an order.', tags: ['orders'] };
const options = {
  card,
  viewer: true,
  extended: { authenticate: (req) => (req.headers['x-api-key'] === 'partner-key' ? 'partner' : undefined), card: [refund] },
};
const cards = agentCard(options);
const executor = { async execute(_context, bus) { bus.finished(); }, async cancelTask() {} };
const requestHandler = new DefaultRequestHandler(
  toA2aJsCard(card), new InMemoryTaskStore(), executor, undefined, undefined, undefined, extendedCardProvider(cards),
);

const { version } = require(`${__dirname}/node_modules/@a2a-js/sdk/package.json`);
const app = express();
app.use(cards);
app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
app.get('/api/ping', (_req, res) => res.json({ framework: 'a2a-js', version, module: 'commonjs' }));
app.listen(Number(process.env.PORT), '127.0.0.1');
