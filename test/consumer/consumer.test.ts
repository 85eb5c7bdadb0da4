// The packages as users receive them: every package packed with `pnpm pack`, the tarballs installed
// with npm (not the workspace) into fresh apps under the temp directory, each app built and started,
// and the card checked over HTTP. Slow by nature (npm installs from the registry, with one shared
// cache), so the apps are installed in parallel while the first ones are tested.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppSpec,
  createApp,
  explain,
  importedPackages,
  npmCache,
  packAll,
  readmeFiles,
  readmeHeaders,
  removeApp,
  run,
  type Run,
  type Started,
  startServer,
  tsc,
} from './harness';
import { readmeTypeChecks } from './readme-snippets';

const ours = [
  '@agent-card/core',
  '@agent-card/discovery',
  '@agent-card/express',
  '@agent-card/koa',
  '@agent-card/nest',
  '@agent-card/fastify',
  '@agent-card/hono',
  '@agent-card/a2a-js',
  '@agent-card/cli',
];
const nest = (major: 11 | 12) => [
  `@nestjs/common@^${major}`,
  `@nestjs/core@^${major}`,
  `@nestjs/platform-express@^${major}`,
  `@nestjs/platform-fastify@^${major}`,
  'reflect-metadata@^0.2.2',
  'rxjs@^7.8.2',
  '@types/node@^20.19.0',
];

// The first example of each README, exactly as written, run in the apps next to the suite's own.
const block = (readmePath: string, title: string) => readmeFiles(readmePath, [title])[title]!;
const expressReadme = {
  'readme/express.mjs': block('packages/express/README.md', 'server.mjs'),
  'readme/express.cjs': block('packages/express/README.md', 'server.cjs'),
  'readme/root.mjs': block('README.md', 'server.mjs'),
};
const koaReadme = {
  'readme/koa.mjs': block('packages/koa/README.md', 'server.mjs'),
  'readme/koa.cjs': block('packages/koa/README.md', 'server.cjs'),
};
const fastifyReadme = {
  'readme/fastify.mjs': block('packages/fastify/README.md', 'server.mjs'),
  'readme/fastify.cjs': block('packages/fastify/README.md', 'server.cjs'),
};
const honoReadme = {
  'readme/hono.mjs': block('packages/hono/README.md', 'server.mjs'),
  'readme/hono.cjs': block('packages/hono/README.md', 'server.cjs'),
};
const a2aJsReadme = {
  'readme/a2a-js.mjs': block('packages/a2a-js/README.md', 'server.mjs'),
  'readme/a2a-js.cjs': block('packages/a2a-js/README.md', 'server.cjs'),
};
const nestReadme = {
  'src/app.module.ts': block('packages/nest/README.md', 'src/app.module.ts'),
  'src/main.ts': block('packages/nest/README.md', 'src/main.ts'),
};

// Nest 11 here: a CommonJS project cannot import the ESM-only Nest 12 under node16 resolution. No
// @types/koa: npm installs express 5 as the adapter's peer, its content-disposition 1 is hoisted,
// and @types/koa then fails by itself with skipLibCheck off (TS2694), which is not ours to test.
const typesRegistry = [
  '@nestjs/common@^11',
  '@nestjs/core@^11',
  'reflect-metadata@^0.2.2',
  'rxjs@^7.8.2',
  '@types/express@^5',
  'fastify@^5.4.0',
  'hono@^4.6.0',
  '@hono/node-server@^2.1.9',
  '@a2a-js/sdk@^1.3.0',
];

