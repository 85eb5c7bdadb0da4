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

describe('AgentCardError message of many findings', () => {
  const card = (skills: unknown[]) => ({
    name: 'Orders Agent',
    description: 'Answers questions about Acme orders.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: 'https://agents.acme-corp.dev/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  });

  it('gives the findings of one rule and one fix one line, listing their paths', () => {
    const skills = Array.from({ length: 30 }, (_, i) => ({
      id: `s${i}`,
      name: ' ',
      description: 'Looks up orders.',
      tags: [],
    }));
    const error = thrown(() => defineAgentCard(card(skills) as never));
    expect(error.message.split('\n')).toEqual([
      'defineAgentCard: the agent card has 60 errors. Fix each one below.',
      '  - [skill-required-fields] /skills/0..29/name: skills[0..29].name: blank (required, must be set) (" "). Set name to a non-blank value, e.g. "Plan a menu".',
      '  - [skill-tags-required] /skills/0..29/tags: skills[0..29].tags: empty (required, at least one tag). Add at least one tag, e.g. "tags": ["cooking"].',
    ]);
    expect(error.findings.filter((f) => f.severity === 'error')).toHaveLength(60);
    expect(error.findings.map((f) => f.path)).toContain('/skills/29/name');
  });

  it('lists the indexes as runs, and keeps apart the findings whose value or fix differs', () => {
    const skills = Array.from({ length: 8 }, (_, i) => ({
      id: `s${i}`,
      name: [0, 1, 2, 5, 7].includes(i) ? '' : `Skill ${i}`,
      description: 'Looks up orders.',
      tags: i === 3 ? [] : ['orders'],
    }));
    const error = thrown(() => defineAgentCard(card(skills) as never));
    const lines = error.message.split('\n').slice(1);
    expect(lines.filter((l) => l.includes('/name:'))).toEqual([
      expect.stringContaining('/skills/0..2,5,7/name: skills[0..2,5,7].name:'),
    ]);
    expect(lines.filter((l) => l.includes('/tags:'))).toEqual([
      expect.stringContaining('/skills/3/tags: skills[3].tags:'),
    ]);
  });

  it('lists at most 20 lines, then counts the rest and sends the reader to error.findings', () => {
    // Distinct values make distinct lines: 40 skill ids, each used twice.
    const skills = Array.from({ length: 80 }, (_, i) => ({
      id: `id-${i % 40}`,
      name: `Skill ${i}`,
      description: 'Looks up orders.',
      tags: ['orders'],
    }));
    const error = thrown(() => defineAgentCard(card(skills) as never));
    const lines = error.message.split('\n');
    const errors = error.findings.filter((f) => f.severity === 'error');
    expect(errors.length).toBeGreaterThan(20);
    expect(lines).toHaveLength(22);
    expect(lines[21]).toBe(`  - and ${errors.length - 20} more: error.findings lists every one`);
    expect(error.message.length).toBeLessThan(8_000);
  });
});
