import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import { conformanceAgentCard } from '../testing/cards';
import { createAgentCardResponder } from './responder';
import type { AgentCardOptions } from './types';

const card = conformanceAgentCard('billing');

function startupError(options: unknown): AgentCardError {
  try {
    createAgentCardResponder(options as AgentCardOptions);
  } catch (error) {
    if (error instanceof AgentCardError) return error;
    throw error;
  }
  throw new Error('expected an AgentCardError at start-up');
}

describe('start-up errors stay short', () => {
  it('a misspelt option names the option it was meant to be, not all of them', () => {
    expect(startupError({ card, cahceControl: 'no-store' }).message).toBe(
      'Invalid agent card options:\n  - options.cahceControl: unknown option. Did you mean "cacheControl"?',
    );
    expect(startupError({ card, cache_control: 'no-store' }).message).toContain(
      'options.cache_control: unknown option. Did you mean "cacheControl"?',
    );
    expect(startupError({ card, extended: { authenticate: () => 'x', pathh: '/x' } }).message).toContain(
      'options.extended.pathh: unknown option. Did you mean "path"?',
    );
  });

  it('an option like none of them points to where they are listed instead of listing them', () => {
    const message = startupError({ card, frobnicate: true }).message;
    expect(message).toMatch(
      /^Invalid agent card options:\n {2}- options\.frobnicate: unknown option\. Remove it or fix the spelling \(the \d+ options are listed in AgentCardOptions and @agent-card\/core's docs\/serving\.md\)\.$/,
    );
    expect(message.length).toBeLessThan(200);
  });

  it('a whole card passed as a string is quoted by its start and its length, not in full', () => {
    const text = JSON.stringify(card);
    const message = startupError({ card: text }).message;
    expect(message.length).toBeLessThan(400);
    expect(message).toContain(`${JSON.stringify(text).slice(0, 59)}… (${JSON.stringify(text).length} characters)`);
    expect(message).not.toContain(card.description);
  });
});
