import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentCardError,
  AgentCardSchema,
  defineAgentCard,
  defineAgentCardWithFindings,
  type AgentCardDefinition,
} from '@agent-card/core';

const minimal = (): AgentCardDefinition => ({
  name: 'Larkspur Telecom Support Agent',
  description: 'Answers questions about Larkspur mobile and broadband plans and opens support tickets.',
  version: '3.4.1',
  url: 'https://support-agent.larkspur-telecom.com/a2a/v1',
  binding: 'JSONRPC',
  provider: { organization: 'Larkspur Telecom Ltd.', url: 'https://www.larkspur-telecom.com' },
  documentationUrl: 'https://developers.larkspur-telecom.com/agents/support',
  skills: [
    {
      id: 'explain-bill',
      name: 'Explain a bill',
      description: 'Breaks down the charges on a monthly bill.',
      tags: ['billing'],
      examples: ['Why is my March bill higher than usual?'],
    },
  ],
});

const thrown = (fn: () => unknown): AgentCardError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentCardError);
    return error as AgentCardError;
  }
  throw new Error('expected an AgentCardError');
};

describe('defineAgentCard', () => {
  it('expands the url + binding shorthand and fills the defaults', () => {
    const card = defineAgentCard(minimal(), { profile: 'production' });
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://support-agent.larkspur-telecom.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.defaultOutputModes).toEqual(['text/plain']);
    expect(card.capabilities).toEqual({});
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('binding');
    expect(AgentCardSchema.safeParse(card).success).toBe(true);
  });

  it('keeps protocolVersion and tenant of the shorthand on the interface', () => {
    const card = defineAgentCard(
      { ...minimal(), binding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'emea' },
      { profile: 'production' },
    );
    expect(card.supportedInterfaces[0]).toEqual({
      url: 'https://support-agent.larkspur-telecom.com/a2a/v1',
      protocolBinding: 'HTTP+JSON',
      tenant: 'emea',
      protocolVersion: '1.0',
    });
  });

  it('fills protocolVersion in supportedInterfaces entries that leave it out', () => {
    const { url: _url, binding: _binding, ...rest } = minimal();
    const card = defineAgentCard(
      {
        ...rest,
        supportedInterfaces: [
          { url: 'https://support-agent.larkspur-telecom.com/a2a/v1', protocolBinding: 'JSONRPC' },
          {
            url: 'https://support-agent.larkspur-telecom.com/a2a/rest',
            protocolBinding: 'HTTP+JSON',
            protocolVersion: '1.0',
          },
        ],
      },
      { profile: 'production' },
    );
    expect(card.supportedInterfaces.map((i) => i.protocolVersion)).toEqual(['1.0', '1.0']);
  });

  it('returns a deep-frozen card', () => {
    const card = defineAgentCard(minimal(), { profile: 'production' });
    expect(Object.isFrozen(card)).toBe(true);
    expect(Object.isFrozen(card.skills[0]!.tags)).toBe(true);
    expect(Object.isFrozen(card.supportedInterfaces[0])).toBe(true);
    expect(() => {
      (card.skills as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('does not freeze or change the caller’s input', () => {
    const input = minimal();
    const before = JSON.stringify(input);
    defineAgentCard(input, { profile: 'production' });
    expect(Object.isFrozen(input.skills)).toBe(false);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('orders keys as the proto does, whatever the input order', () => {
    const card = defineAgentCard(
      Object.fromEntries(Object.entries(minimal()).reverse()) as unknown as AgentCardDefinition,
      {
        profile: 'production',
      },
    );
    expect(Object.keys(card)).toEqual([
      'name',
      'description',
      'supportedInterfaces',
      'provider',
      'version',
      'documentationUrl',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ]);
    expect(Object.keys(card.provider!)).toEqual(['url', 'organization']);
    expect(Object.keys(card.skills[0]!)).toEqual(['id', 'name', 'description', 'tags', 'examples']);
  });

  it('gives byte-identical output for the same definition (no clocks, no randomness)', () => {
    const a = JSON.stringify(defineAgentCard(minimal(), { profile: 'production' }));
    vi.useFakeTimers({ now: new Date('2031-01-01T00:00:00Z') });
    try {
      expect(JSON.stringify(defineAgentCard(minimal(), { profile: 'production' }))).toBe(a);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the same card for a shuffled definition (property)', () => {
    const reference = JSON.stringify(defineAgentCard(minimal(), { profile: 'production' }));
    fc.assert(
      fc.property(fc.shuffledSubarray(Object.keys(minimal()), { minLength: Object.keys(minimal()).length }), (keys) => {
        const input = minimal() as unknown as Record<string, unknown>;
        const shuffled = Object.fromEntries(keys.map((k) => [k, input[k]])) as unknown as AgentCardDefinition;
        expect(JSON.stringify(defineAgentCard(shuffled, { profile: 'production' }))).toBe(reference);
      }),
      { numRuns: 50, seed: 7 },
    );
  });

  it('passes a complete v1.0 card through unchanged', () => {
    const sample = JSON.parse(
      readFileSync(new URL('../../../examples/cards/booking.json', import.meta.url), 'utf8'),
    ) as AgentCardDefinition;
    // The example cards are the starter templates of agent-card init, which production rejects
    // (template-content); development only warns about them.
    expect(JSON.stringify(defineAgentCard(sample, { profile: 'development' }))).toBe(JSON.stringify(sample));
  });

  it('rejects a skill without tags with a clear error and invents none', () => {
    const input = minimal();
    delete (input.skills[0] as Partial<(typeof input.skills)[0]>).tags;
    const error = thrown(() => defineAgentCard(input, { profile: 'production' }));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.message).toMatch(
      /\[skill-tags-required\] \/skills\/0\/tags: skills\[0\] \("explain-bill"\): tags are missing\./,
    );
    expect(error.message).toContain('tags: ["billing", "invoices"]');
    expect(error.findings.filter((f) => f.path === '/skills/0/tags')).toHaveLength(1);
  });

  it('throws one error listing every error finding at once', () => {
    const input = {
      ...minimal(),
      name: '',
      url: 'http://localhost:3000/a2a',
      skills: [
        { id: 'a', name: 'A', description: 'First skill of the agent.', tags: ['x'] },
        { id: 'a', name: 'A again', description: 'Second skill with the same id.', tags: ['y'] },
      ],
    };
    const error = thrown(() => defineAgentCard(input, { profile: 'production' }));
    const rules = error.findings.filter((f) => f.severity === 'error').map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['skill-id-unique', 'url-https', 'url-localhost']));
    expect(error.findings.some((f) => f.path === '/name' && f.severity === 'error')).toBe(true);
    for (const finding of error.findings.filter((f) => f.severity === 'error')) {
      expect(error.message).toContain(`[${finding.rule}] ${finding.path || '/'}: ${finding.message}`);
    }
    expect(error.message).toMatch(/^defineAgentCard: the agent card has \d+ errors\. Fix each one below\.\n/);
    // Findings point at what the caller wrote: the shorthand url, not supportedInterfaces/0/url.
    expect(error.findings.some((f) => f.path === '/url' && f.rule === 'url-localhost')).toBe(true);
    // Errors come first, then warnings and infos.
    const severities = error.findings.map((f) => f.severity);
    const firstOther = severities.findIndex((s) => s !== 'error');
    expect(severities.slice(firstOther === -1 ? severities.length : firstOther)).not.toContain('error');
  });

  it.each([
    [
      'url without binding',
      { binding: undefined },
      '/binding',
      /^binding: missing for url \("https:\/\/support-agent\.larkspur-telecom\.com\/a2a\/v1"\)\./,
    ],
    ['binding without url', { url: undefined }, '/url', /^url: missing, but binding is set \("JSONRPC"\)\./],
    [
      'no interface at all',
      { url: undefined, binding: undefined },
      '/supportedInterfaces',
      /^supportedInterfaces: missing \(neither url nor supportedInterfaces is set\)\./,
    ],
    [
      'both url and supportedInterfaces',
      { supportedInterfaces: [{ url: 'https://a.larkspur-telecom.com/a2a', protocolBinding: 'JSONRPC' }] },
      '/url',
      /^url: set together with supportedInterfaces/,
    ],
  ])('explains %s', (_what, patch, path, message) => {
    const error = thrown(() =>
      defineAgentCard({ ...minimal(), ...patch } as AgentCardDefinition, { profile: 'production' }),
    );
    const finding = error.findings.find((f) => f.path === path);
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toMatch(message);
    expect(finding?.hint).not.toBe('');
  });

  it.each([null, [], 'card', 42])('rejects a definition that is not an object (%j)', (input) => {
    const error = thrown(() => defineAgentCard(input as unknown as AgentCardDefinition));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.findings[0]?.rule).toBe('card-root-object');
  });

  it('returns warnings instead of throwing them, and logs them only when asked', () => {
    const input = { ...minimal(), documentationUrl: 'https://docs.example.com/support' };
    const { card, findings } = defineAgentCardWithFindings(input, { profile: 'production' });
    expect(card.documentationUrl).toBe('https://docs.example.com/support');
    expect(findings.some((f) => f.rule === 'url-placeholder' && f.severity === 'warning')).toBe(true);
    expect(findings.every((f) => f.severity !== 'error')).toBe(true);

    const warn = vi.fn();
    defineAgentCard(input, { profile: 'production', logger: { warn } });
    expect(warn).toHaveBeenCalled();
    expect(warn.mock.calls.map(([line]) => line).join('\n')).toMatch(
      /^agent-card: \[url-placeholder\] \/documentationUrl: /m,
    );
    for (const [line] of warn.mock.calls)
      expect(line).not.toMatch(/^agent-card: \[(?:no-security-declared|interface-preference)\]/);
  });

  it('keeps unknown keys (the validator warns about them) and a __proto__ key stays a plain key', () => {
    const input = JSON.parse(JSON.stringify({ ...minimal(), supportsAuthenticatedExtendedCard: false }));
    const { card, findings } = defineAgentCardWithFindings(input, { profile: 'development' });
    expect(Object.keys(card).at(-1)).toBe('supportsAuthenticatedExtendedCard');
    expect(findings.some((f) => f.path === '/supportsAuthenticatedExtendedCard')).toBe(true);

    const proto = JSON.parse(JSON.stringify(minimal()).replace('"skills":', '"__proto__":{"polluted":true},"skills":'));
    const result = defineAgentCardWithFindings(proto, { profile: 'development' });
    expect(Object.getPrototypeOf(result.card)).toBe(Object.prototype);
    expect(Object.hasOwn(result.card, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws nothing but AgentCardError, whatever the definition (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            { ...Object.fromEntries(Object.keys(minimal()).map((k) => [k, fc.anything()])) },
            { requiredKeys: [] },
          ),
        ),
        (input) => {
          try {
            const card = defineAgentCard(input as AgentCardDefinition, { profile: 'development' });
            expect(Object.isFrozen(card)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(AgentCardError);
            expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_INVALID');
            expect((error as AgentCardError).findings.some((f) => f.severity === 'error')).toBe(true);
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it('allows http://localhost under development, and rejects it under production', () => {
    const input = { ...minimal(), url: 'http://localhost:3000/a2a' };
    expect(defineAgentCard(input, { profile: 'development' }).supportedInterfaces[0]!.url).toBe(
      'http://localhost:3000/a2a',
    );
    expect(thrown(() => defineAgentCard(input, { profile: 'production' })).code).toBe('ERR_AGENT_CARD_INVALID');
  });
});
