// The middleware's viewer pages in Chromium, served by a running Express app: a single signed card
// (with an extended card configured), a multi-agent host with its catalog page, and a card whose
// strings are hostile. Screenshots are kept in test-artifacts/screenshots/.
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentCard } from '@agent-card/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  closeBrowser,
  docScreenshots,
  openPage,
  seriousAxeViolations,
  wordsBrokenMidWord,
} from './harness';
import { hostAgents, SHOWCASE_CARD } from './showcase';

const PAGE = '/.well-known/agent-card.html';
const quiet = { warn: () => {} };
const servers: Server[] = [];

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let single: string;
let host: string;
let hostile: string;

/** Strings of a card that passes validation but tries everything a page could fall for. */
const SCRIPT = '<script>globalThis.pwned=1;alert(1)</script>';
const IMG = '"><img src=x onerror="globalThis.pwned=2;alert(2)">';

beforeAll(async () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const singleApp = express();
  singleApp.use(
    agentCard({
      card: SHOWCASE_CARD,
      logger: quiet,
      viewer: true,
      sign: { privateKey: key.privateKey, kid: 'harbourline-2026', alg: 'ES256' },
      extended: {
        authenticate: () => ({ sub: 'everyone' }),
        card: [{ id: 'secret-refunds', name: 'Secret refunds', description: 'Internal only.', tags: ['internal'] }],
      },
    }),
  );
  single = await listen(singleApp);

  const hostApp = express();
  // The cards' URLs name the host they are served from, as in production.
  const hostServer = hostApp.listen(0, '127.0.0.1');
  servers.push(hostServer);
  await once(hostServer, 'listening');
  host = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
  hostApp.use(
    agentCard({
      logger: quiet,
      profile: 'development',
      viewer: true,
      agents: hostAgents(host),
      default: 'support',
      catalog: { host: { displayName: 'Acme Corp', documentationUrl: 'https://acme.example/agents' } },
    }),
  );

  const hostileApp = express();
  hostileApp.use(
    agentCard({
      logger: quiet,
      profile: 'development',
      viewer: true,
      card: {
        ...SHOWCASE_CARD,
        name: `${SCRIPT}\u202Eevil`,
        description: `${IMG}\u0007\u001b[31m`,
        documentationUrl: `https://docs.example/${IMG}`,
        provider: { organization: IMG, url: `https://evil.example/?q=${SCRIPT}` },
        securitySchemes: {
          [IMG]: { apiKeySecurityScheme: { location: 'header', name: SCRIPT, description: IMG } },
        },
        securityRequirements: [{ schemes: { [IMG]: { list: [SCRIPT] } } }],
        skills: [{ id: 'x', name: SCRIPT, description: IMG, tags: [SCRIPT, IMG], examples: [`javascript:alert(3)`] }],
      },
    }),
  );
  hostile = await listen(hostileApp);
});

