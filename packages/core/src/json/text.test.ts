import { describe, expect, it } from 'vitest';
import { duplicateMembers, inexactNumbers, numberLoss } from './text';

describe('duplicateMembers', () => {
  it('finds a member named twice, with its path', () => {
    expect(duplicateMembers('{"url": "https://a.test", "name": "x", "url": "https://b.test"}')).toEqual([['url']]);
  });

  it('reports nested objects by member names and array indexes', () => {
    const text = '{"skills": [{"id": "a"}, {"id": "b", "tags": [], "id": "c"}], "x": {"y": {"z": 1, "z": 2}}}';
    expect(duplicateMembers(text)).toEqual([
      ['skills', 1, 'id'],
      ['x', 'y', 'z'],
    ]);
  });

  it('compares names after unescaping', () => {
    expect(duplicateMembers('{"id": 1, "\\u0069d": 2}')).toEqual([['id']]);
    expect(duplicateMembers('{"a\\"b": 1, "a\\u0022b": 2}')).toEqual([['a"b']]);
  });

  it('does not confuse names with string values, or members of sibling objects', () => {
    expect(duplicateMembers('{"a": "\\"a\\": 1, ", "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}')).toEqual([]);
    expect(duplicateMembers('[{"a": 1}, {"a": 1}]')).toEqual([]);
  });

  it('treats __proto__ like any other name', () => {
    expect(duplicateMembers('{"__proto__": {}, "__proto__": {"polluted": true}}')).toEqual([['__proto__']]);
  });

  it('stops after the limit', () => {
    const text = `{${Array.from({ length: 50 }, () => '"k": 1').join(', ')}}`;
    expect(duplicateMembers(text)).toHaveLength(8);
    expect(duplicateMembers(text, 2)).toEqual([['k'], ['k']]);
  });

  it('walks deep nesting without recursion', () => {
    const depth = 200_000;
    const text = `${'{"a": '.repeat(depth)}{"b": 1, "b": 2}${'}'.repeat(depth)}`;
    const [found] = duplicateMembers(text);
    expect(found).toHaveLength(depth + 1);
    expect(found?.at(-1)).toBe('b');
  });

  it('does not throw on text that is not JSON', () => {
    for (const text of ['', '}', ']]]', '{"a', '{"a": 1,, "a": 2', ',', '"\\']) {
      expect(() => duplicateMembers(text)).not.toThrow();
    }
  });
});

describe('numberLoss and inexactNumbers: numbers a double does not hold exactly', () => {
  it.each([
    '0',
    '1',
    '1.0',
    '1e2',
    '0.1',
    '-1.5',
    '9007199254740992',
    '1e21',
    '100000000000000000000',
    '1.5e-7',
    '0e5',
    '0.0',
    '5e-324',
    '1.7976931348623157e308',
  ])('accepts %s (it reads back as the same value)', (literal) => {
    expect(numberLoss(literal)).toBeUndefined();
  });

  it.each([
    ['9007199254740993', 'is not exactly a double (it reads as 9007199254740992)'],
    ['1.00000000000000001', 'is not exactly a double (it reads as 1)'],
    ['18446744073709551616', 'is not exactly a double (it reads as 18446744073709552000)'],
    ['1e400', 'is beyond the range of a double (it reads as Infinity)'],
    ['1e-400', 'is too small for a double (it reads as 0)'],
    ['-0', 'is negative zero, which reads as 0 once serialized (RFC 8785 writes 0)'],
    ['-0.0e3', 'is negative zero, which reads as 0 once serialized (RFC 8785 writes 0)'],
  ])('refuses %s: it %s', (literal, loss) => {
    expect(numberLoss(literal)).toBe(loss);
  });

  it('finds them by path in the text, never inside strings', () => {
    expect(
      inexactNumbers('{"a": [1, -0, {"b": 9007199254740993}], "c\\"d": 1e400, "e": "-0 9007199254740993"}'),
    ).toEqual([
      { path: ['a', 1], literal: '-0', loss: expect.stringMatching(/negative zero/) },
      { path: ['a', 2, 'b'], literal: '9007199254740993', loss: expect.stringMatching(/9007199254740992/) },
      { path: ['c"d'], literal: '1e400', loss: expect.stringMatching(/Infinity/) },
    ]);
    expect(inexactNumbers(`[${'1'.repeat(100)}]`)[0]?.literal).toBe(`${'1'.repeat(39)}…`);
  });
});
