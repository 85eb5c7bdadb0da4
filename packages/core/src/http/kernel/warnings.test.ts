import { describe, expect, it, vi } from 'vitest';
import { CONFORMANCE_CARD } from '../../testing/cards';
import { createAgentCardResponder } from '../responder';
import type { AgentCardContext } from '../types';
import { createWarner, WARNING_WINDOW_MS, WARNINGS_PER_WINDOW } from './warnings';

const CARD_PATH = '/.well-known/agent-card.json';

/** A variant whose warning names the host it was built for (an http interface URL). */
const cardFor = (ctx: AgentCardContext) => ({
  ...CONFORMANCE_CARD,
  documentationUrl: `${ctx.origin}/docs`,
  supportedInterfaces: [{ url: `${ctx.origin}/a2a`, protocolBinding: 'JSONRPC' as const, protocolVersion: '1.0' }],
});

describe('warnings', () => {
  it('a client making 2,000 new variants gets each warning logged once, not once per host', async () => {
    const warn = vi.fn();
    const responder = createAgentCardResponder({
      card: cardFor,
      logger: { warn },
      profile: 'development',
      dynamic: { allowedOrigins: () => true, maxVariants: 10 },
    });
    for (let i = 0; i < 2000; i++) {
      await responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: `h${i}.example.org` } });
    }
    expect(warn.mock.calls.length).toBeGreaterThan(0);
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
    expect(warn.mock.calls[0]?.[0]).toContain('h0.example.org');
    expect(warn.mock.calls.flat().join('\n')).not.toContain('h1.example.org');
  });

  it('logs each rule and location once, whatever the message says', () => {
    const warn = vi.fn();
    const w = createWarner({ warn });
    w([{ rule: 'r', severity: 'warning', path: '/a', message: 'about host-1', hint: '' }]);
    w([{ rule: 'r', severity: 'warning', path: '/a', message: 'about host-2', hint: '' }]);
    w([
      { rule: 'r', severity: 'warning', path: '/a', message: 'about host-3', hint: '' },
      { rule: 'r', severity: 'warning', path: '/b', message: 'elsewhere', hint: '' },
    ]);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      'agent card: 1 warning(s):\n  - [r] /a: about host-1',
      'agent card: 1 warning(s):\n  - [r] /b: elsewhere',
    ]);
  });

  it(`logs at most ${WARNINGS_PER_WINDOW} messages a minute and reports what it held back`, () => {
    const warn = vi.fn();
    let now = 0;
    const w = createWarner({ warn }, () => now);
    for (let i = 0; i < 100; i++) w([{ rule: `r${i}`, severity: 'warning', path: '/x', message: 'm', hint: '' }]);
    expect(warn).toHaveBeenCalledTimes(WARNINGS_PER_WINDOW);
    now += WARNING_WINDOW_MS;
    w([{ rule: 'late', severity: 'warning', path: '/x', message: 'm', hint: '' }]);
    expect(warn).toHaveBeenCalledTimes(WARNINGS_PER_WINDOW + 1);
    expect(warn.mock.lastCall?.[0]).toBe(
      `agent card: 1 warning(s):\n  - [late] /x: m\n(${100 - WARNINGS_PER_WINDOW} more warning(s) were not logged: too many in a short time.)`,
    );
  });

  it('stops remembering after 1,000 distinct locations and then logs nothing new', () => {
    const warn = vi.fn();
    let now = 0;
    const w = createWarner({ warn }, () => (now += WARNING_WINDOW_MS));
    for (let i = 0; i < 1500; i++)
      w([{ rule: 'r', severity: 'warning', path: `/skills/${i}`, message: 'm', hint: '' }]);
    expect(warn).toHaveBeenCalledTimes(1000);
  });
});
