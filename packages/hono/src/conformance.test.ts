// The shared HTTP behaviour table of @agent-card/core, over a real socket with @hono/node-server.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { runAgentCardConformanceSuite, type StartConformanceServer } from '@agent-card/core/testing';
import { agentCard } from './index';

const starter =
  (basePath?: string): StartConformanceServer =>
  async (options) => {
    const app = new Hono();
    // Under a base path the card lives at `${basePath}/.well-known/…`; the suite sees the base URL.
    app.use(agentCard(options, basePath ? { basePath } : {}));
    app.get(`${basePath ?? ''}/api/ping`, (c) => c.text('pong'));
    app.get(`${basePath ?? ''}/.well-known/other`, (c) => c.text('other'));
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}${basePath ?? ''}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as import('node:http').Server).closeAllConnections();
        }),
    };
  };

runAgentCardConformanceSuite({ name: 'hono 4 on @hono/node-server', start: starter() });
runAgentCardConformanceSuite({ name: "hono 4, basePath '/api'", start: starter('/api') });
