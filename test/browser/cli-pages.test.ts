// The pages the CLI writes (agent-card view, agent-card check --html), opened in headless
// Chromium from a loopback static server that sends no Content-Security-Policy header: the
// <meta> policy in each file is all the page has. Each test asserts what a reader sees, that the
// page logs no error and requests nothing outside its origin, and keeps a screenshot. The
// injection suite serves a card, catalog and headers whose every string is an attack, and proves
// in the browser that nothing runs (with the policy, and with it bypassed: the escaping alone)
// and nothing but http(s) is a link.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_SCRIPT } from '@agent-card/core/view';
import {
  REPO_ROOT,
  SCREENSHOT_DIR,
  browserAvailable,
  closeBrowser,
  docScreenshots,
  type OpenedPage,
  openPage,
  seriousAxeViolations,
  wordsBrokenMidWord,
} from './harness';

const bin = join(REPO_ROOT, 'packages/cli/dist/cli.mjs');
const cards = join(REPO_ROOT, 'examples/cards');

function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '' }, timeout: 60_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

const servers: Server[] = [];
const closers: (() => Promise<void>)[] = [];

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** A 1×1 PNG: what an image the policy let through would load. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Paths the static server was asked for. */
const requested: string[] = [];

/** Serves the generated files as text/html, with no security header of any kind. */
function staticServer(dir: string): Promise<string> {
  return listen(
    createServer((req, res) => {
      requested.push(req.url ?? '');
      const name = basename(new URL(req.url ?? '/', 'http://x').pathname);
      if (name === 'pixel.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
      const file = join(dir, name);
      if (!name.endsWith('.html') || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
    }),
  );
}

// What a hostile peer puts in every string: markup, an attribute break-out with an event handler,
// a script URL, and control and bidi characters. Each payload that ran would set window.__pwned
// or open a dialog; each resource it loaded would be a request off the page's origin.
const SCRIPT = '<script>window.__pwned="script";alert("script")</script>';
const BREAKOUT = "\"><img src=x onerror=\"window.__pwned='img';alert('img')\">";
const SINGLE = "' autofocus onfocus='window.__pwned=`focus`' x='";
const REMOTE = '<img src="https://evil.test/pixel.png"><link rel=stylesheet href="https://evil.test/x.css">';
const CONTROLS = '\u0000\u001b[2J\u0007\u202e\u2066\u0085\u200b';
const H = `${SCRIPT}${BREAKOUT}${SINGLE}${REMOTE}${CONTROLS}`;
const JS_URL = 'javascript:window.__pwned="href";alert("href")';
const URLS = [
  JS_URL,
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.test/x',
  'https://user:pass@evil.test/',
];

/** A card whose every string is hostile, and whose URLs are script, data and spoofed URLs. */
function hostileCard(origin: string) {
  const protectedHeader = Buffer.from(JSON.stringify({ alg: `ES256${H}`, kid: `key${H}`, jku: JS_URL })).toString(
    'base64url',
  );
  return {
    name: `Evil ${H}`,
    description: `Description ${H}`,
    version: `1.0.0${H}`,
    provider: { organization: `Org ${H}`, url: URLS[1] },
    documentationUrl: JS_URL,
    iconUrl: URLS[4],
    supportedInterfaces: [
      { url: JS_URL, protocolBinding: `JSONRPC${H}`, protocolVersion: `1.0${H}`, tenant: `tenant${H}` },
      ...URLS.slice(1).map((url) => ({ url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' })),
      { url: `${origin}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: {
      streaming: true,
      extensions: [{ uri: JS_URL, description: `Extension ${H}`, required: true, params: { [`k${H}`]: H } }],
    },
    securitySchemes: {
      [`oauth${H}`]: {
        oauth2SecurityScheme: {
          description: `OAuth ${H}`,
          flows: { clientCredentials: { tokenUrl: JS_URL, scopes: { [`scope${H}`]: `Scope ${H}` } } },
        },
      },
      [`key${H}`]: { apiKeySecurityScheme: { location: `header${H}`, name: `X-Key${H}`, description: H } },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: URLS[4] } },
    },
    securityRequirements: [{ schemes: { [`key${H}`]: { list: [`scope${H}`] } } }],
    defaultInputModes: [`text/plain${H}`],
    defaultOutputModes: [`text/plain${H}`],
    skills: [
      {
        id: `skill${H}`,
        name: `Skill ${H}`,
        description: `Does ${H}`,
        tags: [`tag${H}`],
        examples: [`Example ${H}`],
        inputModes: [`text/${H}`],
        outputModes: [`text/${H}`],
      },
    ],
    signatures: [{ protected: protectedHeader, signature: `sig${H}`, header: { kid: `unprotected${H}` } }],
  };
}

/** A catalog whose names and URLs are hostile; one entry is a script URL, one is the hostile card. */
function hostileCatalog(origin: string) {
  return {
    specVersion: `1.0${H}`,
    host: { displayName: `Host ${H}`, documentationUrl: JS_URL },
    entries: [
      {
        identifier: `urn:evil:${H}`,
        displayName: `Entry ${H}`,
        description: `Entry ${H}`,
        version: `1.0.0${H}`,
        tags: [`tag${H}`],
        mediaType: 'application/a2a-agent-card+json',
        url: `${origin}/agents/evil/.well-known/agent-card.json`,
        publisher: { displayName: `Publisher ${H}` },
      },
      {
        identifier: 'urn:evil:js',
        displayName: `Script ${H}`,
        mediaType: 'application/a2a-agent-card+json',
        url: JS_URL,
      },
    ],
  };
}

/** Response headers a hostile host sends (Latin-1 bytes arrive as C1 characters). */
const HOSTILE_HEADERS = {
  'content-type': 'application/json; x="<script>alert(1)</script>"',
  etag: '"><img src=x onerror=alert(1)>',
  'cache-control': '<script>window.__pwned="header"</script>, max-age=1\x9b2J',
  link: `<${JS_URL}>; rel="ai-catalog", <javascript:alert(2)>; rel="canonical"`,
  vary: '"><svg onload=alert(1)>',
  'access-control-allow-origin': '"><script>alert(1)</script>',
  'x-content-type-options': '\x85\x9bnosniff',
};

async function hostileHost(): Promise<string> {
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/.well-known/agent.json') {
      // A redirect to a script URL on the legacy path: recorded, never followed, never a link.
      return void res.writeHead(302, { location: JS_URL }).end();
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204, HOSTILE_HEADERS).end();
    const body =
      path === '/.well-known/ai-catalog.json'
        ? hostileCatalog(origin)
        : path === '/.well-known/agent-card.json' || path === '/agents/evil/.well-known/agent-card.json'
          ? hostileCard(origin)
          : undefined;
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, HOSTILE_HEADERS).end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  });
  origin = await listen(server);
  return origin;
}

/** Pages written in beforeAll, by file name. */
const dir = mkdtempSync(join(tmpdir(), 'agent-card-cli-pages-'));
let site = '';
let example = '';
let hostile = '';

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build).`);
  const app = await import(pathToFileURL(join(REPO_ROOT, 'examples/multi-agent/app.mjs')).href);
  const started = (await app.start({ port: 0, host: '127.0.0.1' })) as { url: string; close: () => Promise<void> };
  closers.push(started.close);
  example = started.url;
  hostile = await hostileHost();
  const runs = await Promise.all([
    cli(['view', join(cards, 'support.json'), '-o', 'card.html'], dir),
    cli(['view', example, '--allow-http', '-o', 'agents.html'], dir),
    cli(['check', example, '--allow-http', '--profile', 'development', '--html', 'report.html'], dir),
    cli(['check', example, '--allow-http', '--profile', 'production', '--html', 'production-report.html'], dir),
    cli(['check', hostile, '--allow-http', '--profile', 'development', '--html', 'hostile-report.html'], dir),
    cli(['view', `${hostile}/.well-known/agent-card.json`, '--allow-http', '-o', 'hostile-card.html'], dir),
    cli(['view', hostile, '--allow-http', '-o', 'hostile-agents.html'], dir),
  ]);
  // view: 0; check of the example: 0 (development), 1 (production: loopback http URLs); check of
  // the hostile host: 1 (its card has errors).
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 1, 1, 0, 0]);
  site = await staticServer(dir);
}, 120_000);

afterAll(async () => {
  await closeBrowser();
  await Promise.all(closers.map((close) => close()));
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function withPage<T>(
  name: string,
  options: Parameters<typeof openPage>[1],
  use: (opened: OpenedPage) => Promise<T>,
): Promise<T> {
  const opened = await openPage(`${site}/${name}`, options);
  try {
    return await use(opened);
  } finally {
    await opened.close();
  }
}

/** A clean load: 200, no console error, nothing requested off the origin, no dialog. */
function expectQuietLoad(opened: OpenedPage): void {
  expect(opened.status).toBe(200);
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.foreignRequests).toEqual([]);
  expect(opened.dialogs).toEqual([]);
}

/** The rendered text of what `locator` finds, as a reader sees it (hence innerText, not textContent). */
// biome-ignore lint/performance/useDomNodeTextContent: the visible text is what these tests assert.
const shown = (locator: Locator) => locator.innerText();
const bodyText = (opened: OpenedPage) => shown(opened.page.locator('body'));

describe.skipIf(!browserAvailable)('pages written by the CLI, in Chromium', () => {
  it('view of a card file: the name, skills and the scheme in words', async () => {
    await withPage('card.html', {}, async (opened) => {
      expectQuietLoad(opened);
      const text = await bodyText(opened);
      expect(await shown(opened.page.locator('h1'))).toBe('Larkspur Telecom Support Agent');
      for (const skill of ['Diagnose a connection problem', 'Explain a bill', 'Open a support ticket']) {
        expect(text).toContain(skill);
      }
      expect(text).toContain('Every call needs a bearer token (JWT).');
      expect(text).toContain('https://support-agent.larkspur-telecom.com/a2a/v1');
      // Each said once: the endpoint and what a call needs are the summary's; a flag the card
      // leaves out is "no", said so. "What a model reads" quotes the card as a model gets it, so
      // the page's own words are the rest.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
      const quoted = await opened.page.locator('section.prompt').innerText();
      expect(quoted).toContain('https://support-agent.larkspur-telecom.com/a2a/v1');
      const own = text.replace(quoted, '');
      expect(own.split('https://support-agent.larkspur-telecom.com/a2a/v1').length - 1).toBe(1);
      expect(own.split('Every call needs a bearer token (JWT).').length - 1).toBe(1);
      expect(text).not.toContain('not stated (no)');
      expect(text).toMatch(/Extended card\s+no \(not declared\)/);
      expect(text).toContain('Other interfaces');
      await opened.screenshot('cli-view-card');
    });
  });

  it("view of a host: the catalog's agents with the skills of each listed card", async () => {
    await withPage('agents.html', {}, async (opened) => {
      expectQuietLoad(opened);
      const text = await bodyText(opened);
      expect(await shown(opened.page.locator('h1'))).toBe('Acme Corp');
      for (const seen of ['Acme Billing Agent', 'Acme Support Agent', 'Invoice status', 'Open a ticket']) {
        expect(text).toContain(seen);
      }
      expect(text).not.toContain('Refund an invoice');
      await opened.screenshot('cli-view-agents');
    });
  });

  it('check --html: status lines, headers, findings with fixes, the card and each agent', async () => {
    await withPage('report.html', {}, async (opened) => {
      expectQuietLoad(opened);
      const page = opened.page;
      // The first screen, as the CLI README shows it (packages/cli/docs/report.png).
      await page.setViewportSize({ width: 1024, height: 1280 });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'cli-check-report-top.png') });
      await page.setViewportSize({ width: 1024, height: 768 });
      expect(await shown(page.locator('h1'))).toBe(`Discovery report: ${example}`);
      // Infos are folded: open them to read them.
      await page.locator('section[aria-labelledby="findings"] details.more > summary').click();
      const text = await bodyText(opened);
      expect(text).toMatch(/✔ ok: 0 errors, 0 warnings, \d+ info · \d+ requests in \d+ ms/);
      const primary = page.locator('section.path', { hasText: '/.well-known/agent-card.json' }).first();
      const facts = await shown(primary.locator('dl.facts').first());
      expect(facts).toMatch(/Status\s+200/);
      expect(facts).toMatch(/If-None-Match\s+304/);
      expect(facts).toMatch(/CORS preflight\s+204 \(allows GET\)/);
      expect(facts).toMatch(/Time\s+\d+ ms/);
      expect(await shown(primary.locator('dl.headers'))).toMatch(/cache-control\s+public, max-age=600/);
      expect(text).toContain(
        `${example}/.well-known/agent-card.json: checked over plain http (allowed by --allow-http).`,
      );
      expect(text).toContain('Fix: Serve discovery over https in production');
      expect(text).toContain('Agents (2)');
      // Current-draft entries leave the name and version to the card: the report shows the card's.
      for (const seen of ['Acme Billing Agent 2.0.0', 'Acme Support Agent 2.0.0']) {
        expect(text).toContain(seen);
      }
      // Each agent's card is one click away, and its raw JSON block has its own id.
      const details = page.locator('li.agent > details:not(.more)');
      expect(await details.count()).toBe(2);
      await details.first().locator(':scope > summary').click();
      expect(await shown(details.first())).toContain('Invoice status');
      const ids = await page.locator('pre[id]').evaluateAll((pres) => pres.map((p) => p.id));
      expect(new Set(ids).size).toBe(ids.length);
      await opened.screenshot('cli-check-report');
    });
    await withPage('report.html', { colorScheme: 'dark', viewport: { width: 390, height: 844 } }, async (opened) => {
      expectQuietLoad(opened);
      const scroll = await opened.page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll, 'no horizontal scrolling on a phone').toBeLessThanOrEqual(390);
      await opened.screenshot('cli-check-report-phone-dark');
    });
  }, 60_000);

  it.each([390, 1366])(
    'check --html at %i px: no table word broken mid-word, the grade sentence said once',
    async (width) => {
      await withPage('report.html', { viewport: { width, height: 844 } }, async (opened) => {
        expectQuietLoad(opened);
        const page = opened.page;
        expect(await wordsBrokenMidWord(page, 'table')).toEqual([]);
        const documents = page.locator('section[aria-labelledby="grade"] table');
        expect(await documents.locator('thead th').allInnerTexts()).toEqual(['Document', 'Where', 'State']);
        expect(await documents.locator('tbody th').allInnerTexts()).toEqual([
          'Agent Card',
          'legacy alias',
          'AI Catalog',
          'ARD',
          'MCP catalog',
          'JWK Set',
        ]);
        // The grade's sentence is in the header; its section gives the letter and the table.
        const sentence = (await shown(page.locator('p.grade'))).replace(/^Discovery documents: /, '');
        expect(sentence).toMatch(/^A: the card, the AI Catalog, ARD and the Link header agree\.$/);
        expect((await bodyText(opened)).split(sentence).length - 1).toBe(1);
        expect(await shown(page.locator('section[aria-labelledby="grade"] > p').first())).toBe(
          'Grade A, from the documents below.',
        );
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scroll, 'no horizontal scrolling').toBeLessThanOrEqual(width);
      });
    },
  );

  it('check --html leads with the verdict: a strip of checks, errors and warnings open, infos folded', async () => {
    await withPage('production-report.html', {}, async (opened) => {
      expectQuietLoad(opened);
      const page = opened.page;
      expect(await shown(page.locator('header.page').first().locator('p.lead'))).toMatch(
        /^✖ failed: 6 errors, 2 warnings, 7 info · \d+ requests in \d+ ms$/,
      );
      const checks = (await page.getByRole('list', { name: 'Checks' }).locator(':scope > li').allInnerTexts()).map(
        (line) => line.replace(/\s+/g, ' '),
      );
      expect(checks).toEqual([
        '✓ /.well-known/agent-card.json 200, application/a2a+json',
        '✓ /.well-known/agent.json 200 (legacy path)',
        '✗ Valid card 2 errors (profile production)',
        '– Signature not signed',
        '✓ ETag revalidation If-None-Match → 304',
        '✓ CORS preflight 204, allows GET',
        '✓ A2A-Version: 1.0 200, same card',
        '✓ Both paths the same document',
        // Its entries are on loopback, which production refuses in a catalog (catalog-url-format).
        '✗ AI Catalog not valid, 4 entries',
        '✗ Listed agents 0 of 2 ok',
      ]);
      // The strip and the first error are on the first screen.
      const firstError = page.locator('#findings ~ ul.items > li.finding-error').first();
      expect(await firstError.isVisible()).toBe(true);
      expect(((await firstError.boundingBox())?.y ?? Number.POSITIVE_INFINITY) < 768).toBe(true);
      // Errors and warnings are open; infos are one click away.
      const findings = page.locator('section[aria-labelledby="findings"]');
      expect(await findings.locator(':scope > h3').allInnerTexts()).toEqual(['Errors (6)', 'Warnings (2)']);
      const info = findings.locator('details.more');
      expect(await shown(info.locator('summary'))).toBe('Info (7)');
      expect(await info.locator('li.finding').first().isVisible()).toBe(false);
      await info.locator('summary').click();
      expect(await info.locator('li.finding').first().isVisible()).toBe(true);
      // "Fix:" only where there is one: not on "Nothing to do" or "Checked against the rules".
      const negotiation = info.locator('li.finding', { hasText: 'discovery-version-negotiation' });
      expect(await shown(negotiation)).not.toContain('Fix:');
      expect(await shown(negotiation)).toContain('Clients of either kind get a card they understand.');
      expect(await shown(info.locator('li.finding', { hasText: 'card-shape-detected' }))).not.toContain('Fix:');
      expect(await shown(info.locator('li.finding', { hasText: 'metadata-quality' }).first())).toContain(
        'Fix: Add "documentationUrl"',
      );
      // Severity is coloured by the page's own stylesheet, which the policy allows by hash.
      const colour = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => getComputedStyle(el).borderLeftColor);
      expect(await colour('li.finding-error')).toBe('rgb(179, 38, 30)');
      expect(await colour('li.finding-warning')).toBe('rgb(138, 70, 0)');
      await info.locator('summary').click();
      await opened.screenshot('cli-check-production-report');
      await docScreenshots(page, 'packages/cli/docs/report', 900);
    });
  });

  it('the <meta> policy alone is in force: an image and an inline script added to the page are refused', async () => {
    await withPage('report.html', {}, async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const image = document.createElement('img');
        const loaded = new Promise<string>((resolve) => {
          image.onload = () => resolve('loaded');
          image.onerror = () => resolve('refused');
        });
        image.src = '/pixel.png';
        document.body.append(image);
        let script = 'appended';
        try {
          const element = document.createElement('script');
          element.textContent = 'window.__ran = true';
          document.body.append(element);
        } catch {
          script = 'refused by Trusted Types';
        }
        return { image: await loaded, ran: (window as unknown as { __ran?: boolean }).__ran === true, script };
      });
      expect(outcome.image).toBe('refused');
      expect(outcome.ran).toBe(false);
      expect(requested).not.toContain('/pixel.png');
      expect(opened.consoleErrors.join('\n')).toContain('Content Security Policy');
    });
  });

  it.each(['card.html', 'agents.html', 'report.html', 'production-report.html'])(
    '%s has no serious or critical axe violation, light and dark',
    async (name) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await withPage(name, { bypassCsp: true, colorScheme }, async (opened) => {
          expect(await seriousAxeViolations(opened.page), colorScheme).toEqual([]);
        });
      }
    },
    60_000,
  );
});

