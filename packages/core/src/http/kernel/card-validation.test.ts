import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineAgentCard, defineAgentCardWithFindings, type AgentCardDefinition } from '../../define';
import * as validation from '../../validate/validate';
import { checkCard } from './card-validation';
import { createAgentCardResponder } from '../responder';

// Counts the validator runs while keeping the real validator.
vi.mock('../../validate/validate', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../validate/validate')>();
  return { ...actual, validateAgentCardFindings: vi.fn(actual.validateAgentCardFindings) };
});
const validations = vi.mocked(validation.validateAgentCardFindings);

/** A card with one warning (a placeholder host), so there is something to log. */
const definition = (): AgentCardDefinition => ({
  name: 'Larkspur Telecom Support Agent',
  description: 'Answers questions about Larkspur mobile and broadband plans and opens support tickets.',
  version: '3.4.1',
  supportedInterfaces: [{ url: 'https://support-agent.larkspur-telecom.com/a2a/v1', protocolBinding: 'JSONRPC' }],
  provider: { organization: 'Larkspur Telecom Ltd.', url: 'https://www.larkspur-telecom.com' },
  documentationUrl: 'https://docs.example.com/support',
  skills: [
    {
      id: 'explain-bill',
      name: 'Explain a bill',
      description: 'Breaks down a monthly bill.',
      tags: ['billing'],
      examples: ['Why is my bill higher?'],
    },
  ],
});

beforeEach(() => {
  validations.mockClear();
});

describe('a card from defineAgentCard is validated once', () => {
  it('the responder reuses the findings recorded by defineAgentCard for the same profile', () => {
    const card = defineAgentCard(definition(), { profile: 'production' });
    expect(validations).toHaveBeenCalledTimes(1);

    const warn = vi.fn();
    createAgentCardResponder({ card, profile: 'production', logger: { warn } });
    expect(validations).toHaveBeenCalledTimes(1);
    // The warning is still logged, once, by the responder.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^agent card: 1 warning\(s\):\n.*\[url-placeholder\] \/documentationUrl/s);
  });

  it('hands out the very findings defineAgentCard made, and the same ones a fresh validation makes', () => {
    const { card, findings } = defineAgentCardWithFindings(definition(), { profile: 'production' });
    const reused = checkCard(card, 'production').findings;
    const placeholder = findings.find((f) => f.rule === 'url-placeholder');
    expect(placeholder).toBeDefined();
    expect(reused.find((f) => f.rule === 'url-placeholder')).toBe(placeholder);
    expect(reused).toEqual(validation.validateAgentCard(card, { profile: 'production' }).findings);
  });

  it('validates again under another profile, or for a copy of the card', () => {
    const card = defineAgentCard(definition(), { profile: 'production' });
    validations.mockClear();
    const strict = checkCard(card, 'strict');
    expect(validations).toHaveBeenCalledTimes(1);
    expect(strict.findings).toEqual(validation.validateAgentCard(card, { profile: 'strict' }).findings);

    validations.mockClear();
    checkCard(structuredClone(card), 'production');
    expect(validations).toHaveBeenCalledTimes(1);
  });
});
