import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../../model';
import { CONFORMANCE_CARD, conformanceAgentCard } from '../../testing/cards';
import { agentResponderOf } from '../multi-agent';
import { createAgentCardResponder } from '../responder';
import { agentCardRoutes, agentCardStatus, closeAgentCard } from './status';

const quiet = { warn: () => {} };
const CARD = '/.well-known/agent-card.json';

describe('agentCardStatus: ok, stale after a failed rebuild, failing', () => {
  it('is ok, then stale with the error after an invalid update, then ok again', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    expect(agentCardStatus(responder)).toMatchObject({ state: 'ok', ready: true });
    expect(() => responder.update({ ...CONFORMANCE_CARD, name: '' })).toThrow(/validation error/);
    const stale = agentCardStatus(responder);
    expect(stale).toMatchObject({ state: 'stale', ready: true });
    expect(String(stale.lastError)).toMatch(/AgentCardError: card: the Agent Card has 1 validation error/);
    // The card served is the one before.
    expect(responder.respond({ method: 'GET', path: CARD, headers: {} })).toMatchObject({ status: 200 });
    responder.update({ ...CONFORMANCE_CARD, version: '2.0.0' });
    expect(agentCardStatus(responder)).toMatchObject({ state: 'ok', ready: true, lastError: stale.lastError });
  });

  it('a card function: failing (not ready) while nothing can be served, stale while staleIfError serves the last variant', async () => {
    let up = true;
    const responder = createAgentCardResponder({
      logger: quiet,
      card: () => {
        if (!up) throw new Error('catalogue service down');
        return CONFORMANCE_CARD;
      },
      dynamic: {
        allowedOrigins: ['https://a.example.com', 'https://b.example.com'],
        variantMaxAge: 1,
        staleIfError: true,
      },
    });
    const get = (host: string) => responder.respond({ method: 'GET', path: CARD, headers: { host }, encrypted: true });
    expect(await get('a.example.com')).toMatchObject({ status: 200 });
    up = false;
    expect(await get('b.example.com')).toMatchObject({ status: 503 });
    expect(agentCardStatus(responder)).toMatchObject({
      state: 'failing',
      ready: false,
      lastError: new Error('catalogue service down'),
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await get('a.example.com')).toMatchObject({ status: 200 });
    expect(agentCardStatus(responder)).toMatchObject({ state: 'stale', ready: true });
    up = true;
    expect(await get('b.example.com')).toMatchObject({ status: 200 });
    expect(agentCardStatus(responder).state).toBe('ok');
  });

  it("reads through an adapter's middleware (it carries the responder) and refuses one agent's handle", () => {
    const responder = createAgentCardResponder({
      logger: quiet,
      agents: [{ id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing') }],
    });
    const middleware = Object.assign(() => {}, { responder });
    expect(agentCardStatus(middleware).state).toBe('ok');
    expect(() => agentCardStatus(agentResponderOf(responder, 'billing')!)).toThrow(
      /agentCardStatus: this is one agent's responder/,
    );
    expect(() => agentCardStatus({ card: CONFORMANCE_CARD } as never)).toThrow(/got an options object/);
  });

  it('closeAgentCard is harmless without a watch', () => {
    const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });
    expect(() => closeAgentCard(responder)).not.toThrow();
  });
});

describe('agentCardRoutes: the paths served, with their kinds', () => {
  it('lists a single card with everything it serves', async () => {
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      viewer: true,
      extended: { authenticate: () => undefined },
    });
    expect(await agentCardRoutes(responder)).toEqual([
      { path: CARD, kind: 'card' },
      { path: '/.well-known/agent.json', kind: 'alias' },
      { path: '/.well-known/agent-card.html', kind: 'viewer' },
      { path: '/a2a/rest/extendedAgentCard', kind: 'extended' },
    ]);
  });

  it('lists the MCP catalog and the ARD manifest a host serves', async () => {
    const responder = createAgentCardResponder({
      logger: quiet,
      agents: [{ id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing'), legacy: false }],
      catalog: {
        publisher: 'acme.com',
        entries: [
          {
            identifier: 'urn:air:acme.com:mcp:weather',
            type: 'application/mcp-server-card+json',
            url: 'https://mcp.acme.example/server-card',
          },
        ],
      },
    });
    const routes = await agentCardRoutes(responder);
    expect(routes.filter((r) => r.kind === 'mcp-catalog' || r.kind === 'ard')).toEqual([
      { path: '/.well-known/mcp/catalog.json', kind: 'mcp-catalog' },
      { path: '/.well-known/ard.json', kind: 'ard' },
    ]);
  });

  it('lists the agents, the default one at the root and the catalog', async () => {
    const card: AgentCard = conformanceAgentCard('billing');
    const responder = createAgentCardResponder({
      logger: quiet,
      default: 'billing',
      agents: [{ id: 'billing', path: '/agents/billing', card, legacy: false }],
    });
    expect(await agentCardRoutes(responder)).toEqual([
      { path: '/.well-known/ai-catalog.json', kind: 'catalog' },
      { path: '/.well-known/ard.json', kind: 'ard' },
      { path: CARD, kind: 'card' },
      { path: `/agents/billing${CARD}`, kind: 'card' },
      { path: '/agents/billing/a2a/rest/extendedAgentCard', kind: 'extended' },
    ]);
  });
});
