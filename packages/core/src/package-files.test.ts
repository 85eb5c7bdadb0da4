import { execFileSync } from 'node:child_process';
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
  }, 30_000);
});
