// The shared HTTP behaviour table of @agent-card/core, over a real socket, on both majors.
import type { AddressInfo } from 'node:net';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { runAgentCardConformanceSuite, type StartConformanceServer } from '@agent-card/core/testing';
import { agentCard } from './index';

const starter =
  (fastify: typeof fastify5, prefix?: string): StartConformanceServer =>
  async (options) => {
    const app = fastify();
    // Under a prefix the card lives at `${prefix}/.well-known/…`; the suite sees the base URL.
    await app.register(agentCard, prefix ? { ...options, prefix } : options);
    app.get(`${prefix ?? ''}/api/ping`, (_request, reply) => void reply.type('text/plain').send('pong'));
    app.get(`${prefix ?? ''}/.well-known/other`, (_request, reply) => void reply.type('text/plain').send('other'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}${prefix ?? ''}`,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  };

runAgentCardConformanceSuite({ name: 'fastify 5', start: starter(fastify5) });
runAgentCardConformanceSuite({ name: 'fastify 4', start: starter(fastify4 as unknown as typeof fastify5) });
runAgentCardConformanceSuite({ name: "fastify 5, register(…, { prefix: '/api' })", start: starter(fastify5, '/api') });
runAgentCardConformanceSuite({
  name: "fastify 4, register(…, { prefix: '/api' })",
  start: starter(fastify4 as unknown as typeof fastify5, '/api'),
});
