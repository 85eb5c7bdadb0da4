// `app.agentCard.update(card)` over a real socket, on both majors, and the decorator's name.
import type { AddressInfo } from 'node:net';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { describe, expect, it } from 'vitest';
import { runAgentCardUpdateSuite, type UpdatableConformanceServer } from '@agent-card/core/testing';
import { AgentCardError } from '@agent-card/core';
import type { AgentCardOptions } from '@agent-card/core/http';
import { CONFORMANCE_CARD } from '@agent-card/core/testing';
import { agentCard } from './index';

const starter =
  (fastify: typeof fastify5) =>
  async (options: AgentCardOptions): Promise<UpdatableConformanceServer> => {
    const app = fastify();
    await app.register(agentCard, options);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      update: app.agentCard.update,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  };

runAgentCardUpdateSuite({ name: 'fastify 5', start: starter(fastify5) });
runAgentCardUpdateSuite({ name: 'fastify 4', start: starter(fastify4 as unknown as typeof fastify5) });

const quiet = { profile: 'production' as const, logger: { warn() {} } };
const rename = (name: string) => ({ ...CONFORMANCE_CARD, name });
const WELL_KNOWN = '/.well-known/agent-card.json';

describe.each([
  ['Fastify 5', fastify5],
  ['Fastify 4', fastify4 as unknown as typeof fastify5],
])('%s: the app.agentCard decorator', (_version, fastify) => {
  it('refuses a second registration on one instance under the same name, naming the option', async () => {
    const app = fastify();
    await app.register(agentCard, { card: CONFORMANCE_CARD, ...quiet, prefix: '/a' });
    const second = app.register(agentCard, { card: rename('Second'), ...quiet, prefix: '/b' });
    const error = await second.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentCardError);
    expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect((error as AgentCardError).message).toBe(
      "options.decorator: the instance already has a decorator named agentCard (is the plugin registered twice on it?). Give each registration its own name, e.g. register(agentCard, { decorator: 'billingCard', … }), or pass decorator: false.",
    );
  });

  it('serves two agents with their own decorators, each update changing only its own card', async () => {
    const app = fastify();
    await app.register(agentCard, { card: CONFORMANCE_CARD, ...quiet, prefix: '/a' });
    await app.register(agentCard, { card: rename('Billing'), ...quiet, prefix: '/b', decorator: 'billingCard' });
    (app as unknown as { billingCard: typeof app.agentCard }).billingCard.update(rename('Billing v2'));
    expect((await app.inject(`/b${WELL_KNOWN}`)).json().name).toBe('Billing v2');
    expect((await app.inject(`/a${WELL_KNOWN}`)).json().name).toBe(CONFORMANCE_CARD.name);
    app.agentCard.update(rename('Orders v2'));
    expect((await app.inject(`/a${WELL_KNOWN}`)).json().name).toBe('Orders v2');
    expect((await app.inject(`/b${WELL_KNOWN}`)).json().name).toBe('Billing v2');
  });

  it('decorates nothing with decorator: false, and the option never reaches the card options', async () => {
    const app = fastify();
    await app.register(agentCard, { card: CONFORMANCE_CARD, ...quiet, decorator: false });
    expect(app.hasDecorator('agentCard')).toBe(false);
    expect((await app.inject(WELL_KNOWN)).statusCode).toBe(200);
  });

  it.each([[''], [42], [null]])('refuses decorator: %j at start-up', async (decorator) => {
    const app = fastify();
    const error = await app
      .register(agentCard, { card: CONFORMANCE_CARD, ...quiet, decorator: decorator as never })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as AgentCardError).message).toBe(
      `options.decorator: must be a non-empty string or false (${JSON.stringify(decorator)}). Name the decorator, e.g. decorator: 'billingCard', or pass false for none.`,
    );
  });
});