const PAGES = ['hostile-report.html', 'hostile-card.html', 'hostile-agents.html'];

/** Everything in the DOM that could run or load something, or be clicked to a non-http(s) URL. */
async function activeContent(opened: OpenedPage): Promise<string[]> {
  return opened.page.evaluate((viewerScript) => {
    const found: string[] = [];
    const urlAttributes = [
      'href',
      'src',
      'srcset',
      'action',
      'formaction',
      'data',
      'poster',
      'ping',
      'srcdoc',
      'xlink:href',
    ];
    /** The parts of a DOM element this walk reads (the test files are compiled without the DOM lib). */
    type Element = {
      tagName: string;
      attributes: ArrayLike<{ name: string; value: string }>;
      protocol?: string;
      textContent: string | null;
      getAttribute(name: string): string | null;
      hasAttribute(name: string): boolean;
    };
    const all = (list: ArrayLike<unknown>) => Array.from(list) as Element[];
    for (const element of all(document.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) found.push(`${element.tagName} ${name}`);
        if (name === 'autofocus') found.push(`${element.tagName} autofocus`);
        if (!urlAttributes.includes(name)) continue;
        if (element.tagName === 'A' && name === 'href' && /^https?:$/.test(element.protocol ?? '')) continue;
        found.push(`${element.tagName} ${name}=${attribute.value}`);
      }
    }
    for (const tag of ['img', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'form', 'input', 'link', 'base']) {
      for (const element of all(document.getElementsByTagName(tag))) found.push(`<${element.tagName}>`);
    }
    const scripts = all(document.scripts);
    if (scripts.length !== 1 || scripts[0]?.textContent !== viewerScript) found.push(`${scripts.length} scripts`);
    const metas = all(document.querySelectorAll('meta')).map(
      (m) => m.getAttribute('http-equiv') ?? m.getAttribute('name') ?? (m.hasAttribute('charset') ? 'charset' : '?'),
    );
    if (metas.join() !== 'charset,Content-Security-Policy,viewport,referrer,color-scheme') found.push(`meta ${metas}`);
    return found;
  }, VIEWER_SCRIPT);
}

