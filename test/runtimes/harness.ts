/**
 * Real runtimes from npm for the runtime tests: workerd (through wrangler's local mode), Deno and
 * Bun, installed once into the git-ignored `.cache/runtimes` at the versions below, started on a
 * free loopback port and stopped by the test that started them. Where one cannot be installed or
 * cannot run (no network on a first run, a platform with no build), its tests are skipped with a
 * loud message naming the reason.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The apps each runtime serves (plain JavaScript importing the built packages). */
export const APPS_DIR = fileURLToPath(new URL('./apps/', import.meta.url));
const INSTALL_DIR = join(REPO_ROOT, '.cache/runtimes');
const NPM_CACHE = join(REPO_ROOT, '.cache/npm');

/** The runtimes under test, at exact versions, as npm packages. */
export const RUNTIME_PACKAGES = { wrangler: '4.86.0', deno: '2.9.6', bun: '1.4.5' } as const;
export type RuntimeTool = keyof typeof RUNTIME_PACKAGES;

/** The path of a tool's binary in the install directory. */
export const binary = (tool: RuntimeTool) => join(INSTALL_DIR, 'node_modules/.bin', tool);

interface Ran {
  code: number;
  output: string;
}

function run(command: string, args: readonly string[], cwd: string, timeout: number): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, output: `${stdout}${stderr}${error && code === -1 ? error.message : ''}` });
    });
  });
}

let installing: Promise<Record<RuntimeTool, string | undefined>> | undefined;

/**
 * Installs the runtimes (once per machine: a second run finds them) and tries each binary;
 * resolves to the reason each one cannot run, `undefined` for those that can.
 */
export function prepareRuntimes(): Promise<Record<RuntimeTool, string | undefined>> {
  installing ??= (async () => {
    const specs = Object.entries(RUNTIME_PACKAGES).map(([name, version]) => `${name}@${version}`);
    const marker = join(INSTALL_DIR, `installed-${specs.join('+')}`);
    let installProblem: string | undefined;
    if (!existsSync(marker)) {
      mkdirSync(INSTALL_DIR, { recursive: true });
      writeFileSync(join(INSTALL_DIR, 'package.json'), '{ "private": true }\n');
      const npm = await run(
        'npm',
        // A stalled registry request is dropped after a minute and tried again, as in the consumer suite.
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--fetch-timeout=60000',
          '--fetch-retries=4',
          '--cache',
          NPM_CACHE,
          ...specs,
        ],
        INSTALL_DIR,
        300_000,
      );
      if (npm.code === 0) writeFileSync(marker, '');
      else
        installProblem = `npm install ${specs.join(' ')} failed: ${npm.output.trim().split('\n').slice(-3).join(' ')}`;
    }
    const out = {} as Record<RuntimeTool, string | undefined>;
    for (const tool of Object.keys(RUNTIME_PACKAGES) as RuntimeTool[]) {
      if (!existsSync(binary(tool))) {
        out[tool] = installProblem ?? `${binary(tool)} is missing`;
        continue;
      }
      const version = await run(binary(tool), ['--version'], INSTALL_DIR, 60_000);
      out[tool] = version.code === 0 ? undefined : `${tool} --version exited ${version.code}: ${version.output.trim()}`;
    }
    return out;
  })();
  return installing;
}

/** Says, where everyone sees it, that a runtime's tests are skipped and why. */
export function warnSkipped(what: string, reason: string): void {
  const line = '!'.repeat(100);
  console.warn(`\n${line}\n!! SKIPPING ${what.toUpperCase()} TESTS: ${reason}\n${line}\n`);
}

/** A port nothing listens on, on 127.0.0.1, for a runtime that cannot report the one it took. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A runtime serving an app on loopback. */
export interface RunningApp {
  url: string;
  /** Everything it printed, for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

interface StartOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** How the port is known: printed (`listening on <port>`), or given and polled until it answers. */
  port: 'printed' | number;
  timeout?: number;
}

/** Process groups still running: killed when the test process exits, even after a timed-out hook. */
const groups = new Set<number>();
process.once('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const killer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    try {
      // The whole group: wrangler starts workerd as a child of its own.
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(killer);
      resolve();
    }
  });
}

/** Starts `command` in a process group of its own and waits until its app answers on loopback. */
export async function startApp(command: string, args: readonly string[], options: StartOptions): Promise<RunningApp> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid !== undefined) {
    groups.add(pid);
    child.once('exit', () => groups.delete(pid));
  }
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + (options.timeout ?? 60_000);
  try {
    let port = typeof options.port === 'number' ? options.port : undefined;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${command} did not answer in time:\n${output}`);
      if (port === undefined) port = Number(/listening on (\d+)/.exec(output)?.[1]) || undefined;
      if (port !== undefined) {
        // A Worker that failed to build leaves wrangler's proxy listening and never answering.
        const answered = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
          () => true,
          () => false,
        );
        if (answered) break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/**
 * `wrangler dev` in local mode (workerd on this machine, nothing sent to Cloudflare) for a Worker
 * entry, with no compatibility flags; its state lives in a temporary directory removed on stop.
 */
export async function startWorker(entry: string): Promise<RunningApp> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-workerd-'));
  const [port, inspector] = [await freePort(), await freePort()];
  const app = await startApp(
    binary('wrangler'),
    [
      'dev',
      entry,
      '--name',
      'agent-card-runtime-test',
      '--compatibility-date',
      '2026-04-01',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(dir, 'state'),
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: dir,
      port,
      timeout: 60_000,
      env: {
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_LOG_PATH: join(dir, 'logs'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        CI: '1',
      },
    },
  ).catch((error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...app,
    stop: async () => {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
