// The commands the documentation tells users to run. `agent-card` on npm is not our package (the
// CLI is `@agent-card/cli`, whose binary is named agent-card): `npx agent-card` runs the local
// binary only where the project installed the CLI, and otherwise fetches whatever anyone
// publishes under the unscoped name. So every such line must say it runs after an install.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every Markdown page the repository publishes: READMEs and docs, not changelogs or changesets. */
const pages = execFileSync('git', ['ls-files', '*.md'], { cwd: repoRoot, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && !path.startsWith('.changeset/') && !path.endsWith('CHANGELOG.md'));

it('finds the READMEs of every package', () => {
  for (const pkg of ['cli', 'core', 'nest', 'a2a-js', 'discovery', 'express'])
    expect(pages).toContain(`packages/${pkg}/README.md`);
});

it('runs the unscoped agent-card through npx only after the project installed @agent-card/cli', () => {
  const unscoped: string[] = [];
  for (const page of pages) {
    readFileSync(join(repoRoot, page), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\bnpx\s+(?:(?:--yes|-y)\s+)?agent-card\b/.test(line) && !/install|\.tgz/.test(line))
          unscoped.push(`${page}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(unscoped, 'write npx @agent-card/cli … (the unscoped name is not ours)').toEqual([]);
});
