// The test command's package lint: a clean package is one line, a broken one its whole report.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(root, 'scripts/lint-package.mjs');

function lint(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(process.execPath, [script], { cwd, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

it('prints one line for a clean package and nothing on stderr', async () => {
  const result = await lint(join(root, 'packages/express'));
  expect(result).toEqual({
    code: 0,
    stdout: '@agent-card/express: publint and attw (node16) found nothing\n',
    stderr: '',
  });
}, 120_000);

it('prints the full report and fails for a package whose exports point at a missing file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-lint-'));
  try {
    cpSync(join(root, 'packages/express'), dir, {
      recursive: true,
      filter: (path) => !path.includes('node_modules'),
    });
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    manifest.exports['.'].import.default = './dist/missing.mjs';
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    const result = await lint(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^@agent-card\/express: publint failed\n/);
    expect(result.stderr).toContain('missing.mjs');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