describe.skipIf(!browserAvailable)('a hostile host, checked with --html and viewed, in Chromium', () => {
  for (const bypassCsp of [false, true]) {
    it.each(PAGES)(
      `%s: nothing runs, loads or links off http(s)${bypassCsp ? ' even with the CSP bypassed' : ''}`,
      async (name) => {
        await withPage(name, { bypassCsp, initScript: 'window.__pwned = undefined;' }, async (opened) => {
          const page = opened.page;
          // Give a handler, a timer or a focus event its chance: hover and focus every element.
          await page.keyboard.press('Tab');
          await page.mouse.move(200, 200);
          await page.waitForTimeout(200);
          expectQuietLoad(opened);
          expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
          expect(await activeContent(opened)).toEqual([]);
          const text = await bodyText(opened);
          // The attacks are on the page as text a reader can see...
          expect(text).toContain('<script>window.__pwned="script";alert("script")</script>');
          expect(text).toContain('"><img src=x onerror=');
          // ...with every control and bidi character shown, not obeyed.
          expect(text).toContain('[U+202E]');
          expect(text).not.toMatch(
            /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b]/,
          );
          if (!bypassCsp) await opened.screenshot(`cli-${name.replace('.html', '')}`);
        });
      },
      60_000,
    );
  }

  it('the report shows the hostile headers and the script-URL redirect as text', async () => {
    await withPage('hostile-report.html', {}, async (opened) => {
      const text = await bodyText(opened);
      expect(text).toContain('"><img src=x onerror=alert(1)>');
      expect(text).toContain('<script>window.__pwned="header"</script>, max-age=1[U+009B]2J');
      expect(text).toContain(`302 ${hostile}/.well-known/agent.json → ${JS_URL} (not followed)`);
      // The script URL is text in a <code>, not a link.
      expect(await opened.page.locator('code', { hasText: JS_URL }).count()).toBeGreaterThan(0);
      expect(await opened.page.locator('a[href^="javascript" i]').count()).toBe(0);
    });
  });

  it.each(PAGES)('%s has no serious or critical axe violation', async (name) => {
    await withPage(name, { bypassCsp: true }, async (opened) => {
      expect(await seriousAxeViolations(opened.page)).toEqual([]);
    });
  });
});
