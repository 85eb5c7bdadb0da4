/**
 * Publishing-readiness rules (packages/core/RULES.md §6.3, rules 33–41; 35 is `internal-hosts.ts`): is this card fit to be served on the
 * public internet? URLs that clients cannot reach or cannot trust, placeholders left from a
 * template, secrets, thin metadata, and no declared security.
 * @see packages/core/RULES.md §6.3
 */
import type { CardShape, JsonObject, RuleCheck, RuleContext } from '../context';
import type { Severity } from '../../findings';
import { classifyHost, parseAbsoluteUrl, parseHostPort, redactUrl } from '../urls';
import { decodeJwsHeader } from './jws-header';
import { bindingInfo } from './semantics';
import { isObject } from '../context';
import {
  ANGLE_PLACEHOLDER,
  BARE_HOST,
  BASE64URL,
  CARD_DOCUMENT_PATH,
  CHANGE_ME,
  DOTTED_NUMBERS,
  EXAMPLE_NAME,
  GENERIC_DESCRIPTION,
  HTTP_PREFIX,
  LOREM_IPSUM,
  PLACEHOLDER_HINT,
  SCHEME_PREFIX,
  TEMPLATE_VARIABLE,
  TODO_MARKER,
  trimTrailing,
  WS_PREFIX,
  YOUR_PLACEHOLDER,
} from '../patterns';
import { keysOf, own, ownArray, ownObject, ownString, quote, where, type Segments } from './read-json';
import { checkSecrets } from './secrets';

/**
 * Where a URL came from. OAuth/OIDC endpoints are held to TLS in every profile; `link`s for people
 * to read (`provider.url`, `documentationUrl`) only warn over http: the spec requires https for the
 * A2A endpoints (§7.1, §13.4), not for them.
 */
type UrlKind = 'interface' | 'oauth' | 'link' | 'other';

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
  if (value.length > MAX_PROTECTED_LENGTH || !BASE64URL.test(value)) return undefined;
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
  pushUrl(out, ['provider', 'url'], own(ownObject(card, 'provider'), 'url'), 'link');
  pushUrl(out, ['documentationUrl'], own(card, 'documentationUrl'), 'link');
  pushUrl(out, ['iconUrl'], own(card, 'iconUrl'), 'other');

  const schemes = ownObject(card, 'securitySchemes');
  for (const name of schemes ? keysOf(schemes) : []) {
    const scheme = schemes?.[name];
    if (!isObject(scheme)) continue;
    // A v0.3-shaped scheme (`type` discriminator) keeps its fields at the top; rule 32 reports it.
    const oauth = ownObject(scheme, 'oauth2SecurityScheme');
    const oidc = ownObject(scheme, 'openIdConnectSecurityScheme');
    // A scheme with no URL at all (most of them) costs no paths.
    if (
      own(oauth ?? scheme, 'oauth2MetadataUrl') === undefined &&
      own(oauth ?? scheme, 'flows') === undefined &&
      own(oidc ?? scheme, 'openIdConnectUrl') === undefined
    ) {
      continue;
    }
    const oauthBase: Segments = oauth ? ['securitySchemes', name, 'oauth2SecurityScheme'] : ['securitySchemes', name];
    const oauthObj = oauth ?? scheme;
    pushUrl(out, [...oauthBase, 'oauth2MetadataUrl'], own(oauthObj, 'oauth2MetadataUrl'), 'oauth');
    const flows = ownObject(oauthObj, 'flows');
    for (const flow of flows ? keysOf(flows) : []) {
      for (const key of OAUTH_FLOW_URL_KEYS) {
        pushUrl(out, [...oauthBase, 'flows', flow, key], own(flows?.[flow], key), 'oauth');
      }
    }
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
    if (field === 'organization' && EXAMPLE_NAME.test(trimmed)) return 'a template organization name';
  }
  if (!PLACEHOLDER_HINT.test(text)) return undefined;
  if (TODO_MARKER.test(text)) return 'a TODO marker';
  if (CHANGE_ME.test(text)) return 'a "changeme" placeholder';
  if (YOUR_PLACEHOLDER.test(text)) return 'a "your-…" placeholder';
  if (LOREM_IPSUM.test(text)) return 'lorem ipsum filler';
  if (TEMPLATE_VARIABLE.test(text)) return 'an unrendered template variable';
  const angle = ANGLE_PLACEHOLDER.exec(text);
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
  return value.replace(HTTP_PREFIX, 'https://').replace(WS_PREFIX, 'wss://');
}

function checkUrl(ctx: RuleContext, item: CardUrl): void {
  const { path, label, value, kind } = item;
  const dev = ctx.profile === 'development';
  // Redacted for a message only: most URLs make none.
  const shown = (): string => quote(redactUrl(value));

  const placeholder = placeholderReason(value);
  if (placeholder) {
    ctx.report(
      'url-placeholder',
      'warning',
      path,
      `${label}: looks like ${placeholder} (${shown()}).`,
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
      `${label}: is a gRPC host:port, so the card does not say whether TLS is used (${shown()}).`,
      'Make sure the gRPC server uses TLS on this port; clients will connect with TLS credentials.',
    );
  } else {
    const parsed = SCHEME_PREFIX.test(value) ? parseAbsoluteUrl(value) : undefined;
    if (!parsed || parsed.hostname === '') {
      // Interface URL syntax is rule 27's job; other URLs have no other rule that catches this.
      if (kind !== 'interface' && !placeholder) {
        const guess = BARE_HOST.test(value) ? `Use https://${value}.` : 'Use an absolute https:// URL.';
        ctx.report('url-https', 'error', path, `${label}: is not an absolute https:// URL (${shown()}).`, guess);
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
      const link = kind === 'link' && insecure;
      const severity: Severity = always ? 'error' : dev ? 'info' : link ? 'warning' : 'error';
      const why = always
        ? ' OAuth and OpenID Connect endpoints require TLS in every environment (RFC 6749 §3.1).'
        : link
          ? ' The spec requires https only for the A2A endpoints (§7.1, §13.4), but readers of an http page can be served a forged one.'
          : '';
      ctx.report(
        'url-https',
        severity,
        path,
        `${label}: uses ${scheme}:// (${shown()}).`,
        insecure ? `Use ${redactUrl(secureVariant(value))}.${why}` : `Use an https:// URL.${why}`,
      );
    }
    if (kind === 'interface' && CARD_DOCUMENT_PATH.test(trimTrailing(parsed.pathname, '/'))) {
      ctx.report(
        'interface-url-is-card-url',
        'error',
        path,
        `${label}: points at the Agent Card, not at the A2A endpoint (${shown()}).`,
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
  if (host.includes(':') || DOTTED_NUMBERS.test(host)) return host;
  const labels = (host.endsWith('.') ? host.slice(0, -1) : host).split('.');
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
    if (ctx.overflows('metadata-quality', 'info')) continue;
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
 * @see packages/core/RULES.md §6.3
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
 * info in `development`, error otherwise, except `provider.url` and `documentationUrl` over http,
 * which warn; OAuth/OIDC URLs over http are errors in every profile. Never throws.
 * @example
 * const ctx = createRuleContext('production', 'v1.0');
 * checkPublishing(card, ctx);
 * ctx.findings; // [{ rule: 'url-https', severity: 'error', path: '/supportedInterfaces/0/url', ... }]
 * @see packages/core/RULES.md §6.3
 */
export const checkPublishing: RuleCheck = createPublishingCheck();
