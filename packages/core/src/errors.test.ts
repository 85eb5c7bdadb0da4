import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineAgentCard } from './define';
import { AgentCardError } from './errors';

function thrown(fn: () => unknown): AgentCardError {
  try {
    fn();
  } catch (error) {
    return error as AgentCardError;
  }
  throw new Error('did not throw');
}

describe('AgentCardError as Node prints it', () => {
  // An invalid card: many findings, each an object of five members.
  const error = thrown(() => defineAgentCard({ name: '', skills: [{}, {}, {}] } as never));

  it('prints the message and the findings counted, not every finding object', () => {
    const printed = inspect(error);
    expect(printed.startsWith(`AgentCardError: ${error.message.split('\n')[0]}`)).toBe(true);
    expect(printed).toContain("code: 'ERR_AGENT_CARD_INVALID'");
    expect(printed).toMatch(/findings: \d+ \(\d+ errors?(, \d+ \w+)*\): [a-z-]+/);
    // The message's own lines, the stack and three lines of its own; no `rule: '…'` objects.
    expect(printed).not.toMatch(/rule: '/);
    const stackLines = (error.stack ?? '').split('\n').length;
    expect(printed.split('\n').length).toBe(stackLines + 2);
  });

  it('prints its cause briefly under it', () => {
    const withCause = new AgentCardError('ERR_AGENT_CARD_CONFIG', 'x.json: cannot be read (EACCES).', {
      cause: new Error('EACCES: permission denied'),
    });
    const printed = inspect(withCause);
    expect(printed).toContain('[cause]: Error: EACCES: permission denied');
    expect(printed).not.toContain('findings:');
  });
});
