// `pnpm demo`: validates the example cards, starts every example service on a free loopback port,
// fetches its card the way an agent would (plus a 304 revalidation and the extended card without
// and with credentials), fetches the card's page for people (and prints its URL), checks the deployment with the `agent-card check` CLI, then shuts
// everything down. Exits non-zero when anything is off.
//
// To add a service, append an entry to `services` below: a script that prints
// "listening on http://…" once it accepts requests, and how to authenticate for its extended card.
import { execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateAgentCard, validateAiCatalog, validateArdManifest } from '../packages/core/dist/index.mjs';
import { brokenCheck, browseLines, checkLine, templateCheck } from './demo-report.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
/** The AI Catalog entry type of an A2A Agent Card. */
const A2A_ENTRY_TYPE = 'application/a2a-agent-card+json';

/** The example services. */
const services = [
  {
    name: 'Express (examples/express)',
    script: here('./express/server.mjs'),
    env: { API_KEYS: 'demo-partner-key' },
    extended: { path: '/a2a/extendedAgentCard', headers: { 'x-api-key': 'demo-partner-key' } },
  },
  {
    name: 'Koa (examples/koa)',
    script: here('./koa/server.mjs'),
    env: { API_TOKENS: 'demo-staff-token' },
    extended: { path: '/a2a/extendedAgentCard', headers: { authorization: 'Bearer demo-staff-token' } },
  },
  {
    name: 'Fastify (examples/fastify)',
    script: here('./fastify/server.mjs'),
    env: { API_KEYS: 'demo-carrier-key' },
    extended: { path: '/a2a/extendedAgentCard', headers: { 'x-api-key': 'demo-carrier-key' } },
  },
  {
    name: 'Hono (examples/hono)',
    script: here('./hono/server.mjs'),
    env: { API_TOKENS: 'demo-staff-token' },
    extended: { path: '/a2a/extendedAgentCard', headers: { authorization: 'Bearer demo-staff-token' } },
  },
  {
    name: 'NestJS (examples/nest)',
    script: here('./nest/server.mjs'),
    env: { API_KEYS: 'demo-ops-key' },
    extended: { path: '/a2a/extendedAgentCard', headers: { 'x-api-key': 'demo-ops-key' } },
  },
];

const CARD_PATH = '/.well-known/agent-card.json';
const VIEWER_PATH = '/.well-known/agent-card.html';
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
const [green, red, dim, bold] = [paint(32), paint(31), paint(2), paint(1)];
const failures = [];

/** Records and prints one expectation. */
function check(ok, what, detail = '') {
  console.log(checkLine(ok, what, detail, { green, red, dim }));
  if (!ok) failures.push(what);
  return ok;
}

function summarize(findings) {
  const count = (severity) => findings.filter((finding) => finding.severity === severity).length;
  return `${count('error')} errors, ${count('warning')} warnings, ${count('info')} info`;
}

async function validateExampleCards() {
  console.log(bold('\nExample cards (examples/cards, profile: production)'));
  const list = async (dir) => (await readdir(dir).catch(() => [])).filter((file) => file.endsWith('.json')).sort();
  // Passed as text: for the broken cards the JSON itself may be what is wrong.
  const validate = async (dir, file) =>
    validateAgentCard(await readFile(dir + file, 'utf8'), { profile: 'production' });

  const good = await list(here('./cards/'));
  for (const file of good) {
    // The example cards are the starter templates of `agent-card init`: production must report
    // each as its template (template-content) and find nothing else wrong.
    // A pass here is a card production refuses, for its template content only: the line says so.
    const { ok, what, detail } = templateCheck(file, (await validate(here('./cards/'), file)).findings);
    check(ok, what, detail);
  }

  // Each broken card is named after the rule it must trigger; report only the ones that do not.
  const brokenDir = here('./cards/broken/');
  const broken = await list(brokenDir);
  const missed = [];
  for (const file of broken) {
    const rule = file.replace(/\.json$/, '');
    const { findings } = await validate(brokenDir, file);
    if (!findings.some((finding) => finding.rule === rule)) missed.push(rule);
  }
  if (broken.length > 0) {
    const { ok, what, detail } = brokenCheck(broken.length, missed);
    check(ok, what, detail);
  }
  if (good.length + broken.length === 0) console.log(dim('  (no cards yet)'));
}

/** Starts a service script on a free port; resolves with its URL once it says it listens. */
function startService(service) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [service.script], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development', ...service.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => fail(new Error('did not start within 15 s')), 15_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${error.message}\n${output}`)); // the caller names the service
    };
    const collect = (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        child.stdout.off('data', collect);
        resolve({ url, stop: () => stopService(child) });
      }
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`exited with ${code}`)));
  });
}

