/**
 * Rule 39 `secrets-in-card`: values that look like credentials, anywhere in the card. The card is
 * public, so a key, token or password in it is already leaked. Values are matched by shape (JWTs,
 * PEM keys, provider-specific key formats, `password=…`, bearer tokens, URL userinfo) and by the
 * key that holds them (`apiKey`, `secret`, `password`…). Messages show only a short prefix.
 * @see packages/core/RULES.md §6.3 (rule 39)
 */
import type { JsonObject, RuleContext } from '../context';
import {
  AWS_ACCESS_KEY_ID,
  BEARER_PREFIX,
  BEARER_TOKEN,
  CREDENTIAL_ASSIGNMENT,
  DIGIT,
  findUrlCredentials,
  GITHUB_TOKEN,
  GOOGLE_API_KEY,
  JWT,
  KEY_SEPARATORS,
  LOWER_CASE_LETTER,
  MASKED_VALUE,
  PEM_PRIVATE_KEY,
  SECRET_HINT,
  SK_KEY,
  SLACK_TOKEN,
  STRIPE_KEY,
  UPPER_CASE_LETTER,
  WHITESPACE,
} from '../patterns';
import { keysOf, where, type Segments } from './read-json';

const MAX_DEPTH = 64;
const MAX_NODES = 100_000;
const MAX_SECRET_FINDINGS = 50;
const MAX_SCAN_LENGTH = 100_000;

const SECRET_KEYS = new Set([
  'apikey',
  'xapikey',
  'apisecret',
  'secret',
  'secretkey',
  'clientsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authtoken',
  'bearertoken',
  'privatekey',
  'accesskey',
  'secretaccesskey',
]);
const PASSWORD_KEYS = new Set(['password', 'passwd', 'pwd', 'passphrase']);

/** High entropy, no spaces, mixed character classes: a generated credential, not a word. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || WHITESPACE.test(value) || value.includes('://')) return false;
  const classes = [LOWER_CASE_LETTER, UPPER_CASE_LETTER, DIGIT].filter((re) => re.test(value)).length;
  if (classes < 2) return false;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy >= 3;
}

interface SecretPattern {
  readonly what: string;
  /** The first match in the text, or `undefined`. */
  readonly find: (text: string) => string | undefined;
  /** Extra check on the match (e.g. randomness), so prose is not flagged. */
  readonly accept?: (match: string) => boolean;
  /** A safe label to show instead of a prefix of the match. */
  readonly label?: string;
}

/** The first match of a pattern from `patterns.ts`. */
const first =
  (re: RegExp) =>
  (text: string): string | undefined =>
    re.exec(text)?.[0];

const SECRET_PATTERNS: readonly SecretPattern[] = [
  { what: 'a PEM private key', find: first(PEM_PRIVATE_KEY), label: '-----BEGIN … PRIVATE KEY-----' },
  { what: 'a JWT', find: first(JWT) },
  { what: 'a Stripe-style secret key', find: first(STRIPE_KEY) },
  { what: 'an API secret key (sk-…)', find: first(SK_KEY), accept: looksRandom },
  { what: 'an AWS access key id', find: first(AWS_ACCESS_KEY_ID) },
  { what: 'a GitHub token', find: first(GITHUB_TOKEN) },
  { what: 'a Slack token', find: first(SLACK_TOKEN) },
  { what: 'a Google API key', find: first(GOOGLE_API_KEY) },
  { what: 'a credential assignment', find: first(CREDENTIAL_ASSIGNMENT) },
  {
    what: 'a bearer token',
    find: first(BEARER_TOKEN),
    accept: (m) => looksRandom(m.replace(BEARER_PREFIX, '')),
  },
  { what: 'credentials in a URL', find: findUrlCredentials },
];

/** A prefix short enough to identify the value without disclosing it. */
function redacted(value: string): string {
  const shown = value.slice(0, Math.min(4, Math.floor(value.length / 4)));
  return `"${shown}…", ${value.length} characters`;
}

function mayHoldSecret(text: string): boolean {
  return SECRET_HINT.test(text) || (text.includes('@') && text.includes('://'));
}

/** What a key says about its value: 1 a password, 2 a credential, 0 neither. Keys repeat a lot. */
const keyKinds = new Map<string, number>();

/** What a key says about its value (see {@link keyKinds}). */
export function keyKind(key: string): number {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    const name = key.toLowerCase().replace(KEY_SEPARATORS, '');
    kind = PASSWORD_KEYS.has(name) ? 1 : SECRET_KEYS.has(name) ? 2 : 0;
    // Bounded: keys come from untrusted cards.
    if (keyKinds.size >= 4096) keyKinds.clear();
    keyKinds.set(key, kind);
  }
  return kind;
}

