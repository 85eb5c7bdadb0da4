import { describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../../model';
import { memoryStore } from '../../store/memory';
import { openCardStore } from '../../store/writer';
import type { AgentCardResponse } from '../kernel/exchange';
import { agentCardStore } from '../index';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions } from '../types';
import { tenantCard } from './test-cards';

const CARD = '/.well-known/agent-card.json';
const quiet = { warn: () => {} };

const cardOf = (tenant: string, agent: string): AgentCard => tenantCard(tenant, agent);

const options = (driver: ReturnType<typeof memoryStore>, registry: unknown = true): AgentCardOptions => ({
  store: { driver, registry } as AgentCardOptions['store'],
  tenant: { from: 'host', hosts: ['{tenant}.agents.example.com'] },
  profile: 'development',
  logger: quiet,
});
const get = (tenant: string, path: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  path,
  headers: { host: `${tenant}.agents.example.com`, ...headers },
});
const text = (res: AgentCardResponse | undefined) => new TextDecoder().decode(res?.body);
type Page = { items: { identifier: string; url: string; displayName: string }[]; total: number; pageToken?: string };

async function written(tenants: Record<string, readonly string[]>) {
  const driver = memoryStore();
  const cards = openCardStore(driver, { profile: 'development', logger: quiet });
  for (const [tenant, ids] of Object.entries(tenants))
    for (const id of ids) await cards.put(tenant, id, cardOf(tenant, id));
  return driver;
}

