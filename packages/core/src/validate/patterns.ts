/**
 * Every regular expression the validator applies to card content, in one place, and the few
 * hand-written scanners that stand in for expressions which would backtrack.
 *
 * Each value here reads strings from a hostile peer (a served card, a header), so each must run in
 * time linear in its input. `patterns.test.ts` times every export on adversarial inputs of 10,000
 * and 100,000 characters and fails when the time grows 20× or more; a new pattern needs an entry
 * there. The usual culprits: a repeated character class that an unanchored search retries at every
 * position (`/\/+$/`, `/[a-z][a-z0-9.]*:\/\//`), and two adjacent quantifiers over overlapping
 * classes (`/([A-Z]+)([A-Z][a-z])/`). Where an expression cannot be made linear, a scanner below
 * does the job.
 *
 * @see packages/core/RULES.md
 * @packageDocumentation
 */

// --- JSON, paths and keys -----------------------------------------------------------------------

/** A JSON Pointer segment that names an array index (RFC 6901 §4: no leading zero). */
export const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
/** A `~` in a JSON Pointer segment that is not `~0` or `~1` (RFC 6901 §3). */
export const BAD_POINTER_ESCAPE = /~(?:[^01]|$)/;
/** A key that reads as a JavaScript identifier (`skills[0].id`, not `["my key"]`). */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** An upper-case ASCII letter, everywhere in a camelCase name (for its snake_case alias). */
export const UPPER_CASE_LETTERS = /[A-Z]/g;
/** `-` and `_` in a key, so that `api-key`, `api_key` and `apiKey` compare equal. */
export const KEY_SEPARATORS = /[-_]/g;
/** A word that takes "an" rather than "a". */
export const VOWEL_START = /^[aeiou]/i;
/** Text that already ends a sentence. */
export const SENTENCE_END = /[.!?]$/;

// --- URLs and hosts -----------------------------------------------------------------------------

/** An absolute URI: scheme, colon, no whitespace (`extension.uri`). */
export const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;
/** An absolute URI with something after the scheme (a custom `protocolBinding`). */
export const SCHEME_AND_BODY = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
/** Starts with a URI scheme and a colon: worth handing to the URL parser. */
export const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Starts with a scheme and `://`; group 1 is the scheme. */
export const SCHEME_AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** An `http:` or `https:` binding URI. */
export const HTTP_FAMILY_SCHEME = /^https?:/i;
/** `http://` at the start, to suggest the `https://` spelling. */
export const HTTP_PREFIX = /^http:\/\//i;
/** `ws://` at the start, to suggest the `wss://` spelling. */
export const WS_PREFIX = /^ws:\/\//i;
/** A host name without a scheme (`api.acme.io`, `api.acme.io/x`): the user forgot `https://`. */
export const BARE_HOST = /^[\w.-]+\.[A-Za-z]{2,}(?:[:/]|$)/;
/** A host name, optional port and path without a scheme: an interface URL missing `https://`. */
export const BARE_HOST_AND_PORT = /^[\w.-]+\.[A-Za-z]{2,}(?::\d+)?(?:\/|$)/;
/** A path that ends at the card document rather than at the A2A endpoint. */
export const CARD_DOCUMENT_PATH = /\/(?:agent-card|agent)\.json$/i;
/** The gRPC `host:port` and `[v6]:port` forms; groups 1 and 2 are host and port. */
export const HOST_PORT = /^(\[[0-9A-Fa-f:.%\w-]+\]|[^\s/?#@:[\]]+):(\d{1,5})$/;
/** Four dot-separated numbers of any length (an IPv4 literal for the registrable-domain guess). */
export const DOTTED_NUMBERS = /^\d+\.\d+\.\d+\.\d+$/;
/** The characters an IPv6 literal may contain. */
export const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;
/** Scheme, `://`, user and `:` up to the password of a URL's userinfo; group 1 keeps the user. */
export const URL_USERINFO_PASSWORD = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/;

/**
 * `value` without the run of `char` at its end: `/\/+$/` and `/\.+$/` without their cost. Those
 * expressions retry the run from each of its characters when something follows it, which takes
 * time quadratic in its length (8,000 slashes and a letter: 32 million steps).
 * @example trimTrailing('https://acme.io///', '/') // 'https://acme.io'
 */
export function trimTrailing(value: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === code) end--;
  return end === value.length ? value : value.slice(0, end);
}

// --- versions and media types -------------------------------------------------------------------

/** `MAJOR.MINOR`, as `protocolVersion` should read. */
export const MAJOR_MINOR = /^\d+\.\d+$/;
/** `MAJOR.MINOR.PATCH`; group 1 is `MAJOR.MINOR`. */
export const MAJOR_MINOR_PATCH = /^(\d+\.\d+)\.\d+$/;
/** The leading `MAJOR.MINOR` of a version, each at most 6 digits. */
export const LEADING_MAJOR_MINOR = /^(\d{1,6})\.(\d{1,6})/;
/** Semantic Versioning 2.0.0 (https://semver.org). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
/** A `v` before a digit (`v1.2`). */
export const V_BEFORE_DIGIT = /^v(?=\d)/i;
/** One to three dot-separated numbers, to suggest a SemVer spelling. */
export const NUMERIC_VERSION = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

const MEDIA_NAME = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}';
const MEDIA_TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** An RFC 6838 media type with RFC 9110 parameters (`text/plain; charset=utf-8`), or `*\/*`. */
export const MEDIA_TYPE = new RegExp(
  `^(?:${MEDIA_NAME}/(?:${MEDIA_NAME}|\\*)|\\*/\\*)(?:\\s*;\\s*${MEDIA_TOKEN}=(?:${MEDIA_TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*$`,
);

