import { html, type SafeHtml, safeHref } from './escape';
import { asRecord, entries, flag, member, strings, text } from './read';

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

/**
 * A list of security requirements (an OR of ANDs) in words: "oauth (scopes: a, b) and apiKey, or
 * mtls".
 */
export function describeRequirements(requirements: readonly unknown[]): string[] {
  return requirements.map((requirement) => {
    const schemes = entries(requirement, 'schemes');
    if (schemes.length === 0) return 'no authentication';
    return schemes
      .map(([name, scopes]) => {
        const listed = strings(scopes, 'list');
        return listed.length > 0 ? `${name} (${listed.join(', ')})` : name;
      })
      .join(' and ');
  });
}
