/**
 * The example cards are part of the product (templates, docs, demo): the good ones must pass the
 * `production` profile with no error, and each broken one must trigger the rule it is named after.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// examples/cards is a folder of data, not a workspace package: import core from its source.
import { validateAgentCard } from '../../packages/core/src/index';

const dir = new URL('./', import.meta.url);
const brokenDir = new URL('./broken/', import.meta.url);
const read = (url: URL) => readFileSync(url, 'utf8');

const good = readdirSync(dir).filter((name) => name.endsWith('.json'));
const broken = readdirSync(brokenDir).filter((name) => name.endsWith('.json'));

/**
 * Rules 1–41, 57–59 and 144 of the catalogue (RULES.md §6.1–6.3). Rule 38 (`interface-origin-mismatch`) compares
 * interface hosts with the URL that served the card, so no card can trigger it on its own.
 */
const CARD_RULES = [
  'card-json-parse',
  'card-json-duplicate-member',
  'card-root-object',
  'card-shape-detected',
  'required-fields',
  'field-types',
  'required-arrays-non-empty',
  'skills-non-empty',
  'interface-required-fields',
  'skill-required-fields',
  'skill-tags-required',
  'provider-required-fields',
  'security-scheme-shape',
  'oauth-flow-shape',
  'security-requirement-shape',
  'signature-format',
  'extension-uri-required',
  'json-camelcase',
  'unknown-field',
  'skill-id-unique',
  'security-scheme-reference',
  'security-scope-declared',
  'security-empty',
  'extended-card-requires-security',
  'mode-media-type',
  'interface-binding-known',
  'interface-protocol-version',
  'interface-url-format',
  'interface-duplicate',
  'interface-preference',
  'version-format',
  'legacy-fields-present',
  'legacy-security-shape',
  'url-https',
  'url-localhost',
  'url-private-host',
  'url-placeholder',
  'interface-url-is-card-url',
  'secrets-in-card',
  'metadata-quality',
  'no-security-declared',
  'template-content',
  'system-prompt-text',
  'hidden-instructions',
  'card-registry-size',
];

describe('examples/cards', () => {
  it('has the six use-case cards', () => {
    expect(good.sort()).toEqual([
      'booking.json',
      'coding.json',
      'research.json',
      'shopping.json',
      'support.json',
      'workflow.json',
    ]);
  });

  // Each good card is a starter template of `agent-card init`: production reports it as one
  // (template-content, naming the template) and finds nothing else to warn about.
  it.each(good)('%s is reported as its template under production, and nothing else', (name) => {
    const template = name.replace(/\.json$/, '');
    const result = validateAgentCard(read(new URL(name, dir)), { profile: 'production' });
    const notable = result.findings.filter((f) => f.severity !== 'info');
    expect(notable.length).toBeGreaterThan(0);
    for (const f of notable) {
      expect([f.rule, f.severity]).toEqual(['template-content', 'error']);
      expect(f.message).toContain(`still the "${template}" template's`);
    }
    expect(result.shape).toBe('v1.0');
  });

  it.each(good)('%s validates with no error and no warning under development but the template warnings', (name) => {
    const result = validateAgentCard(read(new URL(name, dir)), { profile: 'development' });
    expect(result.findings.filter((f) => f.severity !== 'info' && f.rule !== 'template-content')).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.card?.name).toBeTruthy();
  });

  it('covers among them OAuth 2.0 client credentials, an API key, HTTP bearer and no security', () => {
    const schemes = good.map((name) => JSON.stringify(JSON.parse(read(new URL(name, dir))).securitySchemes ?? null));
    expect(schemes.some((s) => s.includes('"clientCredentials"'))).toBe(true);
    expect(schemes.some((s) => s.includes('"apiKeySecurityScheme"'))).toBe(true);
    expect(schemes.some((s) => /"scheme":"Bearer"/i.test(s))).toBe(true);
    expect(schemes).toContain('null');
  });
});

describe('examples/cards/broken', () => {
  it('has one card for every rule a card alone can trigger', () => {
    expect(broken.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...CARD_RULES].sort());
  });

  it.each(broken)('%s triggers the rule it is named after (production)', (name) => {
    const rule = name.replace(/\.json$/, '');
    // Read as text: the JSON itself may be what is broken.
    const result = validateAgentCard(read(new URL(name, brokenDir)), { profile: 'production' });
    expect(result.findings.map((f) => f.rule)).toContain(rule);
    // Two rules also report (as info) on healthy cards; ask for what makes these cards broken.
    if (rule === 'card-shape-detected') expect(result.shape).toBe('v0.3');
    if (rule === 'interface-preference') {
      expect(result.findings.some((f) => f.rule === rule && f.severity === 'warning')).toBe(true);
    }
  });
});
