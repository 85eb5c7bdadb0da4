// The test command's scripts that install Debian packages (scripts/ensure-*.mjs): before apt-get
// runs, one line per package says which, why and how to skip; with AGENT_CARD_NO_APT=1 nothing is
// installed and the skipped suites are named. apt-get here is a stand-in on PATH that records its
// arguments and creates the binary, so no package is installed by this test.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` with the binary missing and a recording apt-get first on PATH. */
function ensure(script: string, env: string, extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-apt-'));
  dirs.push(dir);
  const binary = join(dir, 'binary');
  const log = join(dir, 'apt-get.log');
  writeFileSync(
    join(dir, 'apt-get'),
    `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\n[ "$1" = install ] && touch ${JSON.stringify(binary)}\nexit 0\n`,
  );
  chmodSync(join(dir, 'apt-get'), 0o755);
  const run = spawnSync(process.execPath, [join(root, 'scripts', script)], {
    encoding: 'utf8',
    env: { PATH: `${dir}:${process.env.PATH}`, [env]: binary, ...extra },
  });
  return { ...run, apt: existsSync(log) ? readFileSync(log, 'utf8') : '', installed: existsSync(binary) };
}

const packages = [
  [
    'ensure-chromium.mjs',
    'AGENT_CARD_CHROMIUM',
    'chromium',
    'the browser tests (test/browser), which drive it headless',
    'browser tests',
  ],
  [
    'ensure-nginx.mjs',
    'AGENT_CARD_NGINX',
    'nginx',
    'the static-output tests, which serve agent-card build output with it',
    'static output tests with nginx',
  ],
] as const;

describe.each(packages)('scripts/%s', (script, env, name, why, tests) => {
  const asRoot = process.getuid?.() === 0;
  it(
    asRoot
      ? 'says which package it installs, why, and how to skip, before apt-get runs'
      : 'cannot install without root',
    () => {
      const run = ensure(script, env);
      expect(run.status).toBe(0);
      if (!asRoot) {
        expect(run.stderr).toContain(`${name} binary`);
        return;
      }
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toBe(
        `System package ${name}: installing with apt-get, for ${why}. To skip: AGENT_CARD_NO_APT=1 (${tests} are then skipped) or ${env}=<path to ${name}>.`,
      );
      expect(run.apt).toBe(`install -y --no-install-recommends ${name}\n`);
      expect(run.installed).toBe(true);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(new RegExp(`^System package ${name}: installed \\(.+\\)\\.$`));
    },
  );

  it('installs nothing with AGENT_CARD_NO_APT=1, and names the tests that will be skipped', () => {
    const run = ensure(script, env, { AGENT_CARD_NO_APT: '1' });
    expect([run.status, run.stdout, run.apt, run.installed]).toEqual([0, '', '', false]);
    expect(run.stderr).toContain('WILL BE SKIPPED');
    expect(run.stderr).toContain('(AGENT_CARD_NO_APT=1 is set)');
    expect(run.stderr).toContain(`sudo apt-get install -y ${name}`);
  });
});
