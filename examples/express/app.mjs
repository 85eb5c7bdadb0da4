// An ordinary Express service (an orders API) that publishes its A2A Agent Card with one line.
import { createServer } from 'node:http';
import express from 'express';
import { agentCard } from '@agent-card/express';

/** Key accepted for the extended card when `API_KEYS` is not set. For local runs only. */
export const DEVELOPMENT_API_KEY = 'orders-dev-key';

/**
 * The public card. `publicUrl` is where clients reach this service; it becomes the URL of the
 * A2A interface, so it must be the externally visible one (set `PUBLIC_URL` in production).
 */
export function createCard(publicUrl) {
  return {
    name: 'Orders Agent',
    description: 'Looks up and tracks customer orders of the Northwind shop, and answers delivery questions.',
    version: '1.4.0',
    provider: { organization: 'Northwind Traders', url: 'https://github.com/northwind-traders' },
    supportedInterfaces: [{ url: `${publicUrl}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: {
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key', description: 'Partner API key' } },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'order-status',
        name: 'Order status',
        description: 'Reports where an order is and when it should arrive.',
        tags: ['orders', 'tracking'],
        examples: ['Where is order 1001?'],
      },
      {
        id: 'list-orders',
        name: 'List orders',
        description: 'Lists the recent orders of a customer.',
        tags: ['orders'],
        examples: ['Show the orders of customer c-42'],
      },
    ],
  };
}

/** Skills only authenticated partners see (the extended card). */
export const extendedSkills = [
  {
    id: 'refund-order',
    name: 'Refund an order',
    description: 'Issues a full or partial refund for a delivered order.',
    tags: ['orders', 'refunds'],
    examples: ['Refund 20 EUR on order 1002'],
  },
];

const ORDERS = [
  { id: '1001', customer: 'c-42', status: 'shipped', total: 59.9 },
  { id: '1002', customer: 'c-42', status: 'delivered', total: 20 },
  { id: '1003', customer: 'c-7', status: 'processing', total: 112.5 },
];

/**
 * Builds the app.
 * @param {{ publicUrl: string, apiKeys?: readonly string[] }} options
 */
export function createApp({ publicUrl, apiKeys = [DEVELOPMENT_API_KEY] }) {
  const keys = new Set(apiKeys);
  const app = express();
  app.use(express.json());

  // The one line that publishes the card (and the extended card for API-key holders).
  app.use(
    agentCard({
      card: createCard(publicUrl),
      extended: { authenticate: (req) => partner(req, keys), card: extendedSkills },
      // The card as a page for people, at /.well-known/agent-card.html.
      viewer: true,
    }),
  );

  // The service's own API, untouched by the middleware.
  app.get('/api/orders', (req, res) => {
    const { customer } = req.query;
    res.json(customer ? ORDERS.filter((order) => order.customer === customer) : ORDERS);
  });
  app.get('/api/orders/:id', (req, res) => {
    const order = ORDERS.find((candidate) => candidate.id === req.params.id);
    if (order) res.json(order);
    else res.status(404).json({ error: `order ${req.params.id} not found` });
  });
  app.post('/api/orders', (req, res) => {
    const { customer, total } = req.body ?? {};
    if (typeof customer !== 'string' || typeof total !== 'number') {
      res.status(400).json({ error: 'customer (string) and total (number) are required' });
      return;
    }
    res.status(201).json({ id: String(1000 + ORDERS.length + 1), customer, status: 'processing', total });
  });
  return app;
}

function partner(req, keys) {
  const key = req.headers['x-api-key'];
  return typeof key === 'string' && keys.has(key) ? { partner: key.slice(0, 4) } : undefined;
}

/**
 * Starts the service. `port` 0 picks a free port. The public URL defaults to the loopback
 * address actually listened on, so the card is right even then.
 *
 * @param {number} [port] default `PORT` or 3000
 * @returns {Promise<{ url: string, server: import('node:http').Server, close: () => Promise<void> }>}
 */
export async function start(port = Number(process.env.PORT ?? 3000), host = process.env.HOST ?? '127.0.0.1') {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const url = `http://${host}:${server.address().port}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  try {
    const apiKeys = process.env.API_KEYS ? process.env.API_KEYS.split(',') : undefined;
    server.on('request', createApp({ publicUrl: process.env.PUBLIC_URL ?? url, apiKeys }));
  } catch (error) {
    // An invalid card fails here, at start-up: do not leave the port open.
    await close();
    throw error;
  }
  return { url, server, close };
}
