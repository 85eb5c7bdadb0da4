// Every temporary folder a test run makes (the tests' own, the CLI's and servers' they start, the
// consumer apps) goes under one folder of this run, removed when the run ends: a run leaves
// nothing in the system's temp directory, whichever test forgot its own clean-up or failed first.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-test-run-'));
  // Like /tmp itself: PostgreSQL's test servers run as the postgres user and make their folders here.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
