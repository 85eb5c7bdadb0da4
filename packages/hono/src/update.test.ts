// `middleware.update(card)` over a real socket with @hono/node-server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { runAgentCardUpdateSuite } from '@agent-card/core/testing';
import { agentCard } from './index';

runAgentCardUpdateSuite({
  name: 'hono 4 on @hono/node-server',
  async start(options) {
    const cards = agentCard(options);
    const app = new Hono();
    app.use(cards);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      update: cards.update,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as Server).closeAllConnections();
        }),
    };
  },
});
