import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { agentCardJsonSchema } from '@agent-card/core';

const sample = JSON.parse(
  readFileSync(
    new URL('../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json', import.meta.url),
    'utf8',
  ),
);

const compile = () => new Ajv2020({ strict: true, allErrors: true }).compile(agentCardJsonSchema());

describe('agentCardJsonSchema', () => {
  it('is a draft 2020-12 schema whose root refers to AgentCard', () => {
    const schema = agentCardJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$ref).toBe('#/$defs/AgentCard');
  });

  it('names its definitions after the proto messages', () => {
    const defs = Object.keys(agentCardJsonSchema().$defs as object).sort();
    expect(defs).toEqual(
      [
        'APIKeySecurityScheme',
        'AgentCapabilities',
        'AgentCard',
        'AgentCardSignature',
        'AgentExtension',
        'AgentInterface',
        'AgentProvider',
        'AgentSkill',
        'AuthorizationCodeOAuthFlow',
        'ClientCredentialsOAuthFlow',
        'DeviceCodeOAuthFlow',
        'HTTPAuthSecurityScheme',
        'ImplicitOAuthFlow',
        'MutualTlsSecurityScheme',
        'OAuth2SecurityScheme',
        'OAuthFlows',
        'OpenIdConnectSecurityScheme',
        'PasswordOAuthFlow',
        'SecurityRequirement',
        'SecurityScheme',
        'StringList',
      ].sort(),
    );
  });

  it.each(['SecurityScheme', 'OAuthFlows'])('states that %s has exactly one member', (name) => {
    const def = (agentCardJsonSchema().$defs as Record<string, Record<string, unknown>>)[name];
    expect(def).toMatchObject({ minProperties: 1, maxProperties: 1, additionalProperties: false });
  });

  it('compiles in Ajv strict mode and accepts the spec §8.5 sample', () => {
    const validate = compile();
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    [
      'two security scheme wrappers',
      { securitySchemes: { s: { mtlsSecurityScheme: {}, httpAuthSecurityScheme: { scheme: 'Bearer' } } } },
    ],
    ['an empty security scheme', { securitySchemes: { s: {} } }],
    ['an unknown key', { stateTransitionHistory: true }],
    ['an empty skills array', { skills: [] }],
    ['an empty name', { name: '' }],
  ])('rejects a card with %s', (_what, patch) => {
    expect(compile()({ ...sample, ...patch })).toBe(false);
  });

  it('leaves out keywords that constrain nothing', () => {
    const text = JSON.stringify(agentCardJsonSchema());
    expect(text).not.toContain('"propertyNames"');
    expect(text).not.toContain('"additionalProperties":{}');
  });

  it('is computed once and frozen', () => {
    const schema = agentCardJsonSchema();
    expect(agentCardJsonSchema()).toBe(schema);
    expect(Object.isFrozen(schema.$defs)).toBe(true);
  });
});
