// The one way the test command installs a Debian package a suite needs (Chromium, nginx, and any
// server a later suite adds): say so in one line first (the package, why, how to skip), install it
// with apt-get when this process is root or has passwordless sudo (CI runs as root), and otherwise
// say loudly which tests will be skipped. Never fails the test command by itself: the suites decide.
//
//   ensureSystemPackage({
//     name: 'nginx',                       // the Debian package
//     binary: '/usr/sbin/nginx',           // what must exist afterwards
//     env: 'AGENT_CARD_NGINX',             // a variable naming another binary instead
//     tests: 'Static output tests',        // who needs it, as the lines start
//     why: 'the static-output tests serve agent-card build output with it',
//     aptEnv: { RUNLEVEL: '1' },           // extra environment for apt-get
//   });
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Set to 1 to install nothing: the suites that need a missing package are then skipped. */
export const SKIP_VARIABLE = 'AGENT_CARD_NO_APT';

function installer() {
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : undefined;
}

function apt(prefix, args, aptEnv) {
  const [command, ...rest] = [...prefix, 'apt-get', ...args];
  const result = spawnSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', ...aptEnv },
  });
  return result.status === 0;
}

/** Makes sure `binary` exists, installing Debian's `name` if it can; returns whether it exists. */
export function ensureSystemPackage({ name, binary, env, tests, why, aptEnv = {} }) {
  const path = process.env[env] ?? binary;
  if (existsSync(path)) return true;
  const skip = `${SKIP_VARIABLE}=1 (${tests.toLowerCase()} are then skipped) or ${env}=<path to ${name}>`;
  const prefix = process.env[SKIP_VARIABLE] === '1' ? undefined : installer();
  if (prefix !== undefined) {
    console.log(`System package ${name}: installing with apt-get, for ${why}. To skip: ${skip}.`);
    const args = ['install', '-y', '--no-install-recommends', name];
    // A fresh image may have no package lists yet.
    const installed = apt(prefix, args, aptEnv) || (apt(prefix, ['update'], aptEnv) && apt(prefix, args, aptEnv));
    if (installed && existsSync(path)) {
      console.log(`System package ${name}: installed (${path}).`);
      return true;
    }
  }
  const reason =
    process.env[SKIP_VARIABLE] === '1' ? `${SKIP_VARIABLE}=1 is set` : 'it needs root or passwordless sudo and apt-get';
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! ${tests} WILL BE SKIPPED: ${path} is missing and was not installed (${reason}).` +
      `\n!! Install it with: sudo apt-get install -y ${name}` +
      `\n!! or point ${env} at a ${name} binary.\n${line}\n`,
  );
  return false;
}
