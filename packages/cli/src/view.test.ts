// agent-card view and agent-card check --html: the real binary, its exit codes and the files it
// writes. Each page must be one document carrying the viewer's policy as a <meta> tag and
// loading nothing from anywhere; the browser suite (test/browser/cli-pages.test.ts) opens them.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { VIEWER_META_CONTENT_SECURITY_POLICY } from '@agent-card/core/view';
import { PassThrough } from 'node:stream';
import { run, type CliIO } from './index';
import { cards, cli, loopbackServers, root } from '../test/run-cli';

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-view-'));
const servers = loopbackServers();
const closers: (() => Promise<void>)[] = [];

/** A loopback server; `seen` counts the requests it got. */
async function listen(handler: RequestListener): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const server = createServer((req, res) => {
    seen++;
    handler(req, res);
  });
  return { url: await servers.listen(server), seen: () => seen };
}

/** The multi-agent example: two agents and the AI Catalog that lists them. */
async function multiAgent(): Promise<string> {
  const example = await import(pathToFileURL(join(root, 'examples/multi-agent/app.mjs')).href);
  const started = (await example.start({ port: 0, host: '127.0.0.1' })) as { url: string; close: () => Promise<void> };
  closers.push(started.close);
  return started.url;
}

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await servers.close();
});

const unescapeAttribute = (value: string) =>
  value
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * One complete document with the viewer's policy in a <meta> tag, and nothing in it that makes
 * a browser load or run anything: no src, no stylesheet link, no url() or @import, no frame or
 * object, no event handler. Links are navigations the reader chooses, and only ever http(s).
 * Every `<` of text is escaped, so each `<…>` is the page's own markup: the checks read only that.
 */
