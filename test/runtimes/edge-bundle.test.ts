// What Cloudflare Workers (no compatibility flags) and Next.js's edge runtime load: every module
// reachable from the serving entries, bundled as a bundler for those runtimes does, for a
// platform that has no Node built-ins. One `node:` import, or a package that requires `util`,
// breaks a Worker's build; this test names it first.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The part of rolldown's API this test uses. */
interface Rolldown {
  rolldown(options: {
    input: string;
    platform: 'neutral';
    resolve: { conditionNames: string[]; mainFields: string[] };
    onLog(level: string, log: { code?: string; message: string }): void;
  }): Promise<{
    generate(options: { format: 'esm' }): Promise<{
      output: (
        | { type: 'chunk'; fileName: string; code: string; imports: string[]; dynamicImports: string[] }
        | { type: 'asset'; fileName: string }
      )[];
    }>;
    close(): Promise<void>;
  }>;
}
// rolldown is what tsdown builds the packages with; it is reached through tsdown.
const { rolldown } = (await import(
  createRequire(import.meta.url).resolve('rolldown', {
    paths: [createRequire(`${root}package.json`).resolve('tsdown')],
  })
)) as Rolldown;

/** Every import the bundle could not take in (a Node built-in, a missing package), with its importer. */
async function unbundled(entry: string): Promise<string[]> {
  const problems: string[] = [];
  const bundle = await rolldown({
    input: `${root}${entry}`,
    platform: 'neutral',
    // What Workers' and Next.js's bundlers pick from an `exports` map.
    resolve: {
      conditionNames: ['workerd', 'worker', 'edge-light', 'import', 'module', 'default'],
      mainFields: ['module', 'main'],
    },
    onLog(level, log) {
      if (level === 'warn') problems.push(`${log.code}: ${log.message.replace(/\u001b\[[0-9;]*m/g, '')}`);
    },
  });
  try {
    const { output } = await bundle.generate({ format: 'esm' });
    for (const chunk of output) {
      if (chunk.type !== 'chunk') continue;
      for (const id of [...chunk.imports, ...chunk.dynamicImports]) {
        if (!output.some((other) => other.fileName === id)) problems.push(`${chunk.fileName} imports ${id}`);
      }
      // A CommonJS dependency that reaches for a built-in at run time (`require('util')`).
      for (const m of chunk.code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
        problems.push(`${chunk.fileName} requires ${m[1]}`);
      }
    }
  } finally {
    await bundle.close();
  }
  return problems;
}

describe('the serving path loads where there are no Node built-ins', () => {
  it.each([
    ['@agent-card/core', 'packages/core/dist/index.mjs'],
    ['@agent-card/core/http', 'packages/core/dist/http.mjs'],
    ['@agent-card/core/view', 'packages/core/dist/view.mjs'],
    ['@agent-card/hono', 'packages/hono/dist/index.mjs'],
  ])(
    '%s bundles for a neutral platform with every import resolved',
    async (_name, entry) => {
      expect(await unbundled(entry)).toEqual([]);
    },
    60_000,
  );
});
