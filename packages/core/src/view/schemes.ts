import { html, type SafeHtml, safeHref } from './escape';
import { asRecord, entries, flag, list, member, strings, text } from './read';

/** One piece of a sentence: text, or a URL shown as a link when it is a safe one. */
export type DescriptionPart = string | { readonly url: string };

/** A security scheme in plain words. */
export interface SecuritySchemeDescription {
  /** What kind of scheme it is, e.g. `OAuth 2.0` or `API key`. */
  readonly kind: string;
  /** The sentence that says what a caller sends, with its URLs. */
  readonly parts: readonly DescriptionPart[];
  /** The card's own description of the scheme, if any. */
  readonly description?: string;
}

/** The sentence of a description as plain text (URLs as written). */
export function descriptionText(description: Pick<SecuritySchemeDescription, 'parts'>): string {
  return description.parts.map((part) => (typeof part === 'string' ? part : part.url)).join('');
}

const API_KEY_PLACES: Record<string, string> = { header: 'header', query: 'query parameter', cookie: 'cookie' };

function scopeList(flow: unknown): DescriptionPart[] {
  const scopes = entries(flow, 'scopes');
  if (scopes.length === 0) return ['; no scopes listed'];
  const named = scopes.map(([name, about]) =>
    typeof about === 'string' && about !== '' ? `${name} (${about})` : name,
  );
  return [`; scopes: ${named.join(', ')}`];
}

function url(value: unknown, key: string, fallback = '(no URL given)'): DescriptionPart {
  const found = text(value, key);
  return found === undefined ? fallback : { url: found };
}

function refresh(flow: unknown): DescriptionPart[] {
  const found = text(flow, 'refreshUrl');
  return found === undefined ? [] : ['; refresh at ', { url: found }];
}

function describeOAuthFlows(scheme: unknown): DescriptionPart[] {
  const flows = asRecord(member(scheme, 'flows'));
  const names = flows === undefined ? [] : Object.keys(flows);
  if (names.length === 0) return ['OAuth 2.0 with no flow declared'];
  const out: DescriptionPart[] = [];
  names.slice(0, 5).forEach((name, index) => {
    const flow = flows?.[name];
    if (index > 0) out.push('. Also: ');
    switch (name) {
      case 'clientCredentials':
        out.push('OAuth 2.0 client credentials at ', url(flow, 'tokenUrl'), ...refresh(flow), ...scopeList(flow));
        break;
      case 'authorizationCode':
        out.push(
          flag(flow, 'pkceRequired') ? 'OAuth 2.0 authorization code with PKCE, ' : 'OAuth 2.0 authorization code, ',
          'authorize at ',
          url(flow, 'authorizationUrl'),
          ', token at ',
          url(flow, 'tokenUrl'),
          ...refresh(flow),
          ...scopeList(flow),
        );
        break;
      case 'deviceCode':
        out.push(
          'OAuth 2.0 device code, device authorization at ',
          url(flow, 'deviceAuthorizationUrl'),
          ', token at ',
          url(flow, 'tokenUrl'),
          ...refresh(flow),
          ...scopeList(flow),
        );
        break;
      case 'implicit':
        out.push('OAuth 2.0 implicit (deprecated), authorize at ', url(flow, 'authorizationUrl'), ...scopeList(flow));
        break;
      case 'password':
        out.push(
          'OAuth 2.0 resource owner password (deprecated), token at ',
          url(flow, 'tokenUrl'),
          ...scopeList(flow),
        );
        break;
      default:
        out.push(`OAuth 2.0 flow "${name}", which A2A does not define`);
    }
  });
  const metadata = text(scheme, 'oauth2MetadataUrl');
  if (metadata !== undefined) out.push('. Authorization server metadata: ', { url: metadata });
  return out;
}

function describeHttp(scheme: unknown): DescriptionPart[] {
  const name = text(scheme, 'scheme');
  const format = text(scheme, 'bearerFormat');
  if (name === undefined) return ['HTTP authentication with no scheme named'];
  const lower = name.toLowerCase();
  if (lower === 'bearer') return [`HTTP bearer token${format ? ` (${format})` : ''} in the Authorization header`];
  if (lower === 'basic') return ['HTTP Basic authentication (user name and password) in the Authorization header'];
  return [`HTTP ${name} authentication in the Authorization header${format ? ` (${format})` : ''}`];
}