afterAll(async () => {
  await closeBrowser();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe.skipIf(!browserAvailable)('viewer pages from an Express app, in Chromium', () => {
  it('the card page: what a person looks for, no console error, nothing fetched off the origin', async () => {
    const opened = await openPage(`${single}${PAGE}`);
    try {
      expect(opened.status).toBe(200);
      const main = opened.page.locator('main');
      await expect.poll(() => main.getByRole('heading', { level: 1 }).textContent()).toBe('Harbourline Travel Agent');
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const text = await main.innerText();
      for (const wanted of [
        'Plan a trip',
        'Book a crossing',
        'Cancel a booking',
        'OAuth 2.0 client credentials at https://id.harbourline-travel.com/oauth2/token; scopes: bookings:read (Read bookings), bookings:write (Create and change bookings)',
        'API key in header X-API-Key',
        'HTTP bearer token (JWT) in the Authorization header',
        'OpenID Connect, discovery at https://id.harbourline-travel.com/.well-known/openid-configuration',
        'Mutual TLS: the caller presents a client certificate',
        'The card is signed',
        'harbourline-2026',
        'ES256',
      ]) {
        expect(text).toContain(wanted);
      }
      expect(text).not.toContain('Secret refunds');
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.foreignRequests).toEqual([]);
      await opened.screenshot('viewer-card-light');
      await docScreenshots(opened.page, 'packages/core/docs/viewer');
    } finally {
      await opened.close();
    }
  });

  it('the first screen answers "can I call it, where, with what?": endpoint, binding, authentication, skills, badges', async () => {
    for (const viewport of [
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ]) {
      const opened = await openPage(`${single}${PAGE}`, { viewport });
      try {
        const summary = opened.page.getByRole('region', { name: 'Summary' });
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
        const text = await summary.innerText();
        expect(text.split('\n').filter((line) => line.trim() !== '')).toEqual([
          '✓ Valid A2A card',
          '✓ Signed',
          'Endpoint',
          'https://agents.harbourline-travel.com/a2a/v1 (preferred; one more interface below)',
          'Binding',
          'JSONRPC, A2A 1.0',
          'Authentication',
          'Calls need one of:',
          'an OAuth 2.0 access token (client credentials) with scope bookings:read',
          'an API key in the header X-API-Key',
          'a bearer token (JWT)',
          'Skills',
          '3 skills: Plan a trip, Book a crossing, Cancel a booking',
        ]);
        // Above the fold: the whole summary is on the first screen, before any scrolling.
        const box = await summary.boundingBox();
        expect(box).not.toBeNull();
        expect((box?.y ?? 0) + (box?.height ?? 0), `${viewport.width} px wide`).toBeLessThanOrEqual(viewport.height);
        // The raw JSON is there, folded away.
        const raw = opened.page.locator('details.raw');
        expect(await raw.getAttribute('open')).toBeNull();
        expect(await opened.page.locator('#raw-json').isVisible()).toBe(false);
      } finally {
        await opened.close();
      }
    }
  });

  it.each([390, 1366])('at %i px each thing is said once, in plain words', async (width) => {
    const opened = await openPage(`${single}${PAGE}`, { viewport: { width, height: 844 } });
    try {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const whole = await opened.page.locator('main').innerText();
      // "What a model reads" quotes the card as a model gets it, interfaces included; the page's
      // own words are everything else, and each is said once there.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const quoted = await opened.page.locator('section.prompt').innerText();
      expect(quoted).toContain('https://agents.harbourline-travel.com/a2a/v1');
      const text = whole.replace(quoted, '');
      const count = (wanted: string) => text.split(wanted).length - 1;
      // The preferred endpoint is the summary's; the section below lists the other interfaces.
      expect(count('https://agents.harbourline-travel.com/a2a/v1')).toBe(1);
      expect(count('https://agents.harbourline-travel.com/a2a/rest')).toBe(1);
      expect(text).toContain('Other interfaces');
      // What a call needs is the summary's Authentication; the schemes section describes each.
      expect(count('Calls need one of:')).toBe(1);
      expect(text).toContain('Security schemes');
      // A capability the card leaves out is no, and says so, never "not stated (no)".
      expect(text).not.toContain('not stated');
      expect(text).toMatch(/Push notifications\s+no\n/);
      expect(await wordsBrokenMidWord(opened.page, 'main')).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('the raw JSON link opens the served card, and the copy button copies it', async () => {
    const opened = await openPage(`${single}${PAGE}`);
    try {
      await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: single });
      await opened.page.getByRole('button', { name: 'Copy JSON' }).click();
      await expect.poll(() => opened.page.getByRole('button').first().textContent()).toBe('Copied');
      // Copying unfolds the JSON it copied.
      expect(await opened.page.locator('#raw-json').isVisible()).toBe(true);
      const copied = await opened.page.evaluate(() => navigator.clipboard.readText());
      const served = await (await fetch(`${single}/.well-known/agent-card.json`)).json();
      expect(JSON.parse(copied)).toEqual(served);
      await opened.page.getByRole('link', { name: 'Open the JSON document' }).click();
      await opened.page.waitForURL(`${single}/.well-known/agent-card.json`);
      expect(opened.consoleErrors).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('dark and on a phone: readable, nothing wider than the screen', async () => {
    const dark = await openPage(`${single}${PAGE}`, { colorScheme: 'dark' });
    try {
      const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(13, 17, 23)');
      await dark.screenshot('viewer-card-dark');
    } finally {
      await dark.close();
    }
    const phone = await openPage(`${single}${PAGE}`, { viewport: { width: 390, height: 844 } });
    try {
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await phone.screenshot('viewer-card-phone');
    } finally {
      await phone.close();
    }
  });

  it("the host page lists every agent from the catalog, and each link opens that agent's page", async () => {
    const opened = await openPage(`${host}/.well-known/ai-catalog.html`);
    try {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const text = await opened.page.locator('main').innerText();
      for (const wanted of [
        'Acme Corp',
        'Acme Billing Agent',
        'Acme Support Agent',
        'Invoice status',
        'Open a ticket',
        // What a call needs, in the words of each agent's own page.
        'Every call needs an API key in the header X-API-Key.',
        'No authentication required: the card describes one scheme but requires none.',
      ])
        expect(text).toContain(wanted);
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.foreignRequests).toEqual([]);
      await opened.screenshot('viewer-catalog');
      await docScreenshots(opened.page, 'packages/core/docs/viewer-catalog', 760);
      await opened.page.getByRole('link', { name: 'Acme Billing Agent' }).click();
      await opened.page.waitForURL(`${host}/agents/billing${PAGE}`);
      await expect.poll(() => opened.page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Billing Agent');
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      expect(await opened.page.locator('main').innerText()).toContain('API key in header X-API-Key');
      await opened.screenshot('viewer-agent-billing');
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.foreignRequests).toEqual([]);
    } finally {
      await opened.close();
    }
    const root = await openPage(`${host}${PAGE}`);
    try {
      expect(await root.page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Support Agent');
    } finally {
      await root.close();
    }
  });

  it('a hostile card served by the middleware runs nothing and links nothing but http(s)', async () => {
    for (const bypassCsp of [false, true]) {
      const opened = await openPage(`${hostile}${PAGE}`, { bypassCsp });
      try {
        const found = await opened.page.evaluate(() => ({
          pwned: (globalThis as { pwned?: unknown }).pwned,
          scripts: document.scripts.length,
          images: document.querySelectorAll('img, svg, iframe').length,
          handlers: [...document.querySelectorAll('*')].flatMap((el) =>
            [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
          ),
          hrefs: [...document.querySelectorAll('[href]')].map((el) => (el as HTMLAnchorElement).href),
          title: document.querySelector('h1')?.textContent,
        }));
        expect(found).toMatchObject({ pwned: undefined, scripts: 1, images: 0, handlers: [] });
        expect(found.title).toBe(`${SCRIPT}[U+202E]evil`);
        for (const href of found.hrefs) expect(href).toMatch(/^https?:\/\//);
        expect(opened.dialogs).toEqual([]);
        expect(opened.consoleErrors).toEqual([]);
        expect(opened.foreignRequests).toEqual([]);
        if (!bypassCsp) await opened.screenshot('viewer-hostile-card');
      } finally {
        await opened.close();
      }
    }
  });

  it.each([
    ['the card page', () => `${single}${PAGE}`],
    ['the host page', () => `${host}/.well-known/ai-catalog.html`],
    ["an agent's page", () => `${host}/agents/billing${PAGE}`],
  ])('%s has no serious or critical accessibility violation, light and dark', async (_, url) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const opened = await openPage(url(), { bypassCsp: true, colorScheme });
      try {
        expect(await seriousAxeViolations(opened.page), colorScheme).toEqual([]);
      } finally {
        await opened.close();
      }
    }
  });
});
