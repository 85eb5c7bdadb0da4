import { describe, expect, it } from 'vitest';
import request from 'supertest';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import Router from '@koa/router';
import mount from 'koa-mount';
import type { AgentCard } from '@agent-card/core';
import { agentCard } from './index';

const card: AgentCard = {
  name: 'Bookings Agent',
  description: 'Finds free meeting rooms and books them for the teams of the office.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1:3000/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  capabilities: { extendedAgentCard: true },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'find-room', name: 'Find a room', description: 'Finds a free room.', tags: ['rooms'] }],
};
const cancel = { id: 'cancel-any', name: 'Cancel any booking', description: 'Cancels a booking.', tags: ['admin'] };
const quiet = { profile: 'development' as const, logger: { warn() {} } };
const WELL_KNOWN = '/.well-known/agent-card.json';

const versions = { 'Koa 3': Koa3, 'Koa 2': Koa2 } as unknown as Record<string, typeof Koa3>;

describe.each(Object.entries(versions))('%s adapter', (_version, Koa) => {
  it('serves the card in an app whose routes live on @koa/router, and leaves the routes alone', async () => {
    const app = new Koa();
    const router = new Router();
    router.get('/api/rooms', (ctx) => {
      ctx.body = [{ id: 'aurora' }];
    });
    router.post('/api/rooms', (ctx) => {
      ctx.status = 201;
    });
    router.get('/.well-known/security.txt', (ctx) => {
      ctx.body = 'Contact: ops';
    });
    app.use(agentCard({ card, ...quiet }));
    app.use(router.routes()).use(router.allowedMethods());
    const server = app.callback();

    const response = await request(server).get(WELL_KNOWN).expect(200);
    expect(JSON.parse(response.text).name).toBe(card.name);
    await request(server)
      .get('/api/rooms')
      .expect(200, [{ id: 'aurora' }]);
    await request(server).post('/api/rooms').expect(201);
    await request(server).get('/.well-known/security.txt').expect(200, 'Contact: ops');
    await request(server).get('/.well-known/agent-card.jsonx').expect(404);
    // allowedMethods answers for the app's routes, not for the card path.
    await request(server).delete('/api/rooms').expect(405);
  });

  it('sends its own Content-Type, a strong ETag and the exact length: Koa adds nothing', async () => {
    const app = new Koa().use(agentCard({ card, ...quiet }));
    const response = await request(app.callback()).get(WELL_KNOWN).expect(200);
    expect(response.headers['content-type']).toBe('application/a2a+json');
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
  });

  it('answers HEAD with GET’s headers and no body', async () => {
    const server = new Koa().use(agentCard({ card, ...quiet })).callback();
    const get = await request(server).get(WELL_KNOWN).expect(200);
    const head = await request(server).head(WELL_KNOWN).expect(200);
    expect(head.text).toBeFalsy();
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) {
      expect(head.headers[name]).toBe(get.headers[name]);
    }
  });

  it('answers 304 without a body and with the ETag', async () => {
    const server = new Koa().use(agentCard({ card, ...quiet })).callback();
    const { headers } = await request(server).get(WELL_KNOWN).expect(200);
    const revalidated = await request(server).get(WELL_KNOWN).set('if-none-match', String(headers.etag)).expect(304);
    expect(revalidated.headers.etag).toBe(headers.etag);
    expect(revalidated.text).toBeFalsy();
  });

  it('keeps headers set by earlier middleware', async () => {
    const app = new Koa();
    app.use((ctx, next) => {
      ctx.set('x-request-id', 'r-1');
      return next();
    });
    app.use(agentCard({ card, ...quiet }));
    const response = await request(app.callback()).get(WELL_KNOWN).expect(200);
    expect(response.headers['x-request-id']).toBe('r-1');
  });

  it('hands authenticate the Koa context, and serves extended-only skills to it alone', async () => {
    const app = new Koa();
    app.use((ctx, next) => {
      ctx.state.token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
      return next();
    });
    app.use(
      agentCard({
        card,
        ...quiet,
        extended: {
          authenticate: (ctx: Koa3.Context) => (ctx.state.token === 'staff' ? { role: 'staff' } : undefined),
          card: [cancel],
        },
      }),
    );
    const server = app.callback();
    const denied = await request(server).get('/a2a/extendedAgentCard').set('authorization', 'Bearer nope').expect(401);
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(denied.text).not.toContain(cancel.id);
    const granted = await request(server)
      .get('/a2a/extendedAgentCard')
      .set('authorization', 'Bearer staff')
      .expect(200);
    expect(JSON.parse(granted.text).skills.map((s: { id: string }) => s.id)).toContain(cancel.id);
    const publicCard = await request(server).get(WELL_KNOWN).set('authorization', 'Bearer staff').expect(200);
    expect(publicCard.text).not.toContain(cancel.id);
  });

  it('serves under a koa-mount prefix, and leaves the paths outside it to the app', async () => {
    const app = new Koa();
    app.use(
      mount(
        '/api',
        agentCard({
          card,
          ...quiet,
          // The extended path as the mounted middleware sees it (koa-mount strips /api).
          extended: {
            authenticate: (ctx: Koa3.Context) =>
              ctx.get('authorization') === 'Bearer staff' ? { role: 'staff' } : undefined,
            path: '/a2a/extendedAgentCard',
            card: [cancel],
          },
        }),
      ),
    );
    app.use((ctx) => {
      ctx.body = `app: ${ctx.path}`;
    });
    const server = app.callback();

    const response = await request(server).get(`/api${WELL_KNOWN}?v=1`).expect(200);
    expect(JSON.parse(response.text).name).toBe(card.name);
    expect(response.headers['content-type']).toBe('application/a2a+json');
    await request(server).get(`/api${WELL_KNOWN}`).set('if-none-match', response.headers.etag!).expect(304);
    await request(server).head(`/api/.well-known/agent.json`).expect(200);
    await request(server).get('/api/a2a/extendedAgentCard').expect(401);
    const granted = await request(server)
      .get('/api/a2a/extendedAgentCard')
      .set('authorization', 'Bearer staff')
      .expect(200);
    expect(JSON.parse(granted.text).skills.map((s: { id: string }) => s.id)).toContain(cancel.id);
    // Outside the prefix the card is not served; the app answers.
    await request(server).get(WELL_KNOWN).expect(200, `app: ${WELL_KNOWN}`);
    await request(server).get('/api/rooms').expect(200, 'app: /api/rooms');
  });

  it('throws at start-up, not per request, when the card is invalid', () => {
    expect(() => agentCard({ card: { ...card, skills: [] }, ...quiet })).toThrow(/skills/);
  });
});
