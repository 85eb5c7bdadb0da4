import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateArdManifest } from './validate';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const errors = (value: unknown) =>
  validateArdManifest(value)
    .findings.filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.path}`);

const entry = (over: Record<string, unknown> = {}) => ({
  identifier: 'urn:air:example.com:agent:billing',
  displayName: 'Billing',
  type: 'application/a2a-agent-card+json',
  url: 'https://example.com/agents/billing/.well-known/agent-card.json',
  representativeQueries: ['refund my last order', 'why was I charged twice'],
  ...over,
});

describe('validateArdManifest reads ARD v0.91 manifests', () => {
  it('accepts the examples of the specification (§4.4) without a finding', () => {
    expect(validateArdManifest(fixture('valid-spec-examples.json'))).toEqual({ valid: true, findings: [] });
  });

  it.each([
    ['invalid-url-and-data.json', ['ard-value-or-reference /entries/0']],
    ['invalid-no-display-name.json', ['ard-entry-required /entries/0/displayName']],
    ['invalid-identifier-not-urn-air.json', ['ard-identifier-form /entries/0/identifier']],
    ['invalid-no-entries.json', ['ard-entries /entries']],
  ])('rejects %s with the rule it breaks', (name, expected) => {
    expect(errors(fixture(name))).toEqual(expected);
  });

  it('names the missing term, where it is and how to fix it', () => {
    const [finding] = validateArdManifest({ entries: [entry({ displayName: undefined })] }).findings;
    expect(finding).toEqual({
      rule: 'ard-entry-required',
      severity: 'error',
      path: '/entries/0/displayName',
      message: 'ard.entries[0].displayName: is missing.',
      hint: "Give the resource's name as people read it.",
    });
  });

  it('warns (errs under strict) when representativeQueries is missing or outside 2–5', () => {
    const none = validateArdManifest({ entries: [entry({ representativeQueries: undefined })] });
    expect(none.valid).toBe(true);
    expect(none.findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'ard-representative-queries',
        'warning',
        'ard.entries[0].representativeQueries: is missing, so search cannot find the entry.',
      ],
    ]);
    const six = { entries: [entry({ representativeQueries: ['a', 'b', 'c', 'd', 'e', 'f'] })] };
    expect(validateArdManifest(six, { profile: 'strict' }).findings.map((f) => [f.severity, f.message])).toEqual([
      ['error', 'ard.entries[0].representativeQueries: has 6 queries.'],
    ]);
  });

  it('refuses an identifier named twice and a trust identity outside the publisher domain', () => {
    const doc = {
      entries: [entry(), entry({ trustManifest: { identity: 'spiffe://evil.example/agent' } })],
    };
    expect(errors(doc)).toEqual([
      'ard-identifier-unique /entries/1/identifier',
      'ard-publisher-binding /entries/1/trustManifest/identity',
    ]);
    expect(errors({ entries: [entry({ trustManifest: { identity: 'did:web:agents.example.com' } })] })).toEqual([]);
  });

  it('reads hostile text with the one JSON reader: a member named twice is an error', () => {
    const text = '{"entries":[{"identifier":"x"}],"entries":[]}';
    expect(errors(text)).toEqual(['ard-duplicate-member /entries']);
    expect(errors('{"entries": [')).toEqual(['ard-json-parse ']);
  });

  it('reads at most maxEntries entries and says so', () => {
    const many = {
      entries: Array.from({ length: 5 }, (_, i) => entry({ identifier: `urn:air:example.com:agent:a${i}` })),
    };
    const result = validateArdManifest(many, { maxEntries: 2 });
    expect(result.findings.map((f) => f.rule)).toEqual(['ard-max-entries']);
  });
});
