// Shared by ensure-redis.mjs and ensure-postgres.mjs: installs one Debian package with apt-get when
// its binary is missing and this process is root or has passwordless sudo (CI runs as root), with
// one line saying what, why and how to skip; otherwise prints why the store tests will be skipped.
// Never fails the test command by itself: the tests decide (packages/store/src/test-servers.ts)
// and say so loudly. No service is started or enabled: the tests run their own servers on
// loopback ports with temporary data folders.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    // policy-rc.d-less images would start the service on install; RUNLEVEL=1 keeps it down.
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' },
  });
  return result.status === 0;
}

function installer() {
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : undefined;
}

/**
 * Makes sure `binary` exists, installing `pkg` when it can.
 * @param {{ binary: string, pkg: string, why: string, env: string }} what
 */
export function ensure({ binary, pkg, why, env }) {
  if (existsSync(binary)) return;
  const prefix = installer();
  if (process.env.AGENT_CARD_NO_APT !== '1' && prefix !== undefined) {
    console.log(`Installing ${pkg} with apt-get: ${why}. Skip with AGENT_CARD_NO_APT=1 (the tests are then skipped).`);
    const apt = (...args) =>
      prefix.length > 0 ? run(prefix[0], [...prefix.slice(1), 'apt-get', ...args]) : run('apt-get', args);
    // A fresh image may have no package lists yet.
    const installed =
      apt('install', '-y', '--no-install-recommends', pkg) ||
      (apt('update') && apt('install', '-y', '--no-install-recommends', pkg));
    if (installed && existsSync(binary)) return;
  }
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! ${why}: these tests WILL BE SKIPPED, ${binary} is missing and was not installed` +
      `\n!! (needs root or passwordless sudo and apt-get). Install it with: sudo apt-get install -y ${pkg}` +
      `\n!! or set ${env}.\n${line}\n`,
  );
}
