import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlTitle, looksLikeHtml, parseBody, parseCacheControl, parseMediaType } from './body';
import { classifyFailure } from './request';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('parseBody', () => {
  it.each([
    ['{"a":1}', { kind: 'json', value: { a: 1 }, bom: false, duplicates: [] }],
    ['\ufeff{"a":1}', { kind: 'json', value: { a: 1 }, bom: true, duplicates: [] }],
    [
      '{"a":1,"b":{"a":2},"a":3}',
      {
        kind: 'json',
        value: { a: 3, b: { a: 2 } },
        bom: false,
        duplicates: [
          {
            path: ['a'],
            message: 'a: named twice in one object; JSON parsers disagree about which value applies.',
            hint: 'Keep one "a" member. Parsers that keep the first value and parsers that keep the last read two different cards, so a signature can cover one while a client reads the other.',
          },
        ],
      },
    ],
    ['  \n<!DOCTYPE html><title> Log in | Acme </title>', { kind: 'html', title: 'Log in | Acme' }],
    ['<html><body>no title</body></html>', { kind: 'html' }],
    ['   ', { kind: 'empty' }],
    ['', { kind: 'empty' }],
  ])('%j', (text, expected) => {
    expect(parseBody(bytes(text))).toEqual(expected);
  });

  it('reports invalid JSON with the parser reason', () => {
    expect(parseBody(bytes('{"a":'))).toMatchObject({ kind: 'invalid-json', reason: expect.any(String) });
  });

  it('reports the offset and value of the first bad byte', () => {
    expect(parseBody(Uint8Array.from([0x7b, 0x22, 0xfe, 0x22, 0x7d]))).toEqual({
      kind: 'invalid-utf8',
      offset: 2,
      byte: 0xfe,
    });
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (input) => {
        expect(['json', 'html', 'empty', 'invalid-utf8', 'invalid-json']).toContain(parseBody(input).kind);
      }),
    );
  });
});

describe('HTML sniffing', () => {
  it('looks past whitespace and a BOM only', () => {
    expect(looksLikeHtml(Uint8Array.from([0xef, 0xbb, 0xbf, 0x20, 0x3c]))).toBe(true);
    expect(looksLikeHtml(bytes('{"html":"<p>"}'))).toBe(false);
  });

  it('cuts long titles and collapses whitespace', () => {
    expect(htmlTitle(bytes(`<title>${'a '.repeat(100)}</title>`))).toHaveLength(80);
  });
});

describe('header parsing', () => {
  it.each([
    ['application/json', { essence: 'application/json' }],
    ['Application/A2A+JSON; Charset="UTF-8"', { essence: 'application/a2a+json', charset: 'utf-8' }],
    ['text/plain;charset=iso-8859-1', { essence: 'text/plain', charset: 'iso-8859-1' }],
    // A quoted parameter value is one value: the charset inside it is not the body's.
    ['application/json; profile="a;charset=latin1"', { essence: 'application/json' }],
    ['application/json; charset="utf\\-8"', { essence: 'application/json', charset: 'utf-8' }],
    ['json', undefined],
    [undefined, undefined],
  ])('media type %j', (value, expected) => {
    expect(parseMediaType(value)).toEqual(expected);
  });

  it('reads Cache-Control directives', () => {
    expect([...parseCacheControl('public, Max-Age="60", immutable,,')]).toEqual([
      ['public', ''],
      ['max-age', '60'],
      ['immutable', ''],
    ]);
  });
});

describe('classifyFailure', () => {
  const wrapped = (cause: unknown): Error => new TypeError('fetch failed', { cause });
  it.each([
    [wrapped(Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND' })), 'dns'],
    [wrapped(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), 'refused'],
    [
      wrapped(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1'), { code: 'ECONNREFUSED' })])),
      'refused',
    ],
    [wrapped(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })), 'reset'],
    [wrapped(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })), 'tls'],
    [wrapped(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })), 'tls'],
    [new TypeError('terminated'), 'reset'],
    ['a string', 'network'],
  ])('%s → %s', (error, kind) => {
    expect(classifyFailure(error, false, false, 1000).kind).toBe(kind);
  });

  it('prefers timeout and abort over the error itself', () => {
    expect(classifyFailure(new Error('x'), true, true, 1234)).toEqual({
      kind: 'timeout',
      message: 'no complete response within 1234 ms',
    });
    expect(classifyFailure(new Error('x'), false, true, 1234).kind).toBe('aborted');
  });
});

describe('htmlTitle on hostile bodies', () => {
  it('finds the title of ordinary pages, with attributes and any case', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(htmlTitle(bytes('<html><head><TITLE lang="en">Sign  in</TITLE></head>'))).toBe('Sign in');
    expect(htmlTitle(bytes('<title>a<b></title><title>Real</title>'))).toBe('Real');
    expect(htmlTitle(bytes('<title>no end'))).toBeUndefined();
  });

  it('stays linear on 64 KiB of repeated "<title" (the old expression took seconds)', () => {
    const time = (n: number) => {
      const body = new TextEncoder().encode(`${'<title'.repeat(n)}>x`);
      let best = Infinity;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        htmlTitle(body);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    expect(time(10_900)).toBeLessThan(50);
  });
});
