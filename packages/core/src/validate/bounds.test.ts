// Cards made of tens of thousands of small mistakes: each rule lists at most 100 findings, then
// says in one finding that it stopped and how many more it found; the verdict is unchanged.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../findings';
import { MAX_FINDINGS_PER_RULE } from './context';
import { validateAgentCard } from './validate';

const SAMPLE = readFileSync(
  new URL('../../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json', import.meta.url),
  'utf8',
);
const sample = () => JSON.parse(SAMPLE) as Record<string, any>;
const skill = (i: number) => ({ id: `s${i}`, name: `Skill ${i}`, description: 'Looks up orders.', tags: ['t'] });
const iface = (url: string) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });

function ofRule(findings: readonly Finding[], rule: string) {
  const all = findings.filter((f) => f.rule === rule);
  const stopped = all.filter((f) => f.message.includes('stopped reporting'));
  return { listed: all.length - stopped.length, stopped };
}

const stoppedMessage = (rule: string, more: number) =>
  `card: ${rule} stopped reporting after 100 findings; ${more.toLocaleString('en-US')} more were not listed.`;

describe('a bound on the findings of each rule', () => {
  it('is 100', () => {
    expect(MAX_FINDINGS_PER_RULE).toBe(100);
  });

  const cases: [string, string, 'error' | 'warning' | 'info', number, () => Record<string, unknown>][] = [
    [
      '40,000 unknown members at the top level',
      'unknown-field',
      'warning',
      40_000,
      () => ({ ...sample(), ...Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`x${i}`, 0])) }),
    ],
    [
      '20,000 unknown members in capabilities',
      'unknown-field',
      'warning',
      20_000,
      () => ({
        ...sample(),
        capabilities: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`x${i}`, 0])),
      }),
    ],
    [
      '15,000 identical interfaces',
      'interface-duplicate',
      'warning',
      14_999,
      () => ({
        ...sample(),
        supportedInterfaces: Array.from({ length: 15_000 }, () => iface('https://api.acme.io/a2a')),
      }),
    ],
    [
      '10,000 skills with a blank tag',
      'skill-tags-required',
      'error',
      10_000,
      () => ({ ...sample(), skills: Array.from({ length: 10_000 }, (_, i) => ({ ...skill(i), tags: [' '] })) }),
    ],
    [
      '10,000 skills sharing one id',
      'skill-id-unique',
      'error',
      9_999,
      () => ({ ...sample(), skills: Array.from({ length: 10_000 }, () => skill(0)) }),
    ],
    [
      '10,000 requirements naming unknown schemes',
      'security-scheme-reference',
      'error',
      // and the sample's own scheme, now used by no requirement (an info)
      10_001,
      () => ({
        ...sample(),
        securityRequirements: Array.from({ length: 10_000 }, (_, i) => ({ schemes: { [`nope${i}`]: { list: [] } } })),
      }),
    ],
    [
      '10,000 interfaces whose URL is not a URL',
      'interface-url-format',
      'error',
      10_000,
      () => ({ ...sample(), supportedInterfaces: Array.from({ length: 10_000 }, (_, i) => iface(`not a url ${i}`)) }),
    ],
    [
      '10,000 extensions with relative URIs',
      'extension-uri-required',
      'error',
      10_000,
      () => ({
        ...sample(),
        capabilities: { extensions: Array.from({ length: 10_000 }, (_, i) => ({ uri: `ext${i}` })) },
      }),
    ],
    [
      '10,000 skills that are not objects',
      'field-types',
      'error',
      10_000,
      () => ({ ...sample(), skills: Array.from({ length: 10_000 }, (_, i) => i) }),
    ],
    [
      '5,000 schemes in the in-memory shape of @a2a-js/sdk',
      'sdk-in-memory-shape',
      'error',
      5_000,
      () => ({
        ...sample(),
        securitySchemes: Object.fromEntries(
          Array.from({ length: 5_000 }, (_, i) => [
            `k${i}`,
            { scheme: { $case: 'apiKeySecurityScheme', value: { location: 'header', name: 'x-key' } } },
          ]),
        ),
      }),
    ],
  ];

  it.each(cases)('%s: 100 %s findings, then one that says how many more', (_name, rule, severity, total, make) => {
    const { findings, valid } = validateAgentCard(JSON.stringify(make()), { profile: 'production' });
    const { listed, stopped } = ofRule(findings, rule);
    expect(listed).toBe(MAX_FINDINGS_PER_RULE);
    expect(stopped).toEqual([
      {
        rule,
        severity,
        path: '',
        message: stoppedMessage(rule, total - MAX_FINDINGS_PER_RULE),
        hint: 'Fix the findings listed above and validate again to see the rest.',
      },
    ]);
    expect(valid).toBe(severity !== 'error');
    // No rule lists more than its bound plus the finding that says it stopped.
    const perRule = new Map<string, number>();
    for (const f of findings) perRule.set(f.rule, (perRule.get(f.rule) ?? 0) + 1);
    for (const count of perRule.values()) expect(count).toBeLessThanOrEqual(MAX_FINDINGS_PER_RULE + 1);
  });

  it('lists the first 100 in document order, with their own wording', () => {
    const card = { ...sample(), ...Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`x${i}`, i])) };
    const unknown = validateAgentCard(card, { profile: 'production' }).findings.filter(
      (f) => f.rule === 'unknown-field' && f.path !== '',
    );
    expect(unknown.map((f) => f.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/x${i}`));
    expect(unknown[7]).toMatchObject({ severity: 'warning', message: 'x7: unknown field (7).' });
  });

  it('takes the severity of the worst finding left out, so the verdict is that of the whole list', () => {
    // 100 deprecated flows (warnings) are listed; the scheme with no flow at all (an error) comes after.
    const securitySchemes: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      securitySchemes[`s${i}`] = {
        oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: 'https://auth.acme.io/a', scopes: {} } } },
      };
    }
    securitySchemes.last = { oauth2SecurityScheme: { flows: {} } };
    const card = {
      ...sample(),
      securitySchemes,
      securityRequirements: Object.keys(securitySchemes).map((name) => ({ schemes: { [name]: { list: [] } } })),
    };
    const result = validateAgentCard(card, { profile: 'production' });
    const { listed, stopped } = ofRule(result.findings, 'oauth-flow-shape');
    expect(listed).toBe(100);
    expect(stopped.map((f) => [f.severity, f.message])).toEqual([['error', stoppedMessage('oauth-flow-shape', 1)]]);
    expect(result.valid).toBe(false);
  });

  it('leaves a card under the bound exactly as before: no finding says it stopped', () => {
    const card = { ...sample(), ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x${i}`, 0])) };
    const { findings } = validateAgentCard(card, { profile: 'production' });
    expect(ofRule(findings, 'unknown-field')).toEqual({ listed: 100, stopped: [] });
  });

  it('builds no typed card for a card with unknown members, as zod would reject it', () => {
    const card = { ...sample(), ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x${i}`, 0])) };
    const result = validateAgentCard(card, { profile: 'production' });
    expect(result.valid).toBe(true);
    expect(result.card).toBeUndefined();
  });
});
