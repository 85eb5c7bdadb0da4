import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, safeHref } from './escape';

describe('escapeHtml', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['"><img src=x onerror=alert(1)>', '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ["' onmouseover='x", '&#39; onmouseover=&#39;x'],
    ['a & b', 'a &amp; b'],
    ['`tick`', '&#96;tick&#96;'],
    ['&lt;already&gt;', '&amp;lt;already&amp;gt;'],
  ])('escapes markup characters in %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it.each([
    ['evil\u202Egnp.exe', 'evil[U+202E]gnp.exe'],
    ['isolate\u2066x\u2069', 'isolate[U+2066]x[U+2069]'],
    ['bell\u0007', 'bell[U+0007]'],
    ['esc\u001b[31mred', 'esc[U+001B][31mred'],
    ['nul\u0000', 'nul[U+0000]'],
    ['c1\u0085', 'c1[U+0085]'],
    ['zero\u200Bwidth', 'zero[U+200B]width'],
    ['bom\uFEFF', 'bom[U+FEFF]'],
    ['line\u2028sep', 'line[U+2028]sep'],
  ])('shows the deceptive character in %j instead of obeying it', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it('keeps tab, line feed and carriage return as layout', () => {
    expect(escapeHtml('a\tb\nc\r\n')).toBe('a\tb\nc\r\n');
  });

  it('replaces a lone surrogate with U+FFFD and keeps a pair', () => {
    expect(escapeHtml('x\uD800y')).toBe('x\uFFFDy');
    expect(escapeHtml('x\uDC00')).toBe('x\uFFFD');
    expect(escapeHtml('😀')).toBe('😀');
  });

  it('accepts any value without throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(42)).toBe('42');
    expect(escapeHtml(cyclic)).toBe('');
    expect(escapeHtml({ a: '<b>' })).toBe('{&quot;a&quot;:&quot;&lt;b&gt;&quot;}');
  });
});

describe('html', () => {
  it('escapes every interpolation for text and quoted attributes', () => {
    const name = '"><script>alert(1)</script>';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });

  it('inserts raw and nested fragments as they are, joins arrays and drops empty values', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${raw('<hr>')}${undefined}${null}${false}`.value).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul><hr>',
    );
  });

  it('does not take a look-alike object for safe HTML', () => {
    expect(html`${{ value: '<b>' }}`.value).toBe('{&quot;value&quot;:&quot;&lt;b&gt;&quot;}');
  });
});

describe('safeHref', () => {
  it.each([
    ['https://example.com/docs', 'https://example.com/docs'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://EXAMPLE.COM/a b'.replace(' ', '%20'), 'https://example.com/a%20b'],
    ['https://example.com/?q="><x', 'https://example.com/?q=%22%3E%3Cx'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
  ])('links %j as %j', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/',
    '/relative/path',
    '//evil.example/',
    'relative',
    '#fragment',
    'https://bank.example@evil.example/',
    'https://user:pass@example.com/',
    'https:evil.example',
    'https://evil.example/\u202Efdp.exe',
    'https://exa mple.com/',
    'http://',
    '',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('never links %j', (input) => {
    expect(safeHref(input)).toBeUndefined();
  });

  it('never links a non-string', () => {
    expect(safeHref(undefined)).toBeUndefined();
    expect(safeHref({ toString: () => 'https://example.com' })).toBeUndefined();
  });
});