// --- placeholders and metadata ------------------------------------------------------------------

/**
 * Something each placeholder pattern below needs: `<`, `{{`, `\${`, `TODO`, `FIXME`, `TBD`, `XXX`,
 * `change`, `your-`/`your_` or `lorem` (matched here in any case, a superset). One scan, so
 * ordinary prose runs none of the six expressions.
 */
export const PLACEHOLDER_HINT = /<|\{\{|\$\{|TODO|FIXME|TBD|XXX|change|your[-_]|lorem/i;
/** An organization named "Example …". */
export const EXAMPLE_NAME = /^example\b/;
/** `TODO`, `FIXME`, `TBD`, `XXX` as words, upper case only ("Todo list" is a product). */
export const TODO_MARKER = /\b(?:TODO|FIXME|TBD|XXX)\b/;
/** `changeme`, `change-me`, `change me`. */
export const CHANGE_ME = /\bchange[-_ ]?me\b/i;
/** `your-host`, `your_api_key`. */
export const YOUR_PLACEHOLDER = /\byour[-_][a-z0-9]/i;
/** Lorem ipsum filler text. */
export const LOREM_IPSUM = /\blorem ipsum\b/i;
/** `{{name}}` or `${NAME}` left by a template engine. */
export const TEMPLATE_VARIABLE = /\{\{[^{}]{0,80}\}\}|\$\{[A-Za-z_][A-Za-z0-9_]{0,80}\}/;
/** `<your name>`, `< host >`: group 1 is the word inside, to tell it from an HTML tag. */
export const ANGLE_PLACEHOLDER = /<\s*([A-Za-z][\w .-]{0,60}?)\s*>/;
/** A description that only says "a helpful AI agent". */
export const GENERIC_DESCRIPTION =
  /^(?:an?\s+)?(?:(?:helpful|simple|basic|generic|useful|smart|ai|test|demo|sample)\s+)*(?:ai\s+)?(?:agent|assistant|bot)\.?$/i;

// --- secrets (rule 39) --------------------------------------------------------------------------

/** base64url text without padding (JWS parts). */
export const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Any whitespace. */
export const WHITESPACE = /\s/;
/** A lower-case ASCII letter. */
export const LOWER_CASE_LETTER = /[a-z]/;
/** An upper-case ASCII letter. */
export const UPPER_CASE_LETTER = /[A-Z]/;
/** An ASCII digit. */
export const DIGIT = /\d/;
/** A password value that is clearly a mask or a template: `***`, `<password>`, `${PW}`, `{{pw}}`. */
export const MASKED_VALUE = /^(?:\*+|<.*>|\$\{.*\}|\{\{.*\}\})$/;
/** `Bearer ` and its spaces, to look at the token alone. */
export const BEARER_PREFIX = /^Bearer\s+/;
/**
 * Something each secret pattern needs: `=`, `-----BEGIN `, `eyJ`, `k_live_`/`k_test_`, `sk-`,
 * `AKIA`/`ASIA`/`AIza`, `gh?_`/`github_pat_`, `xox` or `Bearer` (and `@` with `://`, checked apart).
 * One scan instead of eleven, so ordinary prose, ids and URLs run no other expression.
 */
export const SECRET_HINT = /=|-----BEGIN |eyJ|k_(?:live|test)_|sk-|A(?:KIA|SIA|Iza)|gh[pousr]_|github_pat_|xox|Bearer/;
/** A PEM private key header. */
export const PEM_PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;
/** A JWS compact serialization whose header and payload are JSON objects (`eyJ…`). */
export const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;
/** A Stripe-style secret or restricted key. */
export const STRIPE_KEY = /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/;
/** An `sk-…` API secret key (OpenAI and others). */
export const SK_KEY = /(?<![\w-])sk-[A-Za-z0-9_-]{20,}/;
/** An AWS access key id. */
export const AWS_ACCESS_KEY_ID = /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/;
/** A GitHub token. */
export const GITHUB_TOKEN = /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/;
/** A Slack token. */
export const SLACK_TOKEN = /(?<!\w)xox[abprs]-[A-Za-z0-9-]{10,}/;
/** A Google API key. */
export const GOOGLE_API_KEY = /(?<![\w-])AIza[0-9A-Za-z_-]{35}/;
/** `password=…`, `api_key=…`, `token=…` with a value that is not a template. */
export const CREDENTIAL_ASSIGNMENT =
  /\b(?:password|passwd|pwd|api_?key|apikey|secret|client_secret|access_token|token)=(?![<{$*])[^\s&;,"']{4,}/i;
/** `Bearer` and a token of 16 or more characters. */
export const BEARER_TOKEN = /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/;

/** Character codes the scanners compare with. */
const CHAR = {
  Tab: 9,
  Space: 32,
  Hash: 35,
  Dollar: 36,
  Asterisk: 42,
  Plus: 43,
  Hyphen: 45,
  Dot: 46,
  Slash: 47,
  Digit0: 48,
  Digit9: 57,
  Colon: 58,
  Less: 60,
  Question: 63,
  At: 64,
  UpperA: 65,
  UpperZ: 90,
  Underscore: 95,
  LowerA: 97,
  LowerZ: 122,
  OpenBrace: 123,
} as const;

function isLetter(c: number): boolean {
  return (c >= CHAR.LowerA && c <= CHAR.LowerZ) || (c >= CHAR.UpperA && c <= CHAR.UpperZ);
}

function isDigit(c: number): boolean {
  return c >= CHAR.Digit0 && c <= CHAR.Digit9;
}

/** `[a-z0-9+.-]` without case: a character of a URI scheme after the first. */
function isSchemeChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CHAR.Plus || c === CHAR.Dot || c === CHAR.Hyphen;
}

/** `\w`: a word character for `\b`. */
function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CHAR.Underscore;
}

/** `\s` as JavaScript defines it: the ASCII spaces and the Unicode space separators. */
function isSpace(c: number): boolean {
  if (c === CHAR.Space || (c >= CHAR.Tab && c <= 13)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Ends a user or a password in userinfo: `[\s/?#@]`. */
function endsUserinfo(c: number): boolean {
  return c === CHAR.Slash || c === CHAR.Question || c === CHAR.Hash || c === CHAR.At || isSpace(c);
}

/**
 * The first URL with a password in its userinfo (`https://bob:hunter2@api.acme.io`), as the
 * expression `/\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]+:(?![<{$*])[^\s/?#@]{3,}@/i` would find it, or
 * `undefined`. That expression retries the scheme from every word of a long run such as
 * `a.a.a.…` and takes time quadratic in its length (`"=" + "a.".repeat(50_000)`: 2.5 s); this
 * scanner starts only at each `://` and reads each character a bounded number of times.
 * @example findUrlCredentials('see https://bob:hunter2@acme.io') // 'https://bob:hunter2@'
 */
export function findUrlCredentials(text: string): string | undefined {
  let from = 0;
  for (;;) {
    const separator = text.indexOf('://', from);
    if (separator === -1) return undefined;
    from = separator + 1;
    // The scheme: the run of scheme characters before `://`, from its leftmost letter that
    // starts a word.
    let runStart = separator;
    while (runStart > 0 && isSchemeChar(text.charCodeAt(runStart - 1))) runStart--;
    let start = -1;
    for (let i = runStart; i < separator; i++) {
      if (isLetter(text.charCodeAt(i)) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)))) {
        start = i;
        break;
      }
    }
    if (start === -1) continue;
    // The user: one or more characters up to a colon.
    let i = separator + 3;
    const userStart = i;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === CHAR.Colon || endsUserinfo(c)) break;
      i++;
    }
    if (i === userStart || text.charCodeAt(i) !== CHAR.Colon) continue;
    // The password: not a template (`<…>`, `{…}`, `$…`, `*…`), three or more characters, then `@`.
    i++;
    const first = text.charCodeAt(i);
    if (first === CHAR.Less || first === CHAR.OpenBrace || first === CHAR.Dollar || first === CHAR.Asterisk) continue;
    const passwordStart = i;
    while (i < text.length && !endsUserinfo(text.charCodeAt(i))) i++;
    if (i - passwordStart >= 3 && text.charCodeAt(i) === CHAR.At) return text.slice(start, i + 1);
  }
}

