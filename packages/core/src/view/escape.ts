/**
 * Escaping for pages that show hostile text: every string a card, a catalog or a remote server
 * supplies goes through one of these before it reaches HTML.
 *
 * @packageDocumentation
 */

const SAFE_HTML = Symbol('agent-card.safe-html');

/** A fragment of HTML this module built or escaped; {@link html} inserts it as it is. */
export interface SafeHtml {
  readonly [SAFE_HTML]: true;
  readonly value: string;
}

/** Whether `value` is a {@link SafeHtml} fragment. */
export function isSafeHtml(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && (value as Partial<SafeHtml>)[SAFE_HTML] === true;
}

/**
 * Marks markup as already safe. Only for HTML this code wrote itself (or another `html` result);
 * never for a string that came from a card.
 */
export function raw(value: string): SafeHtml {
  return Object.freeze({ [SAFE_HTML]: true as const, value, toString: () => value });
}

/**
 * Characters that can make text lie about itself: C0 and C1 controls (tab, line feed
 * and carriage return are kept as layout), DEL, bidirectional embeddings, overrides and isolates (the "Trojan Source"
 * characters, CVE-2021-42574), the Arabic letter mark, invisible separators and the BOM, and line
 * and paragraph separators. Each is shown as `U+XXXX` instead of being obeyed.
 */
const DECEPTIVE_CLASS =
  '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\ufff9-\\ufffb]';
const DECEPTIVE = new RegExp(DECEPTIVE_CLASS, 'g');
const DECEPTIVE_ONE = new RegExp(DECEPTIVE_CLASS);
/** Unpaired UTF-16 surrogates: not text; they become U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** The `U+XXXX` name of one UTF-16 unit. */
function codePointName(ch: string): string {
  return `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Escapes text for an HTML text node or a quoted attribute value: `& < > " '` and the backtick
 * become entities, controls and bidi characters become a visible `[U+XXXX]`, lone surrogates
 * become U+FFFD. Any input type is accepted; non-strings are shown through `String()`.
 *
 * @example escapeHtml('<b>"x"</b>') // '&lt;b&gt;&quot;x&quot;&lt;/b&gt;'
 */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : stringify(value);
  return text
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(/[&<>"'`]/g, (ch) => ENTITIES[ch] ?? ch)
    .replace(DECEPTIVE, (ch) => `[${codePointName(ch)}]`);
}

/**
 * Replaces the deceptive characters of JSON text with `\uXXXX` escapes, so pretty-printed JSON
 * still parses to the same value and still copies as valid JSON.
 */
export function neutraliseJsonText(json: string): string {
  return json
    .replace(LONE_SURROGATE, '\\ufffd')
    .replace(DECEPTIVE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * A tagged template for HTML: every interpolation is escaped for text and quoted attributes
 * ({@link escapeHtml}), except {@link SafeHtml} fragments (from `raw` or another `html`); arrays
 * are joined, `undefined`, `null` and `false` insert nothing. Attribute values must be quoted in
 * the template (`href="${url}"`).
 *
 * @example html`<p title="${title}">${name}</p>`
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += interpolate(values[i]) + (strings[i + 1] ?? '');
  }
  return raw(out);
}

function interpolate(value: unknown): string {
  if (value === undefined || value === null || value === false) return '';
  if (isSafeHtml(value)) return value.value;
  if (Array.isArray(value)) return value.map(interpolate).join('');
  return escapeHtml(value);
}

/** C0 controls, space, DEL and C1 controls: a URL holding one is not made a link. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const URL_UNSAFE = /[\u0000-\u0020\u007f-\u009f]/;

/** Longest URL made into a link; a longer one is shown as text. */
const MAX_URL_LENGTH = 2048;

/**
 * The `href` for a URL from a card, or `undefined` when it must not be a link: only absolute
 * `https:` and `http:` URLs without user name or password (`https://bank.example@evil.example`)
 * qualify; `javascript:`, `data:`, `vbscript:`, relative and protocol-relative references,
 * strings with controls or spaces, and unparsable values never do. The result is the WHATWG
 * serialisation (percent-encoded, IDNs in punycode), still to be attribute-escaped.
 *
 * @example safeHref('https://example.com/docs') // 'https://example.com/docs'
 * @example safeHref('javascript:alert(1)') // undefined
 */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return undefined;
  // The URL parser strips tabs, newlines and leading/trailing C0 and spaces ("java\nscript:"):
  // a string that needs stripping is not shown as a link at all.
  if (URL_UNSAFE.test(url) || DECEPTIVE_ONE.test(url)) return undefined;
  if (!/^https?:\/\//i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (parsed.username !== '' || parsed.password !== '' || parsed.hostname === '') return undefined;
  return parsed.href;
}
