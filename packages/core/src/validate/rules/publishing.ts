/**
 * Publishing-readiness rules (RULES.md §6.3, rules 33–41): is this card fit to be served on the
 * public internet? URLs that clients cannot reach or cannot trust, placeholders left from a
 * template, secrets, thin metadata, and no declared security.
 * @see RULES.md §6.3
 */
import type { CardShape, JsonObject, RuleCheck, RuleContext } from '../context';
import type { Severity } from '../../findings';
import { classifyHost, parseAbsoluteUrl, parseHostPort, redactUrl } from '../urls';
import { decodeJwsHeader } from './jws-header';
import { bindingInfo } from './semantics';
import { isObject, keysOf, own, ownArray, ownObject, ownString, quote, where, type Segments } from './read-json';

/** Where a URL came from; OAuth/OIDC endpoints are held to TLS in every profile. */
type UrlKind = 'interface' | 'oauth' | 'other';

interface CardUrl {
  readonly path: Segments;
  /** Readable location; differs from `where(path)` for a `jku` inside a protected header. */
  readonly label: string;
  readonly value: string;
  readonly kind: UrlKind;
  readonly binding?: string;
}

const OAUTH_FLOW_URL_KEYS = ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'deviceAuthorizationUrl'];
const MAX_PROTECTED_LENGTH = 16_384;

