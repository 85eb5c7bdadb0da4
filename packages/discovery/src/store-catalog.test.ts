// A store-backed host whose tenant outgrew one catalog document: discovery reads the root and
// the nested catalogs it lists, one level deep, and every agent's card through them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '@agent-card/core';
import { createAgentCardNodeHandler, createAgentCardResponder } from '@agent-card/core/http';
import { memoryStore, openCardStore } from '@agent-card/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverAgentCard } from './discover';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function cardOf(origin: string, agent: string): AgentCard {
  return {
    name: `acme ${agent}`,
    description: `The ${agent} agent.`,
    supportedInterfaces: [{ url: `${origin}/agents/${agent}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers questions.', tags: ['qa'] }],
  } as AgentCard;
}

/** Serves tenant acme of a memory store, with agents `ids` and `maxCatalogEntries: 2`, over HTTP. */
async function tenantHost(ids: readonly string[]) {
  const seen: string[] = [];
  let handler: ReturnType<typeof createAgentCardNodeHandler> | undefined;
  const server = createServer((req, res) => {
    seen.push(req.url ?? '/');
    handler!(req, res, () => res.writeHead(404).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const driver = memoryStore();
  const quiet = { warn: () => {} };
  const cards = openCardStore(driver, { profile: 'development', logger: quiet });
  for (const id of ids) await cards.put('acme', id, cardOf(origin, id));
  const responder = createAgentCardResponder({
    store: { driver, maxCatalogEntries: 2 },
    tenant: { from: () => 'acme', vary: ['X-Tenant'] },
    default: 'a',
    profile: 'development',
    logger: quiet,
  });
  handler = createAgentCardNodeHandler(responder as never);
  const report = await discoverAgentCard(origin, { allowHttp: true, profile: 'development', timeoutMs: 5_000 });
  return { origin, seen, report };
}

describe('discovery of a store tenant with nested catalogs', () => {
  it('follows the child catalogs the root lists and checks every agent listed in them', async () => {
    const ids = ['d', 'a', 'c', 'b'];
    const { origin, seen, report } = await tenantHost(ids);
    const nested = ['1', '2'].map((n) => `${origin}/.well-known/ai-catalog/${n}.json`);
    expect(report.catalog?.nested?.map((c) => [c.url, c.found])).toEqual(nested.map((u) => [u, true]));
    expect(report.agents?.map((a) => [a.catalogUrl, a.url, a.ok])).toEqual(
      [...ids]
        .sort()
        .map((id, i) => [nested[Math.floor(i / 2)], `${origin}/agents/${id}/.well-known/agent-card.json`, true]),
    );
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // Each child catalog is read once.
    for (const u of nested) expect(seen.filter((s) => origin + s === u)).toHaveLength(1);
  });

  it('reads one level of nesting and names the deeper catalogs it leaves unread', async () => {
    // Five agents, two to a catalog: the root lists 1.json (a to d, itself nested) and 2.json (e).
    const { origin, seen, report } = await tenantHost(['e', 'a', 'c', 'b', 'd']);
    expect(report.catalog?.nested?.map((c) => c.url)).toEqual([
      `${origin}/.well-known/ai-catalog/1.json`,
      `${origin}/.well-known/ai-catalog/2.json`,
    ]);
    expect(report.agents?.map((a) => [a.url, a.ok])).toEqual([
      [`${origin}/agents/e/.well-known/agent-card.json`, true],
    ]);
    expect(report.findings.find((f) => f.rule === 'discovery-catalog-nested')?.message).toBe(
      `${origin}/.well-known/ai-catalog/1.json: 2 nested catalogs not read: catalogs referenced by URL are followed one level deep.`,
    );
    expect(seen).not.toContain('/.well-known/ai-catalog/1/1.json');
  });
});
