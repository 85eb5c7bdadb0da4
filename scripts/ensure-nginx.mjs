// Makes sure the static-output tests have Debian's nginx at /usr/sbin/nginx (see
// system-package.mjs): the tests decide (packages/cli/test/nginx.ts) and say so loudly when they
// cannot run. The package's own service is never started: the tests run nginx themselves, on
// loopback, with their own config.
import { ensureSystemPackage } from './system-package.mjs';

ensureSystemPackage({
  name: 'nginx',
  binary: '/usr/sbin/nginx',
  env: 'AGENT_CARD_NGINX',
  tests: 'Static output tests with nginx',
  why: 'the static-output tests, which serve agent-card build output with it',
  // policy-rc.d-less images would start the service on install; RUNLEVEL=1 keeps it down.
  aptEnv: { RUNLEVEL: '1' },
});
