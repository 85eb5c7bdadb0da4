// Makes sure the static-output tests have Debian's nginx at /usr/sbin/nginx: installs it with
// apt-get when this process is root or has passwordless sudo (CI runs as root), and otherwise
// prints why those tests will be skipped. Never fails the test command by itself: the tests
// decide (packages/cli/test/nginx.ts) and say so loudly when they cannot run. The package's own
// service is never started: the tests run nginx themselves, on loopback, with their own config.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NGINX = process.env.AGENT_CARD_NGINX ?? '/usr/sbin/nginx';

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
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

function install(prefix) {
  const apt = (...args) =>
    prefix.length > 0 ? run(prefix[0], [...prefix.slice(1), 'apt-get', ...args]) : run('apt-get', args);
  console.log(`Static output tests: ${NGINX} is missing; installing Debian's nginx with apt-get.`);
  if (apt('install', '-y', '--no-install-recommends', 'nginx')) return true;
  // A fresh image may have no package lists yet.
  return apt('update') && apt('install', '-y', '--no-install-recommends', 'nginx');
}

if (existsSync(NGINX)) {
  process.exit(0);
}
const prefix = installer();
if (prefix !== undefined && install(prefix) && existsSync(NGINX)) {
  console.log(`Static output tests: installed ${NGINX}.`);
} else {
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! Static output tests with nginx WILL BE SKIPPED: ${NGINX} is missing and could not be installed` +
      `\n!! (needs root or passwordless sudo and apt-get). Install it with: sudo apt-get install -y nginx` +
      `\n!! or point AGENT_CARD_NGINX at an nginx binary.\n${line}\n`,
  );
}
