import { describe, expect, it } from 'vitest';
import { LOGIN } from './rules';

describe('the login-page pattern (rule discovery-redirect)', () => {
  // A page title and a redirect's path come from the checked host. Searched linearly, a million
  // characters take milliseconds; an expression retried at every position would take hours.
  it.each(['log', 'sign-', 'log-', 'a'])('searches a million characters of %j repeated at once', (unit) => {
    const input = unit.repeat(Math.ceil(1_000_000 / unit.length));
    LOGIN.test(input.slice(0, 1000));
    const started = performance.now();
    LOGIN.test(input);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