const apps = {
  // First: the packaging checks wait for it, and its type-checks then run while the others install.
  // The oldest @types/node we support, checked by the workspace's TypeScript.
  types: {
    fixture: 'types',
    type: 'commonjs',
    packages: ours,
    registry: [...typesRegistry, '@types/node@^20.19.0'],
    files: readmeTypeChecks,
  },
  // What `npm i -D typescript @types/node` installs today: the newest of both, checked by its own tsc.
  typesLatest: {
    fixture: 'types',
    type: 'commonjs',
    packages: ours,
    registry: [...typesRegistry, '@types/node@latest', 'typescript@latest'],
    files: readmeTypeChecks,
  },
  express4: {
    fixture: 'express',
    type: 'commonjs',
    packages: ['@agent-card/express'],
    registry: ['express@^4.21.2'],
    files: expressReadme,
  },
  express5: {
    fixture: 'express',
    type: 'module',
    packages: ['@agent-card/express'],
    registry: ['express@^5.1.0'],
    files: expressReadme,
  },
  koa2: {
    fixture: 'koa',
    type: 'commonjs',
    packages: ['@agent-card/koa'],
    registry: ['koa@^2.16.1'],
    files: koaReadme,
  },
  koa3: { fixture: 'koa', type: 'module', packages: ['@agent-card/koa'], registry: ['koa@^3.0.0'], files: koaReadme },
  fastify4: {
    fixture: 'fastify',
    type: 'commonjs',
    packages: ['@agent-card/fastify'],
    registry: ['fastify@^4.29.1'],
    files: fastifyReadme,
  },
  fastify5: {
    fixture: 'fastify',
    type: 'module',
    packages: ['@agent-card/fastify'],
    registry: ['fastify@^5.4.0'],
    files: fastifyReadme,
  },
  // One install for both module forms: server.cjs is CommonJS whatever the package type says.
  hono4: {
    fixture: 'hono',
    type: 'module',
    packages: ['@agent-card/hono'],
    registry: ['hono@^4.6.0', '@hono/node-server@^2.1.9'],
    files: honoReadme,
  },
  a2aJs: {
    fixture: 'a2a-js',
    type: 'module',
    packages: ['@agent-card/a2a-js', '@agent-card/express'],
    registry: ['@a2a-js/sdk@^1.3.0', 'express@^5.1.0'],
    files: a2aJsReadme,
  },
  nest11: { fixture: 'nest', type: 'commonjs', packages: ['@agent-card/nest'], registry: nest(11), files: nestReadme },
  nest12: { fixture: 'nest', type: 'module', packages: ['@agent-card/nest'], registry: nest(12), files: nestReadme },
} satisfies Record<string, AppSpec>;
type AppName = keyof typeof apps;

const installs = new Map<AppName, Promise<string>>();
const app = (name: AppName) => installs.get(name) ?? Promise.reject(new Error(`${name} was not installed`));

/** At most `size` installs at a time: npm waits on the network more than on the two cores. */
function pool(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= size) await new Promise<void>((done) => waiting.push(done));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

let tarballDir: string | undefined;
let packed: Record<string, string> | undefined;

const typeProjects = ['tsconfig.node16.json', 'tsconfig.bundler.json', 'tsconfig.readme.json'] as const;
const typeApps = ['types', 'typesLatest'] as const;
const typeChecks = new Map<string, Promise<Run>>();
/** The app's own TypeScript when it installed one, else the workspace's. */
const tscOf = (dir: string) =>
  existsSync(join(dir, 'node_modules/typescript/bin/tsc')) ? join(dir, 'node_modules/typescript/bin/tsc') : tsc;

beforeAll(async () => {
  const tarballs = packAll().then(({ dir, tarballs }) => ((tarballDir = dir), (packed = tarballs)));
  const limit = pool(3);
  // Each test awaits its own app, so the later apps keep installing while the first are tested.
  for (const [name, spec] of Object.entries(apps) as [AppName, AppSpec][]) {
    const installed = tarballs.then((byName) => limit(() => createApp(name, spec, byName)));
    installed.catch(() => undefined);
    installs.set(name, installed);
  }
  // tsc is the slowest step and needs the CPU while npm mostly waits on the network: start the
  // type-checks as soon as their app is installed, one after the other, and let the tests await them.
  let previous: Promise<unknown> = app('types');
  for (const name of typeApps) {
    for (const project of typeProjects) {
      const checked = Promise.all([previous.catch(() => undefined), app(name)]).then(([, dir]) =>
        run(process.execPath, [tscOf(dir), '-p', project], { cwd: dir }),
      );
      checked.catch(() => undefined);
      typeChecks.set(`${name} ${project}`, checked);
      previous = checked;
    }
  }
  await tarballs;
}, 240_000);

afterAll(async () => {
  const dirs = [...installs.values()].map((promise) => promise.catch(() => undefined));
  await Promise.all([...dirs, tarballDir].map(async (dir) => removeApp(await dir)));
}, 120_000);