/** Decodes a base64url JWS protected header to an object; `undefined` on any defect. */
function decodeProtectedHeader(value: string): JsonObject | undefined {
  if (value.length > MAX_PROTECTED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const parsed = decodeJwsHeader(value);
  return isObject(parsed) ? parsed : undefined;
}

function pushUrl(out: CardUrl[], path: Segments, value: unknown, kind: UrlKind, binding?: string): void {
  if (typeof value !== 'string' || value.trim() === '') return;
  out.push({ path, label: where(path), value, kind, ...(binding !== undefined ? { binding } : {}) });
}

/**
 * Every URL in the card, with where it lives: interface urls, provider, docs, icon, OAuth and
 * OIDC endpoints, and the `jku` of each signature. For v0.3-shaped cards also the legacy `url`
 * and `additionalInterfaces[].url`.
 */
function collectUrls(card: JsonObject, shape: CardShape): CardUrl[] {
  const out: CardUrl[] = [];
  ownArray(card, 'supportedInterfaces')?.forEach((entry, index) => {
    pushUrl(
      out,
      ['supportedInterfaces', index, 'url'],
      own(entry, 'url'),
      'interface',
      ownString(entry, 'protocolBinding') ?? '',
    );
  });
  if (shape === 'v0.3' || shape === 'v0.2') {
    pushUrl(out, ['url'], own(card, 'url'), 'interface', ownString(card, 'preferredTransport') ?? 'JSONRPC');
    ownArray(card, 'additionalInterfaces')?.forEach((entry, index) => {
      pushUrl(
        out,
        ['additionalInterfaces', index, 'url'],
        own(entry, 'url'),
        'interface',
        ownString(entry, 'transport') ?? '',
      );
    });
  }
  pushUrl(out, ['provider', 'url'], own(ownObject(card, 'provider'), 'url'), 'other');
  pushUrl(out, ['documentationUrl'], own(card, 'documentationUrl'), 'other');
  pushUrl(out, ['iconUrl'], own(card, 'iconUrl'), 'other');

  const schemes = ownObject(card, 'securitySchemes');
  for (const name of schemes ? keysOf(schemes) : []) {
    const scheme = schemes?.[name];
    if (!isObject(scheme)) continue;
    // A v0.3-shaped scheme (`type` discriminator) keeps its fields at the top; rule 32 reports it.
    const oauth = ownObject(scheme, 'oauth2SecurityScheme');
    const oauthBase: Segments = oauth ? ['securitySchemes', name, 'oauth2SecurityScheme'] : ['securitySchemes', name];
    const oauthObj = oauth ?? scheme;
    pushUrl(out, [...oauthBase, 'oauth2MetadataUrl'], own(oauthObj, 'oauth2MetadataUrl'), 'oauth');
    const flows = ownObject(oauthObj, 'flows');
    for (const flow of flows ? keysOf(flows) : []) {
      for (const key of OAUTH_FLOW_URL_KEYS) {
        pushUrl(out, [...oauthBase, 'flows', flow, key], own(flows?.[flow], key), 'oauth');
      }
    }
    const oidc = ownObject(scheme, 'openIdConnectSecurityScheme');
    const oidcBase: Segments = oidc
      ? ['securitySchemes', name, 'openIdConnectSecurityScheme']
      : ['securitySchemes', name];
    pushUrl(out, [...oidcBase, 'openIdConnectUrl'], own(oidc ?? scheme, 'openIdConnectUrl'), 'oauth');
  }

  ownArray(card, 'signatures')?.forEach((signature, index) => {
    const protectedHeader = own(signature, 'protected');
    if (typeof protectedHeader !== 'string') return;
    const jku = own(decodeProtectedHeader(protectedHeader), 'jku');
    if (typeof jku !== 'string' || jku.trim() === '') return;
    const path = ['signatures', index, 'protected'];
    out.push({ path, label: `${where(path)} (jku)`, value: jku, kind: 'other' });
  });
  return out;
}

// --- placeholders (rule 36) --------------------------------------------------------------------

const HTML_TAGS = new Set([
  'a',
  'b',
  'i',
  'p',
  'br',
  'em',
  'strong',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'div',
  'span',
  'hr',
]);
const PLACEHOLDER_VALUES = new Set([
  'my agent',
  'my-agent',
  'agent name',
  'example agent',
  'example org',
  'example organization',
  'my organization',
  'my org',
  'my company',
  'agent description',
  'description',
  'placeholder',
  'untitled',
  'changeme',
  'todo',
  'tbd',
]);

/**
 * Something each placeholder pattern below needs: `<`, `{{`, `\${`, `TODO`, `FIXME`, `TBD`, `XXX`,
 * `change`, `your-`/`your_` or `lorem` (matched here in any case, a superset). One scan, so
 * ordinary prose runs none of the six expressions.
 */
const PLACEHOLDER_HINT = /<|\{\{|\$\{|TODO|FIXME|TBD|XXX|change|your[-_]|lorem/i;
/** `true` at the length of each listed value: an index read instead of a set lookup per string. */
const PLACEHOLDER_LENGTHS: readonly boolean[] = (() => {
  const lengths: boolean[] = [];
  for (const v of PLACEHOLDER_VALUES) lengths[v.length] = true;
  return Array.from(lengths, (listed) => listed === true);
})();

/**
 * Why a string looks like an unfilled template value, or `undefined`.
 * `TODO`/`FIXME` are matched in upper case only, so a "Todo list" agent is not flagged.
 */
export function placeholderReason(value: string, field?: 'organization'): string | undefined {
  const text = value.length > 4096 ? value.slice(0, 4096) : value;
  const bare = text.trim();
  // The listed values are ASCII, and lower-casing keeps the length of any string whose result is
  // ASCII (only U+0130 grows, into a non-ASCII pair), so other lengths cannot be listed values.
  if (PLACEHOLDER_LENGTHS[bare.length] === true || field === 'organization') {
    const trimmed = bare.toLowerCase();
    if (PLACEHOLDER_VALUES.has(trimmed)) return 'a template placeholder';
    if (field === 'organization' && /^example\b/.test(trimmed)) return 'a template organization name';
  }
  if (!PLACEHOLDER_HINT.test(text)) return undefined;
  if (/\b(?:TODO|FIXME|TBD|XXX)\b/.test(text)) return 'a TODO marker';
  if (/\bchange[-_ ]?me\b/i.test(text)) return 'a "changeme" placeholder';
  if (/\byour[-_][a-z0-9]/i.test(text)) return 'a "your-…" placeholder';
  if (/\blorem ipsum\b/i.test(text)) return 'lorem ipsum filler';
  if (/\{\{[^{}]{0,80}\}\}|\$\{[A-Za-z_][A-Za-z0-9_]{0,80}\}/.test(text)) return 'an unrendered template variable';
  const angle = /<\s*([A-Za-z][\w .-]{0,60}?)\s*>/.exec(text);
  if (angle && !HTML_TAGS.has((angle[1] ?? '').toLowerCase())) return 'a <…> placeholder';
  return undefined;
}

function reportPlaceholder(ctx: RuleContext, path: Segments, value: unknown, field?: 'organization'): void {
  if (typeof value !== 'string') return;
  const reason = placeholderReason(value, field);
  if (!reason) return;
  ctx.report(
    'url-placeholder',
    'warning',
    path,
    `${where(path)}: looks like ${reason} (${quote(value)}).`,
    `Replace it with the real ${String(path[path.length - 1])} before publishing the card.`,
  );
}

function checkPlaceholderStrings(card: JsonObject, ctx: RuleContext): void {
  reportPlaceholder(ctx, ['name'], own(card, 'name'));
  reportPlaceholder(ctx, ['description'], own(card, 'description'));
  reportPlaceholder(
    ctx,
    ['provider', 'organization'],
    own(ownObject(card, 'provider'), 'organization'),
    'organization',
  );
  const skills = ownArray(card, 'skills');
  if (!skills) return;
  // Paths are built only for a finding; most skills have none.
  const quiet = ctx.quietSkills;
  for (let index = 0; index < skills.length; index++) {
    const skill = skills[index];
    if (!isObject(skill) || quiet?.has(skill)) continue;
    // Named reads (not a loop over key names): each is one cached property access.
    const name = Object.hasOwn(skill, 'name') ? skill.name : undefined;
    if (typeof name === 'string' && placeholderReason(name) !== undefined)
      reportPlaceholder(ctx, ['skills', index, 'name'], name);
    const description = Object.hasOwn(skill, 'description') ? skill.description : undefined;
    if (typeof description === 'string' && placeholderReason(description) !== undefined) {
      reportPlaceholder(ctx, ['skills', index, 'description'], description);
    }
    if (Object.hasOwn(skill, 'tags')) placeholderItems(ctx, skill.tags, index, 'tags');
    if (Object.hasOwn(skill, 'examples')) placeholderItems(ctx, skill.examples, index, 'examples');
  }
}

function placeholderItems(ctx: RuleContext, list: unknown, index: number, key: 'tags' | 'examples'): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const value: unknown = list[i];
    if (typeof value === 'string' && placeholderReason(value) !== undefined)
      reportPlaceholder(ctx, ['skills', index, key, i], value);
  }
}

// --- URLs (rules 33–37) -----------------------------------------------------------------------

function secureVariant(value: string): string {
  return value.replace(/^http:\/\//i, 'https://').replace(/^ws:\/\//i, 'wss://');
}

function checkUrl(ctx: RuleContext, item: CardUrl): void {
  const { path, label, value, kind } = item;
  const dev = ctx.profile === 'development';
  const shown = quote(redactUrl(value));

  const placeholder = placeholderReason(value);
  if (placeholder) {
    ctx.report(
      'url-placeholder',
      'warning',
      path,
      `${label}: looks like ${placeholder} (${shown}).`,
      'Replace it with the real public URL before publishing the card.',
    );
  }

  let host: string | undefined;
  const binding = item.binding !== undefined ? bindingInfo(item.binding) : undefined;
  const hostPort = kind === 'interface' && binding?.known === 'GRPC' ? parseHostPort(value) : undefined;
  if (hostPort) {
    host = hostPort.host;
    ctx.report(
      'url-https',
      'info',
      path,
      `${label}: is a gRPC host:port, so the card does not say whether TLS is used (${shown}).`,
      'Make sure the gRPC server uses TLS on this port; clients will connect with TLS credentials.',
    );
  } else {
    const parsed = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) ? parseAbsoluteUrl(value) : undefined;
    if (!parsed || parsed.hostname === '') {
      // Interface URL syntax is rule 27's job; other URLs have no other rule that catches this.
      if (kind !== 'interface' && !placeholder) {
        const guess = /^[\w.-]+\.[A-Za-z]{2,}(?:[:/]|$)/.test(value)
          ? `Use https://${value}.`
          : 'Use an absolute https:// URL.';
        ctx.report('url-https', 'error', path, `${label}: is not an absolute https:// URL (${shown}).`, guess);
      }
      return;
    }
    host = parsed.hostname;
    const scheme = parsed.protocol.slice(0, -1).toLowerCase();
    const insecure = scheme === 'http' || scheme === 'ws';
    const other = !insecure && scheme !== 'https' && scheme !== 'wss';
    // Custom bindings may use their own schemes; only http-family schemes say anything about TLS.
    if (insecure || (other && kind !== 'interface')) {
      const always = kind === 'oauth';
      const severity: Severity = always || !dev ? 'error' : 'info';
      const why = always ? ' OAuth and OpenID Connect endpoints require TLS in every environment (RFC 6749 §3.1).' : '';
      ctx.report(
        'url-https',
        severity,
        path,
        `${label}: uses ${scheme}:// (${shown}).`,
        insecure ? `Use ${redactUrl(secureVariant(value))}.${why}` : `Use an https:// URL.${why}`,
      );
    }
    if (kind === 'interface' && /\/(?:agent-card|agent)\.json$/i.test(parsed.pathname.replace(/\/+$/, ''))) {
      ctx.report(
        'interface-url-is-card-url',
        'error',
        path,
        `${label}: points at the Agent Card, not at the A2A endpoint (${shown}).`,
        `Use the URL your A2A handler serves, e.g. "${parsed.origin}/a2a"; the card itself stays at /.well-known/agent-card.json.`,
      );
    }
  }

  const hostClass = classifyHost(host);
  const hostShown = quote(host);
  if (hostClass.kind === 'loopback') {
    ctx.report(
      'url-localhost',
      dev ? 'info' : 'error',
      path,
      `${label}: points at ${hostClass.reason}, which other machines cannot reach (${hostShown}).`,
      'Use the public host name clients reach the agent on, e.g. from a PUBLIC_URL setting, for production.',
    );
  } else if (hostClass.kind === 'private') {
    ctx.report(
      'url-private-host',
      'warning',
      path,
      `${label}: host is ${hostClass.reason} (${hostShown}).`,
      'Use a public DNS name that clients outside your network can resolve, unless the card is only for internal clients.',
    );
  } else if (hostClass.kind === 'placeholder' && !placeholder) {
    ctx.report(
      'url-placeholder',
      'warning',
      path,
      `${label}: host is ${hostClass.reason} (${hostShown}).`,
      'Replace it with your real public host name before publishing the card.',
    );
  }
}

// --- 38 interface-origin-mismatch ---------------------------------------------------------------

/** An approximation of the registrable domain (eTLD+1) without the Public Suffix List. */
function siteOf(host: string): string {
  if (host.includes(':') || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return host;
  const labels = host.replace(/\.$/, '').split('.');
  const secondLevel = labels[labels.length - 2] ?? '';
  const tld = labels[labels.length - 1] ?? '';
  const take =
    tld.length === 2 && ['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go'].includes(secondLevel) ? 3 : 2;
  return labels.slice(-take).join('.');
}

function checkOrigin(card: JsonObject, ctx: RuleContext, cardUrl: string): void {
  const served = parseAbsoluteUrl(cardUrl)?.hostname;
  if (!served) return;
  ownArray(card, 'supportedInterfaces')?.forEach((entry, index) => {
    const url = ownString(entry, 'url');
    if (url === undefined) return;
    const host = parseHostPort(url)?.host ?? parseAbsoluteUrl(url)?.hostname;
    if (!host || host === served) return;
    const path = ['supportedInterfaces', index, 'url'];
    const sameSite = siteOf(host) === siteOf(served);
    ctx.report(
      'interface-origin-mismatch',
      'info',
      path,
      sameSite
        ? `${where(path)}: host differs from the host that served the card, ${served} (${quote(host)}).`
        : `${where(path)}: is on a different domain than the host that served the card, ${served} (${quote(host)}).`,
      'This is allowed; clients that bind credentials to the card origin or check for impersonation will flag it. Serve the card from the same host if you can.',
    );
  });
}

// --- 39 secrets-in-card -----------------------------------------------------------------------

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
  if (value.length < 16 || /\s/.test(value) || value.includes('://')) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(value)).length;
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
  readonly re: RegExp;
  /** Extra check on the match (e.g. randomness), so prose is not flagged. */
  readonly accept?: (match: string) => boolean;
  /** A safe label to show instead of a prefix of the match. */
  readonly label?: string;
}

const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    what: 'a PEM private key',
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/,
    label: '-----BEGIN … PRIVATE KEY-----',
  },
  { what: 'a JWT', re: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/ },
  { what: 'a Stripe-style secret key', re: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/ },
  { what: 'an API secret key (sk-…)', re: /(?<![\w-])sk-[A-Za-z0-9_-]{20,}/, accept: looksRandom },
  { what: 'an AWS access key id', re: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/ },
  { what: 'a GitHub token', re: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { what: 'a Slack token', re: /(?<!\w)xox[abprs]-[A-Za-z0-9-]{10,}/ },
  { what: 'a Google API key', re: /(?<![\w-])AIza[0-9A-Za-z_-]{35}/ },
  {
    what: 'a credential assignment',
    re: /\b(?:password|passwd|pwd|api_?key|apikey|secret|client_secret|access_token|token)=(?![<{$*])[^\s&;,"']{4,}/i,
  },
  {
    what: 'a bearer token',
    re: /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/,
    accept: (m) => looksRandom(m.replace(/^Bearer\s+/, '')),
  },
  { what: 'credentials in a URL', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]+:(?![<{$*])[^\s/?#@]{3,}@/i },
];

/** A prefix short enough to identify the value without disclosing it. */
function redacted(value: string): string {
  const shown = value.slice(0, Math.min(4, Math.floor(value.length / 4)));
  return `"${shown}…", ${value.length} characters`;
}

/**
 * Something each of {@link SECRET_PATTERNS} needs: `=`, `-----BEGIN `, `eyJ`, `k_live_`/`k_test_`,
 * `sk-`, `AKIA`/`ASIA`/`AIza`, `gh?_`/`github_pat_`, `xox` or `Bearer` (and `@` with `://`, checked
 * apart). One scan instead of eleven, so ordinary prose, ids and URLs run no other expression.
 */
const SECRET_HINT = /=|-----BEGIN |eyJ|k_(?:live|test)_|sk-|A(?:KIA|SIA|Iza)|gh[pousr]_|github_pat_|xox|Bearer/;

function mayHoldSecret(text: string): boolean {
  return SECRET_HINT.test(text) || (text.includes('@') && text.includes('://'));
}

/** What a key says about its value: 1 a password, 2 a credential, 0 neither. Keys repeat a lot. */
const keyKinds = new Map<string, number>();

export function keyKind(key: string): number {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    const name = key.toLowerCase().replace(/[-_]/g, '');
    kind = PASSWORD_KEYS.has(name) ? 1 : SECRET_KEYS.has(name) ? 2 : 0;
    // Bounded: keys come from untrusted cards.
    if (keyKinds.size >= 4096) keyKinds.clear();
    keyKinds.set(key, kind);
  }
  return kind;
}

export function secretIn(key: string | undefined, value: string): { what: string; shown: string } | undefined {
  const text = value.length > MAX_SCAN_LENGTH ? value.slice(0, MAX_SCAN_LENGTH) : value;
  if (mayHoldSecret(text)) {
    for (const pattern of SECRET_PATTERNS) {
      const match = pattern.re.exec(text)?.[0];
      if (match === undefined || (pattern.accept && !pattern.accept(match))) continue;
      return { what: pattern.what, shown: pattern.label ? `"${pattern.label}"` : redacted(match) };
    }
  }
  if (key === undefined) return undefined;
  const kind = keyKind(key);
  if (kind === 0) return undefined;
  const trimmed = text.trim();
  if (kind === 1 && trimmed.length >= 4 && !/^(?:\*+|<.*>|\$\{.*\}|\{\{.*\}\})$/.test(trimmed)) {
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

/** How many values the secret scan visits in an object of strings and lists of strings. */
function flatSize(obj: JsonObject): number {
  let size = 1;
  for (const key in obj) {
    const value = obj[key];
    size += Array.isArray(value) ? 1 + value.length : 1;
  }
  return size;
}

function checkSecrets(card: JsonObject, ctx: RuleContext): void {
  // A pre-order walk with one shared path; the path is copied only when a finding is made.
  const path: (string | number)[] = [];
  const quiet = ctx.quietSkills;
  let nodes = 0;
  let found = 0;
  const visit = (value: unknown, key: string | undefined): boolean => {
    if (nodes >= MAX_NODES || found >= MAX_SECRET_FINDINGS) return false;
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
    for (const childKey of Object.keys(obj)) {
      if (inSignature && (childKey === 'protected' || childKey === 'signature')) continue;
      path.push(childKey);
      const more = visit(obj[childKey], childKey);
      path.pop();
      if (!more) return false;
    }
    return true;
  };
  visit(card, undefined);
}

// --- 40 metadata-quality, 41 no-security-declared -------------------------------------------

const GENERIC_NAMES = new Set([
  'agent',
  'assistant',
  'bot',
  'ai agent',
  'ai assistant',
  'a2a agent',
  'test',
  'test agent',
  'demo',
  'demo agent',
  'sample agent',
  'hello world',
  'hello world agent',
  'helloworld agent',
]);
const GENERIC_DESCRIPTION =
  /^(?:an?\s+)?(?:(?:helpful|simple|basic|generic|useful|smart|ai|test|demo|sample)\s+)*(?:ai\s+)?(?:agent|assistant|bot)\.?$/i;
const MIN_DESCRIPTION = 20;

function checkMetadata(card: JsonObject, ctx: RuleContext): void {
  const name = ownString(card, 'name');
  if (name !== undefined && GENERIC_NAMES.has(name.trim().toLowerCase())) {
    ctx.report(
      'metadata-quality',
      'info',
      ['name'],
      `name: is generic, so the agent is hard to tell apart in a directory (${quote(name)}).`,
      'Use a name that says what the agent does, e.g. "Acme Order Support".',
    );
  }
  const description = ownString(card, 'description');
  if (description !== undefined) {
    const generic = GENERIC_DESCRIPTION.test(description.trim());
    if (generic || description.trim().length < MIN_DESCRIPTION) {
      ctx.report(
        'metadata-quality',
        'info',
        ['description'],
        generic
          ? `description: is generic (${quote(description)}).`
          : `description: is shorter than ${MIN_DESCRIPTION} characters (${quote(description)}).`,
        'Describe what the agent does, for whom, and its main limits in a sentence or two.',
      );
    }
  }
  const skills = ownArray(card, 'skills') ?? [];
  for (let index = 0; index < skills.length; index++) {
    const skill = skills[index];
    if (!isObject(skill)) continue;
    const examples = Object.hasOwn(skill, 'examples') ? skill.examples : undefined;
    if (Array.isArray(examples) && hasText(examples)) continue;
    const path = ['skills', index, 'examples'];
    const id = ownString(skill, 'id');
    ctx.report(
      'metadata-quality',
      'info',
      path,
      `${where(path)}: the skill has no examples${id !== undefined ? ` (${quote(id)})` : ''}.`,
      'Add "examples": one or two prompts a client could send to use this skill.',
    );
  }
  if (own(card, 'provider') === undefined) {
    ctx.report(
      'metadata-quality',
      'info',
      ['provider'],
      'provider: is missing, so clients cannot tell who operates the agent.',
      'Add "provider": {"organization": "<your organisation>", "url": "https://<your site>"}.',
    );
  }
  if (own(card, 'documentationUrl') === undefined) {
    ctx.report(
      'metadata-quality',
      'info',
      ['documentationUrl'],
      'documentationUrl: is missing.',
      'Add "documentationUrl" with an https:// link to the agent\'s documentation.',
    );
  }
}

/** Whether a list holds a non-blank string. */
function hasText(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string' && item.trim() !== '') return true;
  }
  return false;
}

function hasEntries(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : isObject(value) && keysOf(value).length > 0;
}

function checkSecurityDeclared(card: JsonObject, ctx: RuleContext): void {
  if (hasEntries(own(card, 'securitySchemes')) || hasEntries(own(card, 'securityRequirements'))) return;
  // A v0.3 card may declare requirements in its legacy `security` list.
  if (hasEntries(own(card, 'security'))) return;
  ctx.report(
    'no-security-declared',
    'info',
    ['securitySchemes'],
    'securitySchemes: the card declares no security, so clients will call the agent unauthenticated.',
    'If that is intended, nothing to do; otherwise add securitySchemes and securityRequirements, e.g. {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}.',
  );
}

/** Options for {@link createPublishingCheck}. */
export interface PublishingCheckOptions {
  /**
   * The URL the card was fetched from. When set, rule 38 (`interface-origin-mismatch`) compares
   * each interface host with it. Domain checks pass it; local file checks leave it out.
   * @default undefined
   */
  readonly cardUrl?: string;
}

/**
 * Builds the publishing-readiness check (rules 33–41), optionally aware of the URL the card was
 * served from (needed by rule 38 only).
 * @example
 * const check = createPublishingCheck({ cardUrl: 'https://acme.io/.well-known/agent-card.json' });
 * check(card, ctx);
 * @see RULES.md §6.3
 */
export function createPublishingCheck(options: PublishingCheckOptions = {}): RuleCheck {
  const cardUrl = typeof options.cardUrl === 'string' ? options.cardUrl : undefined;
  return (card, ctx) => {
    if (!isObject(card)) return;
    for (const item of collectUrls(card, ctx.shape)) checkUrl(ctx, item);
    checkPlaceholderStrings(card, ctx);
    if (cardUrl !== undefined) checkOrigin(card, ctx, cardUrl);
    checkSecrets(card, ctx);
    checkMetadata(card, ctx);
    checkSecurityDeclared(card, ctx);
  };
}

/**
 * Publishing-readiness checks, rules 33–41 (rule 38 needs {@link createPublishingCheck}): https,
 * loopback, private and placeholder hosts, interface URLs that point at the card, secrets,
 * metadata quality and missing security. Severity of http and loopback URLs follows the profile:
 * info in `development`, error otherwise; OAuth/OIDC URLs over http are errors in every profile.
 * Never throws.
 * @example
 * const ctx = createRuleContext('production', 'v1.0');
 * checkPublishing(card, ctx);
 * ctx.findings; // [{ rule: 'url-https', severity: 'error', path: '/supportedInterfaces/0/url', ... }]
 * @see RULES.md §6.3
 */
export const checkPublishing: RuleCheck = createPublishingCheck();
