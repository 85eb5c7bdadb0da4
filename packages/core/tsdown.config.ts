import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    http: 'src/http/public.ts',
    testing: 'src/testing/index.ts',
    view: 'src/view/index.ts',
    next: 'src/next/index.ts',
    otel: 'src/otel/index.ts',
    store: 'src/store/index.ts',
  },
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: true,
  deps: {
    // canonicalize ships ESM only: inline it so the CommonJS build needs no require(esm); it is a
    // devDependency for that reason. jose stays a dependency (loaded with import() at run time),
    // but its types are inlined into the declarations: a .d.cts that imports the ESM-only jose
    // fails with TS1479 in a CommonJS project on node16/nodenext resolution with skipLibCheck off.
    alwaysBundle: (id, importer) => id === 'canonicalize' || (id === 'jose' && Boolean(importer?.endsWith('.d.ts'))),
    onlyBundle: ['canonicalize', 'jose'],
  },
  // Build timings are noise for a 2-core CI machine (and rolldown prints them with colour codes).
  checks: { pluginTimings: false },
});