/**
 * What secret a string seems to hold, by its shape and by the key that holds it, with a redacted
 * view of it; `undefined` for none. Reads at most the first 100,000 characters.
 * @example secretIn('apiKey', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc') // { what: 'a Stripe-style secret key', shown: '"sk_l…", 32 characters' }
 */
export function secretIn(key: string | undefined, value: string): { what: string; shown: string } | undefined {
  const text = value.length > MAX_SCAN_LENGTH ? value.slice(0, MAX_SCAN_LENGTH) : value;
  if (mayHoldSecret(text)) {
    for (const pattern of SECRET_PATTERNS) {
      const match = pattern.find(text);
      if (match === undefined || (pattern.accept && !pattern.accept(match))) continue;
      return { what: pattern.what, shown: pattern.label ? `"${pattern.label}"` : redacted(match) };
    }
  }
  if (key === undefined) return undefined;
  const kind = keyKind(key);
  if (kind === 0) return undefined;
  const trimmed = text.trim();
  if (kind === 1 && trimmed.length >= 4 && !MASKED_VALUE.test(trimmed)) {
    return { what: `a password under "${key}"`, shown: redacted(trimmed) };
  }
  if (kind === 2 && looksRandom(trimmed)) {
    return { what: `a credential under "${key}"`, shown: redacted(trimmed) };
  }
  return undefined;
}

function reportSecret(ctx: RuleContext, path: Segments, secret: { what: string; shown: string }): void {
  ctx.report(
    'secrets-in-card',
    'error',
    path,
    `${where(path)}: looks like ${secret.what} (${secret.shown}).`,
    'Remove it from the card, which is public, and rotate it; keep credentials in server configuration and declare only the scheme in securitySchemes.',
  );
}

/**
 * How many values the secret scan visits in a value of the validator's copy (a quiet skill: a few
 * levels of objects, lists and strings), counted as the walk counts them.
 */
function flatSize(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let size = 1;
  if (Array.isArray(value)) {
    // Most items are strings: counted here, without a call each.
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      size += typeof item === 'string' ? 1 : flatSize(item);
    }
    return size;
  }
  for (const key in value) {
    const item = (value as JsonObject)[key];
    size += typeof item === 'string' ? 1 : flatSize(item);
  }
  return size;
}

/** Rule 39 over the whole card: a bounded pre-order walk (depth, values, findings). */
export function checkSecrets(card: JsonObject, ctx: RuleContext): void {
  // A pre-order walk with one shared path; the path is copied only when a finding is made.
  const path: (string | number)[] = [];
  const quiet = ctx.quietSkills;
  let nodes = 0;
  let found = 0;
  /** Why the walk left values unread, if it did. */
  let stopped: 'values' | 'findings' | undefined;
  const visit = (value: unknown, key: string | undefined): boolean => {
    if (found >= MAX_SECRET_FINDINGS) stopped = 'findings';
    else if (nodes >= MAX_NODES) stopped = 'values';
    if (stopped !== undefined) return false;
    nodes++;
    if (typeof value === 'string') {
      const secret = secretIn(key, value);
      if (secret) {
        found++;
        reportSecret(ctx, path, secret);
      }
      return true;
    }
    if (path.length >= MAX_DEPTH || typeof value !== 'object' || value === null) return true;
    // A quiet skill holds no secret: count its values as the walk would, without reading them,
    // unless the value budget would run out inside it.
    if (quiet !== undefined && path.length === 2 && quiet.has(value)) {
      const rest = flatSize(value as JsonObject) - 1;
      if (nodes + rest <= MAX_NODES) {
        nodes += rest;
        return true;
      }
    }
    if (Array.isArray(value)) {
      // Items inherit the array's key: `"apiKey": ["…"]` is still an API key.
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        const more = visit(value[i], key);
        path.pop();
        if (!more) return false;
      }
      return true;
    }
    // The JWS parts are random base64url by design; they are checked by the signature rules.
    const inSignature = path.length === 2 && path[0] === 'signatures';
    const obj = value as JsonObject;
    for (const childKey of keysOf(obj)) {
      if (inSignature && (childKey === 'protected' || childKey === 'signature')) continue;
      path.push(childKey);
      const more = visit(obj[childKey], childKey);
      path.pop();
      if (!more) return false;
    }
    return true;
  };
  visit(card, undefined);
  // A bound that cut the walk short is said, so a clean result is never read as "no secrets".
  if (stopped !== undefined) {
    ctx.report(
      'secrets-in-card',
      'info',
      [],
      stopped === 'findings'
        ? `card: the secret check stopped after ${MAX_SECRET_FINDINGS} findings; the rest of the card was not checked.`
        : `card: the secret check stopped after ${MAX_NODES.toLocaleString('en-US')} values; the rest of the card was not checked.`,
      stopped === 'findings'
        ? 'Remove the credentials reported above and validate again to check the rest.'
        : 'A card rarely holds this many values: move bulk data out of the card, then validate again.',
    );
  }
}