function describeApiKey(scheme: unknown): DescriptionPart[] {
  const location = text(scheme, 'location');
  const name = text(scheme, 'name') ?? '(no name given)';
  const place = location === undefined ? undefined : API_KEY_PLACES[location];
  return place === undefined
    ? [`API key named ${name}, in an unknown place (${location ?? 'none given'})`]
    : [`API key in ${place} ${name}`];
}

/**
 * What a security scheme asks of a caller, in plain words: "OAuth 2.0 client credentials at
 * https://auth.example.com/token; scopes: agent:invoke", "API key in header X-API-Key", "HTTP
 * bearer token (JWT) in the Authorization header", "Mutual TLS: …", "OpenID Connect, discovery
 * at …". A malformed scheme is described as far as it goes; nothing throws.
 */
export function describeSecurityScheme(scheme: unknown): SecuritySchemeDescription {
  const wrappers = asRecord(scheme) === undefined ? [] : Object.keys(scheme as object);
  const kind = wrappers[0];
  const inner = kind === undefined ? undefined : member(scheme, kind);
  const description = text(inner, 'description');
  const extra =
    wrappers.length > 1 ? [`. The card also sets ${wrappers.slice(1).join(', ')}, which is not allowed`] : [];
  const build = (label: string, parts: DescriptionPart[]): SecuritySchemeDescription =>
    description === undefined
      ? { kind: label, parts: [...parts, ...extra] }
      : { kind: label, parts: [...parts, ...extra], description };
  switch (kind) {
    case 'apiKeySecurityScheme':
      return build('API key', describeApiKey(inner));
    case 'httpAuthSecurityScheme':
      return build('HTTP authentication', describeHttp(inner));
    case 'oauth2SecurityScheme':
      return build('OAuth 2.0', describeOAuthFlows(inner));
    case 'openIdConnectSecurityScheme':
      return build('OpenID Connect', ['OpenID Connect, discovery at ', url(inner, 'openIdConnectUrl')]);
    case 'mtlsSecurityScheme':
      return build('Mutual TLS', ['Mutual TLS: the caller presents a client certificate']);
    case undefined:
      return { kind: 'Unknown', parts: ['An empty scheme: it names no way to authenticate'] };
    default:
      return build('Unknown', [`A scheme of type "${kind}", which A2A does not define`]);
  }
}

/** Renders a description's sentence: safe URLs become links, anything else stays text. */
export function renderDescriptionParts(parts: readonly DescriptionPart[]): SafeHtml {
  return html`${parts.map((part) => (typeof part === 'string' ? part : renderUrl(part.url)))}`;
}

/**
 * A URL from a card: a link when {@link safeHref} allows it, otherwise the text as written in
 * `<code>` (so a reader sees what the card says without being able to follow it).
 */
export function renderUrl(value: string, label?: string): SafeHtml {
  const href = safeHref(value);
  if (href === undefined) return html`<code class="nolink">${value}</code>`;
  return html`<a href="${href}" rel="noopener noreferrer nofollow">${label ?? href}</a>`;
}

const OAUTH_FLOWS: Record<string, string> = {
  clientCredentials: 'client credentials',
  authorizationCode: 'authorization code',
  deviceCode: 'device code',
  implicit: 'implicit',
  password: 'password',
};

/** `a`, `a and b`, `a, b and c`. */
function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function withScopes(scopes: readonly string[]): string {
  return scopes.length === 0 ? '' : ` with scope${scopes.length === 1 ? '' : 's'} ${andList(scopes)}`;
}

/**
 * What a caller sends for one scheme of a requirement, as a noun phrase: "a bearer token (JWT)",
 * "an OAuth 2.0 access token (client credentials) with scope bookings:read", "an API key in the
 * header X-API-Key", "a client certificate (mutual TLS)". `scheme` is `undefined` when the card
 * names a scheme it does not declare.
 */
