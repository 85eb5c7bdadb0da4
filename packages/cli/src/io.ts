import { WriteStream } from 'node:tty';
import { styleText } from 'node:util';

/** Where the CLI reads and writes; injectable so the commands can be driven in-process. */
export interface CliIO {
  stdout: {
    write(chunk: string): unknown;
    /** Lines the CLI starts with a workflow command of its own (`--format github`); see `guardStream`. */
    commands?(chunk: string): unknown;
    isTTY?: boolean;
    columns?: number;
  };
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** The path of the script node was started with (`process.argv[1]`): tells how the CLI was run. */
  script?: string;
}

/**
 * How the user runs this CLI again, by where the running script is:
 * - fetched by npx (npm's `_npx` cache): the same `npx` again, with the same `--package` specs
 *   when there were some (`npx --package ./core.tgz --package ./cli.tgz agent-card`, the form that
 *   works before the packages are on npm), else `npx @agent-card/cli`;
 * - installed in this project (a `node_modules` of the working directory or above it):
 *   `npx agent-card`, which runs the local bin;
 * - anywhere else (a global install, a checkout): `agent-card`.
 * A bare `npx agent-card` is never printed without a local install: npx would fetch the unscoped
 * npm package of that name, which is not ours.
 */
export function selfCommand(io: CliIO): string {
  const script = (io.script ?? '').replaceAll('\\', '/');
  if (script.includes('/_npx/')) {
    const packages = (io.env.npm_config_package ?? '').split('\n').filter((spec) => spec.trim() !== '');
    if (packages.length === 0) return 'npx @agent-card/cli';
    return `npx ${packages.map((spec) => `--package ${shellWord(spec)}`).join(' ')} agent-card`;
  }
  const at = script.lastIndexOf('/node_modules/');
  if (at > 0) {
    const project = script.slice(0, at);
    const cwd = io.cwd.replaceAll('\\', '/');
    if (cwd === project || cwd.startsWith(`${project}/`)) return 'npx agent-card';
  }
  return 'agent-card';
}

/** A word a POSIX shell reads back as it is: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The process's own streams. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    script: process.argv[1],
  };
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

/**
 * Whether a terminal shows colours in this environment, by Node's own rule (`FORCE_COLOR`,
 * `NO_COLOR`, `TERM=dumb`…), read from `env` rather than from the process.
 */
export function colourTerminal(env: CliIO['env']): boolean {
  return WriteStream.prototype.getColorDepth.call(undefined, env as NodeJS.ProcessEnv) > 2;
}

export function createPainter(io: CliIO): Painter {
  const force = io.env.FORCE_COLOR;
  const enabled =
    force !== undefined && force !== ''
      ? colourTerminal(io.env)
      : !io.env.NO_COLOR && io.stdout.isTTY === true && colourTerminal(io.env);
  return {
    enabled,
    // Decided here from `io`, not again by styleText from the process's own stdout and environment.
    paint: (style, text) => (enabled ? styleText(style, text, { validateStream: false }) : text),
  };
}
