// The README's first command ends in `node examples/demo.mjs`: every example service started,
// its card fetched and checked the way an agent would, the multi-agent host's AI Catalog, ARD
// manifest and viewer pages included. Run here as that command runs it, so a change to what the
// services serve cannot leave the demo failing unnoticed.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

describe('the demo (README, first command)', () => {
  it('passes every check against every example service', { timeout: 240_000 }, async () => {
    // `pnpm demo` builds the Nest example first; the packages are built by the test command.
    await run(
      fileURLToPath(new URL('../examples/nest/node_modules/.bin/tsc', import.meta.url)),
      ['-p', 'examples/nest/tsconfig.build.json'],
      { cwd: root },
    );
    const demo = await run(process.execPath, ['examples/demo.mjs'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const failed = (demo.stdout ?? '').split('\n').filter((line) => line.includes('✗'));
    expect(failed).toEqual([]);
    expect(demo.stdout).toContain('Several agents and the AI catalog (examples/multi-agent)');
    expect(demo.stdout).toMatch(/All checks passed\.\n$/);
  });
});
