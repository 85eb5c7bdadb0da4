import { describe, expect, it } from 'vitest';
import { baseCard } from './test-cards';
import * as patterns from './patterns';
import { validateAgentCard } from './validate';

/**
 * A hostile input of about `n` characters: `unit` repeated, between `before` and `after`. Most
 * backtracking blow-ups need a long run of what a quantifier repeats and then one character that
 * makes the match fail.
 */
const run =
  (unit: string, before = '', after = '') =>
  (n: number): string =>
    before + unit.repeat(Math.ceil(n / unit.length)) + after;

type Input = (n: number) => string;
type Pattern = (typeof patterns)[keyof typeof patterns];

/**
 * The attacks on each export of `patterns.ts`: inputs shaped after what the pattern repeats. Every
 * export needs an entry (the type says so, and a test below checks it at run time).
 */
const ATTACKS: Record<keyof typeof patterns, Input[]> = {
  ARRAY_INDEX: [run('1', '', 'x')],
  BAD_POINTER_ESCAPE: [run('~0'), run('~')],
  IDENTIFIER: [run('a', '', '-')],
  UPPER_CASE_LETTERS: [run('A')],
  KEY_SEPARATORS: [run('-_')],
  VOWEL_START: [run('a')],
  SENTENCE_END: [run('.', '', 'x')],
  ABSOLUTE_URI: [run('a', '', ': '), run('b', 'a:', ' ')],
  SCHEME_AND_BODY: [run('a', '', ': '), run('b', 'a:', ' ')],
  SCHEME_PREFIX: [run('a')],
  SCHEME_AUTHORITY: [run('a', '', ':/')],
  HTTP_FAMILY_SCHEME: [run('http')],
  HTTP_PREFIX: [run('http:/')],
  WS_PREFIX: [run('ws:/')],
  BARE_HOST: [run('a.', '', '!'), run('aa.', '', '!'), run('a', '', '.a!')],
  BARE_HOST_AND_PORT: [run('a.', '', ':'), run('aa.', '', ':1!'), run('a', 'a.aa:', '!')],
  CARD_DOCUMENT_PATH: [run('/agent', '', 'x'), run('/agent.json', '', 'x')],
  HOST_PORT: [run('a', '[', ':1'), run('a', '', ':'), run(':1')],
  DOTTED_NUMBERS: [run('1.', '', 'x'), run('1', '1.1.1.', 'x')],
  IPV6_CHARACTERS: [run(':', '', 'x')],
  URL_USERINFO_PASSWORD: [run(':', 'a://'), run('b', 'a://a:'), run('a', '', '://')],
  trimTrailing: [run('/', '', 'x'), run('/'), run('.', 'acme.io', 'x')],
  MAJOR_MINOR: [run('1', '', 'x'), run('1.')],
  MAJOR_MINOR_PATCH: [run('1', '1.1.', 'x'), run('1.')],
  LEADING_MAJOR_MINOR: [run('1')],
  SEMVER: [run('a.', '1.0.0-', '!'), run('a', '1.0.0-', '!'), run('-', '1.0.0+', '!'), run('1', '', '.')],
  V_BEFORE_DIGIT: [run('v')],
  NUMERIC_VERSION: [run('1', '', '.x'), run('1.')],
  MEDIA_TYPE: [
    run(';a=a', 'a/a', ';'),
    run('\\\\', 'a/a;a="', ''),
    run(' ', 'a/a', 'x'),
    run('a', 'a/'),
    run(' ; a = a', 'a/a'),
  ],
  PLACEHOLDER_HINT: [run('chang')],
  EXAMPLE_NAME: [run('example')],
  TODO_MARKER: [run('TOD'), run('TODOx')],
  CHANGE_ME: [run('change-'), run('change m')],
  YOUR_PLACEHOLDER: [run('your')],
  LOREM_IPSUM: [run('lorem ')],
  TEMPLATE_VARIABLE: [run('{{'), run('${a'), run('a', '{{')],
  ANGLE_PLACEHOLDER: [run(' ', '<a'), run('<a '), run(' ', '<'), run('<'), run('a', '<')],
  GENERIC_DESCRIPTION: [run('ai ', '', 'x'), run(' ', 'a', 'x'), run('helpful ', 'a ', 'x'), run('ai', 'an ', 'x')],
  BASE64URL: [run('a', '', '=')],
  WHITESPACE: [run('a')],
  LOWER_CASE_LETTER: [run('A')],
  UPPER_CASE_LETTER: [run('a')],
  DIGIT: [run('a')],
  MASKED_VALUE: [run('>', '<', 'x'), run('}', '${', 'x'), run('}}', '{{', 'x'), run('*', '', 'x')],
  BEARER_PREFIX: [run(' ', 'Bearer', 'x')],
  SECRET_HINT: [run('github_pa')],
  PEM_PRIVATE_KEY: [run('A ', '-----BEGIN '), run('A', '-----BEGIN '), run('-----BEGIN ')],
  JWT: [run('a', 'eyJ'), run('eyJaaaaaaaa.'), run('a', 'eyJaaaaaaaaa.eyJ'), run('-eyJ')],
  STRIPE_KEY: [run('sk_live_'), run(' sk_test_a')],
  SK_KEY: [run(' sk-aaaa'), run('sk-')],
  AWS_ACCESS_KEY_ID: [run('AKIA'), run(' AKIAAAAA')],
  GITHUB_TOKEN: [run(' ghp_a'), run(' github_pat_'), run('ghp_')],
  SLACK_TOKEN: [run(' xoxa-a'), run('xoxb')],
  GOOGLE_API_KEY: [run(' AIzaaaaaaaaaa'), run('AIza')],
  CREDENTIAL_ASSIGNMENT: [run(' token=a'), run('token'), run('password=<')],
  BEARER_TOKEN: [run('Bearer aaaaaaaaaa '), run(' ', 'Bearer', 'x')],
  SYSTEM_PROMPT_TEXT: [
    run('. ', '', 'x'),
    run('\n', '', 'x'),
    run('you are '),
    run('never reveal the '),
    run('your task '),
  ],
  INJECTION_PHRASE: [run('ignore all '), run('ignore the ', '', 'x'), run('forget ')],
  HIDDEN_CHARACTER_HINT: [run('a'), run('a-b')],
  CARD_TEXT_HINT: [run(':/'), run(':'), run('a')],
  MODEL_MARKUP: [run('<|aaaa'), run('<<'), run('[/'), run('</system')],
  findHiddenCharacter: [run('\u{1F3F4}\u{E0067}'), run('\u200c a'), run('aé')],
  findUrlCredentials: [
    run('a.', '='),
    run('a.', '', '://'),
    run('://'),
    run('b', 'a://'),
    run('c', 'a://b:'),
    run('a://b:c'),
    run('a', 'x://', ':'),
  ],
};

