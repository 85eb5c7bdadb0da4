import { describe, expect, it } from 'vitest';
import { validateAiCatalog } from '../../catalog/validate';
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import { memoryStore } from '../../store/memory';
import { openCardStore } from '../../store/writer';
import type { AgentCardResponse } from '../kernel/exchange';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions } from '../types';
import { tenantCard } from './test-cards';

const HOST = 'acme.agents.example.com';
const CATALOG = '/.well-known/ai-catalog.json';
const CARD = '/.well-known/agent-card.json';
const NESTED = 'application/ai-catalog+json';

const cardOf = (agent: string): AgentCard => tenantCard('acme', agent, { description: `The ${agent} agent.` });

const options = (driver: ReturnType<typeof memoryStore>, store: Record<string, unknown> = {}): AgentCardOptions => ({
  store: { driver, ...store },
  tenant: { from: 'host', hosts: ['{tenant}.agents.example.com'] },
  profile: 'development',
  logger: { warn: () => {} },
});

const get = (path: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  path,
  headers: { host: HOST, ...headers },
});
const text = (res: AgentCardResponse | undefined) => new TextDecoder().decode(res?.body);
type Doc = { entries: { identifier: string; type: string; url: string; displayName?: string }[] };
const doc = (res: AgentCardResponse | undefined) => JSON.parse(text(res)) as Doc;

/** Writes agents `ids` for tenant acme, in the order given. */
async function written(ids: readonly string[]) {
  const driver = memoryStore();
  const cards = openCardStore(driver, { profile: 'development', logger: { warn: () => {} } });
  for (const id of ids) await cards.put('acme', id, cardOf(id));
  return driver;
}

