// Packs the workspace packages the way a user receives them and installs the tarballs with npm into
// fresh apps under the system temp directory, outside the repository and its node_modules.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshTarballs, packInto } from '../../scripts/pack.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const appsDir = join(dirname(fileURLToPath(import.meta.url)), 'apps');
/** One npm cache for every app and every run (gitignored), so a second run installs offline. */
export const npmCache = join(repoRoot, '.cache/npm');
export const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** The published packages, by directory under packages/. */
export const packageDirs = readdirSync(join(repoRoot, 'packages')).filter((name) =>
  existsSync(join(repoRoot, 'packages', name, 'package.json')),
);

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; never rejects (the caller asserts on `code`). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...quietEnv(), ...options.env },
        timeout: options.timeout ?? 180_000,
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : (error.signal ?? 'spawn error')) : 0;
        done({
          code: typeof code === 'number' ? code : -1,
          stdout,
          stderr: error && code === -1 ? `${stderr}\n${error.message}` : stderr,
        });
      },
    );
  });
}

/** The environment of a user's shell: no workspace variables leaking in from `pnpm test`. */
function quietEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|VITEST|NODE_OPTIONS$|NODE_PATH$|NODE_ENV$|FORCE_COLOR$)/.test(key)) continue;
    env[key] = value;
  }
  env.NO_COLOR = '1';
  env.npm_config_update_notifier = 'false';
  return env;
}

/** Describes a run for an assertion message: the command's own words when it failed. */
export function explain(result: Run): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

/**
 * The tarballs of every package in one new directory; returns it and the tarballs by package name.
 * The test command packed them once into .cache/tarballs (`scripts/pack.mjs`): they are copied from
 * there while no package changed since, else packed again.
 */
export async function packAll(): Promise<{ dir: string; tarballs: Record<string, string> }> {
  const out = mkdtempSync(join(tmpdir(), 'agent-card-tarballs-'));
  const fresh = freshTarballs();
  if (fresh === undefined) return { dir: out, tarballs: await packInto(out) };
  const tarballs: Record<string, string> = {};
  for (const [name, file] of Object.entries(fresh)) {
    tarballs[name] = join(out, basename(file));
    copyFileSync(file, tarballs[name]);
  }
  return { dir: out, tarballs };
}

export interface AppSpec {
  /** Directory under test/consumer/apps copied into the app (optional). */
  fixture?: string;
  /** `"commonjs"` or `"module"`. */
  type: 'commonjs' | 'module';
  /** Our packages to install from their tarballs. */
  packages: readonly string[];
  /** Registry packages (frameworks, types). */
  registry: readonly string[];
  /** Extra files written into the app: relative path → content. */
  files?: Record<string, string>;
}

/** Creates a fresh app under the temp directory and installs it with npm; returns its directory. */
export async function createApp(name: string, spec: AppSpec, tarballs: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `agent-card-consumer-${name}-`));
  if (spec.fixture) cpSync(join(appsDir, spec.fixture), dir, { recursive: true });
  for (const [file, content] of Object.entries(spec.files ?? {})) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `consumer-${name}`, version: '1.0.0', private: true, type: spec.type }, null, 2)}\n`,
  );
  const missing = spec.packages.filter((pkg) => !tarballs[pkg]);
  if (missing.length > 0) throw new Error(`no tarball for ${missing.join(', ')}`);
  // Core's tarball always goes in: the adapters' dependency on @agent-card/core then resolves to the
  // packed copy instead of the registry, where it is not published yet.
  const result = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      // A registry request that stalls is dropped after a minute and tried again (npm waits 5 minutes
      // by default, as long as the whole install may take here).
      '--fetch-timeout=60000',
      '--fetch-retries=4',
      '--cache',
      npmCache,
      ...spec.packages.map((pkg) => tarballs[pkg]!),
      ...(spec.packages.includes('@agent-card/core') ? [] : [tarballs['@agent-card/core']!]),
      ...spec.registry,
    ],
    { cwd: dir, timeout: 300_000 },
  );
  if (result.code !== 0) throw new Error(`npm install in ${dir} failed\n${explain(result)}`);
  return dir;
}

/** Removes an app directory (only one this harness created). */
export async function removeApp(dir: string | undefined): Promise<void> {
  if (dir?.startsWith(join(tmpdir(), 'agent-card-'))) await rm(dir, { recursive: true, force: true });
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export interface Started {
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `node <entry> ...args` in an app with `PORT` set (a free one unless `env` names it), and
 * waits until it answers HTTP (any status).
 * Rejects with the server's own output if it exits first or does not answer within the time bound.
 */
export async function startServer(
  dir: string,
  entry: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
  args: readonly string[] = [],
): Promise<Started> {
  const port = Number(env.PORT ?? (await freePort()));
  const child: ChildProcess = spawn(process.execPath, [entry, ...args], {
    cwd: dir,
    env: { ...quietEnv(), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  let exited: number | null | undefined;
  const exit = new Promise<void>((done) =>
    child.once('exit', (code) => {
      exited = code;
      done();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      await exit;
    }
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`node ${entry} exited with ${exited} before serving:\n${output}`);
    try {
      await fetch(`${base}/`, { signal: AbortSignal.timeout(1_000) });
      return { base, output: () => output, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`node ${entry} did not answer on ${base} within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((done) => setTimeout(done, 150));
    }
  }
}

