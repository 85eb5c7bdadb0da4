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
  deps: {
    // canonicalize ships ESM only: inline it so the CommonJS build needs no require(esm); it is a
    // devDependency for that reason (as in @agent-card/core).
    alwaysBundle: (id) => id === 'canonicalize',
    onlyBundle: ['canonicalize'],
  },
  // Build timings are noise for a 2-core CI machine (and rolldown prints them with colour codes).
  checks: { pluginTimings: false },
});
