// Every temporary folder a test run makes (the tests' own, the CLI's and servers' they start, the
// consumer apps) goes under one folder of this run, removed when the run ends: a run leaves
// nothing in the system's temp directory, whichever test forgot its own clean-up or failed first.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const PREFIX = 'agent-card-test-run-';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  // Each vitest project runs the global set-up again: the first one's folder serves them all (a
  // folder in a folder would lengthen the paths, and PostgreSQL's socket path has 107 bytes).
  if (previous !== undefined && basename(previous).startsWith(PREFIX)) return () => undefined;
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  // Like /tmp itself: PostgreSQL's test servers run as the postgres user and make their folders here.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
