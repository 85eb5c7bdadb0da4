import { describe, expect, it } from 'vitest';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
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

const versions = { 'Fastify 5': fastify5, 'Fastify 4': fastify4 as unknown as typeof fastify5 };

describe.each(Object.entries(versions))('%s plugin', (_version, fastify) => {
  it('serves the card under a register prefix and leaves the root and look-alike prefixes to the app', async () => {
    const app = fastify();
    await app.register(agentCard, { card, ...quiet, prefix: '/api' });
    app.setNotFoundHandler((_request, reply) => void reply.code(404).type('text/plain').send('app 404'));
    const mounted = await app.inject(`/api${WELL_KNOWN}`);
    expect(mounted.statusCode).toBe(200);
    expect(mounted.json().name).toBe(card.name);
    expect(mounted.headers.etag).toMatch(/^"/);
    expect((await app.inject('/api/.well-known/agent.json?x=1')).statusCode).toBe(200);
    for (const url of [WELL_KNOWN, `/apiary${WELL_KNOWN}`, `/api-v2${WELL_KNOWN}`]) {
      const response = await app.inject(url);
      expect([url, response.statusCode, response.body]).toEqual([url, 404, 'app 404']);
    }
  });

  it("leaves the app's routes, prefixed scopes, methods, bodies and 404 handler alone", async () => {
    const app = fastify();
    await app.register(agentCard, { card, ...quiet });
    app.get('/api/orders', async () => [{ id: '1001' }]);
    app.post('/api/orders', async (request) => ({ received: request.body }));
    await app.register(
      async (v1) => {
        v1.get('/.well-known/other', async () => 'other');
      },
      { prefix: '/v1' },
    );
    app.setNotFoundHandler((request, reply) => void reply.code(404).send({ missing: request.url }));

    expect((await app.inject('/api/orders')).json()).toEqual([{ id: '1001' }]);
    const posted = await app.inject({ method: 'POST', url: '/api/orders', payload: { item: 'tea' } });
    expect(posted.json()).toEqual({ received: { item: 'tea' } });
    expect((await app.inject('/v1/.well-known/other')).body).toBe('other');
    const missing = await app.inject('/.well-known/nothing-here');
    expect([missing.statusCode, missing.json()]).toEqual([404, { missing: '/.well-known/nothing-here' }]);
    expect((await app.inject(WELL_KNOWN)).statusCode).toBe(200);
  });

  it('answers 405 to a POST with a malformed JSON body before Fastify parses it', async () => {
    const app = fastify();
    await app.register(agentCard, { card, ...quiet });
    const response = await app.inject({
      method: 'POST',
      url: WELL_KNOWN,
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"polluted": true}, ',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("runs the app's own onSend hooks on the card response", async () => {
    const app = fastify();
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('strict-transport-security', 'max-age=63072000');
      return payload;
    });
    await app.register(agentCard, { card, ...quiet });
    const response = await app.inject(WELL_KNOWN);
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBe('max-age=63072000');
    expect(response.headers['content-type']).toBe('application/a2a+json');
  });

  it('hands authenticate the Fastify request, decorated by the hooks registered before it', async () => {
    const app = fastify();
    app.decorateRequest('partner', null);
    app.addHook('onRequest', async (request) => {
      (request as unknown as { partner: string | null }).partner =
        request.headers['x-api-key'] === 'k-123' ? 'acme' : null;
    });
    await app.register(agentCard, {
      card,
      ...quiet,
      extended: {
        authenticate: (request) => (request as unknown as { partner: string | null }).partner,
        card: [refund],
      },
    });
    const refused = await app.inject('/a2a/extendedAgentCard');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('ApiKey');
    const allowed = await app.inject({ url: '/a2a/extendedAgentCard', headers: { 'x-api-key': 'k-123' } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().skills.map((skill: { id: string }) => skill.id)).toEqual(['order-status', 'refund']);
    expect(allowed.headers['cache-control']).toBe('private, no-store');
  });

  it('rejects ready() and listen() with the AgentCardError of an invalid card', async () => {
    const app = fastify();
    app.register(agentCard, { ...quiet, card: { ...card, description: '' } });
    await expect(app.ready()).rejects.toMatchObject({
      name: 'AgentCardError',
      code: 'ERR_AGENT_CARD_INVALID',
      message: expect.stringContaining('card: the Agent Card has 1 validation error(s) (profile development)'),
    });
    const other = fastify();
    other.register(agentCard, { ...quiet, card: { ...card, description: '' } });
    await expect(other.listen({ port: 0, host: '127.0.0.1' })).rejects.toMatchObject({
      code: 'ERR_AGENT_CARD_INVALID',
    });
    expect(other.server.listening).toBe(false);
  });

  it('rejects an unknown option at start-up, and accepts Fastify register options', async () => {
    const app = fastify();
    app.register(agentCard, { card, ...quiet, cahceControl: 'no-store' } as never);
    await expect(app.ready()).rejects.toMatchObject({
      code: 'ERR_AGENT_CARD_OPTIONS',
      message: expect.stringContaining('options.cahceControl: unknown option.'),
    });
    const ok = fastify();
    await ok.register(agentCard, { card, ...quiet, prefix: '/x', logLevel: 'silent' });
    expect((await ok.inject(`/x${WELL_KNOWN}`)).statusCode).toBe(200);
  });
});