function stopService(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const header = (response, name) => response.headers.get(name) ?? '(none)';

/**
 * Fetches a viewer page and checks it is a self-contained HTML page under the viewer's policy that
 * shows `name`; prints its URL for a person to open.
 */
async function checkViewer(url, name) {
  const response = await fetch(url);
  const html = await response.text();
  const policy = header(response, 'content-security-policy');
  check(
    response.status === 200 &&
      header(response, 'content-type') === 'text/html; charset=utf-8' &&
      policy.startsWith("default-src 'none'") &&
      html.includes(name),
    `viewer page → ${response.status} ${header(response, 'content-type')}, shows ${JSON.stringify(name)}`,
  );
}

/** How to run a service again to open its pages: the demo stops each one when its checks end. */
function browseHint(service, paths) {
  const script = relative(process.cwd(), service.script);
  for (const line of browseLines({ ...service, script }, paths)) console.log(dim(line));
}

/** Runs `agent-card check` (the real CLI binary) against a running service and prints its report. */
function checkWithCli(url) {
  const cli = here('../packages/cli/dist/cli.mjs');
  const args = [cli, 'check', url, '--allow-http', '--profile', 'development', '--no-info'];
  console.log(dim(`  $ agent-card ${args.slice(1).join(' ')}`));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { env: { ...process.env, FORCE_COLOR: colour ? '1' : '0' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        process.stdout.write(`${(stdout + stderr).trimEnd().replace(/^/gm, '    ')}\n`);
        check(code === 0, `agent-card check exits ${code}`);
        resolve();
      },
    );
  });
}

async function demo(service) {
  console.log(bold(`\n${service.name}`));
  const { url, stop } = await startService(service);
  try {
    console.log(dim(`  listening on ${url}`));

    const response = await fetch(url + CARD_PATH);
    const body = await response.text();
    check(response.status === 200, `GET ${CARD_PATH} → ${response.status}`);
    for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin']) {
      console.log(dim(`      ${name}: ${header(response, name)}`));
    }
    const card = JSON.parse(body);
    console.log(dim(`      skills: ${card.skills.map((skill) => skill.id).join(', ')}`));
    console.log(dim(`      security schemes: ${Object.keys(card.securitySchemes ?? {}).join(', ') || '(none)'}`));
    const { valid, findings } = validateAgentCard(card, { profile: 'development' });
    check(valid, 'served card is valid', summarize(findings));

    const etag = response.headers.get('etag');
    const revalidated = await fetch(url + CARD_PATH, { headers: { 'if-none-match': etag ?? '' } });
    const revalidatedBody = await revalidated.text();
    check(
      revalidated.status === 304 && revalidatedBody === '',
      `GET with If-None-Match: ${etag} → ${revalidated.status}`,
    );

    const legacy = await fetch(`${url}/.well-known/agent.json`);
    const legacyBody = await legacy.text();
    check(
      legacy.status === 200 && legacyBody === body && legacy.headers.get('etag') === etag,
      `GET /.well-known/agent.json → ${legacy.status}, same bytes and ETag`,
      header(legacy, 'link'),
    );

    const anonymous = await fetch(url + service.extended.path);
    await anonymous.text();
    check(
      anonymous.status === 401,
      `GET ${service.extended.path} without credentials → ${anonymous.status}`,
      `WWW-Authenticate: ${header(anonymous, 'www-authenticate')}`,
    );

    const authorized = await fetch(url + service.extended.path, { headers: service.extended.headers });
    const extended = authorized.status === 200 ? await authorized.json() : undefined;
    const publicIds = new Set(card.skills.map((skill) => skill.id));
    const extra = extended?.skills.filter((skill) => !publicIds.has(skill.id)).map((skill) => skill.id) ?? [];
    check(
      authorized.status === 200 && extra.length > 0,
      `GET ${service.extended.path} with credentials → ${authorized.status}`,
      `extra skills: ${extra.join(', ') || '(none)'}`,
    );
    check(
      header(authorized, 'cache-control').includes('private') ||
        header(authorized, 'cache-control').includes('no-store'),
      'extended card is not publicly cacheable',
      `cache-control: ${header(authorized, 'cache-control')}`,
    );

    await checkViewer(url + VIEWER_PATH, card.name);

    await checkWithCli(url);
  } finally {
    await stop();
  }
  browseHint(service, [VIEWER_PATH]);
}

/** Two agents and their AI Catalog from one service (examples/multi-agent). */
const multiAgent = {
  name: 'Several agents and the AI catalog (examples/multi-agent)',
  script: here('./multi-agent/server.mjs'),
  env: { API_KEYS: 'demo-billing-key' },
};

