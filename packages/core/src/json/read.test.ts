import { describe, expect, it } from 'vitest';
import { toJsonTree } from '../validate/shape';
import { readJsonText } from './read';
import { scanMembersAndNumbers } from './text';

/** What the validator read before the one-pass reader: `JSON.parse`, two scans and a copy. */
function previousReading(text: string) {
  const { duplicates, inexact } = scanMembersAndNumbers(text, { duplicates: 8, inexact: 8 });
  return { value: toJsonTree(JSON.parse(text)).tree, duplicates, inexact };
}

const SAME_AS_BEFORE = [
  '{}',
  '[]',
  '"x"',
  '0',
  '-0',
  '1e2',
  '1.00000000000000001',
  '9007199254740993',
  'true',
  'null',
  ' { "a" : [ 1 , 2.5 , -3e-2 , { "b" : null } ] } ',
  '{"name": "a\\u0062c\\n\\"q\\"", "\\u0069d": 1, "id": 2}',
  '{"url": "https://a.test", "url": "https://b.test", "x": {"y": 1, "y": 2}}',
  '{"skills": [{"id": "a", "id": "b", "n": 12345678901234567890}]}',
  '{"2": 1, "1": 2, "b": 3, "a": 4, "10": 5}',
  '{"__proto__": {"polluted": true}, "constructor": 1, "toString": "x"}',
  '{"a": [[[[[]]]]], "\\ud800": "\\udc00"}',
  '[0.1, 100, 1E+2, 1.5e300, 123456789012345, 1234567890123456]',
];

describe('readJsonText', () => {
  it.each(SAME_AS_BEFORE)('reads %s as JSON.parse, the scans and the copy did', (text) => {
    const read = readJsonText(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const before = previousReading(text);
    expect(read.value).toStrictEqual(before.value);
    expect(Object.keys(read.value ?? {})).toEqual(Object.keys(before.value ?? {}));
    expect(read.duplicates).toEqual(before.duplicates);
    expect(read.inexact).toEqual(before.inexact);
  });

  it('keeps a __proto__ member as data: nothing reaches Object.prototype', () => {
    const read = readJsonText('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}');
    expect(read.ok && Object.hasOwn(read.value as object, '__proto__')).toBe(true);
    expect(read.ok && (read.value as { isAdmin?: unknown }).isAdmin).toBe(undefined);
    expect(({} as { isAdmin?: unknown }).isAdmin).toBe(undefined);
    expect(read.ok && read.plain).toBe(true);
  });

  it('refuses text that is not JSON, at the place to look, with JSON.parse message', () => {
    for (const text of [
      '{"a": 1,}',
      '{"a": 01}',
      '{"a": "\u0001"}',
      '[1 2]',
      '',
      '{"a": tru}',
      '"\\x"',
      '{"a" 1}',
      '[1]x',
    ]) {
      const read = readJsonText(text);
      expect(read.ok, text).toBe(false);
      if (read.ok || read.error !== 'syntax') throw new Error(`expected a syntax error for ${text}`);
      expect(() => JSON.parse(text)).toThrow(read.reason);
    }
    const read = readJsonText('{\n  "name": "x",\n}');
    expect(read).toMatchObject({ ok: false, error: 'syntax', line: 3, column: 1 });
  });

  it('refuses bytes that are not UTF-8 with the offset of the first bad byte', () => {
    expect(readJsonText(Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]))).toEqual({
      ok: false,
      error: 'utf-8',
      offset: 2,
      byte: 0xc3,
    });
  });

  it('reads past a byte order mark and says so', () => {
    const read = readJsonText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(read).toMatchObject({ ok: true, bom: true, text: '{}' });
  });

  it('refuses input over maxBytes before reading it', () => {
    expect(readJsonText('"ééé"', { maxBytes: 7 })).toEqual({ ok: false, error: 'too-large', size: 8, limit: 7 });
    expect(readJsonText(new Uint8Array(9), { maxBytes: 8 })).toMatchObject({ ok: false, error: 'too-large' });
  });

  it('refuses nesting past maxDepth, and reads any depth with Infinity', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(readJsonText(deep)).toMatchObject({ ok: false, error: 'too-deep', offset: 64 });
    expect(readJsonText('[[[1]]]', { maxDepth: 2 })).toMatchObject({ ok: false, error: 'too-deep', offset: 2 });
    expect(readJsonText('[[1]]', { maxDepth: 2 })).toMatchObject({ ok: true });
    expect(readJsonText(deep, { maxDepth: Number.POSITIVE_INFINITY })).toMatchObject({ ok: true, plain: false });
  });

  it('lists members named twice and inexact numbers, in document order, up to the limits', () => {
    const text = `{${Array.from({ length: 20 }, () => '"a": 1e400').join(',')}}`;
    const read = readJsonText(text, { duplicates: 3, inexactNumbers: 2 });
    expect(read.ok && read.duplicates).toEqual([['a'], ['a'], ['a']]);
    expect(read.ok && read.inexact.map((n) => n.literal)).toEqual(['1e400', '1e400']);
  });
});
