// Makes sure the browser tests have Debian's Chromium at /usr/bin/chromium: installs it with
// apt-get when this process is root or has passwordless sudo (CI runs as root), and otherwise
// prints why the browser tests will be skipped. Never fails the test command by itself: the
// browser tests decide (test/browser/harness.ts) and say so loudly when they cannot run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.AGENT_CARD_CHROMIUM ?? '/usr/bin/chromium';

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
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
  console.log(`Browser tests: ${CHROMIUM} is missing; installing Debian's chromium with apt-get.`);
  if (apt('install', '-y', '--no-install-recommends', 'chromium')) return true;
  // A fresh image may have no package lists yet.
  return apt('update') && apt('install', '-y', '--no-install-recommends', 'chromium');
}

if (existsSync(CHROMIUM)) {
  process.exit(0);
}
const prefix = installer();
if (prefix !== undefined && install(prefix) && existsSync(CHROMIUM)) {
  console.log(`Browser tests: installed ${CHROMIUM}.`);
} else {
  const line = '!'.repeat(100);
  console.warn(
    `\n${line}\n!! Browser tests WILL BE SKIPPED: ${CHROMIUM} is missing and could not be installed` +
      `\n!! (needs root or passwordless sudo and apt-get). Install it with: sudo apt-get install -y chromium` +
      `\n!! or point AGENT_CARD_CHROMIUM at a Chromium binary.\n${line}\n`,
  );
}
