// `middleware.update(card)` over a real socket with @hono/node-server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AgentCard } from '@agent-card/core';
import { type AgentCardOptions, agentResponderOf } from '@agent-card/core/http';
import { conformanceAgentCard, runAgentCardUpdateSuite } from '@agent-card/core/testing';
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

describe('one agent of the middleware, through agentResponderOf(middleware.responder, id)', () => {
  const billing = conformanceAgentCard('billing');
  const support = conformanceAgentCard('support');
  const quiet = { warn() {} };

  function app() {
    const options: AgentCardOptions<Context> = {
      logger: quiet,
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        { id: 'support', path: '/agents/support', card: support },
      ],
      // The previous AI Catalog draft, pinned: its entries carry the card's name and version.
      catalog: { host: { displayName: 'Acme' }, draft: '634a09d9' },
    };
    const hono = new Hono();
    const middleware = agentCard(options);
    hono.use(middleware);
    return { hono, middleware };
  }

  it("refuses another agent's interface URL with the start-up error, and serves what it served", async () => {
    const { hono, middleware } = app();
    const before = await (await hono.request('/agents/billing/.well-known/agent-card.json')).text();
    const taken = support.supportedInterfaces[0]!.url;
    const moved = { ...billing, supportedInterfaces: [{ ...billing.supportedInterfaces[0]!, url: taken }] };
    expect(() => agentResponderOf(middleware.responder, 'billing')!.update(moved)).toThrow(
      `its interface URL is also agent "billing"'s (${JSON.stringify(taken)})`,
    );
    expect(await (await hono.request('/agents/billing/.well-known/agent-card.json')).text()).toBe(before);
  });

  it('serves an accepted card at its path and in the AI catalog', async () => {
    const { hono, middleware } = app();
    agentResponderOf(middleware.responder, 'billing')!.update({ ...billing, name: 'Billing v2', version: '2.0.0' });
    const card = (await (await hono.request('/agents/billing/.well-known/agent-card.json')).json()) as AgentCard;
    expect(card.name).toBe('Billing v2');
    const catalog = (await (await hono.request('/.well-known/ai-catalog.json')).json()) as {
      entries: { displayName: string; version: string }[];
    };
    expect([catalog.entries[0]!.displayName, catalog.entries[0]!.version]).toEqual(['Billing v2', '2.0.0']);
  });
});
