import { describe, expect, it } from 'vitest';
import { duplicateMembers } from './json-text';

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