/** Applies an export the way the rules do: `exec` (or `replace` for a `g` pattern), or a call. */
function applier(name: string, pattern: Pattern): (input: string) => unknown {
  if (pattern instanceof RegExp) {
    return pattern.global ? (input) => input.replace(pattern, '') : (input) => pattern.exec(input);
  }
  if (name === 'trimTrailing') return (input) => [patterns.trimTrailing(input, '/'), patterns.trimTrailing(input, '.')];
  return pattern as (input: string) => unknown;
}

/** Shapes every expression is also tried on, whatever it repeats. */
const GENERIC: Input[] = ['a.', '/', 'A', ' ', '-', '1.', ':', '<', 'a:', '=a'].map((unit) => run(unit, '', '!'));

function time(apply: (input: string) => unknown, input: string, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) apply(input);
  return performance.now() - start;
}

/** The fastest of `rounds` timings: the one least disturbed by other work on a shared machine. */
function fastest(apply: (input: string) => unknown, input: string, reps: number, rounds = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) best = Math.min(best, time(apply, input, reps));
  return best;
}

/**
 * How much longer `apply` takes on `to` characters than on `from`: about 10 for 10× when linear,
 * about 100 when quadratic. Each timing repeats the call until the short input takes 2 ms at
 * least, so the timer's resolution does not decide the ratio; the fastest of seven is kept.
 */
function growth(apply: (input: string) => unknown, input: Input, from = 10_000, to = 100_000): number {
  const small = input(from);
  const large = input(to);
  apply(small);
  let reps = 1;
  while (reps < 4096 && time(apply, small, reps) < 2) reps *= 2;
  // Interleaved, so that a busy moment of the machine slows both sizes, not one.
  let short = Number.POSITIVE_INFINITY;
  let long = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    short = Math.min(short, time(apply, small, reps));
    long = Math.min(long, time(apply, large, reps));
  }
  return long / short;
}

/** A pattern that needs less than this on 100,000 characters cannot be quadratic on that input. */
const FAST_MS = 1;
/** Linear growth is 10×, quadratic 100×. */
const MAX_GROWTH = 20;

/** A call on 100,000 characters that takes longer than this is quadratic, whatever the ratio. */
const SLOW_MS = 200;

/**
 * {@link growth} from 10,000 to 100,000 characters, measured again (up to four times) when it looks too
 * high. A scan with a match every character or two costs about twice as much per character once its
 * input and bookkeeping outgrow the processor caches, which happens between 30,000 and 100,000
 * characters; such a scan, linear but at 20× or a little more, is measured once more from 100,000
 * to 1,000,000 characters, past that step. A quadratic one is over 20× on both.
 */
function settledGrowth(apply: (input: string) => unknown, input: Input): number {
  let ratio = growth(apply, input);
  // A slow moment during the large runs inflates the ratio (another test file runs on the other
  // core): measure again, up to four times, before failing.
  for (let retry = 0; retry < 4 && ratio >= MAX_GROWTH; retry++) ratio = Math.min(ratio, growth(apply, input));
  if (ratio < MAX_GROWTH || fastest(apply, input(100_000), 1, 1) > SLOW_MS) return ratio;
  return Math.min(ratio, growth(apply, input, 100_000, 1_000_000));
}

