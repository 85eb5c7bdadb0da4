// The shared HTTP behaviour table of @agent-card/core, over a real socket, on both majors.
import { createServer, type RequestListener } from 'node:http';
import express5 from 'express';
import express4 from 'express4';
import { listenOnLoopback, runAgentCardConformanceSuite, type StartConformanceServer } from '@agent-card/core/testing';
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
    return listenOnLoopback(createServer(app as unknown as RequestListener), mount);
  };

runAgentCardConformanceSuite({ name: 'express 5', start: starter(express5) });
runAgentCardConformanceSuite({ name: 'express 4', start: starter(express4 as unknown as typeof express5) });
runAgentCardConformanceSuite({ name: "express 5, app.use('/api', …)", start: starter(express5, '/api') });