describe('nested AI Catalogs of a store tenant', () => {
  it('splits 7 agents, 3 to a catalog, into child catalogs sorted by id, the same bytes on two replicas', async () => {
    const ids = ['g', 'c', 'a', 'f', 'e', 'b', 'd'];
    const driver = await written(ids);
    const one = createAgentCardResponder(options(driver, { maxCatalogEntries: 3 }));
    const two = createAgentCardResponder(options(driver, { maxCatalogEntries: 3 }));
    const root = await one.respond(get(CATALOG));
    expect(root?.status).toBe(200);
    expect(root?.headers['content-type']).toContain(NESTED);
    expect(doc(root).entries.map((e) => [e.identifier, e.type, e.url, e.displayName])).toEqual([
      [
        'urn:air:acme.agents.example.com:agent:ai-catalog:1',
        NESTED,
        `https://${HOST}/.well-known/ai-catalog/1.json`,
        'Agents a to c',
      ],
      [
        'urn:air:acme.agents.example.com:agent:ai-catalog:2',
        NESTED,
        `https://${HOST}/.well-known/ai-catalog/2.json`,
        'Agents d to f',
      ],
      [
        'urn:air:acme.agents.example.com:agent:ai-catalog:3',
        NESTED,
        `https://${HOST}/.well-known/ai-catalog/3.json`,
        'Agents g to g',
      ],
    ]);
    const listed: string[] = [];
    for (const n of [1, 2, 3]) {
      const a = await one.respond(get(`/.well-known/ai-catalog/${n}.json`));
      const b = await two.respond(get(`/.well-known/ai-catalog/${n}.json`));
      expect(a?.status).toBe(200);
      expect(text(a)).toBe(text(b));
      expect(a?.headers.etag).toBe(b?.headers.etag);
      expect(a?.headers['access-control-allow-origin']).toBe('*');
      expect(a?.headers['cache-control']).toBeDefined();
      const again = await two.respond(get(`/.well-known/ai-catalog/${n}.json`, { 'if-none-match': a!.headers.etag! }));
      expect(again?.status).toBe(304);
      listed.push(...doc(a).entries.map((e) => e.url));
    }
    expect(listed).toEqual([...ids].sort().map((id) => `https://${HOST}/agents/${id}${CARD}`));
    expect(text(root)).toBe(text(await two.respond(get(CATALOG))));
    // The root and each child are valid catalogs of the current draft.
    for (const path of [CATALOG, '/.well-known/ai-catalog/1.json', '/.well-known/ai-catalog/3.json'])
      expect(
        validateAiCatalog(doc(await one.respond(get(path)))).findings.filter((f) => f.severity === 'error'),
        path,
      ).toEqual([]);
    expect(await one.respond(get('/.well-known/ai-catalog/4.json'))).toBeUndefined();
  });

  it('lists every agent in the root while they fit, and by default up to 100', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `agent-${String(i).padStart(3, '0')}`);
    const responder = createAgentCardResponder(options(await written(ids)));
    const root = doc(await responder.respond(get(CATALOG)));
    expect(root.entries).toHaveLength(100);
    expect(root.entries.every((e) => e.type !== NESTED)).toBe(true);
    const more = createAgentCardResponder(options(await written([...ids, 'agent-100'])));
    const nested = doc(await more.respond(get(CATALOG)));
    expect(nested.entries.map((e) => e.url)).toEqual([
      `https://${HOST}/.well-known/ai-catalog/1.json`,
      `https://${HOST}/.well-known/ai-catalog/2.json`,
    ]);
    expect(doc(await more.respond(get('/.well-known/ai-catalog/2.json'))).entries.map((e) => e.url)).toEqual([
      `https://${HOST}/agents/agent-100${CARD}`,
    ]);
  });

  it('nests no deeper than 4 levels, each catalog listing at most the limit above the deepest', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `a${String(i).padStart(2, '0')}`);
    const responder = createAgentCardResponder(options(await written(ids), { maxCatalogEntries: 2 }));
    const seen: string[] = [];
    const walk = async (path: string, depth: number): Promise<void> => {
      const d = doc(await responder.respond(get(path)));
      expect(depth).toBeLessThanOrEqual(4);
      if (depth < 4) expect(d.entries.length).toBeLessThanOrEqual(2);
      for (const e of d.entries)
        if (e.type === NESTED) await walk(new URL(e.url).pathname, depth + 1);
        else seen.push(new URL(e.url).pathname);
    };
    await walk(CATALOG, 1);
    expect(seen).toEqual(ids.map((id) => `/agents/${id}${CARD}`));
    expect((await responder.respond(get('/.well-known/ai-catalog/1/1/1.json')))?.status).toBe(200);
  });

  it('refuses a limit under 2 at start-up, for the store and for the catalog option', () => {
    const driver = memoryStore();
    expect(() => createAgentCardResponder(options(driver, { maxCatalogEntries: 1 }))).toThrow(
      /store\.maxCatalogEntries: must be a whole number, at least 2/,
    );
    expect(() =>
      createAgentCardResponder({
        agents: [{ id: 'a', path: '/agents/a', card: cardOf('a') }],
        catalog: { maxEntries: 0 },
        profile: 'development',
        logger: { warn: () => {} },
      }),
    ).toThrow(AgentCardError);
  });

  it('splits a plain multi-agent host with catalog.maxEntries the same way', () => {
    const responder = createAgentCardResponder({
      agents: ['c', 'a', 'b'].map((id) => ({ id, path: `/agents/${id}`, card: cardOf(id) })),
      catalog: { maxEntries: 2, publisher: 'acme.com' },
      profile: 'development',
      logger: { warn: () => {} },
    });
    const root = doc(responder.respond({ method: 'GET', path: CATALOG, headers: {} }) as AgentCardResponse);
    expect(root.entries.map((e) => e.identifier)).toEqual([
      'urn:air:acme.com:agent:ai-catalog:1',
      'urn:air:acme.com:agent:ai-catalog:2',
    ]);
    const first = doc(
      responder.respond({ method: 'GET', path: '/.well-known/ai-catalog/1.json', headers: {} }) as AgentCardResponse,
    );
    expect(first.entries.map((e) => e.identifier)).toEqual(['urn:air:acme.com:agent:a', 'urn:air:acme.com:agent:b']);
  });
});