export function describeCredential(name: string, scheme: unknown, scopes: readonly string[] = []): string {
  if (asRecord(scheme) === undefined) return `credentials for "${name}", a scheme the card does not declare`;
  const kind = Object.keys(scheme as object)[0];
  const inner = kind === undefined ? undefined : member(scheme, kind);
  switch (kind) {
    case 'apiKeySecurityScheme': {
      const location = text(inner, 'location');
      const place = location === undefined ? undefined : API_KEY_PLACES[location];
      const key = text(inner, 'name');
      return place === undefined || key === undefined ? 'an API key' : `an API key in the ${place} ${key}`;
    }
    case 'httpAuthSecurityScheme': {
      const scheme = text(inner, 'scheme')?.toLowerCase();
      const format = text(inner, 'bearerFormat');
      if (scheme === 'bearer') return `a bearer token${format ? ` (${format})` : ''}`;
      if (scheme === 'basic') return 'a user name and password (HTTP Basic)';
      return scheme === undefined ? 'HTTP credentials' : `HTTP ${text(inner, 'scheme')} credentials`;
    }
    case 'oauth2SecurityScheme': {
      const flows = Object.keys(asRecord(member(inner, 'flows')) ?? {});
      const flow = flows.length === 1 ? OAUTH_FLOWS[flows[0] as string] : undefined;
      return `an OAuth 2.0 access token${flow ? ` (${flow})` : ''}${withScopes(scopes)}`;
    }
    case 'openIdConnectSecurityScheme':
      return `an OpenID Connect token${withScopes(scopes)}`;
    case 'mtlsSecurityScheme':
      return 'a client certificate (mutual TLS)';
    default:
      return `credentials for "${name}", a scheme A2A does not define`;
  }
}

/** How to authenticate, in words: one sentence, and the alternatives when there are several. */
export interface AuthenticationDescription {
  /**
   * "No authentication required", "Every call needs a bearer token (JWT)", or "Calls need one
   * of:" followed by {@link alternatives}.
   */
  readonly sentence: string;
  /** Each way to authenticate when there are several (an empty requirement is "no credentials"). */
  readonly alternatives: readonly string[];
}

/** One requirement (an AND of schemes) as a phrase, or `undefined` when it names none. */
function requirementPhrase(requirement: unknown, card: unknown): string | undefined {
  const schemes = entries(requirement, 'schemes');
  if (schemes.length === 0) return undefined;
  const declared = asRecord(member(card, 'securitySchemes'));
  return andList(
    schemes.map(([name, scopes]) =>
      describeCredential(
        name,
        declared && Object.hasOwn(declared, name) ? declared[name] : undefined,
        strings(scopes, 'list'),
      ),
    ),
  );
}

/**
 * What a call needs, for a person deciding whether they can call the agent: the card's (or a
 * skill's) `securityRequirements`, an OR of ANDs, with each scheme said as what the caller sends
 * (see {@link describeCredential}).
 *
 * @example describeAuthentication(card) // { sentence: 'Every call needs a bearer token (JWT).', alternatives: [] }
 */
export function describeAuthentication(
  card: unknown,
  requirements: readonly unknown[] = list(card, 'securityRequirements'),
): AuthenticationDescription {
  const phrases = requirements.map((requirement) => requirementPhrase(requirement, card));
  if (phrases.length === 0 || phrases.every((phrase) => phrase === undefined)) {
    const declared = entries(card, 'securitySchemes').length;
    return {
      sentence:
        declared === 0
          ? 'No authentication required.'
          : `No authentication required: the card describes ${declared === 1 ? 'one scheme' : `${declared} schemes`} but requires none.`,
      alternatives: [],
    };
  }
  if (phrases.length === 1) return { sentence: `Every call needs ${phrases[0]}.`, alternatives: [] };
  const unique = [...new Set(phrases.map((phrase) => phrase ?? 'no credentials (anonymous calls are allowed)'))];
  if (unique.length === 1) return { sentence: `Every call needs ${unique[0]}.`, alternatives: [] };
  return { sentence: 'Calls need one of:', alternatives: unique };
}

/** An {@link AuthenticationDescription} as a paragraph, and a list of the alternatives. */
export function renderAuthentication(description: AuthenticationDescription): SafeHtml {
  return description.alternatives.length === 0
    ? html`<p>${description.sentence}</p>`
    : html`<p>${description.sentence}</p><ul class="plain">${description.alternatives.map((item) => html`<li>${item}</li>`)}</ul>`;
}