/** The worst growth of `apply` over `inputs`, and the input that gave it. */
function worstGrowth(apply: (input: string) => unknown, inputs: readonly Input[]): { growth: number; input: string } {
  let worst = { growth: 0, input: '' };
  for (const input of inputs) {
    const large = input(100_000);
    apply(large);
    if (fastest(apply, large, 1, 2) < FAST_MS) continue;
    const ratio = settledGrowth(apply, input);
    if (ratio > worst.growth) worst = { growth: ratio, input: `${JSON.stringify(large.slice(0, 24))}…` };
  }
  return worst;
}

/** The exports by name (a test file: tree shaking does not apply). */
const EXPORTS: Record<string, Pattern> = { ...patterns };

describe('patterns.ts', () => {
  it('has an attack for every export', () => {
    expect(Object.keys(patterns).sort()).toEqual(Object.keys(ATTACKS).sort());
  });

  it.each(Object.keys(ATTACKS) as (keyof typeof patterns)[])('%s runs in linear time', (name) => {
    const pattern = EXPORTS[name]!;
    const inputs = pattern instanceof RegExp ? [...ATTACKS[name], ...GENERIC] : ATTACKS[name];
    const worst = worstGrowth(applier(name, pattern), inputs);
    expect(worst.growth, `10k → 100k characters of ${worst.input}`).toBeLessThan(MAX_GROWTH);
  });

  it('findUrlCredentials finds what the expression it replaces found', () => {
    const re = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]+:(?![<{$*])[^\s/?#@]{3,}@/i;
    const cases = [
      'https://bob:hunter2@api.acme.io/',
      'see HTTPS://bob:hunter2@api.acme.io',
      'x_https://bob:hunter2@a',
      '_x.git+ssh://bob:hunter2@a',
      'https://bob:<pw>@a https://al:secret1@b',
      'a://b:cc@ a://b:ccc@',
      'https://bob:hu nter2@a',
      'https://bob@a:pw@',
      'https://:pw123@a',
      '1http://u:pwd@a',
      'https://u:p\u00a0w@a https://u:pw\u2028d@a',
      '://u:pwd@',
      'a.b-c+d://u:pw:d@x',
    ];
    for (const text of cases) expect(patterns.findUrlCredentials(text), text).toBe(re.exec(text)?.[0]);
  });

  it('trimTrailing removes the whole run, and only it', () => {
    expect(patterns.trimTrailing('https://acme.io///', '/')).toBe('https://acme.io');
    expect(patterns.trimTrailing('acme.io..', '.')).toBe('acme.io');
    expect(patterns.trimTrailing('///', '/')).toBe('');
    expect(patterns.trimTrailing('/a/b', '/')).toBe('/a/b');
  });
});

/** A production card with `edit` applied, as JSON text of about the size `edit` builds. */
function hostileCard(edit: (card: Record<string, any>, n: number) => void): Input {
  return (n) => {
    const card: Record<string, any> = baseCard();
    edit(card, n);
    return JSON.stringify(card);
  };
}

/**
 * The cards of issue 11 and the shapes the pattern timings found, through the whole validator: a
 * rule that applies a backtracking expression to card content, inside or outside `patterns.ts`,
 * fails here.
 */
const HOSTILE_CARDS: [string, Input][] = [
  [
    'a skill description of "=" + "a." repeated',
    hostileCard((c, n) => (c.skills[0].description = `=${'a.'.repeat(n / 2)}`)),
  ],
  [
    'ten such skills',
    hostileCard((c, n) => {
      c.skills = Array.from({ length: 10 }, (_, i) => ({
        id: `s${i}`,
        name: 'Skill',
        description: `=${'a.'.repeat(n / 20)}`,
        tags: ['t'],
      }));
    }),
  ],
  [
    'interface URLs with slash-run paths',
    hostileCard((c, n) => {
      c.supportedInterfaces = Array.from({ length: 10 }, (_, i) => ({
        url: `https://api${i}.acme.io/${'/'.repeat(n / 10)}a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      }));
    }),
  ],
  [
    'a provider URL whose host ends in a run of dots',
    hostileCard((c, n) => (c.provider.url = `https://acme${'.'.repeat(n)}x/`)),
  ],
  [
    'a media type with a long parameter list',
    hostileCard((c, n) => (c.defaultInputModes = [`text/plain${'; a=b'.repeat(n / 5)};`])),
  ],
  ['a description of "ai " repeated', hostileCard((c, n) => (c.description = `${'ai '.repeat(n / 3)}x`))],
  ['a skill name of "<a" and spaces', hostileCard((c, n) => (c.skills[0].name = `<a${' '.repeat(n)}`))],
  ['an upper-case run in a skill id', hostileCard((c, n) => (c.skills[0].id = 'A'.repeat(n)))],
];

describe('validateAgentCard on hostile cards', () => {
  it.each(HOSTILE_CARDS)('%s: time grows linearly with the card', (_title, card) => {
    const apply = (text: string) => validateAgentCard(text, { profile: 'production' });
    expect(settledGrowth(apply, card)).toBeLessThan(MAX_GROWTH);
  });
});