async function demoMultiAgent(service) {
  const pages = [];
  console.log(bold(`\n${service.name}`));
  const { url, stop } = await startService(service);
  try {
    console.log(dim(`  listening on ${url}`));
    const response = await fetch(`${url}/.well-known/ai-catalog.json`);
    const catalog = await response.json();
    check(
      response.status === 200,
      `GET /.well-known/ai-catalog.json → ${response.status}`,
      header(response, 'content-type'),
    );
    const { valid, findings } = validateAiCatalog(catalog, { profile: 'development' });
    check(valid, 'served catalog is valid', summarize(findings));
    // The A2A entries name cards this host serves; the entry leaves their name and version to the
    // card (current draft), and says them only to be compared. The other entries (an MCP Server
    // Card, an Agent Skills index) name documents served elsewhere.
    const names = new Map();
    for (const entry of catalog.entries) {
      if (entry.type !== A2A_ENTRY_TYPE) {
        console.log(dim(`    ${entry.identifier}: ${entry.type}, listed at ${entry.url}`));
        continue;
      }
      const path = new URL(entry.url).pathname;
      const card = await fetch(url + path);
      const body = card.status === 200 ? await card.json() : undefined;
      const named =
        typeof body?.name === 'string' &&
        (entry.displayName === undefined || body.name === entry.displayName) &&
        (entry.version === undefined || body.version === entry.version);
      if (named) names.set(entry.url, body.name);
      check(
        named && validateAgentCard(body, { profile: 'development' }).valid,
        `${entry.identifier}: GET ${path} → ${card.status}, a valid card ${JSON.stringify(body?.name)}`,
        `link: ${header(card, 'link')}`,
      );
    }
    await demoDiscoveryDocuments(url, catalog);
    const extended = '/agents/billing/a2a/extendedAgentCard';
    const anonymous = await fetch(url + extended);
    await anonymous.text();
    check(anonymous.status === 401, `GET ${extended} without credentials → ${anonymous.status}`);
    const authorized = await fetch(url + extended, { headers: { 'x-api-key': 'demo-billing-key' } });
    const ids = authorized.status === 200 ? (await authorized.json()).skills.map((skill) => skill.id) : [];
    check(
      ids.includes('refund-invoice') && !ids.includes('open-ticket'),
      `GET ${extended} with the billing key → ${authorized.status}`,
      ids.join(', '),
    );
    const root = await fetch(url + CARD_PATH);
    check((await root.json()).name === 'Acme Support Agent', `GET ${CARD_PATH} → the default agent (support)`);
    await checkViewer(`${url}/.well-known/ai-catalog.html`, 'Acme Corp');
    pages.push('/.well-known/ai-catalog.html');
    for (const [entryUrl, name] of names) {
      const page = new URL(entryUrl).pathname.replace(/\.json$/, '.html');
      await checkViewer(url + page, name);
      pages.push(page);
    }
  } finally {
    await stop();
  }
  browseHint(service, pages);
}

/** ARD from the same agents, the Link header naming both documents, and the card's two media types. */
async function demoDiscoveryDocuments(url, catalog) {
  const response = await fetch(`${url}/.well-known/ard.json`);
  const ard = response.status === 200 ? await response.json() : { entries: [] };
  const { valid, findings } = validateArdManifest(ard);
  check(
    response.status === 200 && valid,
    `GET /.well-known/ard.json → ${response.status}, a valid ARD manifest`,
    `${ard.entries.length} entries; ${summarize(findings)}`,
  );
  // ARD lists the agents and skills of the catalog (not its MCP Server Cards), under the same
  // identifiers and URLs; every A2A card of the catalog is in it.
  const listed = new Set(catalog.entries.map((e) => `${e.identifier} ${e.url}`));
  const inArd = new Set(ard.entries.map((e) => `${e.identifier} ${e.url}`));
  const cards = catalog.entries.filter((e) => e.type === A2A_ENTRY_TYPE);
  check(
    ard.entries.length > 0 &&
      [...inArd].every((key) => listed.has(key)) &&
      cards.every((e) => inArd.has(`${e.identifier} ${e.url}`)),
    "ARD lists the AI Catalog's cards, under the same identifiers",
    ard.entries.map((e) => `${e.identifier} (${e.representativeQueries?.length ?? 0} queries)`).join(', '),
  );
  const path = new URL(cards[0].url).pathname;
  const plain = await fetch(url + path);
  await plain.arrayBuffer();
  const link = header(plain, 'link');
  check(link.includes('rel="ai-catalog"') && link.includes('rel="ard"'), `GET ${path}: Link names both`, link);
  const asked = await fetch(url + path, { headers: { accept: 'application/a2a-agent-card+json' } });
  await asked.arrayBuffer();
  check(
    header(asked, 'content-type') === 'application/a2a-agent-card+json' && header(asked, 'vary').includes('Accept'),
    `GET ${path} with Accept: application/a2a-agent-card+json → that type`,
    `default ${header(plain, 'content-type')}; Vary: ${header(asked, 'vary')}`,
  );
  const again = await fetch(url + path, {
    headers: { accept: 'application/a2a-agent-card+json', 'if-none-match': header(asked, 'etag') },
  });
  check(again.status === 304, `… and its own ETag → ${again.status}`);
}

await validateExampleCards();
for (const service of services) {
  try {
    await demo(service);
  } catch (error) {
    check(false, `${service.name}: ${error.message}`);
  }
}

try {
  await demoMultiAgent(multiAgent);
} catch (error) {
  check(false, `${multiAgent.name}: ${error.message}`);
}

console.log(failures.length === 0 ? green('\nAll checks passed.') : red(`\n${failures.length} check(s) failed.`));
process.exitCode = failures.length === 0 ? 0 : 1;
