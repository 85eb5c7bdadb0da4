import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentCardSchema } from '@agent-card/core';

const spec = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/spec/examples/${name}`, import.meta.url), 'utf8'));

describe('AgentCardSchema', () => {
  it('accepts the proto-conformant spec §8.5 sample', () => {
    expect(AgentCardSchema.safeParse(spec('spec-8.5-sample-agent-card.main-16ba5269.json')).success).toBe(true);
  });

  it.each([
    ['legacy security field', 'spec-8.5-sample-agent-card.v1.0.1.json'],
    ['v0.3 card', 'legacy-v0.3.0-spec-5.7-sample-agent-card.json'],
  ])('rejects the %s', (_what, file) => {
    expect(AgentCardSchema.safeParse(spec(file)).success).toBe(false);
  });
});

describe('AgentCardSchema edge cases', () => {
  const sample = () => spec('spec-8.5-sample-agent-card.main-16ba5269.json') as Record<string, unknown>;
  const withPatch = (json: string) => ({ ...sample(), ...JSON.parse(json) });

  // JSON.parse keeps "__proto__" as an ordinary key; the oracle checks its value like any other.
  it.each([
    ['an empty security scheme', '{"securitySchemes":{"__proto__":{}}}'],
    [
      'two scheme wrappers',
      '{"securitySchemes":{"__proto__":{"mtlsSecurityScheme":{},"httpAuthSecurityScheme":{"scheme":"Bearer"}}}}',
    ],
    [
      'a numeric scope description',
      '{"securitySchemes":{"s":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://a.acme-corp.io/t","scopes":{"__proto__":1}}}}}}}',
    ],
    [
      'a requirement list that is not a StringList',
      '{"securityRequirements":[{"schemes":{"__proto__":{"list":"read"}}}]}',
    ],
  ])('rejects %s under a "__proto__" map key', (_what, json) => {
    const result = AgentCardSchema.safeParse(withPatch(json));
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.path.includes('__proto__'))).toBe(true);
  });

  it('accepts a valid scheme named "__proto__" without touching the output prototype', () => {
    const result = AgentCardSchema.safeParse(withPatch('{"securitySchemes":{"__proto__":{"mtlsSecurityScheme":{}}}}'));
    expect(result.success).toBe(true);
    expect(Object.getPrototypeOf(result.data!.securitySchemes)).toBe(Object.prototype);
  });

  it.each([
    ['JSONRPC', true],
    ['HTTP+JSON', true],
    ['https://bindings.acme-corp.io/mqtt/v1', true],
    ['', false],
  ])('takes protocolBinding %j structurally: %s', (protocolBinding, ok) => {
    const card = sample();
    card.supportedInterfaces = [{ url: 'https://agents.acme-corp.io/a2a', protocolBinding, protocolVersion: '1.0' }];
    expect(AgentCardSchema.safeParse(card).success).toBe(ok);
  });

  it('lists the parsed card keys in proto field order', () => {
    const shuffled = Object.fromEntries(Object.entries(sample()).reverse());
    expect(Object.keys(AgentCardSchema.parse(shuffled))).toEqual(
      Object.keys(AgentCardSchema.shape).filter((key) => key in shuffled),
    );
  });
});
