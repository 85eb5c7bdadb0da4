// Regenerates the README screenshots (packages/core/docs/*.png, packages/cli/docs/*.png) from the
// real pages: builds the packages, then runs the browser suites that take them with
// UPDATE_DOC_SCREENSHOTS=1. Each page is shot desktop (1366 px, the most common laptop width) and phone (390 px), light and dark.
import { spawnSync } from 'node:child_process';

const SUITES = ['test/browser/viewer.test.ts', 'test/browser/cli-pages.test.ts'];

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The pnpm that runs this script (`pnpm screenshots`), else the one on PATH.
const pnpm = process.env.npm_execpath;
if (pnpm?.endsWith('.js') || pnpm?.endsWith('.cjs') || pnpm?.endsWith('.mjs')) run(process.execPath, [pnpm, 'build']);
else run(pnpm ?? 'pnpm', ['build']);
run(process.execPath, ['scripts/ensure-chromium.mjs']);
run('vitest', ['run', ...SUITES], { ...process.env, UPDATE_DOC_SCREENSHOTS: '1' });