// --- text a model reads (rules 58–59) -----------------------------------------------------------

/**
 * Second-person set-up of a model, as a system prompt reads and a description for callers does
 * not: "You are a …" or "Act as a …" opening a sentence, "Your task is …", "Never reveal the
 * instructions", the words "system prompt", and a `system:` or `assistant:` role marker opening
 * a line. Each alternative is anchored on a fixed word, with bounded gaps.
 */
export const SYSTEM_PROMPT_TEXT =
  /(?:^|[.!?\n])\s{0,4}(?:you are|you're|act as) (?:an?|the) |\byour (?:task|role|job|goal|purpose|objective|instructions) (?:is|are)\b|\b(?:never|do not|don't) (?:reveal|disclose|repeat|share|mention) (?:the |your |these |this |any ){0,2}(?:system |internal |hidden )?(?:prompt|instructions)\b|\bsystem prompt\b|(?:^|\n)[ \t]{0,8}(?:system|assistant)[ \t]{0,4}:/i;
/**
 * "Ignore previous instructions" and its kin: a verb that drops instructions, up to two of
 * `all`/`the`/`your`/`previous`/`prior`/`above`/`earlier`/`preceding`/`system`/`any`, and the
 * instructions, prompt, rules or context it drops.
 */
export const INJECTION_PHRASE =
  /\b(?:ignore|disregard|forget|override) (?:(?:all|any|the|your|previous|prior|above|earlier|preceding|system|original) ){1,3}(?:instructions?|prompts?|rules|directions|guidelines|context)\b/i;
