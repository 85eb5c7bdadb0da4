import { describe, expect, it } from 'vitest';
import { validateArdManifest } from '../../ard/validate';
import type { AgentCard } from '../../model';
import { conformanceAgentCard } from '../../testing/cards';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions, AgentCardResponder, AgentCardResponse } from '../types';

const quiet = { warn: () => {} };
const decoder = new TextDecoder();
const json = (res: AgentCardResponse | undefined) => JSON.parse(decoder.decode(res!.body!));
const withExamples = (card: AgentCard, examples: string[]): AgentCard => ({
  ...card,
  skills: card.skills.map((s, i) => (i === 0 ? { ...s, examples } : s)),
});
const billing = withExamples(conformanceAgentCard('billing'), ['refund my order', 'why was I charged twice']);
const support = withExamples(conformanceAgentCard('support'), [
  'reset my password',
  'talk to a human',
  'open a ticket',
]);

function host(extra: Partial<AgentCardOptions> = {}): AgentCardResponder {
  return createAgentCardResponder({
    logger: quiet,
    agents: [
      { id: 'billing', path: '/agents/billing', card: billing },
      { id: 'support', path: '/agents/support', card: support },
    ],
    ...extra,
  });
}

const get = async (r: AgentCardResponder, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  r.respond({ method, path, headers, raw: undefined });

describe('the ARD manifest at /.well-known/ard.json', () => {
  it('lists every agent of a multi-agent host as a JSON-LD entry that validates', async () => {
    const res = await get(host(), '/.well-known/ard.json');
    expect(res?.status).toBe(200);
    expect(res?.headers['content-type']).toBe('application/json');
    const doc = json(res);
    expect(doc.entries).toEqual([
      {
        '@context': 'https://agenticresourcediscovery.org/context/v1',
        identifier: 'urn:air:agent.conformance.dev:agent:billing',
        displayName: billing.name,
        type: 'application/a2a-agent-card+json',
        url: 'https://agent.conformance.dev/agents/billing/.well-known/agent-card.json',
        description: billing.description,
        version: billing.version,
        representativeQueries: ['refund my order', 'why was I charged twice'],
        capabilities: billing.skills.map((s) => s.id),
      },
      expect.objectContaining({
        identifier: 'urn:air:agent.conformance.dev:agent:support',
        representativeQueries: ['reset my password', 'talk to a human', 'open a ticket'],
      }),
    ]);
    expect(validateArdManifest(doc, { profile: 'strict' })).toEqual({ valid: true, findings: [] });
  });

  it.each([
    ['no catalog options', {}],
    ['catalog.publisher and catalog.namespace', { catalog: { publisher: 'acme.com', namespace: 'finance:agent' } }],
    ['a catalogEntry identifier', { catalog: { publisher: 'acme.com' } }],
  ] as const)('names each agent as the AI Catalog of the host does (%s)', async (name, extra) => {
    const options: Partial<AgentCardOptions> =
      name === 'a catalogEntry identifier'
        ? {
            ...extra,
            agents: [
              {
                id: 'billing',
                path: '/agents/billing',
                card: billing,
                catalogEntry: { identifier: 'urn:air:acme.com:billing:main' },
              },
              { id: 'support', path: '/agents/support', card: support },
            ],
          }
        : extra;
    const r = host(options);
    const identifiers = async (path: string) =>
      Object.fromEntries(
        json(await get(r, path)).entries.map((e: { url: string; identifier: string }) => [e.url, e.identifier]),
      );
    const catalog = await identifiers('/.well-known/ai-catalog.json');
    expect(Object.keys(catalog)).toHaveLength(2);
    expect(await identifiers('/.well-known/ard.json')).toEqual(catalog);
  });

  it('answers like a card: ETag, 304, HEAD, 405, the same object until a card changes', async () => {
    const r = host();
    const first = await get(r, '/.well-known/ard.json');
    expect(await get(r, '/.well-known/ard.json')).toBe(first);
    const etag = first!.headers.etag!;
    expect((await get(r, '/.well-known/ard.json', { 'if-none-match': etag }))?.status).toBe(304);
    expect((await get(r, '/.well-known/ard.json', {}, 'HEAD'))?.body).toBeUndefined();
    expect((await get(r, '/.well-known/ard.json', {}, 'POST'))?.status).toBe(405);
    expect((await get(r, '/.well-known/ard.json?x=1'))?.headers.etag).toBe(etag);
  });

  it('follows an agent update: the manifest lists the new card', async () => {
    const { agentResponderOf } = await import('../multi-agent');
    const r = host();
    const before = (await get(r, '/.well-known/ard.json'))!.headers.etag;
    agentResponderOf(r, 'billing')!.update({ ...billing, version: '2.0.0' });
    const after = await get(r, '/.well-known/ard.json');
    expect(after!.headers.etag).not.toBe(before);
    expect(json(after).entries[0].version).toBe('2.0.0');
  });

  it('carries the catalog declared entries ARD can hold, and leaves out the others with a warning', async () => {
    const warnings: string[] = [];
    const r = host({
      logger: { warn: (m: string) => warnings.push(m) },
      catalog: {
        entries: [
          {
            identifier: 'urn:air:example.com:mcp:weather',
            displayName: 'Weather',
            type: 'application/mcp-server-card+json',
            url: 'https://example.com/mcp/weather.json',
          },
          {
            identifier: 'urn:example:other',
            displayName: 'Other',
            type: 'application/a2a-agent-card+json',
            url: 'https://other.example/.well-known/agent-card.json',
          },
        ],
      },
    });
    const entries = json(await get(r, '/.well-known/ard.json')).entries;
    expect(entries.map((e: { identifier: string }) => e.identifier)).toEqual([
      'urn:air:agent.conformance.dev:agent:billing',
      'urn:air:agent.conformance.dev:agent:support',
      'urn:air:example.com:mcp:weather',
    ]);
    expect(warnings).toContain(
      "options.catalog.entries[1]: not listed in /.well-known/ard.json: its identifier is not a urn:air:<publisher>:<namespace>:<name> URN (urn:example:other). Set its identifier to one, e.g. identifier: 'urn:air:acme.com:mcp:invoices'.",
    );
  });

  it('says which member to set, with a value, for an entry with no displayName', async () => {
    const warnings: string[] = [];
    host({
      logger: { warn: (m: string) => warnings.push(m) },
      catalog: {
        entries: [
          {
            identifier: 'urn:air:acme-corp.example:mcp:invoice-search',
            type: 'application/mcp-server-card+json',
            url: 'https://mcp.acme-corp.example/server-card',
          },
        ],
      },
    });
    expect(warnings.filter((w) => w.includes('ard.json'))).toEqual([
      'options.catalog.entries[0]: not listed in /.well-known/ard.json: it has no displayName, which ARD requires. Set its displayName to the name people see, e.g. displayName: "Invoice search".',
    ]);
  });

  it('is named by a Link header on every card answer, next to the catalog', async () => {
    const r = host();
    const res = await get(r, '/agents/billing/.well-known/agent-card.json');
    expect(res?.headers.link).toBe(
      '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    const noCatalog = await get(host({ catalog: false }), '/agents/billing/.well-known/agent-card.json');
    expect(noCatalog?.headers.link).toBe('</.well-known/ard.json>; rel="ard"');
  });

  it('is switched off with ard: false (the route passes through, no Link names it)', async () => {
    const r = host({ ard: false });
    expect(await get(r, '/.well-known/ard.json')).toBeUndefined();
    expect((await get(r, '/agents/billing/.well-known/agent-card.json'))?.headers.link).toBe(
      '</.well-known/ai-catalog.json>; rel="ai-catalog"',
    );
  });

  it('refuses an ard option that is not a boolean at start-up', () => {
    expect(() => host({ ard: 'yes' as never })).toThrow(
      'options.ard: must be true or false ("yes"). Use ard: false to serve no /.well-known/ard.json, or ard: true to serve it.',
    );
  });

  it('serves a single card with ard: true, and warns when its skills give fewer than two queries', async () => {
    const warnings: string[] = [];
    const card = conformanceAgentCard('solo');
    const r = createAgentCardResponder({ card, ard: true, logger: { warn: (m: string) => warnings.push(m) } });
    const doc = json(await get(r, '/.well-known/ard.json'));
    expect(doc.entries[0].identifier).toBe(
      `urn:air:agent.conformance.dev:agent:${card.name.toLowerCase().replace(/ /g, '-')}`,
    );
    expect((await get(r, '/.well-known/agent-card.json'))?.headers.link).toBe('</.well-known/ard.json>; rel="ard"');
    expect(warnings).toContain(
      "agent card: its ARD entry has 0 representative queries; search services index these. Add examples to the card's skills (2 to 5 in all).",
    );
    expect(await get(createAgentCardResponder({ card, logger: quiet }), '/.well-known/ard.json')).toBeUndefined();
  });
});
