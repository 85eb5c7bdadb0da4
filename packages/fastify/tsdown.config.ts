import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
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
