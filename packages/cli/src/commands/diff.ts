import type { CliIO } from '../io';
import { CliError, createPainter } from '../io';
import { diffAgentCards } from '../diff-cards';
import { fetchJson, isRemote, readJson, toJsonText } from '../read';

export interface DiffCommandOptions {
  json?: boolean;
  timeout?: number;
}

const show = (v: unknown) => {
  const text = JSON.stringify(v);
  return text === undefined ? 'undefined' : text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

async function load(io: CliIO, source: string, timeoutMs: number): Promise<unknown> {
  return isRemote(source) ? fetchJson(source, timeoutMs) : readJson(io, source);
}

/**
 * `agent-card diff <a> <b>`: exit 0 when the cards are equal or the version was bumped, 1 when
 * content changed but `version` did not.
 */
export async function diffCommand(io: CliIO, a: string, b: string, options: DiffCommandOptions): Promise<number> {
  const timeoutMs = options.timeout ?? 10_000;
  const [before, after] = await Promise.all([load(io, a, timeoutMs), load(io, b, timeoutMs)]);
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) {
    throw new CliError('diff: both inputs must be JSON objects (Agent Cards).');
  }
  const diff = diffAgentCards(before, after);
  const stale = diff.contentChanged && !diff.versionChanged;
  if (options.json) {
    io.stdout.write(toJsonText({ ...diff, versionNotBumped: stale }));
    return stale ? 1 : 0;
  }
  const painter = createPainter(io);
  if (diff.changes.length === 0) {
    io.stdout.write('No differences.\n');
    return 0;
  }
  for (const c of diff.changes) {
    if (c.kind === 'added') io.stdout.write(`${painter.paint('green', `+ ${c.path}: ${show(c.after)}`)}\n`);
    else if (c.kind === 'removed') io.stdout.write(`${painter.paint('red', `- ${c.path}: ${show(c.before)}`)}\n`);
    else io.stdout.write(`${painter.paint('yellow', `~ ${c.path}: ${show(c.before)} → ${show(c.after)}`)}\n`);
  }
  io.stdout.write(`${diff.changes.length} difference${diff.changes.length === 1 ? '' : 's'}.\n`);
  if (stale) {
    io.stdout.write(
      painter.paint('yellow', '⚠ The content changed but "version" did not.') +
        ' Bump "version" so clients and caches can tell the cards apart.\n',
    );
    return 1;
  }
  return 0;
}
