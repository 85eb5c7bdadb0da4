import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeCard } from './encode';

/** Asserts that `bytes` are exactly the UTF-8 bytes of `JSON.stringify(value)`. */
function expectJsonBytes(bytes: Uint8Array, value: unknown): void {
  const json = JSON.stringify(value);
  expect(new TextDecoder().decode(bytes)).toBe(json);
  expect(Buffer.compare(bytes, new TextEncoder().encode(json))).toBe(0);
}

const skill = (i: number) => ({
  id: `skill-${i}`,
  name: `Skill ${i} – «ünïcödé» 🚀`,
  description: `Does thing ${i}.\n"quoted" \\ back\u2028slash`,
  tags: [`t${i}`],
  ...(i % 3 === 0 ? { examples: [`Example ${i}`], inputModes: undefined } : {}),
});

describe('encodeCard', () => {
  it.each([0, 1, 127, 128, 129, 256, 257, 1000])(
    'gives the bytes of JSON.stringify for a card with %i skills',
    (count) => {
      const card = {
        name: 'A',
        skills: Array.from({ length: count }, (_, i) => skill(i)),
        capabilities: {},
        signatures: undefined,
        tail: [1, 2],
      };
      expectJsonBytes(encodeCard(card), card);
    },
  );

  it('gives the same bytes when the long array is the last key, the first key, or there are several', () => {
    const skills = Array.from({ length: 300 }, (_, i) => skill(i));
    for (const card of [
      { skills },
      { skills, name: 'x' },
      { a: skills, b: [...skills, null, undefined], c: 1 },
      { f: () => 1, skills, s: Symbol('x') },
    ]) {
      expectJsonBytes(encodeCard(card as Record<string, unknown>), card);
    }
  });

  it('gives the same bytes when only some slices of a long array hold characters beyond ASCII', () => {
    const skills = Array.from({ length: 400 }, (_, i) => ({
      id: `skill-${i}`,
      name: i === 200 ? 'Ünï 🚀' : `Skill ${i}`,
    }));
    for (const card of [{ skills }, { name: 'Café', skills }, { skills: skills.slice(0, 250), name: 'x' }]) {
      expectJsonBytes(encodeCard(card), card);
    }
  });

  it('calls toJSON with the key JSON.stringify would use', () => {
    const seen: string[] = [];
    const item = { toJSON: (key: string) => (seen.push(key), key) };
    const card = { skills: Array.from({ length: 200 }, () => item), when: { toJSON: (key: string) => `at ${key}` } };
    expectJsonBytes(encodeCard(card), card);
    expect(seen).toContain('199');
  });

  it('gives the bytes of JSON.stringify for any JSON value with long arrays', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(json, fc.array(json, { minLength: 120, maxLength: 300 }))),
        (card) => {
          expectJsonBytes(encodeCard(card), card);
        },
      ),
      { numRuns: 40 },
    );
  });
});
