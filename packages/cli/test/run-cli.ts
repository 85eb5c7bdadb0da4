// The CLI for the tests in src/, two ways. `cli` runs the program in this process, through
// `run` with its own stdin, stdout, stderr, environment and working directory: what the binary
// does, less the start of a Node process per case. `cliBinary` runs the built binary as users run
// it, a child process with only PATH (and what a test adds) in its environment, asynchronous so
// that servers in the test process can answer it; a few tests use it to prove the wiring of the
// binary itself (exit status, stdin pipe, environment read at start-up). Outside src/, so the
// published package does not ship it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type ConformanceServer, listenOnLoopback } from '@agent-card/core/testing';
import type { CliIO } from '../src/io';
import { run } from '../src/program';
import { guardOutput, visible } from '../src/terminal';

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
  /** Ends the run (`code` 1) after this many milliseconds. @default 30000 */
  timeoutMs?: number;
}

/** Fails the suite at once when the binary has not been built. */
export function requireBuiltCli(): void {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build).`);
}

/** A stream that keeps what is written as the bytes a pipe would carry, read back as UTF-8. */
function sink(): { stream: { write(chunk: string): boolean }; text(): string } {
  const chunks: Buffer[] = [];
  return {
    stream: {
      write(chunk) {
        chunks.push(Buffer.from(chunk, 'utf8'));
        return true;
      },
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/** What a run may not leave behind in the test process: the next run would inherit it. */
function processState(): string {
  return JSON.stringify([process.exitCode, process.cwd(), Object.entries(process.env).sort()]);
}

/**
 * Runs `agent-card ...args` in this process, as the binary would (`src/cli.ts`): the same exit
 * code, the same bytes on stdout and stderr. Never rejects for a failing run (a non-zero `code`);
 * throws when the run changed the process's exit code, working directory or environment.
 */
export async function cli(args: string[], options: RunOptions = {}): Promise<Run> {
  const started = performance.now();
  const stdout = sink();
  const stderr = sink();
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const io: CliIO = {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    cwd: options.cwd ?? root,
    script: bin,
  };
  const before = processState();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(1), options.timeoutMs ?? 30_000);
  });
  const code = await Promise.race([
    run(args, io).catch((error: unknown) => {
      // What the binary does with a rejection (src/cli.ts).
      stderr.stream.write(
        guardOutput(`agent-card: ${visible(error instanceof Error ? error.message : String(error))}\n`),
      );
      return 2;
    }),
    timedOut,
  ]).finally(() => clearTimeout(timer));
  const after = processState();
  if (after !== before) throw new Error(`agent-card ${args.join(' ')} changed the test process: ${after}`);
  return { code, stdout: stdout.text(), stderr: stderr.text(), ms: performance.now() - started };
}

/** Runs the built binary `agent-card ...args`; never rejects: a failing run is a non-zero `code`. */
export function cliBinary(args: string[], options: RunOptions = {}): Promise<Run> {
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
