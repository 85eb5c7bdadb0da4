import type { AgentCard, AgentInterface, OAuthFlows, SecurityRequirement, SecurityScheme } from '../../model';

/** v0.3 `security` entry: scheme name → scopes (OpenAPI Security Requirement Object). */
export type LegacyV03SecurityRequirement = Record<string, string[]>;

/** A v1.0 security scheme with the v0.3 `type`-tagged fields alongside its wrapper key. */
export type LegacyV03SecurityScheme = SecurityScheme & {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  description?: string;
  in?: string;
  name?: string;
  scheme?: string;
  bearerFormat?: string;
  flows?: Record<string, Record<string, unknown>>;
  oauth2MetadataUrl?: string;
  openIdConnectUrl?: string;
};

/**
 * The v0.3-compatible superset card: every v1.0 field unchanged, plus the v0.3 fields that
 * SDK 0.3 clients read.
 */
export type LegacyV03AgentCard = Omit<AgentCard, 'securitySchemes' | 'skills'> & {
  url: string;
  preferredTransport: string;
  protocolVersion: string;
  additionalInterfaces?: { url: string; transport: string }[];
  supportsAuthenticatedExtendedCard?: boolean;
  security?: LegacyV03SecurityRequirement[];
  securitySchemes?: Record<string, LegacyV03SecurityScheme>;
  skills: (AgentCard['skills'][number] & { security?: LegacyV03SecurityRequirement[] })[];
};

/** The protocol version a v0.3 card announces when the card has no 0.x interface. */
export const LEGACY_PROTOCOL_VERSION = '0.3.0';

function isLegacyVersion(version: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version);
  return m !== null && Number(m[1]) === 0 && Number(m[2]) >= 3;
}

function toLegacyRequirement(req: SecurityRequirement): LegacyV03SecurityRequirement {
  const out: LegacyV03SecurityRequirement = {};
  for (const [name, scopes] of Object.entries(req.schemes ?? {})) out[name] = [...(scopes.list ?? [])];
  return out;
}

function toLegacyFlows(flows: OAuthFlows): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const strip = (flow: Record<string, unknown>, keys: string[]) => {
    const r: Record<string, unknown> = {};
    for (const k of keys) if (flow[k] !== undefined) r[k] = flow[k];
    return r;
  };
  if (flows.authorizationCode)
    out.authorizationCode = strip(flows.authorizationCode, ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'scopes']);
  if (flows.clientCredentials)
    out.clientCredentials = strip(flows.clientCredentials, ['tokenUrl', 'refreshUrl', 'scopes']);
  if (flows.implicit) out.implicit = strip(flows.implicit, ['authorizationUrl', 'refreshUrl', 'scopes']);
  if (flows.password) out.password = strip(flows.password, ['tokenUrl', 'refreshUrl', 'scopes']);
  // v0.3 has no device-code flow: it is left out of the v0.3 view (the v1.0 wrapper keeps it).
  return out;
}

function toLegacyScheme(scheme: SecurityScheme): LegacyV03SecurityScheme {
  const withDescription = <T extends { description?: string }>(
    inner: T,
    extra: Omit<LegacyV03SecurityScheme, keyof SecurityScheme>,
  ) =>
    ({
      ...scheme,
      ...extra,
      ...(inner.description ? { description: inner.description } : {}),
    }) as LegacyV03SecurityScheme;
  if (scheme.apiKeySecurityScheme) {
    const s = scheme.apiKeySecurityScheme;
    return withDescription(s, { type: 'apiKey', in: s.location, name: s.name });
  }
  if (scheme.httpAuthSecurityScheme) {
    const s = scheme.httpAuthSecurityScheme;
    return withDescription(s, {
      type: 'http',
      scheme: s.scheme,
      ...(s.bearerFormat ? { bearerFormat: s.bearerFormat } : {}),
    });
  }
  if (scheme.oauth2SecurityScheme) {
    const s = scheme.oauth2SecurityScheme;
    return withDescription(s, {
      type: 'oauth2',
      flows: toLegacyFlows(s.flows),
      ...(s.oauth2MetadataUrl ? { oauth2MetadataUrl: s.oauth2MetadataUrl } : {}),
    });
  }
  if (scheme.openIdConnectSecurityScheme) {
    const s = scheme.openIdConnectSecurityScheme;
    return withDescription(s, { type: 'openIdConnect', openIdConnectUrl: s.openIdConnectUrl });
  }
  return withDescription(scheme.mtlsSecurityScheme ?? {}, { type: 'mutualTLS' });
}

/**
 * Derives the v0.3-compatible superset of a v1.0 card, so SDK 0.3 clients can discover a v1.0
 * service. Every v1.0 field stays as it is; added alongside:
 *
 * - `url`, `preferredTransport`: the first interface with a 0.x protocol version (≥ 0.3), else
 *   the first interface (the preferred one, §8.3.1);
 * - `protocolVersion`: that interface's version, or `0.3.0` when the card has no 0.x interface;
 * - `additionalInterfaces`: `{url, transport}` for every such interface, the primary included
 *   (v0.3 §5.5: SHOULD include an entry matching `url`);
 * - `supportsAuthenticatedExtendedCard` from `capabilities.extendedAgentCard`;
 * - `security` (card and skill level) as `{scheme: [scopes]}` from `securityRequirements`;
 * - in each security scheme, the v0.3 `type` and its fields (`in`, `name`, `scheme`,
 *   `bearerFormat`, `flows`, `openIdConnectUrl`, …) next to the v1.0 wrapper key.
 *
 * @example toLegacyV03Card(card).url // card.supportedInterfaces[0].url
 * @see https://a2a-protocol.org/latest/whats-new-v1/
 */
export function toLegacyV03Card(card: AgentCard): LegacyV03AgentCard {
  const legacyInterfaces = card.supportedInterfaces.filter((i) => isLegacyVersion(i.protocolVersion));
  const interfaces: AgentInterface[] = legacyInterfaces.length > 0 ? legacyInterfaces : card.supportedInterfaces;
  const primary = interfaces[0]!;
  const out: LegacyV03AgentCard = {
    ...card,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    protocolVersion: legacyInterfaces.length > 0 ? primary.protocolVersion : LEGACY_PROTOCOL_VERSION,
    additionalInterfaces: interfaces.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    skills: card.skills.map((skill) =>
      skill.securityRequirements && skill.securityRequirements.length > 0
        ? { ...skill, security: skill.securityRequirements.map(toLegacyRequirement) }
        : { ...skill },
    ),
  } as LegacyV03AgentCard;
  if (card.capabilities.extendedAgentCard !== undefined)
    out.supportsAuthenticatedExtendedCard = card.capabilities.extendedAgentCard;
  if (card.securityRequirements && card.securityRequirements.length > 0)
    out.security = card.securityRequirements.map(toLegacyRequirement);
  if (card.securitySchemes) {
    out.securitySchemes = Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, s]) => [name, toLegacyScheme(s)]),
    );
  }
  return out;
}