/** Fenced code blocks of a Markdown file whose info string names a file: ```js title="server.mjs". */
export function readmeBlocks(readme: string): Record<string, string> {
  const blocks: Record<string, string> = {};
  for (const match of readme.matchAll(/^```[a-z]*[ \t]+title="([^"]+)"[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const [, title, body] = match;
    if (title && blocks[title] === undefined) blocks[title] = body!;
  }
  return blocks;
}

/** The titled code blocks of a README, failing loudly when one the suite needs is gone. */
export function readmeFiles(readmePath: string, titles: readonly string[]): Record<string, string> {
  const blocks = readmeBlocks(readFileSync(join(repoRoot, readmePath), 'utf8'));
  const files: Record<string, string> = {};
  for (const title of titles) {
    const block = blocks[title];
    if (block === undefined) throw new Error(`${readmePath}: no code block titled "${title}"`);
    files[title] = block;
  }
  return files;
}

/** Bare module specifiers a built file imports or requires, as package names (builtins left out). */
export function importedPackages(source: string): Set<string> {
  const names = new Set<string>();
  // TSDoc examples mention packages (`import Ajv2020 from 'ajv/dist/2020'`) that the code never loads.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  // Not the `import` of an import attribute (`with { "resolution-mode": "import" }`), nor a
  // member or option path ending in `.from` (`err('tenant.from', …)`, `tenant.from 'host'`).
  const pattern = /(?:(?<!\.)\bfrom\s*|(?<!["'])\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g;
  for (const [, specifier] of code.matchAll(pattern)) {
    if (specifier!.startsWith('node:') || builtinModules.includes(specifier!)) continue;
    const parts = specifier!.split('/');
    names.add(specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return names;
}

/**
 * Header names the root README's HTTP table promises for a request row (the first column's text),
 * leaving out the ones it marks as conditional ("(and … when …)").
 */
export function readmeHeaders(request: string): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| ${request} |`));
  if (!row) throw new Error(`README.md: no HTTP table row for ${request}`);
  const response = row.split('|')[2]!.replace(/\([^)]*\)/g, '');
  return [...response.matchAll(/`([A-Z][A-Za-z-]+)(?::[^`]*)?`/g)].map(([, name]) => name!.toLowerCase());
}

/** Local names a run of import lines binds (`import a, { b as c, type d } from 'x'` → a, c, d). */
function importedNames(imports: string): Set<string> {
  const names = new Set<string>();
  for (const [, clause] of imports.matchAll(/\bimport\s+(?:type\s+)?([\s\S]*?)\s+from\s/g)) {
    for (const part of clause!.replace(/[{}]/g, ',').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+|\*\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name.replace(/^\*\s*as\s+/, ''));
    }
  }
  return names;
}

/** Splits a block into its leading imports and `declare module` augmentations, and the rest. */
function hoist(code: string): { top: string; body: string } {
  const top: string[] = [];
  const body: string[] = [];
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^import\s/.test(line)) {
      let statement = line;
      while (!/;\s*(\/\/.*)?$/.test(statement) && i + 1 < lines.length) statement += `\n${lines[++i]}`;
      top.push(statement);
    } else if (/^declare module /.test(line)) {
      let statement = line;
      while (!/^}/.test(lines[i]!) && i + 1 < lines.length) statement += `\n${lines[++i]}`;
      top.push(statement);
    } else {
      body.push(line);
    }
  }
  return { top: top.join('\n'), body: body.join('\n') };
}

/**
 * The code blocks of a README as files for a strict type-check in an app that installed the
 * packages: the block titled `server.mjs` as it is (checked as JavaScript), and every untitled
 * ```ts and ```js block as a TypeScript module. A snippet takes some names as given (`app`, `card`,
 * `refundSkill`); `prelude` declares them, inside a function around the snippet so that the
 * snippet's own declarations shadow them, and its imports are added unless the snippet imports
 * the same name.
 */
export function readmeTypeScript(
  readmePath: string,
  prelude: string,
  { server: withServer = true } = {},
): Record<string, string> {
  const readme = readFileSync(join(repoRoot, readmePath), 'utf8');
  const stem = readmePath === 'README.md' ? 'root' : readmePath.split('/')[1]!;
  const files: Record<string, string> = {};
  const server = readmeBlocks(readme)['server.mjs'];
  if (server !== undefined && withServer) files[`readme/${stem}-server.mjs`] = server;
  const given = hoist(prelude);
  for (const match of readme.matchAll(/^```(ts|js)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const line = readme.slice(0, match.index).split('\n').length;
    const { top, body } = hoist(match[2]!);
    const taken = importedNames(top);
    const imports = given.top
      .split('\n')
      .filter((statement) => ![...importedNames(statement)].some((name) => taken.has(name)));
    files[`readme/${stem}-${line}.mts`] = [
      `// ${readmePath}, the code block on line ${line}.`,
      top,
      ...imports,
      'export async function snippet(): Promise<void> {',
      given.body,
      '  await (async () => {',
      body,
      '  })();',
      '}',
      '',
    ].join('\n');
  }
  return files;
}
