import { describe, expect, it } from 'vitest';
import { defineAgentCard, defineAgentCardWithFindings } from '../define';
import { AgentCardError } from '../errors';
import { createAgentCardResponder } from '../http/responder';
import type { AgentCardOptions, AgentCardResponse } from '../http/types';
import type { AgentCard } from '../model';
import { baseCard } from '../validate/test-cards';
import { validateAgentCard } from '../validate/validate';
import { getRule, listRules, type RuleOverrides } from '.';

/** A card served on a private host over http: errors in production, as a staging card is. */
function stagingCard(): AgentCard {
  const card = baseCard();
  card.supportedInterfaces = [{ url: 'http://10.0.0.7/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];
  return card as unknown as AgentCard;
}

function thrown(run: () => unknown): AgentCardError {
  try {
    run();
  } catch (error) {
    if (error instanceof AgentCardError) return error;
    throw error;
  }
  throw new Error('expected an AgentCardError');
}

describe('the rule catalogue', () => {
  it('lists every rule once, numbered, with a summary, a fix and a severity per profile', () => {
    const rules = listRules();
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(new Set(rules.map((r) => r.number)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.summary, rule.id).not.toBe('');
      expect(rule.fix, rule.id).not.toBe('');
      expect(Object.keys(rule.severity), rule.id).toEqual(['development', 'production', 'strict']);
    }
  });

  it('gives a rule by its id, and nothing for an id it does not have', () => {
    expect(getRule('skill-tags-required')).toMatchObject({
      id: 'skill-tags-required',
      number: 10,
      section: 'structure',
      severity: { development: 'error', production: 'error', strict: 'error' },
    });
    expect(getRule('url-localhost')?.severity).toEqual({ development: 'info', production: 'error', strict: 'error' });
    expect(getRule('discovery-status')?.section).toBe('discovery');
    expect(getRule('catalog-entries-limit')?.section).toBe('catalog');
    expect(getRule('skill-tags')).toBeUndefined();
  });
});

describe('per-rule settings', () => {
  it('validateAgentCard: a rule turned off lists no finding, and the result says it was turned off', () => {
    const card = baseCard();
    delete card.documentationUrl;
    expect(validateAgentCard(card).findings.map((f) => f.rule)).toContain('metadata-quality');
    const result = validateAgentCard(card, { rules: { 'metadata-quality': 'off', 'secrets-in-card': 'off' } });
    expect(result.findings.map((f) => f.rule)).not.toContain('metadata-quality');
    expect(result.turnedOff).toEqual([
      { rule: 'metadata-quality', findings: 1 },
      { rule: 'secrets-in-card', findings: 0 },
    ]);
    expect(validateAgentCard(card).turnedOff).toBeUndefined();
  });

  it('validateAgentCard: a severity set replaces the profile severity, and the verdict follows it', () => {
    const production = validateAgentCard(stagingCard(), { profile: 'production' });
    expect(production.valid).toBe(false);
    const tuned = validateAgentCard(stagingCard(), {
      profile: 'production',
      rules: { 'url-https': 'warning', 'url-private-host': 'error' },
    });
    expect(tuned.valid).toBe(false);
    expect(tuned.findings.filter((f) => f.rule === 'url-https').map((f) => f.severity)).toEqual(['warning']);
    expect(tuned.findings[0]).toMatchObject({ rule: 'url-private-host', severity: 'error' });
    const accepted = validateAgentCard(stagingCard(), {
      profile: 'production',
      rules: { 'url-https': 'warning', 'url-private-host': 'info' },
    });
    expect(accepted.valid).toBe(true);
  });

  it('a misspelt rule id throws at once, naming the rule it was meant to be', () => {
    const rules = { 'metadata-qualty': 'off' } as unknown as RuleOverrides;
    const error = thrown(() => validateAgentCard(baseCard(), { rules }));
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect(error.message).toBe(
      'Invalid rule settings:\n  - options.rules["metadata-qualty"]: unknown rule ("metadata-qualty"). Did you mean "metadata-quality"?',
    );
  });

  it('an unknown setting throws, naming the four there are', () => {
    const rules = { 'metadata-quality': 'warn' } as unknown as RuleOverrides;
    expect(thrown(() => validateAgentCard(baseCard(), { rules })).message).toContain(
      'options.rules["metadata-quality"]: unknown setting ("warn"). Use one of off, info, warning, error.',
    );
  });

  it('an object setting without a usable toString (JSON read without a prototype) is named, not a TypeError', () => {
    const setting = Object.assign(Object.create(null), { toString: 'off' });
    const rules = { 'secrets-in-card': setting } as unknown as RuleOverrides;
    expect(thrown(() => validateAgentCard(baseCard(), { rules })).message).toContain(
      'options.rules["secrets-in-card"]: unknown setting (an object). Use one of off, info, warning, error.',
    );
  });

  it('defineAgentCard: an error set to warning no longer throws; the warning is returned', () => {
    const definition = {
      name: 'Staging Orders',
      description: 'Answers questions about orders, for the staging environment only.',
      version: '1.0.0',
      url: 'http://10.0.0.7/a2a',
      binding: 'JSONRPC' as const,
      provider: { organization: 'Acme Inc.', url: 'https://acme.io' },
      skills: [{ id: 'orders', name: 'Orders', description: 'Looks up an order.', tags: ['orders'] }],
    };
    expect(thrown(() => defineAgentCard(definition, { profile: 'production' })).code).toBe('ERR_AGENT_CARD_INVALID');
    const { findings, turnedOff } = defineAgentCardWithFindings(definition, {
      profile: 'production',
      rules: { 'url-https': 'warning', 'url-private-host': 'off' },
    });
    expect(findings.filter((f) => f.rule === 'url-https').map((f) => [f.severity, f.path])).toEqual([
      ['warning', '/url'],
    ]);
    expect(turnedOff).toEqual([{ rule: 'url-private-host', findings: 1 }]);
  });

  it('the middleware applies the settings at start-up, and refuses an unknown id together with the other problems', () => {
    expect(() => createAgentCardResponder({ card: stagingCard(), profile: 'production' })).toThrow(/url-https/);
    const responder = createAgentCardResponder({
      card: stagingCard(),
      profile: 'production',
      rules: { 'url-https': 'warning', 'url-private-host': 'warning' },
      logger: { warn: () => {} },
    });
    const answer = responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: {} });
    expect((answer as AgentCardResponse | undefined)?.status).toBe(200);
    const error = thrown(() =>
      createAgentCardResponder({
        card: stagingCard(),
        rules: { 'url-http': 'off' },
        cahceControl: 'no-store',
      } as unknown as AgentCardOptions),
    );
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect(error.message).toContain('options.rules["url-http"]: unknown rule ("url-http"). Did you mean "url-https"?');
    expect(error.message).toContain('options.cahceControl: unknown option. Did you mean "cacheControl"?');
  });
});
