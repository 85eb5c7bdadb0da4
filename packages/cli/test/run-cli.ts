// The built CLI run as users run it, for the tests in src/: a child process with only PATH (and
// what a test adds) in its environment, asynchronous so that servers in the test process can
// answer it. Outside src/, so the published package does not ship it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConformanceServer, listenOnLoopback } from '@agent-card/core/testing';

/** The repository's root. */
export const root = fileURLToPath(new URL('../../..', import.meta.url));
/** The built binary the tests run. */
export const bin = join(root, 'packages/cli/dist/cli.mjs');
/** The example cards. */
export const cards = join(root, 'examples/cards');

/** What one run printed and how it ended. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time from start to exit. */
  ms: number;
}

export interface RunOptions {
  /** @default the repository's root */
  cwd?: string;
  /** Added to `{ PATH }`, the whole environment otherwise. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. @default nothing */
  input?: string | Buffer;
  /** Kills the run (`code` 1) after this many milliseconds. @default 30000 */
  timeoutMs?: number;
}

/** Fails the suite at once when the binary has not been built. */
export function requireBuiltCli(): void {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build).`);
}

/** Runs `agent-card ...args`; never rejects: a failing run is a non-zero `code`. */
export function cli(args: string[], options: RunOptions = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: options.cwd ?? root,
        env: { PATH: process.env.PATH ?? '', ...options.env },
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, ms: performance.now() - started });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/**
 * The loopback servers of one test file or block: `listen(server)` starts one on 127.0.0.1 and
 * gives its base URL; `close()` (for `afterAll`) stops them all, kept-alive connections included.
 */
export function loopbackServers(): { listen(server: Server): Promise<string>; close(): Promise<void> } {
  const started: ConformanceServer[] = [];
  return {
    async listen(server) {
      const running = await listenOnLoopback(server);
      started.push(running);
      return running.url;
    },
    async close() {
      await Promise.all(started.splice(0).map((running) => running.close()));
    },
  };
}
