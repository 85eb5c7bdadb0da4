import { styleText } from 'node:util';

/** Where the CLI reads and writes; injectable so the commands can be driven in-process. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * How the user runs this CLI again: `npx @agent-card/cli` when npm started it without an install
 * (`npx`, `npm exec`), since a bare `agent-card` would then find nothing, or the unscoped npm
 * package of that name, which is not ours; `agent-card` otherwise.
 */
export function selfCommand(io: CliIO): string {
  return io.env.npm_command === 'exec' ? 'npx @agent-card/cli' : 'agent-card';
}

/** The process's own streams. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** An error the CLI reports as one line, with its exit code (2: usage or I/O). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

type Style = Parameters<typeof styleText>[0];

/** Colours text when the output is a terminal (or FORCE_COLOR says so), never when piped or NO_COLOR. */
export interface Painter {
  readonly enabled: boolean;
  paint(style: Style, text: string): string;
}

export function createPainter(io: CliIO): Painter {
  const force = io.env.FORCE_COLOR;
  const enabled =
    force !== undefined && force !== ''
      ? force !== '0' && force !== 'false'
      : !io.env.NO_COLOR && io.stdout.isTTY === true;
  return {
    enabled,
    paint: (style, text) => (enabled ? styleText(style, text) : text),
  };
}
