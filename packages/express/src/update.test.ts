// `middleware.update(card)` over a real socket, on both majors.
import { createServer, type RequestListener } from 'node:http';
import express5 from 'express';
import express4 from 'express4';
import { listenOnLoopback, runAgentCardUpdateSuite, type UpdatableConformanceServer } from '@agent-card/core/testing';
import type { AgentCardOptions } from '@agent-card/core/http';
import { agentCard } from './index';

const starter =
  (express: typeof express5) =>
  async (options: AgentCardOptions): Promise<UpdatableConformanceServer> => {
    const cards = agentCard(options);
    const app = express();
    app.use(cards);
    return { ...(await listenOnLoopback(createServer(app as unknown as RequestListener))), update: cards.update };
  };

runAgentCardUpdateSuite({ name: 'express 5', start: starter(express5) });
runAgentCardUpdateSuite({ name: 'express 4', start: starter(express4 as unknown as typeof express5) });
