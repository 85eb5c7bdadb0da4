// The shared HTTP behaviour table of @agent-card/core, over a real socket, on both majors.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import { runAgentCardConformanceSuite, type StartConformanceServer } from '@agent-card/core/testing';
import { agentCard } from './index';

const starter =
  (express: typeof express5, mount?: string): StartConformanceServer =>
  async (options) => {
    const app = express();
    // Under a mount path the card lives at `${mount}/.well-known/…`; the suite sees the base URL.
    if (mount) app.use(mount, agentCard(options));
    else app.use(agentCard(options));
    app.get(`${mount ?? ''}/api/ping`, (_req, res) => void res.type('text/plain').send('pong'));
    app.get(`${mount ?? ''}/.well-known/other`, (_req, res) => void res.type('text/plain').send('other'));
    const server = createServer(app as unknown as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}${mount ?? ''}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  };

runAgentCardConformanceSuite({ name: 'express 5', start: starter(express5) });
runAgentCardConformanceSuite({ name: 'express 4', start: starter(express4 as unknown as typeof express5) });
runAgentCardConformanceSuite({ name: "express 5, app.use('/api', …)", start: starter(express5, '/api') });
