// The pages of @agent-card/core/view in a real browser, served as the middleware serves them
// (text/html with the viewer's Content-Security-Policy) from a plain node:http server.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_CARD } from '@agent-card/core/testing';
import { renderAgentCardPage, renderAiCatalogPage, VIEWER_CONTENT_SECURITY_POLICY } from '@agent-card/core/view';
import { HOSTILE_STRINGS, hostileCard, hostileCatalog } from '../../packages/core/src/view/test-cards';
import { browserAvailable, closeBrowser, type OpenedPage, openPage, seriousAxeViolations } from './harness';

const pages = new Map<string, string>();
pages.set('/card', renderAgentCardPage(CONFORMANCE_CARD, { jsonHref: '/card.json' }));
// A page with what axe must catch: no lang, an image without alt, a form field without a label.
pages.set(
  '/inaccessible',
  '<!doctype html><html><head><title>x</title></head><body><img src="/none"><input></body></html>',
);
HOSTILE_STRINGS.forEach((payload, index) => {
  pages.set(`/hostile/${index}`, renderAgentCardPage(hostileCard(payload), { jsonHref: '/card.json' }));
  pages.set(
    `/hostile-catalog/${index}`,
    renderAiCatalogPage(hostileCatalog(payload), {
      cards: new Map([[payload, hostileCard(payload)]]),
      pageHrefs: new Map([[payload, payload]]),
    }),
  );
});

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeBrowser();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What a payload would have done: globals set, dialogs opened, elements or attributes it added. */
async function traces(opened: OpenedPage) {
  return opened.page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      pwned: (globalThis as { pwned?: unknown }).pwned,
      scripts: document.scripts.length,
      injectedElements: all
        .filter((el) => /^(img|svg|iframe|object|embed|form|base|link|meta)$/i.test(el.tagName))
        .filter((el) => !(el.tagName === 'META' && el.closest('head')))
        .map((el) => el.outerHTML),
      handlerAttributes: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
      hrefs: [...document.querySelectorAll('[href]')].map((el) => (el as HTMLAnchorElement).href),
    };
  });
}

describe.skipIf(!browserAvailable)('viewer pages in Chromium', () => {
  it('shows the card a person reads, with no console error and no request off the origin', async () => {
    const opened = await openPage(`${base}/card`);
    try {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const text = await opened.page.locator('main').innerText();
      expect(text).toContain('Conformance Agent');
      expect(text).toContain('Public answers');
      expect(text).toContain('HTTP bearer token (JWT) in the Authorization header');
      expect(text).toContain('API key in header X-API-Key');
      expect(await opened.page.getByRole('button', { name: 'Copy JSON' }).isVisible()).toBe(true);
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.foreignRequests).toEqual([]);
      await opened.screenshot('render-card');
    } finally {
      await opened.close();
    }
  });

  it.each(HOSTILE_STRINGS.map((payload, index) => [index, payload] as const))(
    'runs nothing from hostile card %i (%j), with or without the CSP',
    async (index) => {
      for (const bypassCsp of [false, true]) {
        for (const path of [`/hostile/${index}`, `/hostile-catalog/${index}`]) {
          const opened = await openPage(`${base}${path}`, { bypassCsp });
          try {
            // Pointer events on the payload's text: an injected handler would fire here.
            await opened.page.mouse.move(200, 200);
            await opened.page.locator('h1').first().hover({ timeout: 2000 });
            const found = await traces(opened);
            expect(found.pwned).toBeUndefined();
            expect(found.scripts).toBe(1);
            expect(found.injectedElements).toEqual([]);
            expect(found.handlerAttributes).toEqual([]);
            for (const href of found.hrefs) expect(href).toMatch(/^https?:\/\//);
            expect(opened.dialogs).toEqual([]);
            expect(opened.consoleErrors).toEqual([]);
            expect(opened.foreignRequests).toEqual([]);
            if (!bypassCsp && index === HOSTILE_STRINGS.length - 1) {
              await opened.screenshot(
                path.startsWith('/hostile-catalog') ? 'render-hostile-catalog' : 'render-hostile-card',
              );
            }
          } finally {
            await opened.close();
          }
        }
      }
    },
    60_000,
  );

  it('the accessibility check finds what it must (it can fail)', async () => {
    const opened = await openPage(`${base}/inaccessible`, { bypassCsp: true });
    try {
      const ids = (await seriousAxeViolations(opened.page)).map((v) => v.id);
      expect(ids).toEqual(expect.arrayContaining(['html-has-lang', 'image-alt', 'label']));
    } finally {
      await opened.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'has no serious or critical accessibility violation (%s)',
    async (colorScheme) => {
      const opened = await openPage(`${base}/card`, { bypassCsp: true, colorScheme });
      try {
        expect(await seriousAxeViolations(opened.page)).toEqual([]);
      } finally {
        await opened.close();
      }
    },
  );
});