function expectSelfContainedPage(page: string): void {
  expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
  const tags = page.match(/<[^>]*>/g) ?? [];
  const markup = tags.join('\n');
  expect(markup.match(/<html[\s>]/g)).toHaveLength(1);
  expect(markup.match(/<\/html>/g)).toHaveLength(1);
  expect(page.trimEnd().endsWith('</html>')).toBe(true);
  expect(markup.match(/<body[\s>]/g)).toHaveLength(1);
  const csp = [...markup.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)];
  expect(csp).toHaveLength(1);
  expect(unescapeAttribute(csp[0]?.[1] ?? '')).toBe(VIEWER_META_CONTENT_SECURITY_POLICY);
  expect(VIEWER_META_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  // The policy comes before anything it governs.
  expect(page.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(page.indexOf('<style'));
  expect(markup).not.toMatch(/\s(src|srcset|srcdoc|action|formaction|background|poster|data)\s*=/i);
  expect(markup).not.toMatch(/\son[a-z]+\s*=/i);
  expect(markup).not.toMatch(/<(link|img|iframe|frame|object|embed|base|form|audio|video|source|svg|math)[\s>/]/i);
  expect(markup.match(/<script[\s>]/g)?.length ?? 0).toBeLessThanOrEqual(1);
  expect(markup.match(/<style[\s>]/g)).toHaveLength(1);
  const style = page.slice(page.indexOf('<style>'), page.indexOf('</style>'));
  expect(style).not.toMatch(/url\s*\(|@import/i);
  for (const [, href] of markup.matchAll(/\shref="([^"]*)"/g)) {
    expect(href, 'every link is an http(s) URL or an anchor on the page').toMatch(/^(https?:\/\/|#)/);
  }
}

describe('agent-card view <file>', () => {
  it('writes one self-contained page of the card to stdout (exit 0)', async () => {
    const run = await cli(['view', join(cards, 'support.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectSelfContainedPage(run.stdout);
    expect(run.stdout).toContain('Larkspur Telecom Support Agent');
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    for (const skill of card.skills) expect(run.stdout).toContain(skill.name);
  });

  it('-o writes the same bytes as stdout, and says so on stderr', async () => {
    const dir = tmp();
    const piped = await cli(['view', join(cards, 'support.json')]);
    const run = await cli(['view', join(cards, 'support.json'), '-o', 'card.html'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('Wrote card.html (card Larkspur Telecom Support Agent).\n');
    expect(readFileSync(join(dir, 'card.html'), 'utf8')).toBe(piped.stdout);
  });

  it('refuses to overwrite without --force (exit 2), and overwrites with it', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'card.html'), 'keep me');
    const refused = await cli(['view', join(cards, 'support.json'), '-o', 'card.html'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('agent-card: card.html: already exists. Pass --force to overwrite it.\n');
    expect(readFileSync(join(dir, 'card.html'), 'utf8')).toBe('keep me');
    const forced = await cli(['view', join(cards, 'support.json'), '-o', 'card.html', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expectSelfContainedPage(readFileSync(join(dir, 'card.html'), 'utf8'));
  });

  it('reads stdin with -', async () => {
    const run = await cli(['view', '-'], { input: readFileSync(join(cards, 'booking.json'), 'utf8') });
    expect(run.code).toBe(0);
    expectSelfContainedPage(run.stdout);
    expect(run.stdout).toContain(JSON.parse(readFileSync(join(cards, 'booking.json'), 'utf8')).name);
  });

  it('renders an AI Catalog file as its entries, detected as validate detects it', async () => {
    const dir = tmp();
    const entry = (id: string, name: string) => ({
      identifier: `urn:acme:agent:${id}`,
      displayName: name,
      version: '2.0.0',
      mediaType: 'application/a2a-agent-card+json',
      url: `https://acme.test/agents/${id}/.well-known/agent-card.json`,
    });
    const catalog = {
      specVersion: '1.0',
      host: { displayName: 'Acme Corp' },
      entries: [entry('billing', 'Acme Billing Agent'), entry('support', 'Acme Support Agent')],
    };
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    const run = await cli(['view', 'ai-catalog.json', '-o', 'agents.html'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('Wrote agents.html (AI Catalog, 2 entries).\n');
    const page = readFileSync(join(dir, 'agents.html'), 'utf8');
    expectSelfContainedPage(page);
    expect(page).toContain('Acme Billing Agent');
    expect(page).toContain('Acme Support Agent');
    expect(page).toContain('https://acme.test/agents/billing/.well-known/agent-card.json');
  });

  it('a catalog file naming a member twice is refused (exit 1): the page would show one of two catalogs', async () => {
    const dir = tmp();
    const catalog = {
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:acme:agent:billing',
          displayName: 'Acme Billing Agent',
          mediaType: 'application/a2a-agent-card+json',
          url: 'https://acme.test/agents/billing/.well-known/agent-card.json',
        },
      ],
    };
    // The page (JSON.parse keeps the last) would link acme.test; a parser keeping the first, evil.test.
    const text = JSON.stringify(catalog).replace('"url":', '"url":"https://evil.test/card.json","url":');
    writeFileSync(join(dir, 'ai-catalog.json'), text);
    const run = await cli(['view', 'ai-catalog.json', '-o', 'agents.html'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('catalog-duplicate-member');
    expect(run.stderr).toContain('/entries/0/url');
    expect(run.stderr).toContain('agent-card: ai-catalog.json: not a readable AI Catalog (see the findings above).');
    expect(existsSync(join(dir, 'agents.html'))).toBe(false);
  });

  it('an unreadable card is the validator finding on stderr (exit 1), and no file is written', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'broken.json'), '{"name": ');
    const run = await cli(['view', 'broken.json', '-o', 'card.html'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('card-json-parse');
    expect(run.stderr).toContain('agent-card: broken.json: not a readable Agent Card (see the findings above).');
    expect(existsSync(join(dir, 'card.html'))).toBe(false);
  });

  it('a card naming a member twice is refused (exit 1): the page would show one reading of two', async () => {
    const dir = tmp();
    const text = readFileSync(join(cards, 'support.json'), 'utf8').replace('{', '{"name": "Someone Else",');
    writeFileSync(join(dir, 'twice.json'), text);
    const run = await cli(['view', 'twice.json', '-o', 'card.html'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('card-json-duplicate-member');
    expect(existsSync(join(dir, 'card.html'))).toBe(false);
  });

  it('a missing file is one line, exit 2', async () => {
    const run = await cli(['view', 'nope.json'], { cwd: tmp() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('agent-card: nope.json: no such file. Check the path.\n');
  });
});

describe('agent-card view <url>', () => {
  const card = () => readFileSync(join(cards, 'support.json'));

  it('reads plain http only from loopback, and only with --allow-http', async () => {
    const server = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(card()));
    const refused = await cli(['view', `${server.url}/card.json`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `agent-card: ${server.url}/card.json: plain http. Use the https:// URL, or --allow-http for localhost, 127.0.0.1 or ::1.\n`,
    );
    expect(server.seen()).toBe(0);
    const remote = await cli(['view', 'http://acme.test/card.json', '--allow-http']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toBe(
      'agent-card: http://acme.test/card.json: plain http to another machine (acme.test). Use the https:// URL; --allow-http reads only from localhost, 127.0.0.1 or ::1.\n',
    );
    const run = await cli(['view', `${server.url}/card.json`, '--allow-http']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectSelfContainedPage(run.stdout);
    expect(run.stdout).toContain('Larkspur Telecom Support Agent');
    expect(run.stdout).toContain(`href="${server.url}/card.json"`);
  });

  it.each([
    [
      'a 404',
      (_req, res) => res.writeHead(404).end('{}'),
      (url: string) => `agent-card: ${url}/card.json: answered 404. Run "agent-card check" for details.\n`,
    ],
    [
      'a redirect, never followed',
      (_req, res) => res.writeHead(302, { location: 'https://evil.test/card.json' }).end(),
      (url: string) =>
        `agent-card: ${url}/card.json: answered 302 (redirect to https://evil.test/card.json). Run "agent-card check" for details.\n`,
    ],
    [
      'a body over 1 MiB',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"name":"${'x'.repeat(1024 * 1024 + 1)}"}`);
      },
      (url: string) => `agent-card: ${url}/card.json: body larger than 1048576 bytes.\n`,
    ],
  ] satisfies [string, RequestListener, (url: string) => string][])(
    'refuses %s (exit 2)',
    async (_name, handler, message) => {
      const server = await listen(handler);
      const run = await cli(['view', `${server.url}/card.json`, '--allow-http']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(message(server.url));
      expect(run.stdout).toBe('');
    },
  );

  it('gives up on a server that never answers within --timeout', async () => {
    const server = await listen(() => undefined);
    const run = await cli(['view', `${server.url}/card.json`, '--allow-http', '--timeout', '500']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `agent-card: ${server.url}/card.json: cannot be fetched (no complete answer within 500 ms).\n`,
    );
    expect(run.ms).toBeLessThan(10_000);
  });

  it('a host shows its AI Catalog with every listed card, fetched as check fetches them', async () => {
    const url = await multiAgent();
    const dir = tmp();
    const run = await cli(['view', url, '--allow-http', '-o', 'agents.html'], { cwd: dir });
    // Two agents, and the MCP Server Card and Agent Skills index the example declares.
    expect(run.stderr).toBe('Wrote agents.html (AI Catalog, 4 entries, 2 cards loaded).\n');
    expect(run.code).toBe(0);
    const page = readFileSync(join(dir, 'agents.html'), 'utf8');
    expectSelfContainedPage(page);
    for (const text of ['Acme Billing Agent', 'Acme Support Agent', 'Invoice status', 'Open a ticket']) {
      expect(page).toContain(text);
    }
    // The extended card's skill is for authenticated callers: never on a public page.
    expect(page).not.toContain('Refund an invoice');
  });

  it('two versions of one identifier each show their own card', async () => {
    let origin = '';
    const card = (version: string, skill: string) => ({
      ...JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8')),
      name: 'Versioned',
      version,
      skills: [{ id: skill.toLowerCase().replace(' ', '-'), name: skill, description: skill, tags: ['t'] }],
    });
    const server = await listen((req, res) => {
      const entry = (version: string) => ({
        identifier: 'urn:acme:agent:versioned',
        displayName: 'Versioned',
        version,
        mediaType: 'application/a2a-agent-card+json',
        url: `${origin}/v${version}.json`,
      });
      const body =
        req.url === '/.well-known/ai-catalog.json'
          ? { specVersion: '1.0', entries: [entry('1.0.0'), entry('2.0.0')] }
          : req.url === '/v1.0.0.json'
            ? card('1.0.0', 'Skill One')
            : req.url === '/v2.0.0.json'
              ? card('2.0.0', 'Skill Two')
              : undefined;
      if (body === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    origin = server.url;
    const run = await cli(['view', origin, '--allow-http']);
    expect(run.code).toBe(0);
    const one = run.stdout.indexOf('Skill One');
    const two = run.stdout.indexOf('Skill Two');
    expect(one).toBeGreaterThan(-1);
    expect(two).toBeGreaterThan(one);
  });

  it('a host with no card and no catalog is exit 2', async () => {
    const server = await listen((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
    const run = await cli(['view', server.url, '--allow-http']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `agent-card: ${server.url}: serves no Agent Card at /.well-known/agent-card.json (status 404). Run "agent-card check ${server.url}" for details.\n`,
    );
  });
});

describe('agent-card check --html', () => {
  it('writes the report page and keeps exit status and terminal report as they are', async () => {
    const url = await multiAgent();
    const dir = tmp();
    const plain = await cli(['check', url, '--allow-http', '--profile', 'development']);
    const run = await cli(['check', url, '--allow-http', '--profile', 'development', '--html', 'report.html'], {
      cwd: dir,
    });
    expect(plain.code).toBe(0);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('Wrote report.html.\n');
    const withoutTimes = (text: string) => text.replace(/\d+ ms/g, 'N ms').replace(/\d+ requests/g, 'N requests');
    expect(withoutTimes(run.stdout)).toBe(withoutTimes(plain.stdout));
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    expectSelfContainedPage(page);
    expect(page).toContain(`<h1>Discovery report: ${url}</h1>`);
    expect(page).toContain('<h3>/.well-known/agent-card.json</h3>');
    expect(page).toContain('<h3>/.well-known/agent.json</h3>');
    expect(page).toContain(
      '<dl class="facts headers"><dt><code>content-type</code></dt><dd><code>application/a2a+json</code></dd>',
    );
    expect(page).toContain('<dt><code>etag</code></dt>');
    expect(page).toContain('<h2 id="catalog">AI Catalog</h2>');
    expect(page).toContain('<h3>Agents (2)</h3>');
    for (const text of ['Acme Billing Agent', 'Acme Support Agent', 'Invoice status', 'Open a ticket']) {
      expect(page).toContain(text);
    }
    // Every info finding of the terminal report is on the page, with its fix, in the CLI's words
    // (the listed agents' findings too: none names the library's option).
    expect(page).toContain('<h3>Info (');
    expect(page).toContain('checked over plain http (allowed by --allow-http).');
    expect(page).not.toContain('allowHttp');
    expect(page).toContain('<strong>Fix:</strong> Serve discovery over https in production');
  });

  it('a failing host is still exit 1, and the page lists the errors first with their fixes', async () => {
    let origin = '';
    const card = {
      ...JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8')),
      name: 'Here',
    };
    const server = await listen((req, res) => {
      if (req.url === '/.well-known/ai-catalog.json') {
        const entry = (id: string) => ({
          identifier: `urn:test:${id}`,
          displayName: id,
          mediaType: 'application/a2a-agent-card+json',
          url: `${origin}/${id}.json`,
        });
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ specVersion: '1.0', entries: [entry('Here'), entry('Gone')] }));
      }
      if (req.url === '/Gone.json') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
    });
    origin = server.url;
    const dir = tmp();
    const plain = await cli(['check', origin, '--allow-http', '--profile', 'development']);
    const run = await cli(['check', origin, '--allow-http', '--profile', 'development', '--html', 'r.html'], {
      cwd: dir,
    });
    expect(plain.code).toBe(1);
    expect(run.code).toBe(1);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    expectSelfContainedPage(page);
    expect(page).toContain('<strong class="status-bad">✖ failed</strong>');
    const errors = page.indexOf('<h3>Errors (');
    expect(errors).toBeGreaterThan(-1);
    expect(errors).toBeLessThan(page.indexOf('<h3>Info ('));
    expect(page).toContain('<code>catalog-entry-card</code>');
    expect(page).toContain(
      `${origin}/.well-known/ai-catalog.json entries[1]: the listed card does not load (&quot;status 404&quot; at &quot;${origin}/Gone.json&quot;).`,
    );
    expect(page).toContain('✖ Gone');
  });

  it('refuses to overwrite before sending a single request (exit 2)', async () => {
    const server = await listen((_req, res) => res.writeHead(404).end());
    const dir = tmp();
    writeFileSync(join(dir, 'report.html'), 'keep me');
    const run = await cli(['check', server.url, '--allow-http', '--html', 'report.html'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('agent-card: report.html: already exists. Pass --force to overwrite it.\n');
    expect(server.seen()).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('keep me');
    const forced = await cli(['check', server.url, '--allow-http', '--html', 'report.html', '--force'], { cwd: dir });
    expect(forced.code).toBe(1);
    expectSelfContainedPage(readFileSync(join(dir, 'report.html'), 'utf8'));
  });

  it('--json and --html together: JSON on stdout, the page in the file', async () => {
    const url = await multiAgent();
    const dir = tmp();
    const run = await cli(['check', url, '--allow-http', '--profile', 'development', '--json', '--html', 'r.html'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).origin).toBe(url);
    expectSelfContainedPage(readFileSync(join(dir, 'r.html'), 'utf8'));
  });
});

describe('a hostile host: the pages hold its strings as text only', () => {
  const ATTACK = `<script>alert(1)</script>"><img src=x onerror=alert(2)>' onfocus='alert(3)\u001b[2J\u202e\u0085\t\r`;
  const JS = 'javascript:alert(4)';
  /** C0 (newline aside), DEL, C1 and the bidi controls. */
  const RAW_CONTROL =
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('check --html and view write pages with no markup, link or control character from the host', async () => {
    const card = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    Object.assign(card, { name: `Evil ${ATTACK}`, description: ATTACK, documentationUrl: JS, iconUrl: JS });
    card.provider = { organization: ATTACK, url: JS };
    card.supportedInterfaces[0].url = JS;
    card.skills[0] = { ...card.skills[0], id: ATTACK, name: ATTACK, tags: [ATTACK], examples: [ATTACK] };
    const server = await listen((req, res) => {
      if (req.url === '/.well-known/agent.json') return void res.writeHead(302, { location: JS }).end();
      res
        .writeHead(200, {
          'content-type': 'application/json',
          etag: '"><img src=x onerror=alert(5)>',
          'cache-control': '<script>alert(6)</script>\x9b2J',
        })
        .end(JSON.stringify(card));
    });
    const dir = tmp();
    const check = await cli(['check', server.url, '--allow-http', '--profile', 'development', '--html', 'r.html'], {
      cwd: dir,
    });
    const view = await cli(['view', `${server.url}/.well-known/agent-card.json`, '--allow-http', '-o', 'v.html'], {
      cwd: dir,
    });
    // The card's script URLs are errors: check fails as it does without --html; view renders.
    expect(check.code).toBe(1);
    expect(view.code).toBe(0);
    for (const name of ['r.html', 'v.html']) {
      const page = readFileSync(join(dir, name), 'utf8');
      expectSelfContainedPage(page);
      expect(page, name).not.toMatch(RAW_CONTROL);
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
      expect(page).toContain('[U+001B][2J[U+202E][U+0085]');
    }
    const report = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(report).toContain('<code>&quot;&gt;&lt;img src=x onerror=alert(5)&gt;</code>');
    expect(report).toContain('<code>&lt;script&gt;alert(6)&lt;/script&gt;[U+009B]2J</code>');
    expect(report).toContain(`→ <code>${JS}</code> <strong>(not followed)</strong>`);
  });
});

describe('agent-card view on a terminal', () => {
  /** A terminal session: stdout is a TTY; what is written is kept. */
  const onTerminal = async (args: string[], env: Record<string, string>) => {
    let stdout = '';
    let stderr = '';
    const io: CliIO = {
      stdin: new PassThrough(),
      stdout: { write: (s: string) => void (stdout += s), isTTY: true },
      stderr: { write: (s: string) => void (stderr += s), isTTY: true },
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd: tmp(),
    };
    const code = await run(args, io);
    return { code, stdout, stderr };
  };

  it('writes the page to a file it names instead of printing HTML on the screen', async () => {
    // The user's mistake: `agent-card view card.json` on a terminal, without -o.
    const dir = tmp();
    const shown = await onTerminal(['view', join(cards, 'support.json')], { TMPDIR: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('');
    const file = /^Wrote (.+card\.html) \(card Larkspur Telecom Support Agent\)\.$/m.exec(shown.stderr)?.[1];
    expect(file?.startsWith(join(dir, 'agent-card-view-'))).toBe(true);
    expect(readFileSync(file!, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(shown.stderr).toContain('Open it in a browser, or pass --open next time');
  });

  it('opens the page with $BROWSER when asked with --open', async () => {
    const dir = tmp();
    const opened = join(dir, 'opened.txt');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${JSON.stringify(opened)}\n`, { mode: 0o755 });
    const shown = await onTerminal(['view', join(cards, 'booking.json'), '--open'], { TMPDIR: dir, BROWSER: browser });
    expect(shown.code).toBe(0);
    const file = /^Wrote (.+card\.html)/m.exec(shown.stderr)?.[1];
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(opened, 'utf8').trim()).toBe(file);
  });

  it('says how to open the page by hand when the opener exits with a status (no browser)', async () => {
    const dir = tmp();
    const browser = join(dir, 'no-browser.sh');
    // What xdg-open does on a machine without a browser: a message of its own, then status 3.
    writeFileSync(browser, '#!/bin/sh\necho "no method available for opening" >&2\nexit 3\n', { mode: 0o755 });
    const shown = await onTerminal(['view', join(cards, 'booking.json'), '--open'], { TMPDIR: dir, BROWSER: browser });
    expect(shown.code).toBe(0);
    const file = /^Wrote (.+card\.html)/m.exec(shown.stderr)?.[1];
    expect(shown.stderr).toContain(
      `Could not open it: ${browser} exited with status 3 (no browser?); open ${pathToFileURL(file!).href} in a browser yourself, or set BROWSER to the command that opens one.\n`,
    );
  });

  it('says how to open the page by hand when the opener is not installed', async () => {
    const dir = tmp();
    const browser = join(dir, 'not-installed');
    const shown = await onTerminal(['view', join(cards, 'booking.json'), '--open'], { TMPDIR: dir, BROWSER: browser });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toMatch(
      /Could not open it with .+not-installed \(spawn .+ ENOENT\): open file:\/\/.+card\.html in a browser yourself/,
    );
  });

  it('still prints the HTML when stdout is piped (view card.json > card.html)', async () => {
    const piped = await cli(['view', join(cards, 'support.json')]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^<!doctype html>/i);
  });
});
