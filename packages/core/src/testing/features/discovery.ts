import { expect } from 'vitest';
import { validateArdManifest } from '../../ard/validate';
import { computeEtag } from '../../http/kernel/etag';
import type { AgentCard } from '../../model';
import { conformanceAgentCard } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { CARD_PATH } from './shared';

const ARD_PATH = '/.well-known/ard.json';
const CARD_TYPE = 'application/a2a-agent-card+json';
const IDS = ['billing', 'support'] as const;

/** An agent whose skills give the two to five queries ARD asks for. */
function agentWithQueries(id: string): AgentCard {
  const card = conformanceAgentCard(id);
  return {
    ...card,
    skills: card.skills.map((s) => ({ ...s, examples: [`ask ${id} a question`, `help me with ${id}`] })),
  };
}

/**
 * The discovery documents of a host, from the agents it declares: the ARD manifest (every route's
 * HTTP behaviour, its entries resolving to the cards served), the `Link` header and the card's
 * second media type.
 */
export const discoveryDocuments: ConformanceFeature = {
  fixtures: {
    discovery: () => ({
      agents: IDS.map((id) => ({ id, path: `/agents/${id}`, card: agentWithQueries(id) })),
      catalog: { host: { displayName: 'Discovery Corp' } },
      viewer: true,
    }),
    discoveryOff: () => ({
      agents: IDS.map((id) => ({ id, path: `/agents/${id}`, card: agentWithQueries(id) })),
      ard: false,
    }),
  },
  cases: [
    check('GET /.well-known/ard.json → 200 application/json, strong ETag, Cache-Control, CORS, nosniff', async (t) => {
      const res = await t.get('discovery', ARD_PATH);
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': 'application/json',
        etag: computeEtag(res.body),
        'cache-control': 'public, max-age=3600',
        'access-control-allow-origin': '*',
        'x-content-type-options': 'nosniff',
      });
      expect(validateArdManifest(res.text, { profile: 'strict' })).toEqual({ valid: true, findings: [] });
    }),
    check(
      'ARD: If-None-Match → 304 with the ETag; HEAD → headers only; OPTIONS → 204 preflight; POST → 405',
      async (t) => {
        const first = await t.get('discovery', ARD_PATH);
        const again = await t.get('discovery', `${ARD_PATH}?v=1`, {
          headers: { 'if-none-match': first.headers.etag! },
        });
        expect([again.status, again.headers.etag, again.body.byteLength]).toEqual([304, first.headers.etag, 0]);
        const head = await t.get('discovery', ARD_PATH, { method: 'HEAD' });
        expect([head.status, head.body.byteLength, head.headers.etag]).toEqual([200, 0, first.headers.etag]);
        const preflight = await t.get('discovery', ARD_PATH, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET' },
        });
        expect([preflight.status, preflight.headers['access-control-allow-methods']]).toEqual([
          204,
          'GET, HEAD, OPTIONS',
        ]);
        const post = await t.get('discovery', ARD_PATH, { method: 'POST', body: '{}' });
        expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
      },
    ),
    check("every ARD entry's url resolves to the card served there, with the entry's name and version", async (t) => {
      const { entries } = JSON.parse((await t.get('discovery', ARD_PATH)).text);
      expect(entries).toHaveLength(IDS.length);
      for (const entry of entries) {
        const card = await t.get('discovery', new URL(entry.url).pathname);
        expect(card.status).toBe(200);
        expect(JSON.parse(card.text)).toMatchObject({ name: entry.displayName, version: entry.version });
        expect(entry.representativeQueries).toHaveLength(2);
      }
    }),
    check('every card answer (200 and 304) names the AI Catalog and ARD in its Link header', async (t) => {
      const link = '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"';
      const path = '/agents/billing/.well-known/agent-card.json';
      const ok = await t.get('discovery', path);
      expect(ok.headers.link).toBe(link);
      const notModified = await t.get('discovery', path, { headers: { 'if-none-match': ok.headers.etag! } });
      expect([notModified.status, notModified.headers.link]).toEqual([304, link]);
    }),
    check('the viewer pages carry the same discovery documents as <link> elements that resolve', async (t) => {
      const url = await t.url('discovery');
      for (const page of ['/agents/billing/.well-known/agent-card.html', '/.well-known/ai-catalog.html']) {
        const text = (await t.get('discovery', page)).text;
        const links = [...text.matchAll(/<link rel="([^"]+)" href="([^"]+)" type="([^"]+)">/g)].map((m) => m.slice(1));
        expect(links.map(([rel, , type]) => [rel, type])).toEqual([
          ['ai-catalog', 'application/ai-catalog+json'],
          ['ard', 'application/json'],
        ]);
        for (const [rel, href] of links) {
          // Relative to the page, so it resolves under the mount point too.
          const target = new URL(href!, `${url}${page}`).href.slice(url.length);
          expect(target).toBe(rel === 'ard' ? ARD_PATH : '/.well-known/ai-catalog.json');
          expect((await t.get('discovery', target)).status).toBe(200);
        }
      }
    }),
    check('ard: false serves no manifest (the path falls through) and the Link names the catalog only', async (t) => {
      expect((await t.get('discoveryOff', ARD_PATH)).status).toBe(404);
      const card = await t.get('discoveryOff', '/agents/billing/.well-known/agent-card.json');
      expect(card.headers.link).toBe('</.well-known/ai-catalog.json>; rel="ai-catalog"');
    }),
    check(
      'the card answers Accept: application/a2a-agent-card+json with that type, the same bytes, Vary: Accept',
      async (t) => {
        const plain = await t.get('default', CARD_PATH);
        const asked = await t.get('default', CARD_PATH, { headers: { accept: CARD_TYPE } });
        expect([plain.headers['content-type'], asked.headers['content-type']]).toEqual([
          'application/a2a+json',
          CARD_TYPE,
        ]);
        expect(asked.text).toBe(plain.text);
        expect([plain.headers.vary, asked.headers.vary]).toEqual(['Accept', 'Accept']);
        const anything = await t.get('default', CARD_PATH, { headers: { accept: '*/*' } });
        expect(anything.headers['content-type']).toBe('application/a2a+json');
      },
    ),
    check('304 is right for both media types: each tag revalidates its own type only', async (t) => {
      const plain = await t.get('default', CARD_PATH);
      const asked = await t.get('default', CARD_PATH, { headers: { accept: CARD_TYPE } });
      const own = await t.get('default', CARD_PATH, {
        headers: { accept: CARD_TYPE, 'if-none-match': asked.headers.etag! },
      });
      expect([own.status, own.headers.etag, own.headers.vary]).toEqual([304, asked.headers.etag, 'Accept']);
      const other = await t.get('default', CARD_PATH, {
        headers: { accept: CARD_TYPE, 'if-none-match': plain.headers.etag! },
      });
      expect([other.status, other.headers['content-type']]).toEqual([200, CARD_TYPE]);
      const head = await t.get('default', CARD_PATH, { method: 'HEAD', headers: { accept: CARD_TYPE } });
      expect([head.status, head.headers['content-type'], head.body.byteLength]).toEqual([200, CARD_TYPE, 0]);
    }),
  ],
};
