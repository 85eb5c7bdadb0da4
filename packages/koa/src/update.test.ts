// `middleware.update(card)` over a real socket, on both majors.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { runAgentCardUpdateSuite, type UpdatableConformanceServer } from '@agent-card/core/testing';
import type { AgentCardOptions } from '@agent-card/core';
import { agentCard } from './index';

const starter =
  (Koa: typeof Koa3) =>
  async (options: AgentCardOptions): Promise<UpdatableConformanceServer> => {
    const cards = agentCard(options);
    const app = new Koa();
    app.silent = true;
    app.use(cards);
    const server = createServer(app.callback());
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

runAgentCardUpdateSuite({ name: 'koa 3', start: starter(Koa3) });
runAgentCardUpdateSuite({ name: 'koa 2', start: starter(Koa2 as unknown as typeof Koa3) });
