import type { CliIO } from '../io';
import { createPainter } from '../io';
import { diffAgentCards } from '../diff-cards';
import { readCard, toJsonText } from '../read';
import { visible } from '../terminal';

export interface DiffCommandOptions {
  json?: boolean;
  timeout?: number;
  allowHttp?: boolean;
}

/** A value in one line: JSON (read at most 64 levels deep, see readCard), cut to 120 characters. */
const show = (v: unknown) => {
  const text = JSON.stringify(v);
  return visible(text === undefined ? 'undefined' : text.length > 120 ? `${text.slice(0, 117)}…` : text);
};

/**
 * `agent-card diff <a> <b>`: exit 0 when the cards are equal or the version was bumped, 1 when
 * content changed but `version` did not.
 */
export async function diffCommand(io: CliIO, a: string, b: string, options: DiffCommandOptions): Promise<number> {
  const read = { timeoutMs: options.timeout ?? 10_000, allowHttp: options.allowHttp ?? false };
  const [before, after] = await Promise.all([readCard(io, a, read), readCard(io, b, read)]);
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
    const path = visible(c.path);
    if (c.kind === 'added') io.stdout.write(`${painter.paint('green', `+ ${path}: ${show(c.after)}`)}\n`);
    else if (c.kind === 'removed') io.stdout.write(`${painter.paint('red', `- ${path}: ${show(c.before)}`)}\n`);
    else io.stdout.write(`${painter.paint('yellow', `~ ${path}: ${show(c.before)} → ${show(c.after)}`)}\n`);
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
