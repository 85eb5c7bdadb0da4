import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the published package', () => {
  it('ships the sources and the rule catalogue, but no tests or test helpers', () => {
    const cwd = new URL('..', import.meta.url).pathname;
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' }),
    );
    const files: string[] = pack.files.map((f: { path: string }) => f.path);
    expect(files).toContain('RULES.md');
    expect(files).toContain('src/validate/patterns.ts');
    expect(files.filter((f) => f.endsWith('.test.ts') || f.endsWith('/test-cards.ts'))).toEqual([]);
    // The README's first screen links a page per part: each page it links ships with it.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const pages = [...new Set([...readme.matchAll(/\]\((docs\/[\w-]+\.md)[#)]/g)].map((m) => m[1]!))];
    expect(pages).toEqual(expect.arrayContaining(['docs/serving.md', 'docs/rules.md', 'docs/signing.md']));
    expect(pages.filter((page) => !files.includes(page))).toEqual([]);
  }, 30_000);
});
