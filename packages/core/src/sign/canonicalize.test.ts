import { readFileSync } from 'node:fs';
import { canonicalizeAgentCard as sdkCanonicalize } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { canonicalizeAgentCard } from './canonicalize';

const spec = new URL('../../../../test/fixtures/spec/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, spec), 'utf8');
const canon = (card: unknown) => canonicalizeAgentCard(card as AgentCard);

describe('canonicalizeAgentCard', () => {
  it.each([
    ['spec-8.4.1-canonicalization-input.json', 'a2a-js-1.3.0.canonical.spec-8.4.1-canonicalization-input.txt'],
    [
      'spec-8.5-sample-agent-card.main-16ba5269.json',
      'a2a-js-1.3.0.canonical.spec-8.5-sample-agent-card.main-16ba5269.txt',
    ],
  ])('reproduces the @a2a-js/sdk 1.3.0 vector for %s byte for byte', (input, vector) => {
    const card = JSON.parse(read(`examples/${input}`));
    expect(Buffer.from(canon(card), 'utf8')).toEqual(Buffer.from(read(`vectors/${vector}`), 'utf8'));
  });

  it('does not reproduce the spec §8.4.1 worked example, because both official SDKs drop empty REQUIRED values', () => {
    const card = JSON.parse(read('examples/spec-8.4.1-canonicalization-input.json'));
    expect(canon(card)).not.toBe(read('examples/spec-8.4.1-canonicalization-expected.txt'));
    expect(canon(card)).not.toContain('"description"');
    expect(canon(card)).not.toContain('"skills"');
  });

  it.each<[string, unknown, string]>([
    ['removes signatures', { name: 'A', signatures: [{ protected: 'x', signature: 'y' }] }, '{"name":"A"}'],
    [
      'drops empty strings, arrays and objects, REQUIRED ones too',
      { name: 'A', description: '', skills: [], provider: {}, capabilities: {} },
      '{"name":"A"}',
    ],
    [
      'keeps an explicit false on proto3 optional booleans',
      { capabilities: { streaming: false, extendedAgentCard: false } },
      '{"capabilities":{"extendedAgentCard":false,"streaming":false}}',
    ],
    [
      'drops false on implicit-presence booleans',
      { capabilities: { extensions: [{ uri: 'u', required: false }] } },
      '{"capabilities":{"extensions":[{"uri":"u"}]}}',
    ],
    [
      'keeps true on implicit-presence booleans',
      { capabilities: { extensions: [{ uri: 'u', required: true }] } },
      '{"capabilities":{"extensions":[{"required":true,"uri":"u"}]}}',
    ],
    ['drops an optional string set to ""', { name: 'A', documentationUrl: '' }, '{"name":"A"}'],
    [
      'keeps 0 and false inside extension params, drops their empties',
      { capabilities: { extensions: [{ params: { n: 0, b: false, s: '', a: [], o: {}, l: ['', 1] } }] } },
      '{"capabilities":{"extensions":[{"params":{"b":false,"l":[1],"n":0}}]}}',
    ],
    [
      'drops a requirement whose scope list is empty (not covered by a signature)',
      { securitySchemes: { m: { mtlsSecurityScheme: {} } }, securityRequirements: [{ schemes: { m: { list: [] } } }] },
      '{}',
    ],
    [
      'keeps fields outside the v1.0 model (a reader sees them)',
      { name: 'A', url: 'https://legacy', protocolVersion: '0.3.0', skills: [{ id: 's', extra: 1 }] },
      '{"name":"A","protocolVersion":"0.3.0","skills":[{"extra":1,"id":"s"}],"url":"https://legacy"}',
    ],
    [
      'keeps snake_case names as they are (no renaming)',
      { default_input_modes: ['text/plain'], icon_url: 'https://i' },
      '{"default_input_modes":["text/plain"],"icon_url":"https://i"}',
    ],
    [
      'keeps both spellings of a field named twice (the verifier refuses such a card)',
      { defaultInputModes: ['a'], default_input_modes: ['b'] },
      '{"defaultInputModes":["a"],"default_input_modes":["b"]}',
    ],
    [
      'keeps every member of a oneof',
      {
        securitySchemes: {
          s: { mtlsSecurityScheme: { description: 'm' }, apiKeySecurityScheme: { name: 'k', location: 'header' } },
        },
      },
      '{"securitySchemes":{"s":{"apiKeySecurityScheme":{"location":"header","name":"k"},"mtlsSecurityScheme":{"description":"m"}}}}',
    ],
    [
      'sorts keys by UTF-16 code units (RFC 8785)',
      {
        securitySchemes: {
          '\u{1F600}': { mtlsSecurityScheme: { description: 'e' } },
          '\uFB33': { mtlsSecurityScheme: { description: 'f' } },
        },
      },
      '{"securitySchemes":{"\u{1F600}":{"mtlsSecurityScheme":{"description":"e"}},"\uFB33":{"mtlsSecurityScheme":{"description":"f"}}}}',
    ],
    [
      'keeps non-ASCII as UTF-8 and escapes only what JSON must',
      { name: 'Café "A"\n\u0001' },
      '{"name":"Café \\"A\\"\\n\\u0001"}',
    ],
    [
      'formats numbers as ECMAScript does',
      { capabilities: { extensions: [{ params: { a: 0.000001, b: 1e21, c: 1.0, d: -0 } }] } },
      '{"capabilities":{"extensions":[{"params":{"a":0.000001,"b":1e+21,"c":1,"d":0}}]}}',
    ],
    ['returns {} for a card with nothing covered', { description: '' }, '{}'],
    [
      'keeps an own __proto__ member as the plain member it is',
      JSON.parse('{"capabilities":{"extensions":[{"params":{"__proto__":{"x":1},"y":2}}]}}'),
      '{"capabilities":{"extensions":[{"params":{"__proto__":{"x":1},"y":2}}]}}',
    ],
    [
      'orders array-index member names as text (outside the model, in params)',
      { capabilities: { extensions: [{ params: { b: 1, 10: 2, 9: '', 8: 3 } }] } },
      '{"capabilities":{"extensions":[{"params":{"10":2,"8":3,"b":1}}]}}',
    ],
  ])('%s', (_, card, expected) => {
    expect(canon(card)).toBe(expected);
    // The SDK reads through its model: on cards of v1.0 members under their JSON names it agrees.
    if (!/outside|snake_case|twice|oneof|__proto__/.test(_)) expect(canon(card)).toBe(sdkCanonicalize(card as never));
  });

  it('does not change its input', () => {
    const card = { name: 'A', description: '', signatures: [{ protected: 'p', signature: 's' }], skills: [] };
    const before = structuredClone(card);
    canon(card);
    expect(card).toEqual(before);
  });

  it.each<[string, unknown, RegExp]>([
    ['a card that is not an object', 'card', /^canonicalizeAgentCard: the card is string, not an object\. /],
    ['an array', [], /^canonicalizeAgentCard: the card is an array, not an object\. /],
    [
      'a card nested deeper than 64 levels',
      { capabilities: { extensions: [{ params: JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`) }] } },
      /^canonicalizeAgentCard: the card nests deeper than 64 levels\. /,
    ],
    [
      'a lone surrogate (RFC 8785 rejects it)',
      { name: 'a\uD800' },
      /RFC 8785.*Lone surrogate.*Remove lone UTF-16 surrogates/,
    ],
    [
      'a lone surrogate in a member name',
      { capabilities: { extensions: [{ params: { '\uDC00': 1 } }] } },
      /RFC 8785.*Lone surrogate.*Remove lone UTF-16 surrogates/,
    ],
    ['NaN', { capabilities: { extensions: [{ params: { n: Number.NaN } }] } }, /RFC 8785.*NaN is not allowed/],
  ])('refuses %s with ERR_AGENT_CARD_SIGNATURE', (_, card, message) => {
    let thrown: unknown;
    try {
      canon(card);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AgentCardError);
    expect((thrown as AgentCardError).code).toBe('ERR_AGENT_CARD_SIGNATURE');
    expect((thrown as AgentCardError).message).toMatch(message);
  });
});
