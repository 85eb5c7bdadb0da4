import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsdown';

// @a2a-js/sdk's exports map gives its ESM declarations (`.d.ts` in a `"type": "module"` package)
// to `require` as well, so a CommonJS project type-checking our `.d.cts` under node16 (skipLibCheck
// off) gets TS1479 from a plain import of the SDK's types. A type-only import resolved as `import`
// is allowed there (TypeScript ≥ 5.3); the `.d.mts` needs nothing.
const SDK_IMPORT = /^import \{([^}]*)\} from "(@a2a-js\/sdk(?:\/[\w/]+)?)";$/gm;
const declarations = fileURLToPath(new URL('./dist/index.d.cts', import.meta.url));

function resolveSdkTypesAsImport(): void {
  if (!existsSync(declarations)) return;
  const code = readFileSync(declarations, 'utf8').replace(
    SDK_IMPORT,
    'import type {$1} from "$2" with { "resolution-mode": "import" };',
  );
  const left = code.split('\n').find((line) => /from "@a2a-js\/sdk/.test(line) && !/resolution-mode/.test(line));
  if (left !== undefined)
    throw new Error(`dist/index.d.cts: an import of @a2a-js/sdk types is left as it was: ${left}`);
  writeFileSync(declarations, code);
}

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: true,
  hooks: { 'build:done': resolveSdkTypesAsImport },
  // Build timings are noise for a 2-core CI machine (and rolldown prints them with colour codes).
  checks: { pluginTimings: false },
});
