import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jcs } from './jcs';

// Member names that objects order apart from their insertion (array indices), next to names
// that sort around them, and names that need escaping or sort by UTF-16 code unit.
const name = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.constantFrom(
    '0',
    '1',
    '10',
    '9',
    '01',
    '-1',
    '4294967294',
    '4294967295',
    '1e3',
    '__proto__',
    '',
    '\u20ac',
    '\ud83d\ude00',
    '\r',
  ),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 1e-7, 5e-324, 0.1 + 0.2, 2 ** 53 + 2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(name, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('jcs (RFC 8785)', () => {
  it('writes what the canonicalize package writes, for any JSON value', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(jcs(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('orders array-index member names by code unit, as text, not as numbers', () => {
    expect(jcs({ b: 1, 10: 2, 9: 3, a: { 2: 0, 1: 0 } })).toBe('{"10":2,"9":3,"a":{"1":0,"2":0},"b":1}');
  });

  it('keeps a member named __proto__ as a member', () => {
    expect(jcs(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('writes numbers and strings as RFC 8785 §3.2.2 says', () => {
    expect(jcs([1e21, 1e-7, -0, 0.000001, 123456789012345680000, '\u0000\u001f\u007f"\\/é'])).toBe(
      '[1e+21,1e-7,0,0.000001,123456789012345680000,"\\u0000\\u001f\u007f\\"\\\\/é"]',
    );
  });

  it.each([
    ['NaN', { a: Number.NaN }, 'NaN is not allowed'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'Infinity is not allowed'],
    ['a lone surrogate in a value', { a: 'x\ud800' }, 'Lone surrogate is not allowed'],
    ['a lone surrogate in a member name', { '\udc00': 1 }, 'Lone surrogate is not allowed'],
    ['a lone surrogate beside an array-index name', { 1: 'x\udfff' }, 'Lone surrogate is not allowed'],
  ])('refuses %s', (_, value, message) => {
    expect(() => jcs(value)).toThrow(message);
  });
});
