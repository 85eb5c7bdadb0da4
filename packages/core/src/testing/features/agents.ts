import { expect } from 'vitest';
import { computeEtag } from '../../http/kernel/etag';
import { conformanceAgentCard, EXTENDED_ONLY_SKILL } from '../cards';
import { readRequestHeader } from '../request-header';
import { type ConformanceCase, type ConformanceFeature, type ConformanceGroup, check } from '../runner';

const AGENT_IDS = ['billing', 'support'] as const;
const CATALOG_PATH = '/.well-known/ai-catalog.json';
/** Every card answer names the discovery documents the host serves: the AI Catalog and ARD. */
const CATALOG_LINK = `<${CATALOG_PATH}>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"`;
const encoder = new TextEncoder();

/** One agent's card with the single-card behaviour, and its extended card behind its own token. */
function agentCases(id: string): ConformanceGroup {
  const path = `/agents/${id}/.well-known/agent-card.json`;
  const bytes = encoder.encode(JSON.stringify(conformanceAgentCard(id)));
  const etag = computeEtag(bytes);
  return {
    group: `agent ${id}`,
    cases: [
      check('GET → 200, its exact bytes, the card headers and the catalog Link', async (t) => {
        const res = await t.get('agents', path);
        expect(res.status).toBe(200);
        expect(res.text).toBe(new TextDecoder().decode(bytes));
        expect(res.headers).toMatchObject({
          'content-type': 'application/a2a+json',
          etag,
          'cache-control': 'public, max-age=3600',
          'access-control-allow-origin': '*',
          'x-content-type-options': 'nosniff',
          link: CATALOG_LINK,
        });
      }),
      check('HEAD → 200 without body; If-None-Match → 304 with the Link; OPTIONS → 204; POST → 405', async (t) => {
        const head = await t.get('agents', path, { method: 'HEAD' });
        expect([head.status, head.body.byteLength, head.headers.etag]).toEqual([200, 0, etag]);
        const notModified = await t.get('agents', `${path}?x=1`, { headers: { 'if-none-match': etag } });
        expect([notModified.status, notModified.headers.link]).toEqual([304, CATALOG_LINK]);
        expect((await t.get('agents', path, { method: 'OPTIONS' })).status).toBe(204);
        const post = await t.get('agents', path, { method: 'POST', body: '{}' });
        expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
      }),
      check("its extended card answers its own token only, and never another agent's skills", async (t) => {
        const extended = `/agents/${id}/a2a/rest/extendedAgentCard`;
        const own = await t.get('agents', extended, { headers: { authorization: `Bearer ${id}-token` } });
        expect(own.status).toBe(200);
        const skills = JSON.parse(own.text).skills.map((s: { id: string }) => s.id);
        expect(skills).toEqual([`${id}-answer`, `${id}-private`]);
        for (const other of AGENT_IDS.filter((o) => o !== id)) {
          const crossed = await t.get('agents', extended, { headers: { authorization: `Bearer ${other}-token` } });
          expect(crossed.status).toBe(401);
          expect(crossed.text).not.toContain('-private');
        }
      }),
    ],
  };
}

const fallsThrough: ConformanceCase[] = [
  '/api/ping',
  '/agents/nobody/.well-known/agent-card.json',
  '/agents/billing/.well-known/other',
].map((path) =>
  check(`${path} falls through to the app`, async (t) => {
    const res = await t.get('agents', path);
    expect(res.status === 200 ? res.text : res.status).toBe(path === '/api/ping' ? 'pong' : 404);
  }),
);

/**
 * Several agents on one host: every agent's card with the single-card behaviour, the default
 * agent at the root, the AI Catalog, the viewer pages, and extended cards that never cross agents.
 */
export const severalAgents: ConformanceFeature = {
  fixtures: {
    // Each agent accepts its own token only and adds its own private skill.
    agents: () => ({
      agents: AGENT_IDS.map((id) => ({
        id,
        path: `/agents/${id}`,
        card: conformanceAgentCard(id),
        extended: {
          authenticate: (raw: unknown) =>
            readRequestHeader(raw, 'authorization') === `Bearer ${id}-token` ? { sub: id } : undefined,
          card: [{ ...EXTENDED_ONLY_SKILL, id: `${id}-private` }],
        },
      })),
      default: 'support',
      // The previous draft, pinned: its entries carry the card's name and version (features/catalog.ts has the current one).
      catalog: { host: { displayName: 'Conformance Corp' }, draft: '634a09d9' },
      viewer: true,
    }),
  },
  cases: [
    ...AGENT_IDS.map(agentCases),
    check('the default agent is also at the root and the legacy alias', async (t) => {
      const root = await t.get('agents', '/.well-known/agent-card.json');
      expect(JSON.parse(root.text).name).toBe('Conformance support');
      expect(root.headers.link).toBe(CATALOG_LINK);
      const legacy = await t.get('agents', '/.well-known/agent.json');
      expect(legacy.headers.etag).toBe(root.headers.etag);
      expect(legacy.headers.link).toBe(`</.well-known/agent-card.json>; rel="canonical", ${CATALOG_LINK}`);
    }),
    check('the catalog: 200 application/ai-catalog+json, strong ETag, 304, CORS, one entry per agent', async (t) => {
      const res = await t.get('agents', CATALOG_PATH);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/ai-catalog+json');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.etag).toBe(computeEtag(res.body));
      expect((await t.get('agents', CATALOG_PATH, { headers: { 'if-none-match': res.headers.etag! } })).status).toBe(
        304,
      );
      const catalog = JSON.parse(res.text);
      expect(catalog.specVersion).toBe('1.0');
      expect(catalog.host).toEqual({ displayName: 'Conformance Corp' });
      expect(catalog.entries.map((e: { mediaType: string }) => e.mediaType)).toEqual([
        'application/a2a-agent-card+json',
        'application/a2a-agent-card+json',
      ]);
    }),
    check("every catalog URL resolves to the card served there, with the entry's name and version", async (t) => {
      const catalog = JSON.parse((await t.get('agents', CATALOG_PATH)).text);
      for (const entry of catalog.entries) {
        const card = await t.get('agents', new URL(entry.url).pathname);
        expect(card.status).toBe(200);
        expect(JSON.parse(card.text)).toMatchObject({ name: entry.displayName, version: entry.version });
      }
    }),
    check(
      "the viewer: each agent's page shows its public card only; the host page lists and links every agent",
      async (t) => {
        for (const id of AGENT_IDS) {
          const page = await t.get('agents', `/agents/${id}/.well-known/agent-card.html`, {
            headers: { authorization: `Bearer ${id}-token` },
          });
          expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
          expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; /);
          expect(page.text).toContain(`<h1>Conformance ${id}</h1>`);
          expect(page.text).not.toContain('-private');
        }
        const host = await t.get('agents', '/.well-known/ai-catalog.html');
        expect(host.status).toBe(200);
        expect(host.headers.etag).toBe(computeEtag(host.body));
        expect(host.text).toContain('<h1>Conformance Corp</h1>');
        const links = [...host.text.matchAll(/<h2><a href="([^"]+)">([^<]+)<\/a><\/h2>/g)].map((m) => [m[1], m[2]]);
        expect(links).toEqual(
          AGENT_IDS.map((id) => [`../agents/${id}/.well-known/agent-card.html`, `Conformance ${id}`]),
        );
        const url = await t.url('agents');
        for (const [href] of links)
          expect((await fetch(new URL(href!, `${url}/.well-known/ai-catalog.html`))).status).toBe(200);
      },
    ),
    ...fallsThrough,
  ],
};
