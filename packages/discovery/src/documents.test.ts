// `checkDocuments`: every discovery document of a host graded together, against the middleware
// (which serves them consistent by construction) and against hosts that hand-write them.
import { generateKeyPairSync } from 'node:crypto';
import { type AgentCard, createAgentCardFetchHandler } from '@agent-card/core';
import { describe, expect, it } from 'vitest';
import { discoverAgentCard } from './discover';
import { parseLinkHeader } from './documents';
import type { DiscoveryFetch } from './types';

const ORIGIN = 'http://agents.test';

function card(id: string, version = '1.0.0'): AgentCard {
  return {
    name: `Agent ${id}`,
    description: `The ${id} agent.`,
    version,
    supportedInterfaces: [{ url: `${ORIGIN}/agents/${id}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: `${id}-help`, name: 'Help', description: 'Helps.', tags: ['help'], examples: [`ask ${id}`, `help ${id}`] },
    ],
  };
}

/** A host made of the middleware, plus hand-written routes in front of it; records every URL fetched. */
function host(options: Parameters<typeof createAgentCardFetchHandler>[0], routes: Record<string, () => Response> = {}) {
  const handler = createAgentCardFetchHandler({ profile: 'development', logger: { warn: () => {} }, ...options });
  const fetched: string[] = [];
  const fetch: DiscoveryFetch = async (url, init) => {
    fetched.push(url);
    if (new URL(url).origin !== ORIGIN) return new Response('{}', { status: 500 });
    const own = routes[new URL(url).pathname];
    if (own) return own();
    return (await handler(new Request(url, init))) ?? new Response('{"error":"not found"}', { status: 404 });
  };
  return { fetch, fetched };
}

const check = (h: ReturnType<typeof host>) =>
  discoverAgentCard(ORIGIN, { allowHttp: true, profile: 'development', fetch: h.fetch, checkDocuments: true });

const agents = [
  { id: 'billing', path: '/agents/billing', card: card('billing') },
  { id: 'support', path: '/agents/support', card: card('support') },
];

describe('discoverAgentCard with checkDocuments grades the set of discovery documents', () => {
  it('grades A a multi-agent host served by the middleware: every document served, named and agreeing', async () => {
    const report = await check(host({ agents, default: 'support' }));
    const set = report.documents!;
    expect(set.summary).toBe('A: the card, the AI Catalog, ARD and the Link header agree.');
    expect(set.disagreements).toEqual([]);
    expect(set.documents.map((d) => [d.kind, d.served])).toEqual([
      ['card', true],
      ['legacy', true],
      ['ai-catalog', true],
      ['ard', true],
      ['mcp-catalog', false],
      ['jwks', false],
    ]);
    expect(set.links.map((l) => [l.rel, l.served])).toEqual([
      ['ai-catalog', true],
      ['ard', true],
    ]);
    expect(report.ok).toBe(true);
  });

  it('grades C a hand-written ARD manifest left behind a release, naming the version to fix', async () => {
    const stale = {
      entries: agents.map((a) => ({
        identifier: `urn:air:agents.test:agent:${a.id}`,
        displayName: a.card.name,
        type: 'application/a2a-agent-card+json',
        url: `${ORIGIN}${a.path}/.well-known/agent-card.json`,
        version: '0.9.0',
        representativeQueries: ['a', 'b'],
      })),
    };
    const h = host({ agents, default: 'support', ard: false }, { '/.well-known/ard.json': () => Response.json(stale) });
    const set = (await check(h)).documents!;
    expect(set.grade).toBe('C');
    expect(set.summary).toBe(
      `C: the discovery documents disagree (2 differences). ARD gives urn:air:agents.test:agent:billing version "0.9.0"; the card at ${ORIGIN}/agents/billing/.well-known/agent-card.json is "1.0.0". Publish ARD again after every card release (the middleware builds it from the card).`,
    );
  });

  it('grades A a host whose signed AI Catalog (publisher, namespace, digests) and ARD name each agent alike', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const h = host({
      agents,
      default: 'support',
      catalog: { publisher: 'acme.com', namespace: 'support:agent' },
      sign: { privateKey, alg: 'ES256', kid: 'k1' },
    });
    const report = await check(h);
    const catalog = report.catalog!.document as { entries: { identifier: string; digest?: string }[] };
    expect(catalog.entries.map((e) => [e.identifier, e.digest?.slice(0, 7)])).toEqual([
      ['urn:air:acme.com:support:agent:billing', 'sha256:'],
      ['urn:air:acme.com:support:agent:support', 'sha256:'],
    ]);
    expect(report.documents!.disagreements).toEqual([]);
    expect(report.documents!.grade).toBe('A');
  });

  it("keeps the served JWK Set's parsed JSON as its document, for the drift gate to compare", async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const report = await check(host({ agents, default: 'support', sign: { privateKey, alg: 'ES256', kid: 'k1' } }));
    const jwks = report.documents!.documents.find((d) => d.kind === 'jwks')!;
    expect([jwks.served, jwks.valid]).toEqual([true, true]);
    expect(jwks.document).toMatchObject({ keys: [{ kid: 'k1', kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' }] });
    // A key set that is not JSON is not served, and keeps no document.
    const broken = await check(host({ agents }, { '/.well-known/jwks.json': () => new Response('{"keys": [') }));
    const none = broken.documents!.documents.find((d) => d.kind === 'jwks')!;
    expect([none.served, none.document]).toEqual([false, undefined]);
  });

  it("keeps the served MCP catalog's parsed JSON as its document, for the drift gate to compare", async () => {
    const mcp = {
      identifier: 'urn:air:acme.com:mcp:weather',
      type: 'application/mcp-server-card+json',
      url: 'https://mcp.acme.example/server-card',
    };
    const report = await check(
      host({
        agents,
        default: 'support',
        catalog: { publisher: 'acme.com', host: { displayName: 'Acme' }, entries: [mcp] },
      }),
    );
    const served = report.documents!.documents.find((d) => d.kind === 'mcp-catalog')!;
    expect([served.served, served.entries]).toEqual([true, 1]);
    expect(served.document).toEqual({ specVersion: '1.0', host: { displayName: 'Acme' }, entries: [mcp] });
    // An MCP catalog that is not JSON is not served, and keeps no document.
    const broken = await check(
      host({ agents }, { '/.well-known/mcp/catalog.json': () => new Response('{"entries": [') }),
    );
    const none = broken.documents!.documents.find((d) => d.kind === 'mcp-catalog')!;
    expect([none.served, none.document]).toEqual([false, undefined]);
  });

  it('grades C an ARD manifest that names an agent otherwise than the AI Catalog', async () => {
    const renamed = {
      entries: agents.map((a) => ({
        identifier: `urn:air:agents.test:bot:${a.id}`,
        displayName: a.card.name,
        type: 'application/a2a-agent-card+json',
        url: `${ORIGIN}${a.path}/.well-known/agent-card.json`,
        representativeQueries: ['a', 'b'],
      })),
    };
    const h = host(
      { agents, default: 'support', ard: false },
      { '/.well-known/ard.json': () => Response.json(renamed) },
    );
    const set = (await check(h)).documents!;
    expect(set.grade).toBe('C');
    expect(set.disagreements[0]).toEqual({
      about: 'identifier',
      message: `the AI Catalog names the card ${ORIGIN}/agents/billing/.well-known/agent-card.json "urn:air:agents.test:agent:billing"; ARD names it "urn:air:agents.test:bot:billing".`,
      hint: 'Name each agent the same way in every discovery document: serve them from one declaration.',
    });
  });

  it('grades B a single card with no catalog and no ARD, saying what to add', async () => {
    const set = (await check(host({ card: card('solo') }))).documents!;
    expect(set.summary).toBe(
      'B: the card is valid and what is served agrees; add an AI Catalog at /.well-known/ai-catalog.json and an ARD manifest at /.well-known/ard.json so catalogs and search services find the agents (the middleware serves both with agents).',
    );
  });

  it('grades F a host with no valid card', async () => {
    const set = (await check(host({ agents, ard: false, catalog: false }))).documents!;
    expect(set.summary).toBe(
      `F: no valid Agent Card at ${ORIGIN}/.well-known/agent-card.json. Fix the card's findings first; every other discovery document points to it.`,
    );
  });

  it('never fetches a URL a document names on another origin, and flags a Link to a document not served', async () => {
    const elsewhere = {
      entries: [
        {
          identifier: 'urn:air:evil.example:agent:x',
          displayName: 'X',
          type: 'application/a2a-agent-card+json',
          url: 'https://evil.example/.well-known/agent-card.json',
          digest: 'sha256:00',
        },
      ],
    };
    const h = host(
      { card: card('solo') },
      {
        '/.well-known/ard.json': () => Response.json(elsewhere),
        '/.well-known/agent-card.json': () =>
          new Response(JSON.stringify(card('solo')), {
            headers: {
              'content-type': 'application/a2a+json',
              link: '</.well-known/ai-catalog.json>; rel="ai-catalog"',
            },
          }),
      },
    );
    const set = (await check(h)).documents!;
    expect(h.fetched.every((u) => u.startsWith(ORIGIN))).toBe(true);
    expect(set.disagreements.map((d) => d.about)).toContain('link');
    expect(set.grade).toBe('C');
  });

  it('reads a hostile Link header within its bound', () => {
    expect(parseLinkHeader(`<${'a'.repeat(9000)}>; rel="ard"`)).toEqual([]);
    expect(parseLinkHeader('</x>; rel="ard ai-catalog", </y>; title="t"')).toEqual([
      { rel: 'ard', href: '/x' },
      { rel: 'ai-catalog', href: '/x' },
    ]);
  });
});
