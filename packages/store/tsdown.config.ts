import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', files: 'src/files.ts', redis: 'src/redis.ts', postgres: 'src/postgres.ts' },
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: true,
  // Build timings are noise for a 2-core CI machine (and rolldown prints them with colour codes).
  checks: { pluginTimings: false },
});
