import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countUtf8,
  duplicateMembers,
  firstInvalidUtf8,
  inexactNumbers,
  nestingOverflow,
  numberLoss,
  utf8Length,
} from './text';
import { readJsonBytes } from '../validate/json-bytes';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

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

describe('firstInvalidUtf8', () => {
  it('agrees with the fatal TextDecoder on arbitrary bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        let valid = true;
        try {
          decoder.decode(input);
        } catch {
          valid = false;
        }
        expect(firstInvalidUtf8(input) === input.byteLength).toBe(valid);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    [[0x61, 0xff, 0x62], 1],
    [[0xc0, 0x80], 0], // overlong NUL
    [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x61, 0xe2, 0x82], 1], // truncated sequence
    [[0xe2, 0x82, 0xac], 3], // €
  ])('%j → %i', (input, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(input))).toBe(offset);
  });
});

describe('nestingOverflow', () => {
  it('counts brackets inside strings as text', () => {
    expect(nestingOverflow(`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`, 64)).toBeUndefined();
  });

  it('gives the offset of the bracket that opens one level too many', () => {
    expect(nestingOverflow(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBeUndefined();
    expect(nestingOverflow(`{"a":${'['.repeat(70)}`, 64)).toBe(68);
  });
});

describe('readJsonBytes', () => {
  it.each([
    ['{"a":1}', { kind: 'json', value: { a: 1 }, bom: false, duplicates: [] }],
    ['\ufeff{"a":1}', { kind: 'json', value: { a: 1 }, bom: true, duplicates: [] }],
    ['', { kind: 'empty' }],
    ['\ufeff \n', { kind: 'empty' }],
    [`${'['.repeat(65)}${']'.repeat(65)}`, { kind: 'too-deep', limit: 64, offset: 64 }],
  ])('%j', (text, expected) => {
    expect(readJsonBytes(bytes(text))).toEqual(expected);
  });

  it("gives each member named twice and each inexact number with the validator's text", () => {
    const read = readJsonBytes(bytes('{"a":1,"n":9007199254740993,"a":2}'));
    expect(read).toMatchObject({ kind: 'json', value: { a: 2 } });
    if (read.kind !== 'json') return;
    expect(read.duplicates).toEqual([
      {
        path: ['a'],
        message: 'a: named twice in one object; JSON parsers disagree about which value applies.',
        hint: expect.stringMatching(/^Keep one "a" member\./),
      },
    ]);
    expect(read.inexact).toEqual([
      {
        path: ['n'],
        literal: '9007199254740993',
        loss: 'is not exactly a double (it reads as 9007199254740992)',
        message: 'n: the number 9007199254740993 is not exactly a double (it reads as 9007199254740992).',
        hint: expect.stringMatching(/^Write a number a double holds exactly/),
      },
    ]);
  });

  it('reports the first byte that breaks UTF-8, and invalid JSON with the parser reason', () => {
    expect(readJsonBytes(Uint8Array.from([0x7b, 0x22, 0xfe, 0x22, 0x7d]))).toEqual({
      kind: 'invalid-utf8',
      offset: 2,
      byte: 0xfe,
    });
    expect(readJsonBytes(bytes('{"a":'))).toMatchObject({ kind: 'invalid-json', reason: expect.any(String) });
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        expect(['json', 'empty', 'invalid-utf8', 'invalid-json', 'too-deep']).toContain(readJsonBytes(input).kind);
      }),
    );
  });
});

describe('utf8Length', () => {
  it('counts what an encoder writes, natively and by the loop of runtimes without Buffer', () => {
    for (const text of ['', 'plain', 'é', '€', '😀', 'a\ud800b', '\udc00', 'x\ud83d']) {
      expect([utf8Length(text), countUtf8(text)]).toEqual([bytes(text).byteLength, bytes(text).byteLength]);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const expected = bytes(text).byteLength;
        return utf8Length(text) === expected && countUtf8(text) === expected;
      }),
    );
  });
});
