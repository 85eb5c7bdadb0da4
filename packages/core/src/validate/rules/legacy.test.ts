import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAgentCard } from '../validate';

type Card = Record<string, any>;
const fixture = (name: string): Card =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/spec/examples/${name}`, import.meta.url), 'utf8'));
const v10 = () => fixture('spec-8.5-sample-agent-card.main-16ba5269.json');
const v03 = () => fixture('legacy-v0.3.0-spec-5.7-sample-agent-card.json');

type Row = [
  name: string,
  card: () => Card,
  rule: string,
  severity: string,
  path: string,
  message: string,
  hint: string,
];

const rows: Row[] = [
  [
    'v1.0 card with a legacy url that matches an interface',
    () => ({ ...v10(), url: 'https://georoute-agent.example.com/a2a/v1' }),
    'legacy-fields-present',
    'warning',
    '/url',
    'url: v0.3 field in a v1.0 card',
    'superset',
  ],
  [
    'v1.0 card with a legacy url missing from supportedInterfaces',
    () => ({ ...v10(), url: 'https://other.example.com/a2a' }),
    'legacy-fields-present',
    'error',
    '/url',
    'not among supportedInterfaces[].url',
    '"supportedInterfaces": [',
  ],
  [
    'v1.0 card with supportsAuthenticatedExtendedCard',
    () => ({ ...v10(), supportsAuthenticatedExtendedCard: true }),
    'legacy-fields-present',
    'warning',
    '/supportsAuthenticatedExtendedCard',
    'v0.3 field in a v1.0 card',
    'capabilities.extendedAgentCard is already set',
  ],
  [
    'superset card: security next to securityRequirements',
    () => ({ ...v10(), security: [{ google: ['openid'] }] }),
    'legacy-fields-present',
    'warning',
    '/security',
    'v0.3 field next to securityRequirements',
    'superset',
  ],
  [
    'superset scheme: v0.3 fields next to the wrapper',
    () => {
      const c = v10();
      c.securitySchemes.google.type = 'openIdConnect';
      return c;
    },
    'legacy-fields-present',
    'warning',
    '/securitySchemes/google',
    'v0.3 scheme fields next to the v1.0 wrapper',
    'Removed the v0.3 fields type next to openIdConnectSecurityScheme',
  ],
  [
    'v1.0.0 §8.5 sample: security instead of securityRequirements',
    () => fixture('spec-8.5-sample-agent-card.v1.0.0.json'),
    'legacy-security-shape',
    'error',
    '/security',
    'security: v0.3 security requirements',
    'Use "securityRequirements": [{"schemes":{"google":{"list":["openid","profile","email"]}}}].',
  ],
  [
    'v1.0 card with a type-style apiKey scheme',
    () => {
      const c = v10();
      c.securitySchemes = { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } };
      c.securityRequirements = [{ schemes: { key: { list: [] } } }];
      return c;
    },
    'legacy-security-shape',
    'error',
    '/securitySchemes/key',
    'v0.3 security scheme (type discriminator)',
    'In securitySchemes, use "key": {"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}.',
  ],
  [
    'skill-level security in a v1.0 card',
    () => {
      const c = v10();
      c.skills[1].security = [{ google: ['email'] }];
      return c;
    },
    'legacy-security-shape',
    'error',
    '/skills/1/security',
    'skills[1].security: v0.3 security requirements',
    'In skills[1], use "securityRequirements": [{"schemes":{"google":{"list":["email"]}}}].',
  ],
  [
    'v0.3 sample: url',
    v03,
    'legacy-fields-present',
    'error',
    '/url',
    'url: v0.3 field; v1.0 clients read the endpoint from supportedInterfaces',
    'Use "supportedInterfaces": [{"url":"https://georoute-agent.example.com/a2a/v1","protocolBinding":"JSONRPC","protocolVersion":"0.2"},{"url":"https://georoute-agent.example.com/a2a/grpc","protocolBinding":"GRPC","protocolVersion":"0.2"},{"url":"https://georoute-agent.example.com/a2a/json","protocolBinding":"HTTP+JSON","protocolVersion":"0.2"}].',
  ],
  [
    'v0.3 sample: preferredTransport',
    v03,
    'legacy-fields-present',
    'error',
    '/preferredTransport',
    'preferredTransport: v0.3 field',
    '"supportedInterfaces": [',
  ],
  [
    'v0.3 sample: additionalInterfaces',
    v03,
    'legacy-fields-present',
    'error',
    '/additionalInterfaces',
    'additionalInterfaces: v0.3 field',
    'transport → protocolBinding',
  ],
  [
    'v0.3 sample: protocolVersion',
    v03,
    'legacy-fields-present',
    'error',
    '/protocolVersion',
    'protocolVersion: v0.3 field',
    'protocolVersion "0.2"',
  ],
  [
    'v0.3 sample: security',
    v03,
    'legacy-fields-present',
    'error',
    '/security',
    'security: v0.3 field',
    'Use "securityRequirements": [{"schemes":{"google":{"list":["openid","profile","email"]}}}].',
  ],
  [
    'v0.3 sample: supportsAuthenticatedExtendedCard',
    v03,
    'legacy-fields-present',
    'error',
    '/supportsAuthenticatedExtendedCard',
    'supportsAuthenticatedExtendedCard: v0.3 field',
    'Use "capabilities": {"streaming":true,"pushNotifications":true,"extendedAgentCard":true}.',
  ],
  [
    'v0.3 sample: type-style scheme',
    v03,
    'legacy-fields-present',
    'error',
    '/securitySchemes/google',
    'v0.3 security scheme',
    'In securitySchemes, use "google": {"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://accounts.google.com/.well-known/openid-configuration"}}.',
  ],
];

describe.each(rows)('%s', (_name, card, rule, severity, path, message, hint) => {
  it(`reports ${rule}`, () => {
    const hit = validateAgentCard(card()).findings.find((f) => f.rule === rule && f.path === path);
    expect(hit).toBeDefined();
    expect(hit!.severity).toBe(severity);
    expect(hit!.message).toContain(message);
    expect(hit!.hint).toContain(hint);
  });
});

describe('no legacy findings', () => {
  it.each([
    ['the main §8.5 sample', v10],
    [
      'a v1.0 card whose securityRequirements use the v1.0 shape at skill level',
      () => {
        const c = v10();
        c.skills[0].securityRequirements = [{ schemes: { google: { list: ['openid'] } } }];
        return c;
      },
    ],
  ])('%s', (_name, card) => {
    const findings = validateAgentCard(card(), { profile: 'strict' }).findings;
    expect(findings.filter((f) => f.rule === 'legacy-fields-present' || f.rule === 'legacy-security-shape')).toEqual(
      [],
    );
  });

  it('does not also report the legacy keys as unknown fields', () => {
    const paths = validateAgentCard(v03())
      .findings.filter((f) => f.rule === 'unknown-field')
      .map((f) => f.path);
    expect(paths).toEqual(['/capabilities/stateTransitionHistory']);
  });

  it('makes a v0.3 card invalid and a mixed superset card valid', () => {
    expect(validateAgentCard(v03()).valid).toBe(false);
    const superset = {
      ...v10(),
      url: 'https://georoute-agent.example.com/a2a/v1',
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
    };
    expect(validateAgentCard(superset).valid).toBe(true);
  });
});
