/**
 * Three judges of card structure must agree on every document:
 * the derived oracle (test/fixtures/spec, Ajv 2020), `AgentCardSchema` (zod) and the JSON Schema
 * generated from it (`agentCardJsonSchema()`, Ajv 2020).
 */
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentCardSchema, agentCardJsonSchema } from '@agent-card/core';
import { agentCardArbitrary, invalidCardArbitrary, MUTATIONS } from './arbitraries';

const here = (path: string) => new URL(path, import.meta.url);
const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as unknown;

const oracle = new Ajv2020({ strict: true, allErrors: true }).compile(
  readJson(here('./fixtures/spec/agent-card.v1.0.1.derived.schema.json')) as object,
);
const ours = new Ajv2020({ strict: true, allErrors: true }).compile(agentCardJsonSchema());

const verdicts = (card: unknown) => ({
  oracle: oracle(card),
  zod: AgentCardSchema.safeParse(card).success,
  generated: ours(card),
});

const jsonFiles = (dir: URL) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name, readJson(new URL(name, dir))] as const);

const specExamples = jsonFiles(here('./fixtures/spec/examples/'));
const exampleCards = jsonFiles(here('../examples/cards/'));

describe('structural equivalence: oracle ⇔ AgentCardSchema ⇔ agentCardJsonSchema()', () => {
  it.each(specExamples)('agrees on spec example %s', (_name, document) => {
    const v = verdicts(document);
    expect(v.zod).toBe(v.oracle);
    expect(v.generated).toBe(v.oracle);
  });

  it('accepts only the proto-conformant §8.5 sample among the spec examples', () => {
    const accepted = specExamples.filter(([, document]) => oracle(document)).map(([name]) => name);
    expect(accepted).toEqual(['spec-8.5-sample-agent-card.main-16ba5269.json']);
  });

  it('covers the six example cards', () => {
    expect(exampleCards.map(([name]) => name).sort()).toEqual([
      'booking.json',
      'coding.json',
      'research.json',
      'shopping.json',
      'support.json',
      'workflow.json',
    ]);
  });

  it.each(exampleCards)('accepts example card %s in all three', (_name, card) => {
    expect(verdicts(card)).toEqual({ oracle: true, zod: true, generated: true });
  });

  it('accepts every generated card in all three (600 runs)', () => {
    fc.assert(
      fc.property(agentCardArbitrary, (card) => {
        const v = verdicts(card);
        if (!v.oracle) throw new Error(`oracle rejects a generated card: ${JSON.stringify(oracle.errors)}`);
        expect(v).toEqual({ oracle: true, zod: true, generated: true });
      }),
      { numRuns: 600, seed: 20_260_101 },
    );
  });

  it('rejects every mutated card in all three (600 runs)', () => {
    fc.assert(
      fc.property(invalidCardArbitrary, ({ card }) => {
        expect(verdicts(card)).toEqual({ oracle: false, zod: false, generated: false });
      }),
      { numRuns: 600, seed: 20_260_102 },
    );
  });

  it.each(MUTATIONS.map(([what]) => what))('rejects the mutation "%s" of the §8.5 sample in all three', (what) => {
    const [, apply] = MUTATIONS.find(([name]) => name === what)!;
    const sample = readJson(here('./fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json'));
    expect(verdicts(apply(structuredClone(sample) as Record<string, unknown>))).toEqual({
      oracle: false,
      zod: false,
      generated: false,
    });
  });

  const sample = () =>
    readJson(here('./fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json')) as Record<string, unknown>;
  it.each([
    ['a scheme named __proto__', true, JSON.parse('{"securitySchemes":{"__proto__":{"mtlsSecurityScheme":{}}}}')],
    ['an empty scheme named __proto__', false, JSON.parse('{"securitySchemes":{"__proto__":{}}}')],
    [
      'extension params with a __proto__ key',
      true,
      JSON.parse('{"capabilities":{"extensions":[{"params":{"__proto__":{"x":1}}}]}}'),
    ],
    ['a lone surrogate as the name', true, { name: '\uD800' }],
    ['a blank description', true, { description: ' ' }],
    ['an empty securitySchemes map', true, { securitySchemes: {} }],
    ['a requirement with no schemes', true, { securityRequirements: [{}] }],
    [
      'implicit flow with nothing in it',
      true,
      { securitySchemes: { s: { oauth2SecurityScheme: { flows: { implicit: {} } } } } },
    ],
    ['signature header as an array', false, { signatures: [{ protected: 'e30', signature: 'c2ln', header: [] }] }],
    ['skills with null inside', false, { skills: [null] }],
  ])('agrees on the §8.5 sample with %s', (_what, expected, patch) => {
    expect(verdicts({ ...sample(), ...patch })).toEqual({ oracle: expected, zod: expected, generated: expected });
  });

  it('agrees on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const v = verdicts(value);
        expect(v.zod).toBe(v.oracle);
        expect(v.generated).toBe(v.oracle);
      }),
      { numRuns: 300, seed: 20_260_103 },
    );
  });
});
