import fc from 'fast-check';
import parseForwarded from 'forwarded-parse';
import { describe, expect, it } from 'vitest';
import { parseForwardedHeader } from './forwarded';

/** forwarded-parse's answer, `undefined` where it throws. */
function reference(header: string): Record<string, string>[] | undefined {
  try {
    return parseForwarded(header);
  } catch {
    return undefined;
  }
}

// Headers built from the characters the grammar turns on, so most draws get deep into it.
const piece = fc.constantFrom(
  'for',
  'proto',
  'host',
  'by',
  '=',
  '"',
  '\\',
  ',',
  ';',
  ' ',
  '\t',
  '[2001:db8::1]',
  '192.0.2.1',
  'https',
  'a.example:8443',
  '_x',
  'é',
  '\u00ff',
  '\u0100',
  '\u0000',
  '(',
  '@',
);
const header = fc.oneof(
  fc.array(piece, { maxLength: 24 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

describe('parseForwardedHeader', () => {
  it.each([
    ['for=192.0.2.60;proto=http;by=203.0.113.43', [{ for: '192.0.2.60', proto: 'http', by: '203.0.113.43' }]],
    ['for="[2001:db8:cafe::17]:4711", for=unknown', [{ for: '[2001:db8:cafe::17]:4711' }, { for: 'unknown' }]],
    ['Host="a\\"b";Proto=HTTPS', [{ host: 'a"b', proto: 'HTTPS' }]],
    ['for=""', [{ for: '' }]],
    ['for=', undefined],
    ['for="', undefined],
    ['for=a b', undefined],
    ['=a', undefined],
    ['', undefined],
  ])('reads %j as RFC 7239 says', (value, expected) => {
    expect(parseForwardedHeader(value)).toEqual(expected);
  });

  it('gives what forwarded-parse gives for any header, undefined where it throws', () => {
    fc.assert(
      fc.property(header, (value) => {
        expect(parseForwardedHeader(value)).toEqual(reference(value));
      }),
      { numRuns: 3000 },
    );
  });
});
