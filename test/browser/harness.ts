/**
 * The browser harness: Debian's headless Chromium driven by playwright-core, for tests that load
 * a page and check what a person would see. Each page is opened in a fresh browser context that
 * records console errors, uncaught exceptions, dialogs and every request that leaves the page's
 * origin (those are aborted, so a page cannot reach the network even when a test fails), and can
 * keep a screenshot in `test-artifacts/screenshots/`.
 *
 * `browserAvailable` is false when Chromium is missing (the test command installs it where it
 * can: scripts/ensure-chromium.mjs); browser suites then skip with a loud message.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** The Chromium binary: Debian's package, or `AGENT_CARD_CHROMIUM`. */
export const CHROMIUM_PATH = process.env.AGENT_CARD_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser tests can run here. */
export const browserAvailable = existsSync(CHROMIUM_PATH);

if (!browserAvailable) {
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! SKIPPING BROWSER TESTS: ${CHROMIUM_PATH} is missing. Install it (sudo apt-get install -y chromium)` +
      `\n!! or set AGENT_CARD_CHROMIUM; the test command installs it when it runs as root.\n${line}\n`,
  );
}

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where screenshots are kept (git-ignored; CI keeps it as an artifact). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

/**
 * Whether to refresh the screenshots the READMEs show (`UPDATE_DOC_SCREENSHOTS=1`); a normal test
 * run never writes to tracked files.
 */
export const updateDocScreenshots = process.env.UPDATE_DOC_SCREENSHOTS === '1';

/** The four views a README shows of a page: desktop and phone, light and dark. */
export const DOC_VIEWS = [
  { suffix: '', width: 1366, colorScheme: 'light' },
  { suffix: '-dark', width: 1366, colorScheme: 'dark' },
  { suffix: '-phone', width: 390, colorScheme: 'light' },
  { suffix: '-phone-dark', width: 390, colorScheme: 'dark' },
] as const;

/**
 * Saves the first screen of `page` as README screenshots, when {@link updateDocScreenshots} is
 * on: `{base}.png` (desktop, 1366 px wide, `height` tall, light), `{base}-dark.png`, and
 * `{base}-phone.png` / `{base}-phone-dark.png` (390×844). `base` is relative to the repository
 * root, without `.png`. The page's own viewport and colour scheme are restored afterwards.
 */
export async function docScreenshots(page: Page, base: string, height = 900): Promise<void> {
  if (!updateDocScreenshots) return;
  const size = page.viewportSize();
  for (const view of DOC_VIEWS) {
    await page.emulateMedia({ colorScheme: view.colorScheme });
    await page.setViewportSize({ width: view.width, height: view.width > 390 ? height : 844 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(REPO_ROOT, `${base}${view.suffix}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
  if (size) await page.setViewportSize(size);
}

/** Flags for a quiet, offline, headless Chromium in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

let browser: Promise<Browser> | undefined;

/**
 * The shared browser of this test file, launched on first use. playwright-core gives every
 * launch a fresh temporary `--user-data-dir` (it refuses one in `args`), removed on close.
 */
export function launchBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  return browser;
}

/** Closes the shared browser (call in `afterAll`). */
export async function closeBrowser(): Promise<void> {
  const open = browser;
  browser = undefined;
  if (open) await (await open).close();
}

/** Options of {@link openPage}. */
export interface OpenPageOptions {
  /** Ignore the page's Content-Security-Policy (only for injecting axe-core). */
  bypassCsp?: boolean;
  /** `prefers-color-scheme` to emulate. @default 'light' */
  colorScheme?: 'light' | 'dark';
  /** Viewport; a phone is `{ width: 390, height: 844 }`. @default 1024×768 */
  viewport?: { width: number; height: number };
  /** Run before any page script (e.g. to install traps). */
  initScript?: string;
}

/** An opened page and what it did. */
export interface OpenedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** HTTP status of the navigation. */
  readonly status: number | undefined;
  /** Console messages of type `error` and uncaught exceptions, as text. */
  readonly consoleErrors: string[];
  /** URLs requested outside the page's origin (each was aborted). */
  readonly foreignRequests: string[];
  /** Dialogs (`alert`, `confirm`, `prompt`, `beforeunload`) the page opened, as `type: message`. */
  readonly dialogs: string[];
  /** Saves a full-page PNG as `test-artifacts/screenshots/{name}.png` and returns its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens `url` in a fresh context of the shared browser and waits for the load event. */
export async function openPage(url: string, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const origin = new URL(url).origin;
  const context = await (await launchBrowser()).newContext({
    bypassCSP: options.bypassCsp === true,
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1024, height: 768 },
    serviceWorkers: 'block',
  });
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  const dialogs: string[] = [];
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (new URL(target).origin === origin) return route.continue();
    foreignRequests.push(target);
    return route.abort('blockedbyclient');
  });
  // Requests the router does not see (e.g. a navigation of a new window) still count.
  context.on('request', (request) => {
    const target = request.url();
    if (!target.startsWith(`${origin}/`) && !foreignRequests.includes(target)) foreignRequests.push(target);
  });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  const response = await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  return {
    page,
    context,
    status: response?.status(),
    consoleErrors,
    foreignRequests,
    dialogs,
    async screenshot(name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: () => context.close(),
  };
}

/**
 * Words the page breaks over two lines, where it may not: in `root`, every word of plain text (not
 * in a link or `<code>`, which may break anywhere, and not a URL or a path, which must when it is
 * wider than the screen) whose rendered boxes are more than one, as "Docum|ent" in a table column
 * too narrow for it.
 */
export function wordsBrokenMidWord(page: Page, root: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const scope of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (node.parentElement?.closest('a, code, pre') || !node.parentElement?.checkVisibility()) continue;
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/[^\s/]+/g)) {
          if (word[0].length > 24 || word[0].includes(':')) continue;
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (range.getClientRects().length > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }, root);
}

/** A serious or critical accessibility violation axe-core found. */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

let axeSource: Promise<string> | undefined;

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) in the page and returns its serious and critical
 * violations. The page must have been opened with `bypassCsp: true`, since the page's own policy
 * rightly refuses the injected script.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
    const found = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return found.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n: any) => String(n.target)),
    }));
  });
  return (results as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
