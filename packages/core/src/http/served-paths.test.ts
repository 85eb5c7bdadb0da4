// servedPathsOf: the list `agent-card build` asks the responder for, path by path.
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { createAgentCardResponder, servedPathsOf } from './public';
import { CONFORMANCE_CARD } from '../testing/cards';

const card = { ...CONFORMANCE_CARD, capabilities: {} };
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** The same card under another endpoint: agents may not share one. */
const under = (path: string, name: string) => ({
  ...card,
  name,
  supportedInterfaces: card.supportedInterfaces.map((i) => ({ ...i, url: i.url.replace('/a2a', `${path}/a2a`) })),
});
const sign = { privateKey, alg: 'ES256' as const, kid: 'k1' };

describe('servedPathsOf', () => {
  it.each([
    ['one card', { card }, ['/.well-known/agent-card.json', '/.well-known/agent.json']],
    ['legacy: false', { card, legacy: false }, ['/.well-known/agent-card.json']],
    ['sign', { card, sign }, ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/jwks.json']],
    [
      'viewer',
      { card, viewer: true },
      ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/agent-card.html'],
    ],
    [
      'agents, a default and the catalog',
      {
        agents: [
          { id: 'billing', path: '/agents/billing', card: under('/agents/billing', 'Billing') },
          { id: 'support', path: '/agents/support', card: under('/agents/support', 'Support'), legacy: false },
        ],
        default: 'billing',
        sign,
      },
      [
        '/agents/billing/.well-known/agent-card.json',
        '/agents/billing/.well-known/agent.json',
        '/agents/billing/.well-known/jwks.json',
        '/agents/support/.well-known/agent-card.json',
        '/agents/support/.well-known/jwks.json',
        '/.well-known/agent-card.json',
        '/.well-known/agent.json',
        '/.well-known/jwks.json',
        '/.well-known/ai-catalog.json',
        '/.well-known/ard.json',
      ],
    ],
    [
      'agents with an MCP entry in the catalog, and the ARD manifest of one card',
      {
        agents: [{ id: 'billing', path: '/agents/billing', card: under('/agents/billing', 'Billing') }],
        catalog: {
          publisher: 'acme.com',
          host: { displayName: 'Acme' },
          entries: [
            {
              identifier: 'urn:air:acme.com:mcp:weather',
              type: 'application/mcp-server-card+json',
              url: 'https://mcp.acme.example/server-card',
            },
          ],
        },
        legacy: false,
      },
      [
        '/agents/billing/.well-known/agent-card.json',
        '/.well-known/ai-catalog.json',
        '/.well-known/mcp/catalog.json',
        '/.well-known/ard.json',
      ],
    ],
    [
      'ard on one card',
      { card, ard: true },
      ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/ard.json'],
    ],
  ] as const)('%s: every path it lists, and each answers GET with 200', (_name, options, expected) => {
    const responder = createAgentCardResponder(options as never);
    const paths = servedPathsOf(responder);
    expect(paths).toEqual(expected);
    for (const path of paths)
      expect(responder.respond({ method: 'GET', path, headers: {} })).toMatchObject({ status: 200 });
  });

  it('refuses a card function, whose documents depend on the request', () => {
    const responder = createAgentCardResponder({
      card: () => card,
      dynamic: { allowedOrigins: ['https://a.example'] },
    });
    expect(() => servedPathsOf(responder)).toThrow(
      'servedPathsOf: the responder serves a card function, whose documents depend on the request (dynamic). Give a card (an object) to list the paths it serves.',
    );
  });
});
