// Makes sure the browser tests have Debian's Chromium at /usr/bin/chromium (see
// system-package.mjs): the browser tests decide (test/browser/harness.ts) and say so loudly when
// they cannot run.
import { ensureSystemPackage } from './system-package.mjs';

ensureSystemPackage({
  name: 'chromium',
  binary: '/usr/bin/chromium',
  env: 'AGENT_CARD_CHROMIUM',
  tests: 'Browser tests',
  why: 'the browser tests (test/browser), which drive it headless',
});
