import type { AgentCard, SecurityRequirement } from '../../model';

/** Makes a value safe inside an RFC 9110 quoted-string (and inside a Node header value). */
function quoteParam(value: string): string {
  const safe = value.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`);
  return `"${safe}"`;
}

/** Whether `value` is a valid RFC 9110 `token` (an auth-scheme name). */
function isToken(value: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value);
}

function scopesFor(name: string, requirements: readonly SecurityRequirement[] | undefined): string[] {
  const scopes = new Set<string>();
  for (const req of requirements ?? []) {
    for (const scope of req.schemes?.[name]?.list ?? []) {
      if (/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) scopes.add(scope);
    }
  }
  return [...scopes];
}

/**
 * Builds the `WWW-Authenticate` value of a 401 from the card's declared security schemes
 * (spec §13.3: the extended card MUST be authenticated with a declared scheme; RFC 9110 §11.6.1:
 * a 401 MUST carry at least one challenge). One challenge per scheme, identical ones once:
 *
 * | scheme | challenge |
 * | --- | --- |
 * | `httpAuthSecurityScheme` | `<scheme> realm="…"` (e.g. `Bearer realm="…"`, `Basic realm="…"`) |
 * | `oauth2SecurityScheme` | `Bearer realm="…"`, plus `scope="…"` from the card's requirements |
 * | `openIdConnectSecurityScheme` | `Bearer realm="…"` |
 * | `apiKeySecurityScheme` | `ApiKey realm="…", in="header", name="X-API-Key"` (not registered; names where the key goes) |
 * | `mtlsSecurityScheme` | `MutualTLS realm="…"` (not registered; says a client certificate is needed) |
 *
 * @see https://a2a-protocol.org/latest/specification/#133-extended-agent-card-access-control
 */
export function buildWwwAuthenticate(
  card: Pick<AgentCard, 'securitySchemes' | 'securityRequirements'>,
  realm: string,
): string {
  const r = quoteParam(realm);
  const challenges: string[] = [];
  const add = (c: string) => {
    if (!challenges.includes(c)) challenges.push(c);
  };
  for (const [name, scheme] of Object.entries(card.securitySchemes ?? {})) {
    if (scheme.httpAuthSecurityScheme) {
      const s = scheme.httpAuthSecurityScheme.scheme;
      const authScheme = isToken(s)
        ? s.toLowerCase() === 'bearer'
          ? 'Bearer'
          : s.toLowerCase() === 'basic'
            ? 'Basic'
            : s
        : 'Bearer';
      add(`${authScheme} realm=${r}`);
    } else if (scheme.oauth2SecurityScheme) {
      const scopes = scopesFor(name, card.securityRequirements);
      add(scopes.length > 0 ? `Bearer realm=${r}, scope=${quoteParam(scopes.join(' '))}` : `Bearer realm=${r}`);
    } else if (scheme.openIdConnectSecurityScheme) {
      add(`Bearer realm=${r}`);
    } else if (scheme.apiKeySecurityScheme) {
      const k = scheme.apiKeySecurityScheme;
      add(`ApiKey realm=${r}, in=${quoteParam(k.location)}, name=${quoteParam(k.name)}`);
    } else if (scheme.mtlsSecurityScheme) {
      add(`MutualTLS realm=${r}`);
    }
  }
  if (challenges.length === 0) add(`Bearer realm=${r}`);
  return challenges.join(', ');
}

/** Request headers that carry credentials for the declared schemes (for `Vary` and CORS). */
export function credentialHeaders(card: Pick<AgentCard, 'securitySchemes'>): string[] {
  const names = ['Authorization'];
  for (const scheme of Object.values(card.securitySchemes ?? {})) {
    const k = scheme.apiKeySecurityScheme;
    if (
      k &&
      k.location === 'header' &&
      isToken(k.name) &&
      !names.some((n) => n.toLowerCase() === k.name.toLowerCase())
    ) {
      names.push(k.name);
    }
    if (k && k.location === 'cookie' && !names.includes('Cookie')) names.push('Cookie');
  }
  return names;
}