describe('the ARD registry read API of a store tenant', () => {
  it('pages through the agents by id with opaque tokens, the same bytes on two replicas', async () => {
    const ids = ['e', 'b', 'a', 'd', 'c'];
    const driver = await written({ acme: ids });
    const one = createAgentCardResponder(options(driver));
    const two = createAgentCardResponder(options(driver));
    const seen: string[] = [];
    let path: string | undefined = '/ard/agents?pageSize=2';
    let pages = 0;
    while (path !== undefined) {
      const a = await one.respond(get('acme', path));
      const b = await two.respond(get('acme', path));
      expect(a?.status).toBe(200);
      expect(a?.headers['content-type']).toContain('application/json');
      expect(a?.headers['cache-control']).toBe('public, max-age=3600');
      expect(a?.headers['access-control-allow-origin']).toBe('*');
      expect(text(a)).toBe(text(b));
      expect(a?.headers.etag).toBe(b?.headers.etag);
      const page = JSON.parse(text(a)) as Page;
      expect(page.total).toBe(5);
      seen.push(...page.items.map((i) => i.identifier));
      path = page.pageToken === undefined ? undefined : `/ard/agents?pageSize=2&pageToken=${page.pageToken}`;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort().map((id) => `urn:air:acme.agents.example.com:agent:${id}`));
    // The entries are the ARD manifest's.
    const manifest = JSON.parse(text(await one.respond(get('acme', '/.well-known/ard.json')))) as Page & {
      entries: Page['items'];
    };
    const all = JSON.parse(text(await one.respond(get('acme', '/ard/agents')))) as Page;
    expect(all.items).toEqual([...manifest.entries].sort((x, y) => (x.identifier < y.identifier ? -1 : 1)));
    expect(all.pageToken).toBeUndefined();
  });

  it('answers one agent by identifier with ETag, Cache-Control and 304, and 404 in the draft error shape', async () => {
    const responder = createAgentCardResponder(options(await written({ acme: ['billing'] })));
    const path = `/ard/agents/${encodeURIComponent('urn:air:acme.agents.example.com:agent:billing')}`;
    const res = await responder.respond(get('acme', path));
    expect(res?.status).toBe(200);
    expect(JSON.parse(text(res)).url).toBe(`https://acme.agents.example.com/agents/billing${CARD}`);
    expect(res?.headers['cache-control']).toBe('public, max-age=3600');
    expect((await responder.respond(get('acme', path, { 'if-none-match': res!.headers.etag! })))?.status).toBe(304);
    const missing = await responder.respond(get('acme', '/ard/agents/urn%3Aair%3Aother.com%3Aagent%3Ax'));
    expect(missing?.status).toBe(404);
    expect(JSON.parse(text(missing))).toEqual({ errorCode: 'NOT_FOUND', message: 'No agent with this identifier.' });
    expect((await responder.respond(get('acme', '/ard/agents/%E0%A4%A')))?.status).toBe(404);
  });

  it("refuses another tenant's token, a forged or stale one, and a page size out of bounds, with 400 INVALID_ARGUMENT", async () => {
    const driver = await written({ acme: ['a', 'b', 'c'], other: ['x', 'y', 'z'] });
    const responder = createAgentCardResponder(options(driver));
    const theirs = JSON.parse(text(await responder.respond(get('other', '/ard/agents?pageSize=1')))) as Page;
    expect(theirs.pageToken).toBeDefined();
    const ours = JSON.parse(text(await responder.respond(get('acme', '/ard/agents?pageSize=1')))) as Page;
    expect(ours.pageToken).not.toBe(theirs.pageToken);
    for (const q of [
      `pageToken=${theirs.pageToken}`,
      'pageToken=00000000a',
      `pageToken=${'x'.repeat(5000)}`,
      'pageToken=%00%1b[31m',
      'pageSize=0',
      'pageSize=101',
      'pageSize=1e2',
      'pageSize=-1',
      "filter=type%20%3D%20'x'",
    ]) {
      const res = await responder.respond(get('acme', `/ard/agents?${q}`));
      expect(res?.status, q).toBe(400);
      expect(JSON.parse(text(res)).errorCode).toBe('INVALID_ARGUMENT');
    }
    const post = await responder.respond({ ...get('acme', '/ard/agents'), method: 'POST' });
    expect(post?.status).toBe(405);
  });

  it('seals page tokens to the listing: every page walked once; a forged, cut, foreign, search or stale token → 400', async () => {
    const driver = await written({ acme: ['a', 'b', 'c', 'd', 'e'], other: ['a', 'b', 'c', 'd', 'e'] });
    const responder = createAgentCardResponder(options(driver));
    const page = async (tenant: string, query: string) => {
      const res = await responder.respond(get(tenant, `/ard/agents?${query}`));
      return { status: res?.status, body: JSON.parse(text(res)) as Page };
    };
    const walk = async (tenant: string, size: number) => {
      const tokens: string[] = [];
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const { status, body } = await page(
          tenant,
          `pageSize=${size}${token === undefined ? '' : `&pageToken=${token}`}`,
        );
        expect(status).toBe(200);
        seen.push(...body.items.map((i) => i.identifier));
        token = body.pageToken;
        if (token !== undefined) tokens.push(token);
      } while (token !== undefined && tokens.length < 100);
      return { tokens, seen };
    };
    const ours = await walk('acme', 2);
    expect(ours.tokens).toHaveLength(2);
    expect(ours.seen).toEqual(['a', 'b', 'c', 'd', 'e'].map((id) => `urn:air:acme.agents.example.com:agent:${id}`));
    // The same ids under another tenant: another listing, other tokens.
    const theirs = await walk('other', 2);
    expect(theirs.tokens.filter((t) => ours.tokens.includes(t))).toEqual([]);
    const search = await responder.respond({
      method: 'POST',
      path: '/ard/search',
      headers: { host: 'acme.agents.example.com', 'content-type': 'application/json' },
      readBody: async () => ({ kind: 'bytes', bytes: '{"query":{"text":"agent"},"pageSize":2}' }),
    });
    const searchToken = (JSON.parse(text(search)) as { pageToken: string }).pageToken;
    expect(searchToken).toMatch(/^2\./);
    const [offset, seal] = ours.tokens[0]!.split('.') as [string, string];
    const flipped = `${seal.slice(0, -1)}${seal.endsWith('A') ? 'B' : 'A'}`;
    const refused = {
      errorCode: 'INVALID_ARGUMENT',
      message: 'pageToken is not one this registry gave, or the listing changed since. Start again without pageToken.',
    };
    const attacks: [string, string][] = [
      ["another tenant's token", theirs.tokens[0]!],
      ['a search token', searchToken],
      ['a made-up token', `2.${'A'.repeat(16)}`],
      ['another offset under the same seal', `4.${seal}`],
      ['an altered seal', `${offset}.${flipped}`],
      ['a cut token', ours.tokens[0]!.slice(0, -1)],
      ['a token with a leading zero', `0${ours.tokens[0]}`],
      ['the offset alone', offset],
      ['an offset past the end', `z.${seal}`],
    ];
    for (const [why, token] of attacks) {
      const res = await responder.respond(get('acme', `/ard/agents?pageSize=2&pageToken=${encodeURIComponent(token)}`));
      expect(res?.status, why).toBe(400);
      expect(res?.headers['content-type'], why).toContain('application/json');
      expect(JSON.parse(text(res)), why).toEqual(refused);
    }
    // A change to the tenant's listing: the tokens given before are refused, a new walk sees it.
    await agentCardStore(responder).put('acme', 'f', cardOf('acme', 'f'));
    await vi.waitFor(async () => expect((await page('acme', '')).body.total).toBe(6));
    for (const token of ours.tokens) {
      const stale = await page('acme', `pageSize=2&pageToken=${token}`);
      expect(stale.status, token).toBe(400);
      expect(stale.body, token).toEqual(refused);
    }
    const after = await walk('acme', 2);
    expect(after.seen).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => `urn:air:acme.agents.example.com:agent:${id}`),
    );
    // The other tenant's listing did not change: its tokens still hold.
    expect((await page('other', `pageSize=2&pageToken=${theirs.tokens[0]}`)).status).toBe(200);
  });

  it('is off by default, and its base path is checked at start-up', async () => {
    const driver = await written({ acme: ['a'] });
    const off = createAgentCardResponder({ ...options(driver), store: { driver } });
    expect(await off.respond(get('acme', '/ard/agents'))).toBeUndefined();
    const moved = createAgentCardResponder(options(driver, { basePath: '/registry/v1' }));
    expect((await moved.respond(get('acme', '/registry/v1/agents')))?.status).toBe(200);
    expect(await moved.respond(get('acme', '/ard/agents'))).toBeUndefined();
    expect(() => createAgentCardResponder(options(driver, { basePath: 'ard/' }))).toThrow(
      /store\.registry\.basePath: must be a path/,
    );
  });

  it('serves each tenant its own listing under its path with path tenancy, card URLs under the tenant', async () => {
    const driver = memoryStore();
    const cards = openCardStore(driver, {
      profile: 'development',
      logger: quiet,
      tenant: { from: 'path', prefix: '/t' },
    } as never);
    const card = (tenant: string, agent: string) => ({
      ...cardOf(tenant, agent),
      supportedInterfaces: [
        {
          url: `https://api.example.com/t/${tenant}/agents/${agent}/a2a`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        },
      ],
    });
    await cards.put('acme', 'a', card('acme', 'a') as AgentCard);
    await cards.put('beta', 'b', card('beta', 'b') as AgentCard);
    const responder = createAgentCardResponder({
      store: { driver, registry: true },
      tenant: { from: 'path', prefix: '/t' },
      profile: 'development',
      logger: quiet,
    });
    const list = async (tenant: string) =>
      JSON.parse(
        text(await responder.respond({ method: 'GET', path: `/t/${tenant}/ard/agents`, headers: {} })),
      ) as Page;
    expect((await list('acme')).items.map((i) => i.url)).toEqual([`https://api.example.com/t/acme/agents/a${CARD}`]);
    expect((await list('beta')).items.map((i) => i.url)).toEqual([`https://api.example.com/t/beta/agents/b${CARD}`]);
  });
});
