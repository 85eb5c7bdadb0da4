// Packs every workspace package once into .cache/tarballs (the files a user receives), for the
// package lint and the consumer suite to share: `pnpm test` packs here after the build, and the
// consumer suite packs again only when a package changed after the packing.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const packedDir = join(repoRoot, '.cache/tarballs');
const manifestFile = join(packedDir, 'packed.json');

/** The workspace packages, by directory under packages/. */
export const packageDirs = readdirSync(join(repoRoot, 'packages')).filter((name) =>
  existsSync(join(repoRoot, 'packages', name, 'package.json')),
);

/** The newest modification time of any file a package's tarball is made of (dist, src, manifest, docs). */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      if (path.endsWith('node_modules')) return;
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.mtimeMs > newest) newest = stats.mtimeMs;
  };
  for (const dir of packageDirs) {
    const root = join(repoRoot, 'packages', dir);
    for (const entry of readdirSync(root)) if (entry !== 'node_modules') visit(join(root, entry));
  }
  return newest;
}

const tarballName = (manifest) => `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;

/**
 * The tarballs of .cache/tarballs by package name when they were packed after the last change to
 * any package, else undefined.
 */
export function freshTarballs() {
  if (!existsSync(manifestFile)) return undefined;
  const packed = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (packed.packedAt < newestInput()) return undefined;
  const tarballs = {};
  for (const dir of packageDirs) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', dir, 'package.json'), 'utf8'));
    const file = join(packedDir, tarballName(manifest));
    if (!existsSync(file)) return undefined;
    tarballs[manifest.name] = file;
  }
  return tarballs;
}

/** `pnpm pack` of every package into `out`; resolves to the tarballs by package name. */
export function packInto(out) {
  for (const dir of packageDirs) {
    if (!existsSync(join(repoRoot, 'packages', dir, 'dist'))) {
      return Promise.reject(new Error(`packages/${dir}/dist is missing: run \`pnpm build\` first.`));
    }
  }
  mkdirSync(out, { recursive: true });
  return new Promise((done, fail) =>
    execFile(
      'npx',
      ['--yes', 'pnpm@12.4.2', '--filter', './packages/*', 'pack', '--pack-destination', out],
      { cwd: repoRoot, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`pnpm pack failed: ${error.message}\n${stdout}\n${stderr}`));
        const tarballs = {};
        for (const dir of packageDirs) {
          const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', dir, 'package.json'), 'utf8'));
          const file = join(out, tarballName(manifest));
          if (!existsSync(file)) return fail(new Error(`pnpm pack did not write ${file}`));
          tarballs[manifest.name] = file;
        }
        done(tarballs);
      },
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const startedAt = Date.now();
  rmSync(packedDir, { recursive: true, force: true });
  const tarballs = await packInto(packedDir);
  writeFileSync(manifestFile, `${JSON.stringify({ packedAt: startedAt, tarballs }, null, 2)}\n`);
  console.log(`packed ${Object.keys(tarballs).length} packages into .cache/tarballs`);
}
