// An ordinary Hono service on Node.js (a product catalogue API) that publishes its A2A Agent Card
// with one line.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { agentCard } from '@agent-card/hono';

/** Bearer token accepted for the extended card when `API_TOKENS` is not set. For local runs only. */
export const DEVELOPMENT_TOKEN = 'catalogue-dev-token';

/**
 * The public card. `publicUrl` is where clients reach this service; it becomes the URL of the
 * A2A interface, so it must be the externally visible one (set `PUBLIC_URL` in production).
 */
export function createCard(publicUrl) {
  return {
    name: 'Catalogue Agent',
    description: 'Answers questions about the products Northwind Traders sells: prices, stock and sizes.',
    version: '0.9.0',
    provider: { organization: 'Northwind Traders', url: 'https://github.com/northwind-traders' },
    supportedInterfaces: [{ url: `${publicUrl}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'Staff token' } },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'find-product',
        name: 'Find a product',
        description: 'Finds products by name or category, with price and stock.',
        tags: ['catalogue'],
        examples: ['Which teas are in stock?'],
      },
    ],
  };
}

/** Skills only authenticated staff see (the extended card). */
export const extendedSkills = [
  {
    id: 'change-price',
    name: 'Change a price',
    description: 'Sets a new price for a product from a given date.',
    tags: ['catalogue', 'pricing'],
    examples: ['Set the price of p-7 to 4.50 EUR from Monday'],
  },
];

const PRODUCTS = [
  { id: 'p-7', name: 'Darjeeling tea', category: 'tea', price: 4.2, stock: 120 },
  { id: 'p-9', name: 'Rooibos tea', category: 'tea', price: 3.9, stock: 0 },
];

/**
 * Builds the app.
 * @param {{ publicUrl: string, tokens?: readonly string[] }} options
 */
export function createApp({ publicUrl, tokens = [DEVELOPMENT_TOKEN] }) {
  const accepted = new Set(tokens);
  const app = new Hono();

  // The one line that publishes the card (and the extended card for staff).
  app.use(
    agentCard({
      card: createCard(publicUrl),
      extended: { authenticate: (c) => staff(c, accepted), card: extendedSkills },
      // The card as a page for people, at /.well-known/agent-card.html.
      viewer: true,
    }),
  );

  // The service's own API, untouched by the middleware.
  app.get('/api/products', (c) => c.json(PRODUCTS));
  app.get('/api/products/:id', (c) => {
    const product = PRODUCTS.find((candidate) => candidate.id === c.req.param('id'));
    return product ? c.json(product) : c.json({ error: `product ${c.req.param('id')} not found` }, 404);
  });
  return app;
}

function staff(c, accepted) {
  const match = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '');
  return match && accepted.has(match[1]) ? { staff: true } : undefined;
}

/**
 * Starts the service on `@hono/node-server`. `port` 0 picks a free port. The public URL defaults
 * to the loopback address actually listened on, so the card is right even then.
 *
 * @param {number} [port] default `PORT` or 3000
 * @returns {Promise<{ url: string, server: import('node:http').Server, close: () => Promise<void> }>}
 */
export async function start(port = Number(process.env.PORT ?? 3000), host = process.env.HOST ?? '127.0.0.1') {
  let app;
  // The card's URL needs the port, known once listening: requests are handed to the app built then.
  const server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: (request, env) => app.fetch(request, env), port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const url = `http://${host}:${server.address().port}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  try {
    const tokens = process.env.API_TOKENS ? process.env.API_TOKENS.split(',') : undefined;
    app = createApp({ publicUrl: process.env.PUBLIC_URL ?? url, tokens });
  } catch (error) {
    // An invalid card fails here, at start-up: do not leave the port open.
    await close();
    throw error;
  }
  return { url, server, close };
}
