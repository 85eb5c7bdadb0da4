// An ordinary Koa service (a bookings API on @koa/router) that publishes its A2A Agent Card with
// one line.
import { createServer } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { agentCard } from '@agent-card/koa';

/** Bearer token accepted for the extended card when `API_TOKENS` is not set. For local runs only. */
export const DEVELOPMENT_TOKEN = 'bookings-dev-token';

/**
 * The public card. `publicUrl` is where clients reach this service; it becomes the URL of the
 * A2A interface, so it must be the externally visible one (set `PUBLIC_URL` in production).
 */
export function createCard(publicUrl) {
  return {
    name: 'Room Bookings Agent',
    description: 'Finds free meeting rooms and books them for the teams of the Lakeside office.',
    version: '2.1.0',
    provider: { organization: 'Lakeside Facilities', url: 'https://github.com/lakeside-facilities' },
    supportedInterfaces: [{ url: `${publicUrl}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'Staff access token' } },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [
      {
        id: 'find-room',
        name: 'Find a room',
        description: 'Finds meeting rooms that are free at a given time for a given number of people.',
        tags: ['rooms', 'availability'],
        examples: ['A room for 6 people tomorrow at 10:00'],
      },
      {
        id: 'book-room',
        name: 'Book a room',
        description: 'Books a free meeting room and returns the booking reference.',
        tags: ['rooms', 'bookings'],
        examples: ['Book Aurora from 14:00 to 15:00 on Friday'],
      },
    ],
  };
}

/** Skills only authenticated staff see (the extended card). */
export const extendedSkills = [
  {
    id: 'cancel-any-booking',
    name: 'Cancel any booking',
    description: "Cancels any team's booking, for facility managers.",
    tags: ['rooms', 'bookings', 'admin'],
    examples: ['Cancel booking B-17'],
  },
];

const ROOMS = [
  { id: 'aurora', name: 'Aurora', seats: 8 },
  { id: 'borealis', name: 'Borealis', seats: 4 },
  { id: 'cirrus', name: 'Cirrus', seats: 12 },
];

/**
 * Builds the app.
 * @param {{ publicUrl: string, tokens?: readonly string[] }} options
 */
export function createApp({ publicUrl, tokens = [DEVELOPMENT_TOKEN] }) {
  const accepted = new Set(tokens);
  const app = new Koa();
  const router = new Router({ prefix: '/api' });

  // The service's own API.
  router.get('/rooms', (ctx) => {
    const seats = Number(ctx.query.seats ?? 0);
    ctx.body = ROOMS.filter((room) => room.seats >= seats);
  });
  router.get('/rooms/:id', (ctx) => {
    const room = ROOMS.find((candidate) => candidate.id === ctx.params.id);
    ctx.status = room ? 200 : 404;
    ctx.body = room ?? { error: `room ${ctx.params.id} not found` };
  });

  // The one line that publishes the card (and the extended card for bearer-token holders).
  app.use(
    agentCard({
      card: createCard(publicUrl),
      extended: { authenticate: (ctx) => staff(ctx, accepted), card: extendedSkills },
      // The card as a page for people, at /.well-known/agent-card.html.
      viewer: true,
    }),
  );
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}

function staff(ctx, accepted) {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  return match && accepted.has(match[1]) ? { staff: true } : undefined;
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
    const tokens = process.env.API_TOKENS ? process.env.API_TOKENS.split(',') : undefined;
    server.on('request', createApp({ publicUrl: process.env.PUBLIC_URL ?? url, tokens }).callback());
  } catch (error) {
    // An invalid card fails here, at start-up: do not leave the port open.
    await close();
    throw error;
  }
  return { url, server, close };
}
