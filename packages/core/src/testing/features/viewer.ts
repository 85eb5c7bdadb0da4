import { expect } from 'vitest';
import { computeEtag } from '../../http/kernel/etag';
import { VIEWER_CONTENT_SECURITY_POLICY } from '../../view/document';
import { CONFORMANCE_CARD, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { authenticate, CARD_ETAG, CARD_PATH, cardFor, conformanceOrigins, dynamicOptions } from './shared';

const PAGE_PATH = '/.well-known/agent-card.html';

/** `viewer: true`: the HTML page of the public card, next to the JSON. */
export const viewerPage: ConformanceFeature = {
  title: 'viewer page',
  fixtures: {
    viewer: () => ({ card: CONFORMANCE_CARD, viewer: true, extended: { authenticate, card: [EXTENDED_ONLY_SKILL] } }),
    viewerDynamic: () => ({ card: cardFor, viewer: true, ...dynamicOptions({ allowedOrigins: conformanceOrigins }) }),
  },
  cases: [
    check('GET → 200 text/html with the CSP, nosniff, a strong ETag of the bytes, and the card in words', async (t) => {
      const res = await t.get('viewer', PAGE_PATH);
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(res.body.byteLength),
        'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        etag: computeEtag(res.body),
        'cache-control': 'public, max-age=3600',
      });
      expect(res.text).toContain('<h1>Conformance Agent</h1>');
      expect(res.text).toContain('API key in header X-API-Key');
    }),
    check('never shows the extended card, even to a caller with the token', async (t) => {
      const res = await t.get('viewer', PAGE_PATH, { headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
      expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.name);
    }),
    check('HEAD → 200 without a body; If-None-Match → 304; a query string still matches; POST → 405', async (t) => {
      const page = await t.get('viewer', PAGE_PATH);
      const head = await t.get('viewer', PAGE_PATH, { method: 'HEAD' });
      expect([head.status, head.body.byteLength, head.headers.etag]).toEqual([200, 0, page.headers.etag]);
      const notModified = await t.get('viewer', PAGE_PATH, { headers: { 'if-none-match': page.headers.etag! } });
      expect([notModified.status, notModified.body.byteLength]).toEqual([304, 0]);
      expect((await t.get('viewer', `${PAGE_PATH}?from=docs`)).headers.etag).toBe(page.headers.etag);
      const post = await t.get('viewer', PAGE_PATH, { method: 'POST', body: '{}' });
      expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    }),
    check("its link to the JSON document resolves to the card, under the host's mount path too", async (t) => {
      const url = await t.url('viewer');
      const page = await t.get('viewer', PAGE_PATH);
      const href = /<a href="([^"]+)">Open the JSON document<\/a>/.exec(page.text)?.[1];
      expect(href).toBe('./agent-card.json');
      const card = await fetch(new URL(href!, `${url}${PAGE_PATH}`));
      expect([card.status, card.headers.get('etag')]).toEqual([200, CARD_ETAG]);
    }),
    check('the card and the app routes are unchanged with the viewer on; off by default', async (t) => {
      expect((await t.get('viewer', CARD_PATH)).headers.etag).toBe(CARD_ETAG);
      expect((await t.get('viewer', '/api/ping')).text).toBe('pong');
      expect((await t.get('default', PAGE_PATH)).status).toBe(404);
    }),
    check("a card function's page shows the variant of the request's origin", async (t) => {
      const url = await t.url('viewerDynamic');
      const res = await t.get('viewerDynamic', PAGE_PATH);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`${new URL(url).origin}/a2a/rest`);
      expect(res.headers.vary).toMatch(/\bHost\b/);
    }),
  ],
};