/**
 * A character that {@link findHiddenCharacter} may report: a text without one (almost every
 * text of a card) is cleared by this one native scan instead of a scan in JavaScript.
 */
export const HIDDEN_CHARACTER_HINT = /[\u180e\u200b-\u200d\u2060-\u2064\u202a-\u202e\u2066-\u2069\ufeff\udb40]/;
/**
 * What the card-text rules look for besides prose, in one native scan: a URL's `://`
 * (`url-private-host`), chat markup's `<` or `[` and an invisible character's code unit
 * (`hidden-instructions`).
 */
export const CARD_TEXT_HINT = /:\/\/|[<[\u180e\u200b-\u200d\u2060-\u2064\u202a-\u202e\u2066-\u2069\ufeff\udb40]/;
/** Chat markup of model prompts: `<system>`, `</system>`, `<|im_start|>`, `[INST]`, `<<SYS>>`. */
export const MODEL_MARKUP = /<\/?system>|<\|[a-z_]{2,24}\|>|\[\/?INST\]|<<\/?SYS>>/i;

/**
 * The first character of `text` that a person reviewing the card does not see but a model reads:
 * a Unicode tag character (U+E0000–E007F, the "ASCII smuggling" block; the tags of an emoji flag
 * sequence after U+1F3F4 are not counted), a zero-width space, word joiner or invisible operator
 * (U+200B, U+2060–2064, U+FEFF, U+180E), a bidirectional embedding, override or isolate
 * (U+202A–202E, U+2066–2069), or two zero-width (non-)joiners in a row (one joins emoji and
 * letters in ordinary text). Returns its index and code point, or `undefined`. Linear in `text`.
 */
export function findHiddenCharacter(text: string): { index: number; code: number } | undefined {
  let flag = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x180e) continue;
    if (c === 0xdb40) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdc7f) {
        if (!flag) return { index: i, code: 0xe0000 + (low - 0xdc00) };
        if (low === 0xdc7f) flag = false;
        i++;
        continue;
      }
    }
    // U+1F3F4 WAVING BLACK FLAG (D83C DFF4) opens a tag sequence such as the flag of Scotland.
    if (c === 0xd83c && text.charCodeAt(i + 1) === 0xdff4) {
      flag = true;
      i++;
      continue;
    }
    flag = false;
    if (
      c === 0x180e ||
      c === 0x200b ||
      c === 0xfeff ||
      (c >= 0x2060 && c <= 0x2064) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    ) {
      return { index: i, code: c };
    }
    if ((c === 0x200c || c === 0x200d) && (text.charCodeAt(i + 1) === 0x200c || text.charCodeAt(i + 1) === 0x200d)) {
      return { index: i, code: c };
    }
  }
  return undefined;
}
