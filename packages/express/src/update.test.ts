// `middleware.update(card)` over a real socket, on both majors.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import { runAgentCardUpdateSuite, type UpdatableConformanceServer } from '@agent-card/core/testing';
import type { AgentCardOptions } from '@agent-card/core';
import { agentCard } from './index';

const starter =
  (express: typeof express5) =>
  async (options: AgentCardOptions): Promise<UpdatableConformanceServer> => {
    const cards = agentCard(options);
    const app = express();
    app.use(cards);
    const server = createServer(app as unknown as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      update: cards.update,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  };

runAgentCardUpdateSuite({ name: 'express 5', start: starter(express5) });
runAgentCardUpdateSuite({ name: 'express 4', start: starter(express4 as unknown as typeof express5) });
