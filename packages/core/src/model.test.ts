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
