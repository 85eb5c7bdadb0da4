// `pnpm bench`: the validator benchmark, the verification-cost benchmark, the HTTP benchmarks and the Nest benchmarks (boot, then
// card requests), one after the other. Arguments go to the HTTP benchmarks, e.g.
// `pnpm bench --duration 10 --soak`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
let failed = false;

for (const [script, scriptArgs] of [
  ['validate.mjs', []],
  ['verify.mjs', ['--check']],
  ['http.mjs', args],
  ['nest-boot.mjs', []],
  ['nest-http.mjs', []],
]) {
  if (!existsSync(here(script))) continue;
  const { status, signal } = spawnSync(process.execPath, [here(script), ...scriptArgs], { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`bench: ${script} ${signal ? `was killed by ${signal}` : `exited with ${status}`}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
