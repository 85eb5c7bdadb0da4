import { describe, expect, it } from 'vitest';
import request from 'supertest';
import express5 from 'express';
import express4 from 'express4';
import type { AgentCard } from '@agent-card/core';
import { agentCard } from './index';

const card: AgentCard = {
  name: 'Orders Agent',
  description: 'Looks up and tracks customer orders, and answers delivery questions.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1:3000/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  capabilities: { extendedAgentCard: true },
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Where an order is.', tags: ['orders'] }],
};
const refund = { id: 'refund', name: 'Refund', description: 'Refunds an order.', tags: ['orders'] };
const quiet = { profile: 'development' as const, logger: { warn() {} } };

const WELL_KNOWN = '/.well-known/agent-card.json';

const versions = { 'Express 5': express5, 'Express 4': express4 } as unknown as Record<string, typeof express5>;

describe.each(Object.entries(versions))('%s adapter', (_version, express) => {
  it('serves the card from a Router', async () => {
    const router = express.Router();
    router.use(agentCard({ card, ...quiet }));
    const app = express().use(router);
    const response = await request(app).get(WELL_KNOWN).expect(200);
    expect(response.body.name).toBe(card.name);
  });

  it('serves the card under a mount path and leaves the root well-known path to the app', async () => {
    const app = express();
    app.use('/api', agentCard({ card, ...quiet }));
    app.use((_req, res) => void res.status(404).type('text/plain').send('app 404'));
    const mounted = await request(app).get(`/api${WELL_KNOWN}`).expect(200);
    expect(mounted.body.name).toBe(card.name);
    expect(mounted.headers.etag).toMatch(/^"/);
    await request(app).get(`/api/.well-known/agent.json`).expect(200);
    const root = await request(app).get(WELL_KNOWN).expect(404);
    expect(root.text).toBe('app 404');
  });

  it('serves the card from a Router mounted under a path', async () => {
    const router = express.Router();
    router.use(agentCard({ card, ...quiet }));
    const app = express().use('/tenants/acme', router);
    await request(app).get(`/tenants/acme${WELL_KNOWN}`).expect(200);
    await request(app).get(WELL_KNOWN).expect(404);
  });

  it("leaves the app's own routes, methods and bodies alone", async () => {
    const app = express();
    app.use(express.json());
    app.use(agentCard({ card, ...quiet }));
    app.get('/api/orders', (_req, res) => void res.json([{ id: '1001' }]));
    app.post('/api/orders', (req, res) => void res.status(201).json({ received: req.body }));
    app.get('/.well-known/security.txt', (_req, res) => void res.type('text/plain').send('Contact: ops'));
    app.post('/.well-known/agent-card.json.bak', (_req, res) => void res.status(202).end());

    await request(app)
      .get('/api/orders')
      .expect(200, [{ id: '1001' }]);
    await request(app)
      .post('/api/orders')
      .send({ customer: 'c-42' })
      .expect(201, { received: { customer: 'c-42' } });
    await request(app).get('/.well-known/security.txt').expect(200, 'Contact: ops');
    await request(app).post('/.well-known/agent-card.json.bak').expect(202);
    await request(app).get('/.well-known/agent-card.jsonx').expect(404);
  });

  it('keeps headers that earlier middleware set, and adds none of Express’ own', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('x-request-id', 'r-1');
      next();
    });
    app.use(agentCard({ card, ...quiet }));
    const response = await request(app).get(WELL_KNOWN).expect(200);
    expect(response.headers['x-request-id']).toBe('r-1');
    // Express' res.send would have added a weak ETag and a charset.
    expect(response.headers.etag).not.toMatch(/^W\//);
    expect(response.headers['content-type']).toBe('application/a2a+json');
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
  });

  it('answers 401 when authenticate throws, reports the error to onError, leaks nothing', async () => {
    const reported: unknown[] = [];
    const app = express();
    app.use(
      agentCard({
        card,
        ...quiet,
        onError: (error) => void reported.push(error),
        extended: {
          authenticate: async () => {
            throw new Error('identity provider down');
          },
          card: [refund],
        },
      }),
    );
    const response = await request(app).get('/a2a/extendedAgentCard').set('x-api-key', 'k').expect(401);
    expect(response.headers['www-authenticate']).toBeTruthy();
    expect(response.text).not.toContain('identity provider down');
    expect(response.text).not.toContain(refund.id);
    expect(reported).toEqual([expect.objectContaining({ message: 'identity provider down' })]);
  });

  it('throws at start-up, not per request, when the card is invalid', () => {
    expect(() => agentCard({ card: { ...card, skills: [] }, ...quiet })).toThrow(/skills/);
  });
});
