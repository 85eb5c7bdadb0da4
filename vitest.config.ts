import { defineConfig } from 'vitest/config';

const conditions = ['@agent-card/source', 'module', 'node', 'development|production'];

export default defineConfig({
  // Nest needs legacy decorators with emitted design-type metadata.
  oxc: {
    decorator: { legacy: true, emitDecoratorMetadata: true },
  },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@agent-card/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/fast-check-setup.ts'],
  },
});
