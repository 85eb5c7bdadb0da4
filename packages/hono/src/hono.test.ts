import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import type { AgentCard } from '@agent-card/core';
import { conformanceAgentCard, listenOnLoopback } from '@agent-card/core/testing';
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

// `app.request` runs the app as a fetch runtime would: no server, a web `Request` in, a `Response` out.
describe('Hono middleware', () => {
  it("serves the card and leaves the app's routes, methods and notFound handler alone", async () => {
    const app = new Hono();
    app.use(agentCard({ card, ...quiet }));
    app.get('/api/orders', (c) => c.json([{ id: '1001' }]));
    app.post('/api/orders', async (c) => c.json({ received: await c.req.json() }));
    app.notFound((c) => c.text('app 404', 404));

    const served = await app.request(WELL_KNOWN);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/a2a+json');
    expect(((await served.json()) as AgentCard).name).toBe(card.name);
    expect(await (await app.request('/api/orders')).json()).toEqual([{ id: '1001' }]);
    const posted = await app.request('/api/orders', { method: 'POST', body: '{"item":"tea"}' });
    expect(await posted.json()).toEqual({ received: { item: 'tea' } });
    const missing = await app.request('/.well-known/nothing-here');
    expect([missing.status, await missing.text()]).toEqual([404, 'app 404']);
  });

  it('does not serve the card at a percent-encoded alias of its path', async () => {
    const app = new Hono();
    app.use(agentCard({ card, ...quiet }));
    app.notFound((c) => c.text('app 404', 404));
    for (const path of ['/.well-known/%61gent-card.json', '/.well-known%2fagent-card.json', `${WELL_KNOWN}%00`]) {
      const response = await app.request(path);
      expect([path, response.status, await response.text()]).toEqual([path, 404, 'app 404']);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const app = new Hono();
    app.use(agentCard({ card, ...quiet }));
    const get = await app.request(WELL_KNOWN);
    const head = await app.request(WELL_KNOWN, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
    expect(head.body).toBeNull();
  });

  it('serves under a basePath, for a sub-app mounted with app.route, and not at look-alike prefixes', async () => {
    const api = new Hono();
    api.use(agentCard({ card, ...quiet }, { basePath: '/api' }));
    api.get('/ping', (c) => c.text('pong'));
    const app = new Hono();
    app.route('/api', api);
    app.notFound((c) => c.text('app 404', 404));
    expect((await app.request(`/api${WELL_KNOWN}`)).status).toBe(200);
    expect(await (await app.request('/api/ping')).text()).toBe('pong');
    for (const path of [WELL_KNOWN, `/apiary${WELL_KNOWN}`]) expect((await app.request(path)).status).toBe(404);
  });

  it('hands authenticate the Hono Context, with the variables earlier middleware set', async () => {
    type AppEnv = { Variables: { partner: string | undefined } };
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('partner', c.req.header('x-api-key') === 'k-123' ? 'acme' : undefined);
      await next();
    });
    app.use(agentCard<AppEnv>({ card, ...quiet, extended: { authenticate: (c) => c.get('partner'), card: [refund] } }));
    const refused = await app.request('/a2a/extendedAgentCard');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('ApiKey');
    const allowed = await app.request('/a2a/extendedAgentCard', { headers: { 'x-api-key': 'k-123' } });
    expect(allowed.status).toBe(200);
    const skills = ((await allowed.json()) as AgentCard).skills.map((skill) => skill.id);
    expect(skills).toEqual(['order-status', 'refund']);
  });

  it('builds a dynamic card from the Host of the request, and from the URL when a runtime sends no Host', async () => {
    const app = new Hono();
    app.use(
      agentCard({
        ...quiet,
        dynamic: { allowedOrigins: ['https://agents.example.net', 'http://a.test:8080'] },
        card: (ctx) => ({
          ...card,
          capabilities: {},
          supportedInterfaces: [{ url: `${ctx.origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
        }),
      }),
    );
    const viaUrl = (await (await app.request(`https://agents.example.net${WELL_KNOWN}`)).json()) as AgentCard;
    expect(viaUrl.supportedInterfaces[0]!.url).toBe('https://agents.example.net/a2a');
    const viaHost = await app.request(
      new Request(`http://localhost${WELL_KNOWN}`, { headers: { host: 'a.test:8080' } }),
    );
    expect(((await viaHost.json()) as AgentCard).supportedInterfaces[0]!.url).toBe('http://a.test:8080/a2a');
  });

  it('trusts X-Forwarded-Host only from the proxy address settings.remoteAddress reports', async () => {
    const appWithPeer = (peer: string) => {
      const app = new Hono();
      app.use(
        agentCard(
          {
            ...quiet,
            dynamic: {
              trustProxy: ['10.0.0.1'],
              allowedOrigins: ['https://public.example.net', 'http://internal.test'],
            },
            card: (ctx) => ({
              ...card,
              capabilities: {},
              supportedInterfaces: [{ url: `${ctx.origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
            }),
          },
          { remoteAddress: () => peer },
        ),
      );
      return app;
    };
    const forwarded = {
      headers: { host: 'internal.test', 'x-forwarded-host': 'public.example.net', 'x-forwarded-proto': 'https' },
    };
    const urlOf = async (app: Hono) =>
      ((await (await app.request(`http://internal.test${WELL_KNOWN}`, forwarded)).json()) as AgentCard)
        .supportedInterfaces[0]!.url;
    expect(await urlOf(appWithPeer('10.0.0.1'))).toBe('https://public.example.net/a2a');
    expect(await urlOf(appWithPeer('203.0.113.9'))).toBe('http://internal.test/a2a');
  });

  it('throws the AgentCardError of an invalid card when the middleware is created', () => {
    expect(() => agentCard({ ...quiet, card: { ...card, description: '' } })).toThrow(
      expect.objectContaining({
        name: 'AgentCardError',
        code: 'ERR_AGENT_CARD_INVALID',
        message: expect.stringContaining('card: the Agent Card has 1 validation error(s) (profile development)'),
      }),
    );
  });
});

// Over a real socket, with request targets written byte for byte: a fetch client would resolve
// the dot-segments and drop the fragment before sending.
describe('Hono middleware on @hono/node-server: the request target as sent', () => {
  const billing = conformanceAgentCard('billing');
  const support = conformanceAgentCard('support');

  async function start(settings: Parameters<typeof agentCard>[1] = {}) {
    const app = new Hono();
    app.use(
      agentCard(
        {
          ...quiet,
          agents: [
            { id: 'billing', path: '/agents/billing', card: billing },
            { id: 'support', path: '/agents/support', card: support },
          ],
          default: 'support',
        },
        settings,
      ),
    );
    app.notFound((c) => c.text('app 404', 404));
    return listenOnLoopback(createServer(getRequestListener(app.fetch)));
  }

  /** The status of one request written to the socket as is. */
  function statusOf(url: string, target: string): Promise<number | undefined> {
    const { port, hostname } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const status = /^HTTP\/1\.1 (\d{3}) /.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
        resolve(status === undefined ? undefined : Number(status));
      });
      socket.end(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    });
  }

  it.each([
    '/agents/support/../billing/.well-known/agent-card.json',
    '/agents/support/%2e%2e/billing/.well-known/agent-card.json',
    '/agents/support/%2E%2E/billing/.well-known/agent.json',
    '/agents/billing/./.well-known/agent-card.json',
    '/agents/billing/.well-known/agent-card.json#fragment',
    '/x/../.well-known/agent-card.json',
    '/.well-known/agent-card.json#',
  ])('GET %s is not a card: 404 from the app, as on every other host', async (target) => {
    const server = await start();
    try {
      expect(await statusOf(server.url, '/agents/billing/.well-known/agent-card.json')).toBe(200);
      expect(await statusOf(server.url, target)).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('an absolute-form target is not a card either, and a base path is compared raw too', async () => {
    const server = await start();
    const under = await start({ basePath: '/api' });
    try {
      expect(await statusOf(server.url, `${server.url}/agents/billing/.well-known/agent-card.json`)).toBe(404);
      expect(await statusOf(under.url, '/api/agents/billing/.well-known/agent-card.json')).toBe(200);
      expect(await statusOf(under.url, '/x/../api/agents/billing/.well-known/agent-card.json')).toBe(404);
      expect(await statusOf(under.url, '/api/x/../agents/billing/.well-known/agent-card.json')).toBe(404);
    } finally {
      await Promise.all([server.close(), under.close()]);
    }
  });

  it('follows a Request the app rewrote before the middleware, not the target on the socket', async () => {
    const inner = new Hono();
    inner.use(agentCard({ card, ...quiet }));
    inner.notFound((c) => c.text('app 404', 404));
    const outer = new Hono();
    // A front app that serves the card under /v1 by handing the inner app a rewritten Request.
    outer.all('/v1/*', (c) => inner.fetch(new Request(c.req.url.replace('/v1/', '/'), c.req.raw), c.env));
    const server = await listenOnLoopback(createServer(getRequestListener(outer.fetch)));
    try {
      expect(await statusOf(server.url, `/v1${WELL_KNOWN}`)).toBe(200);
    } finally {
      await server.close();
    }
  });
});
