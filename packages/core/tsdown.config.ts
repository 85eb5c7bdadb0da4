import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: true,
  // canonicalize ships ESM only; inline it so the CommonJS build needs no require(esm).
  noExternal: ['canonicalize'],
});
