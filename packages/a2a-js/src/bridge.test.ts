import { describe, expect, it } from 'vitest';
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { ServerCallContext, STATE_HEADERS_KEY } from '@a2a-js/sdk/server';
import type { AgentCard } from '@agent-card/core';
import { createAgentCardResponder, type AgentCardOptions } from '@agent-card/core/http';
import { agentCard } from '@agent-card/express';
import { extendedCardProvider, fromA2aJsCard, toA2aJsCard } from './index';

const card: AgentCard = {
  name: 'Orders Agent',
  description: 'Looks up and tracks customer orders, and answers delivery questions.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1:3000/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { extendedAgentCard: true },
  securitySchemes: {
    apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          clientCredentials: { tokenUrl: 'https://login.example.net/token', scopes: { 'orders:read': 'Read' } },
        },
      },
    },
  },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Where an order is.', tags: ['orders'] }],
};
const refund = { id: 'refund', name: 'Refund', description: 'Refunds an order.', tags: ['orders'] };
const quiet = { profile: 'development' as const, logger: { warn() {} } };

/** A call context as the SDK's default context builder makes it: the headers in `state`. */
const contextWith = (headers: Record<string, string>) =>
  new ServerCallContext({ state: new Map<string, unknown>([[STATE_HEADERS_KEY, headers]]) });

describe('fromA2aJsCard / toA2aJsCard', () => {
  it('round-trips a ProtoJSON card through the in-memory shape of the SDK', () => {
    const sdk = toA2aJsCard(card);
    expect(sdk.securitySchemes.apiKey?.scheme?.$case).toBe('apiKeySecurityScheme');
    expect(sdk.securitySchemes.oauth?.scheme).toMatchObject({
      $case: 'oauth2SecurityScheme',
      value: { flows: { flow: { $case: 'clientCredentials' } } },
    });
    // The SDK's encoder leaves default values out: an empty scope list is `{}` (valid ProtoJSON).
    expect(fromA2aJsCard(sdk)).toEqual({ ...card, securityRequirements: [{ schemes: { apiKey: {} } }] });
  });

  it('turns a card the SDK way of writing it into one the middleware serves', () => {
    const sdk = SdkAgentCard.fromJSON(card);
    const responder = createAgentCardResponder({ card: fromA2aJsCard(sdk), ...quiet });
    const response = responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: {} });
    expect(response && 'status' in response ? response.status : undefined).toBe(200);
  });

  it('stops start-up on an SDK-shaped card with a hint that names the converter', () => {
    const sdk = SdkAgentCard.fromJSON(card);
    let error: unknown;
    try {
      createAgentCardResponder({ card: sdk as unknown as AgentCard, ...quiet });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'AgentCardError', code: 'ERR_AGENT_CARD_INVALID' });
    const findings = (error as { findings: { rule: string; path: string; message: string; hint: string }[] }).findings;
    expect(findings[0]).toEqual({
      rule: 'sdk-in-memory-shape',
      severity: 'error',
      path: '/securitySchemes/apiKey/scheme',
      message:
        'securitySchemes.apiKey: is in the in-memory shape of @a2a-js/sdk ({"scheme": {"$case": "apiKeySecurityScheme", "value": …}}), not the JSON of an Agent Card.',
      hint: 'Convert the card first: fromA2aJsCard(card) from @agent-card/a2a-js (it runs AgentCard.toJSON of @a2a-js/sdk).',
    });
    expect((error as Error).message).toContain('fromA2aJsCard(card) from @agent-card/a2a-js');
  });
});

describe('extendedCardProvider', () => {
  const options: AgentCardOptions<{ headers: Record<string, unknown> }> = {
    card,
    ...quiet,
    extended: {
      authenticate: (req) => (req.headers['x-api-key'] === 'k-1' ? { partner: 'acme' } : undefined),
      card: [refund],
    },
  };

  it('returns the extended card, in the SDK shape, to a caller authenticate accepts', async () => {
    const extended = await extendedCardProvider(createAgentCardResponder(options))(contextWith({ 'x-api-key': 'k-1' }));
    expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
    expect(extended.securitySchemes.apiKey?.scheme?.$case).toBe('apiKeySecurityScheme');
  });

  it.each([
    ['no headers', contextWith({})],
    ['a wrong key', contextWith({ 'x-api-key': 'k-1x' })],
    ['a context builder that records no headers', new ServerCallContext()],
  ])('refuses %s with the JSON-RPC unauthenticated error', async (_name, context) => {
    await expect(extendedCardProvider(createAgentCardResponder(options))(context)).rejects.toMatchObject({
      name: 'JsonRpcTransportError',
      envelopeCode: -32000,
      message: 'Authentication is required to read the extended agent card.',
    });
  });

  it('hands authenticate what settings.request builds from the call context', async () => {
    const seen: unknown[] = [];
    const provider = extendedCardProvider<{ tenant: string | undefined }>(
      createAgentCardResponder({
        card,
        ...quiet,
        extended: { authenticate: (req: { tenant: string | undefined }) => (seen.push(req), 'ok'), card: [refund] },
      }),
      { request: (context) => ({ tenant: context.tenant }) },
    );
    await provider(new ServerCallContext({ tenant: 'acme' }));
    expect(seen).toEqual([{ tenant: 'acme' }]);
  });

  it('refuses, without calling authenticate, when the card does not declare the extended card', async () => {
    let calls = 0;
    const provider = extendedCardProvider(
      createAgentCardResponder({
        card: { ...card, capabilities: {} },
        ...quiet,
        extended: { authenticate: () => (calls++, 'ok'), card: [refund] },
      }),
    );
    await expect(provider(contextWith({ 'x-api-key': 'k-1' }))).rejects.toMatchObject({ envelopeCode: -32004 });
    expect(calls).toBe(0);
  });

  it("follows the middleware's update(): JSON-RPC callers get the card the REST route serves", async () => {
    // The middleware the README hands to the provider, which reads its responder.
    const shared: AgentCardOptions<{ headers: Record<string, unknown> }> = { ...options };
    const middleware = agentCard(shared);
    const provider = extendedCardProvider(middleware.responder);
    const audit = { id: 'audit', name: 'Audit', description: 'Audits an order.', tags: ['orders'] };
    middleware.update({ ...card, name: 'Orders Agent v2' }, { extendedCard: [refund, audit] });
    const extended = await provider(contextWith({ 'x-api-key': 'k-1' }));
    expect(extended.name).toBe('Orders Agent v2');
    expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund', 'audit']);
    await expect(provider(contextWith({}))).rejects.toMatchObject({ envelopeCode: -32000 });
  });
});
