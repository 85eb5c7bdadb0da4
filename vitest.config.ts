import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const conditions = ['@agent-card/source', 'module', 'node', 'development|production'];

const UNIT = 'packages/*/src/**/*.test.ts';
/**
 * Unit test files that change what other files would see: mocked modules, stubbed globals or
 * environment, fake timers. They run each in a fresh module graph; every other unit file shares
 * one per worker.
 */
const MOCKS = /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/;
const root = fileURLToPath(new URL('.', import.meta.url));
const unitFiles = readdirSync(join(root, 'packages')).flatMap((pkg) =>
  (existsSync(join(root, 'packages', pkg, 'src'))
    ? readdirSync(join(root, 'packages', pkg, 'src'), { recursive: true, encoding: 'utf8' })
    : []
  )
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `packages/${pkg}/src/${file}`),
);
const isolatedUnits = unitFiles.filter((file) => MOCKS.test(readFileSync(join(root, file), 'utf8')));

export default defineConfig({
  // Nest needs legacy decorators with emitted design-type metadata.
  oxc: {
    decorator: { legacy: true, emitDecoratorMetadata: true },
  },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@agent-card/source'] } },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ['test/fast-check-setup.ts'],
    globalSetup: ['test/temp-dir-setup.ts'],
    // vitest's default is one worker fewer than the cores: on a two-core machine, one test file at a
    // time, while most of the cross-package suites wait on npm, servers and child processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          // The packages' own tests: worker threads, and the modules each worker loaded kept for
          // the next file instead of loaded again (isolate: false).
          name: 'unit',
          include: [UNIT],
          exclude: ['**/node_modules/**', ...isolatedUnits],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Cross-package suites, examples and the unit files above that mock: a process each.
          name: 'isolated',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts', ...isolatedUnits],
          exclude: ['**/node_modules/**'],
          pool: 'forks',
        },
      },
    ],
  },
});
