// `middleware.update(card)` over a real socket, on both majors.
import { createServer } from 'node:http';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { listenOnLoopback, runAgentCardUpdateSuite, type UpdatableConformanceServer } from '@agent-card/core/testing';
import type { AgentCardOptions } from '@agent-card/core/http';
import { agentCard } from './index';

const starter =
  (Koa: typeof Koa3) =>
  async (options: AgentCardOptions): Promise<UpdatableConformanceServer> => {
    const cards = agentCard(options);
    const app = new Koa();
    app.silent = true;
    app.use(cards);
    return { ...(await listenOnLoopback(createServer(app.callback()))), update: cards.update };
  };

runAgentCardUpdateSuite({ name: 'koa 3', start: starter(Koa3) });
runAgentCardUpdateSuite({ name: 'koa 2', start: starter(Koa2 as unknown as typeof Koa3) });
