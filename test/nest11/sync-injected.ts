/*
 * pnpm copies an injected workspace package (hard links) once, at install time; files created
 * or rebuilt later (a new source file, a fresh dist/) are not seen by the copy. This refreshes
 * the injected @agent-card/nest from packages/nest before the Nest 11 suite loads it.
 */
import { cpSync, existsSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const packageDir = join(here, '../../packages/nest');

/** Copies `src`, `dist` and `package.json` of packages/nest into the injected copy. */
export function syncInjectedNest(): string {
  const target = realpathSync(join(here, 'node_modules/@agent-card/nest'));
  if (target === realpathSync(packageDir)) return target; // not injected: nothing to refresh
  for (const entry of ['src', 'dist', 'package.json']) {
    const from = join(packageDir, entry);
    // Unlink first: writing through a hard link would write into packages/nest itself.
    rmSync(join(target, entry), { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, join(target, entry), { recursive: true });
  }
  return target;
}