interface CardCheck {
  name: string;
  skills: string[];
  ownRoute: string;
  ownBody: Record<string, unknown>;
  /** The app turns the viewer on (the Express and Koa apps; the Nest apps are README examples). */
  viewer?: boolean;
}

/** What a user notices: the card is served with its headers, a 304 on revalidation, the app still answers. */
async function expectCardServed(server: Started, expected: CardCheck): Promise<void> {
  const response = await fetch(`${server.base}/.well-known/agent-card.json`);
  expect(response.status, server.output()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/a2a+json');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const etag = response.headers.get('etag');
  expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  const card = (await response.json()) as { name: string; skills: { id: string }[] };
  expect(card.name).toBe(expected.name);
  expect(card.skills.map((skill) => skill.id)).toEqual(expected.skills);

  for (const header of readmeHeaders('`GET /.well-known/agent-card.json`')) {
    expect(response.headers.has(header), `the README promises ${header} on a 200`).toBe(true);
  }

  const revalidated = await fetch(`${server.base}/.well-known/agent-card.json`, {
    headers: { 'if-none-match': etag! },
  });
  expect(revalidated.status).toBe(304);
  // The README's table is what users read: each header it lists for a 304 is there, and no other.
  const promised = readmeHeaders('`If-None-Match` that matches');
  const sent = [...revalidated.headers.keys()].filter(
    (name) => !['connection', 'date', 'keep-alive', 'x-powered-by'].includes(name),
  );
  expect(sent.sort()).toEqual([...promised].sort());
  const legacy = await fetch(`${server.base}/.well-known/agent.json`);
  expect(legacy.headers.get('etag')).toBe(etag);

  // An app that turns the viewer on gets the built page, served with its policy.
  const page = await fetch(`${server.base}/.well-known/agent-card.html`);
  if (expected.viewer) {
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(await page.text()).toContain(`<h1>${expected.name}</h1>`);
  } else {
    expect(page.status).toBe(404);
  }

  const own = await fetch(server.base + expected.ownRoute);
  expect(own.status).toBe(200);
  expect(await own.json()).toMatchObject(expected.ownBody);
}

describe.each(ours)('%s as packed', (name) => {
  it('declares exactly the packages its dist imports (bundled code is not a dependency)', async () => {
    const dir = join(await app('types'), 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const runtime = new Set<string>();
    const types = new Set<string>();
    for (const file of readdirSync(join(dir, 'dist'))) {
      const into = /\.d\.[cm]ts$/.test(file) ? types : /\.[cm]js$/.test(file) ? runtime : undefined;
      for (const pkg of importedPackages(readFileSync(join(dir, 'dist', file), 'utf8'))) into?.add(pkg);
    }
    const undeclared = [...new Set([...runtime, ...types])].filter((pkg) => pkg !== name && !declared.has(pkg));
    expect({ undeclared }).toEqual({ undeclared: [] });
    const unused = Object.keys(manifest.dependencies ?? {}).filter((pkg) => !runtime.has(pkg));
    expect({ unused }).toEqual({ unused: [] });
  }, 300_000);
});

const ordersAgent = { name: 'Orders Agent', skills: ['order-status'], ownRoute: '/api/ping' };

describe.each([
  ['express4', 'server.cjs', 'express', 'commonjs', /^4\./],
  ['express5', 'server.mjs', 'express', 'module', /^5\./],
  ['koa2', 'server.cjs', 'koa', 'commonjs', /^2\./],
  ['koa3', 'server.mjs', 'koa', 'module', /^3\./],
  ['fastify4', 'server.cjs', 'fastify', 'commonjs', /^4\./],
  ['fastify5', 'server.mjs', 'fastify', 'module', /^5\./],
  ['hono4', 'server.mjs', 'hono', 'module', /^4\./],
  ['hono4', 'server.cjs', 'hono', 'commonjs', /^4\./],
  ['a2aJs', 'server.mjs', 'a2a-js', 'module', /^1\./],
  ['a2aJs', 'server.cjs', 'a2a-js', 'commonjs', /^1\./],
] as const)('%s app from the tarballs (%s)', (name, entry, framework, module, version) => {
  it(`serves the card from node ${entry}`, async () => {
    const dir = await app(name);
    const server = await startServer(dir, entry);
    try {
      await expectCardServed(server, { ...ordersAgent, ownBody: { framework, module }, viewer: true });
      const ping = (await (await fetch(`${server.base}/api/ping`)).json()) as { version: string };
      expect(ping.version).toMatch(version);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

describe.each([
  ['express4', 'readme/express.cjs', 'packages/express/README.md server.cjs'],
  ['express4', 'readme/express.mjs', 'packages/express/README.md server.mjs'],
  ['express5', 'readme/express.mjs', 'packages/express/README.md server.mjs'],
  ['express5', 'readme/express.cjs', 'packages/express/README.md server.cjs'],
  ['express5', 'readme/root.mjs', 'README.md server.mjs'],
  ['koa2', 'readme/koa.cjs', 'packages/koa/README.md server.cjs'],
  ['koa3', 'readme/koa.mjs', 'packages/koa/README.md server.mjs'],
  ['koa3', 'readme/koa.cjs', 'packages/koa/README.md server.cjs'],
  ['fastify4', 'readme/fastify.cjs', 'packages/fastify/README.md server.cjs'],
  ['fastify4', 'readme/fastify.mjs', 'packages/fastify/README.md server.mjs'],
  ['fastify5', 'readme/fastify.mjs', 'packages/fastify/README.md server.mjs'],
  ['fastify5', 'readme/fastify.cjs', 'packages/fastify/README.md server.cjs'],
  ['hono4', 'readme/hono.mjs', 'packages/hono/README.md server.mjs'],
  ['hono4', 'readme/hono.cjs', 'packages/hono/README.md server.cjs'],
  ['a2aJs', 'readme/a2a-js.mjs', 'packages/a2a-js/README.md server.mjs'],
  ['a2aJs', 'readme/a2a-js.cjs', 'packages/a2a-js/README.md server.cjs'],
] as const)('%s app running %s as written ($2)', (name, entry, _source) => {
  it('serves the card, prints nothing, and the app goes on answering', async () => {
    const server = await startServer(await app(name), entry);
    try {
      const response = await fetch(`${server.base}/.well-known/agent-card.json`);
      expect(response.status, server.output()).toBe(200);
      expect(((await response.json()) as { name: string }).name).toBe('Orders Agent');
      if (entry !== 'readme/root.mjs') expect(await (await fetch(`${server.base}/`)).text()).toBe('orders service');
      expect(server.output()).toBe('');
    } finally {
      await server.stop();
    }
  }, 300_000);
});

/** A JSON-RPC `GetExtendedAgentCard` call to the SDK's handler, as an SDK client sends it. */
async function extendedOverJsonRpc(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetExtendedAgentCard', params: {} }),
  });
  return (await response.json()) as {
    id: number;
    error?: { code: number; message: string };
    result?: { skills: { id: string }[] };
  };
}

describe.each([
  ['server.mjs', 'partner-key', {}],
  ['server.cjs', 'partner-key', {}],
  ['readme/a2a-js.mjs', 'readme-key', { PARTNER_KEY: 'readme-key' }],
  ['readme/a2a-js.cjs', 'readme-key', { PARTNER_KEY: 'readme-key' }],
] as const)('a2aJs app running %s: the extended card over both transports', (entry, key, env) => {
  it('refuses it without the key or with a wrong one, and serves the same card with it', async () => {
    const server = await startServer(await app('a2aJs'), entry, env);
    try {
      for (const headers of [{}, { 'x-api-key': `${key}-wrong` }, { 'x-api-key': '' }] as Record<string, string>[]) {
        const refused = await extendedOverJsonRpc(server.base, headers);
        expect(refused.result, server.output()).toBeUndefined();
        expect(refused.error).toMatchObject({
          code: -32000,
          message: 'Authentication is required to read the extended agent card.',
        });
        const rest = await fetch(`${server.base}/a2a/rest/extendedAgentCard`, { headers });
        expect(rest.status).toBe(401);
        expect(rest.headers.get('www-authenticate')).toMatch(/x-api-key/i);
      }
      const granted = await extendedOverJsonRpc(server.base, { 'x-api-key': key });
      expect(granted.error, server.output()).toBeUndefined();
      expect(granted.result?.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
      const rest = await fetch(`${server.base}/a2a/rest/extendedAgentCard`, { headers: { 'x-api-key': key } });
      expect(rest.status).toBe(200);
      expect(((await rest.json()) as { skills: { id: string }[] }).skills.map((skill) => skill.id)).toEqual([
        'order-status',
        'refund',
      ]);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

it('a2aJs app running the README example with no PARTNER_KEY set gives the extended card to nobody', async () => {
  const server = await startServer(await app('a2aJs'), 'readme/a2a-js.mjs');
  try {
    // An unset key must not match a request that sends no key at all.
    const refused = await extendedOverJsonRpc(server.base);
    expect(refused.error?.code, server.output()).toBe(-32000);
    expect((await fetch(`${server.base}/a2a/rest/extendedAgentCard`)).status).toBe(401);
  } finally {
    await server.stop();
  }
}, 300_000);

describe.each([
  ['nest11', 'commonjs', /^11\./],
  ['nest12', 'module', /^12\./],
] as const)('%s app from the tarballs, compiled by tsc (%s)', (name, type, version) => {
  it('compiles with legacy decorators and decorator metadata (tsconfig as Nest starts it)', async () => {
    const dir = await app(name);
    const built = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir });
    expect(built.code, explain(built)).toBe(0);
    const nestVersion = JSON.parse(readFileSync(join(dir, 'node_modules/@nestjs/core/package.json'), 'utf8')).version;
    expect(nestVersion).toMatch(version);
    const emitted = readFileSync(join(dir, 'dist/serve.js'), 'utf8');
    expect(emitted.includes('require(')).toBe(type === 'commonjs');
  }, 300_000);

  it.each([
    ['the README example', 'readme', 'express'],
    ['the README example', 'readme', 'fastify'],
    ['a module with an injected service', 'orders', 'express'],
    ['a module with an injected service', 'orders', 'fastify'],
  ])(
    'serves the card built from @Skill() in %s on platform-$2',
    async (_what, APP, PLATFORM) => {
      const server = await startServer(await app(name), 'dist/serve.js', { APP, PLATFORM });
      try {
        await expectCardServed(server, {
          name: 'Acme Shop',
          skills: ['place-order', 'track-order'],
          ownRoute: '/api/orders/7',
          ownBody: { status: 'shipped' },
        });
      } finally {
        await server.stop();
      }
    },
    60_000,
  );
});

describe.each([
  ['types', '@types/node 20 and the workspace TypeScript'],
  ['typesLatest', 'the newest @types/node and TypeScript'],
] as const)('a TypeScript user of every package (skipLibCheck: false, %s: %s)', (name, _versions) => {
  it.each([
    ['node16 (check.cts and check.mts)', 'tsconfig.node16.json'],
    ['bundler (check.ts)', 'tsconfig.bundler.json'],
    ['node16, strict, the README code blocks as TypeScript', 'tsconfig.readme.json'],
  ])(
    'type-checks with module/moduleResolution %s',
    async (_label, project) => {
      const checked = await typeChecks.get(`${name} ${project}`)!;
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.code).toBe(0);
    },
    300_000,
  );

  it('installed the TypeScript and @types/node it names', async () => {
    const dir = await app(name);
    const version = (pkg: string) =>
      JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    if (name === 'types') expect(version('@types/node')).toMatch(/^20\./);
    else expect(Number(version('typescript').split('.')[0])).toBeGreaterThanOrEqual(7);
  }, 300_000);
});

describe('@agent-card/discovery from the tarballs', () => {
  const card = {
    name: 'Orders Agent',
    description: 'Answers questions about Acme orders.',
    version: '1.0.0',
    supportedInterfaces: [{ url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
  };
  const script = (load: string) => `${load}
discoverAgentCard(process.argv[2], { allowHttp: true, probeHttp: false, profile: 'development', timeoutMs: 5000 }).then(
  (report) => console.log(JSON.stringify({ status: report.primary.status, name: report.card?.name, requests: report.requests })),
);
`;

  it.each([
    ['discover.mjs', "import { discoverAgentCard } from '@agent-card/discovery';"],
    ['discover.cjs', "const { discoverAgentCard } = require('@agent-card/discovery');"],
  ])(
    '%s checks a host with the packed package and the packed core',
    async (file, load) => {
      const server = createServer((req, res) => {
        if (req.url === '/.well-known/agent-card.json') {
          res.writeHead(200, { 'content-type': 'application/a2a+json' }).end(JSON.stringify(card));
        } else res.writeHead(404).end();
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const dir = await app('types');
        writeFileSync(join(dir, file), script(load));
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const result = await run(process.execPath, [file, origin], { cwd: dir });
        expect(result.code, explain(result)).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ status: 200, name: 'Orders Agent' });
      } finally {
        await new Promise((done) => server.close(done));
      }
    },
    300_000,
  );
});

describe('the CLI through npx, from the tarballs', () => {
  const npx = (dir: string, args: string[]) => run('npx', ['--no-install', '@agent-card/cli', ...args], { cwd: dir });

  it('prints its help', async () => {
    const help = await npx(await app('types'), ['--help']);
    expect(help.code, explain(help)).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agent-card /m);
    for (const command of ['check', 'validate', 'view', 'init', 'migrate', 'diff', 'sign', 'verify']) {
      expect(help.stdout).toContain(`  ${command} `);
    }
  }, 300_000);

  it('writes a card with init (no terminal, flags only) whose printed next step passes', async () => {
    const dir = await app('types');
    const init = await npx(dir, [
      'init',
      '--template',
      'booking',
      '--name',
      'Table Booker',
      '--binding',
      'HTTP+JSON',
      '--url',
      'https://book.acme-corp.io/a2a',
    ]);
    expect(init.code, explain(init)).toBe(0);
    const card = JSON.parse(readFileSync(join(dir, 'agent-card.json'), 'utf8'));
    expect(card.name).toBe('Table Booker');
    expect(card.supportedInterfaces[0].protocolBinding).toBe('HTTP+JSON');
    // Installed in the app, init names the local bin, which npx finds without the registry.
    const next = /check it now \(warnings list what is still the template's\): npx agent-card (.+)$/m.exec(init.stdout);
    expect(next?.[1], explain(init)).toBe('validate agent-card.json --profile development');
    const validate = await run('npx', ['--no-install', 'agent-card', ...next![1]!.split(' ')], { cwd: dir });
    expect(validate.code, explain(validate)).toBe(0);
    expect(validate.stdout).toContain('⚠ warning template-content  /description');
    // description, three skills, four OAuth endpoint URLs, the scheme's description and its two
    // scope descriptions are still the template's.
    expect(validate.stdout).toMatch(/✔ valid: 0 errors, 11 warnings/);
    // Production refuses the template content until it is replaced.
    const production = await npx(dir, ['validate', 'agent-card.json']);
    expect(production.code, explain(production)).toBe(1);
    expect(production.stdout).toContain('✖ error   template-content  /description');
    // view loads @agent-card/core/view from the packed core: its sub-entry must be in the tarball.
    const view = await npx(dir, ['view', 'agent-card.json', '-o', 'card.html']);
    expect(view.code, explain(view)).toBe(0);
    const page = readFileSync(join(dir, 'card.html'), 'utf8');
    expect(page).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(page).toContain('<h1>Table Booker</h1>');
  }, 300_000);

  it('started with npx --package and the tarballs (before publish), prints a next step that runs as printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-card-npx-'));
    const env = { npm_config_cache: npmCache, npm_config_prefer_offline: 'true' };
    try {
      const core = packed!['@agent-card/core']!;
      const discovery = packed!['@agent-card/discovery']!;
      const cli = packed!['@agent-card/cli']!;
      const init = await run(
        'npx',
        [
          '--yes',
          '--package',
          core,
          '--package',
          discovery,
          '--package',
          cli,
          'agent-card',
          'init',
          '--name',
          'Table Booker',
          '--url',
          'https://book.acme-corp.io/a2a',
        ],
        { cwd: dir, env },
      );
      expect(init.code, explain(init)).toBe(0);
      const line = /check it now \(warnings list what is still the template's\): (.+)$/m.exec(init.stdout)?.[1];
      expect(line, explain(init)).toBe(
        `npx --package ${core} --package ${discovery} --package ${cli} agent-card validate agent-card.json --profile development`,
      );
      const validate = await run('npx', ['--yes', ...line!.split(' ').slice(1)], { cwd: dir, env });
      expect(validate.code, explain(validate)).toBe(0);
      expect(validate.stdout).toMatch(/✔ valid: 0 errors/);
    } finally {
      await removeApp(dir);
    }
  }, 300_000);
});
