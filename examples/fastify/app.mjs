// An ordinary Fastify service (a shipments API) that publishes its A2A Agent Card with one
// registration.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { agentCard } from '@agent-card/fastify';

/** Key accepted for the extended card when `API_KEYS` is not set. For local runs only. */
export const DEVELOPMENT_API_KEY = 'shipments-dev-key';

/**
 * The public card. `publicUrl` is where clients reach this service; it becomes the URL of the
 * A2A interface, so it must be the externally visible one (set `PUBLIC_URL` in production).
 */
export function createCard(publicUrl) {
  return {
    name: 'Shipments Agent',
    description: 'Tracks the parcels Northwind Traders ships and answers questions about deliveries.',
    version: '2.1.0',
    provider: { organization: 'Northwind Traders', url: 'https://github.com/northwind-traders' },
    supportedInterfaces: [{ url: `${publicUrl}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: {
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key', description: 'Carrier API key' } },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'track-shipment',
        name: 'Track a shipment',
        description: 'Reports where a parcel is and when it should be delivered.',
        tags: ['shipments', 'tracking'],
        examples: ['Where is parcel NW-501?'],
      },
    ],
  };
}

/** Skills only authenticated carriers see (the extended card). */
export const extendedSkills = [
  {
    id: 'reroute-shipment',
    name: 'Reroute a shipment',
    description: 'Sends a parcel that is still in transit to another address.',
    tags: ['shipments'],
    examples: ['Send parcel NW-502 to the Leeds depot'],
  },
];

const SHIPMENTS = [
  { id: 'NW-501', order: '1001', status: 'in transit', eta: '2026-12-04' },
  { id: 'NW-502', order: '1002', status: 'delivered', eta: '2026-11-28' },
];

/**
 * Builds the app on `server` (a Node server, already listening or not).
 * @param {{ publicUrl: string, apiKeys?: readonly string[], server?: import('node:http').Server }} options
 */
export async function createApp({ publicUrl, apiKeys = [DEVELOPMENT_API_KEY], server = createServer() }) {
  const keys = new Set(apiKeys);
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });

  // The one registration that publishes the card (and the extended card for API-key holders).
  await app.register(agentCard, {
    card: createCard(publicUrl),
    extended: { authenticate: (request) => carrier(request, keys), card: extendedSkills },
    // The card as a page for people, at /.well-known/agent-card.html.
    viewer: true,
  });

  // The service's own API, untouched by the plugin.
  app.get('/api/shipments', async () => SHIPMENTS);
  app.get('/api/shipments/:id', async (request, reply) => {
    const shipment = SHIPMENTS.find((candidate) => candidate.id === request.params.id);
    if (shipment) return shipment;
    return reply.code(404).send({ error: `shipment ${request.params.id} not found` });
  });
  await app.ready();
  return app;
}

function carrier(request, keys) {
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && keys.has(key) ? { carrier: key.slice(0, 4) } : undefined;
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
  let app;
  const close = async () => {
    server.closeAllConnections();
    await app?.close();
    // Fastify closes only a server it listened on itself.
    await new Promise((resolve) => server.close(() => resolve()));
  };
  try {
    const apiKeys = process.env.API_KEYS ? process.env.API_KEYS.split(',') : undefined;
    app = await createApp({ publicUrl: process.env.PUBLIC_URL ?? url, apiKeys, server });
  } catch (error) {
    // An invalid card fails here, at start-up: do not leave the port open.
    await close();
    throw error;
  }
  return { url, server, close };
}
