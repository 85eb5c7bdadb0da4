/**
 * The A2A v1.0 Agent Card model, as zod 4 schemas.
 *
 * Every message and field of `AgentCard` in `specification/a2a.proto` (a2aproject/A2A v1.0.1) is
 * modelled here in its ProtoJSON (camelCase) form. The schemas are structural and strict: they
 * accept exactly the documents that the derived JSON Schema oracle accepts (REQUIRED strings
 * non-empty, REQUIRED arrays non-empty, one member per `oneof`, no unknown keys). Everything
 * beyond structure (non-blank strings, URL rules, cross-field checks) is a finding of
 * {@link validateAgentCard}.
 *
 * @see https://a2a-protocol.org/latest/specification/#5-protocol-data-model
 * @packageDocumentation
 */
import { z } from 'zod';

/** A REQUIRED proto string: present and set (§5.7). */
const requiredString = () => z.string().min(1);
/** A REQUIRED proto repeated field: at least one element (§5.7). */
const requiredArray = <T extends z.ZodType>(item: T) => z.array(item).min(1);
/** `google.protobuf.Struct`: any JSON object. */
const StructSchema = z.record(z.string(), z.unknown());

/**
 * A proto `map<string, V>`. zod's record never reads a `__proto__` key (so that it cannot replace
 * the output's prototype), but `JSON.parse` keeps it as an ordinary key and JSON Schema checks its
 * value like any other. The record's parser is wrapped so that value is checked too; like zod, it
 * stays out of the parsed output. Without this, `{"securitySchemes": {"__proto__": {}}}` would pass.
 */
function mapOf<T extends z.ZodType>(value: T) {
  const schema = z.record(z.string(), value);
  const parse = schema._zod.parse;
  const wrapped: typeof parse = (payload, ctx) => {
    const input: unknown = payload.value;
    const own =
      input !== null && typeof input === 'object' && !Array.isArray(input)
        ? Object.getOwnPropertyDescriptor(input, '__proto__')
        : undefined;
    const result = parse(payload, ctx);
    if (own === undefined || result instanceof Promise) return result;
    const checked = value._zod.run({ value: own.value, issues: [] }, ctx);
    if (checked instanceof Promise) return result;
    for (const issue of checked.issues) result.issues.push({ ...issue, path: ['__proto__', ...(issue.path ?? [])] });
    return result;
  };
  // A schema without checks runs its parser directly (`run` is a copy of `parse`): replace both.
  if (schema._zod.run === parse) schema._zod.run = wrapped;
  schema._zod.parse = wrapped;
  return schema;
}

/**
 * The three protocol bindings the spec defines. Custom bindings SHOULD be identified by an
 * absolute URI (§5.8).
 */
export const STANDARD_PROTOCOL_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON'] as const;

/**
 * A binding the spec defines (`JSONRPC`, `GRPC`, `HTTP+JSON`, spelt exactly), or a custom binding,
 * which is an absolute URI (§5.8): a string with a scheme and a colon. A misspelt binding
 * (`'JSON-RPC'`, `'jsonrpc'`) does not compile; the validator reports one read from JSON
 * (`interface-binding-known`).
 * @example 'JSONRPC'
 * @example 'https://acme.io/bindings/mqtt'
 * @see https://a2a-protocol.org/latest/specification/#58-custom-protocol-bindings
 */
export type ProtocolBinding = (typeof STANDARD_PROTOCOL_BINDINGS)[number] | `${string}:${string}`;

/**
 * One way to reach the agent: a URL, the protocol binding spoken there and the A2A protocol
 * version it implements.
 *
 * @see proto `AgentInterface`
 */
export const AgentInterfaceSchema = z
  .strictObject({
    /**
     * Where this interface is served. An absolute `https://` URL for HTTP bindings; gRPC may
     * use `host:port`.
     * @example "https://api.example.com/a2a/v1"
     */
    url: requiredString(),
    /**
     * `JSONRPC`, `GRPC`, `HTTP+JSON`, or an absolute URI naming a custom binding.
     * @example "JSONRPC"
     */
    protocolBinding: requiredString() as z.ZodType<ProtocolBinding, string>,
    /**
     * Tenant to send in requests to this interface, for multi-tenant agents.
     */
    tenant: z.string().optional(),
    /**
     * The A2A protocol version this interface implements, `Major.Minor`.
     * @example "1.0"
     */
    protocolVersion: requiredString(),
  })
  .describe('Declares a combination of a target URL, transport and protocol version.');
export type AgentInterface = z.infer<typeof AgentInterfaceSchema>;

/**
 * The organisation that runs the agent.
 *
 * @see proto `AgentProvider`
 */
export const AgentProviderSchema = z
  .strictObject({
    /** A URL for the provider's website or documentation. */
    url: requiredString(),
    /** The provider's organisation name. */
    organization: requiredString(),
  })
  .describe('Represents the service provider of an agent.');
export type AgentProvider = z.infer<typeof AgentProviderSchema>;

/**
 * A protocol extension the agent supports.
 *
 * @see proto `AgentExtension`, spec §4.6
 */
export const AgentExtensionSchema = z
  .strictObject({
    /** The unique URI identifying the extension. */
    uri: z.string().optional(),
    /** How the agent uses the extension. */
    description: z.string().optional(),
    /** If true, clients must understand and comply with the extension to talk to the agent. */
    required: z.boolean().optional(),
    /** Extension-specific configuration. */
    params: StructSchema.optional(),
  })
  .describe('A declaration of a protocol extension supported by an Agent.');
export type AgentExtension = z.infer<typeof AgentExtensionSchema>;

/**
 * Optional protocol features the agent supports.
 *
 * @see proto `AgentCapabilities`
 */
export const AgentCapabilitiesSchema = z
  .strictObject({
    /** Whether the agent streams responses (`SendStreamingMessage`, `SubscribeToTask`). */
    streaming: z.boolean().optional(),
    /** Whether the agent can send push notifications to a client webhook. */
    pushNotifications: z.boolean().optional(),
    /** Protocol extensions the agent supports. */
    extensions: z.array(AgentExtensionSchema).optional(),
    /** Whether an authenticated client can fetch an extended card (`GetExtendedAgentCard`). */
    extendedAgentCard: z.boolean().optional(),
  })
  .describe('Defines optional capabilities supported by an agent.');
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;

/** OAuth scopes: scope name to a short description. */
const ScopesSchema = mapOf(z.string());

/** @see proto `AuthorizationCodeOAuthFlow` */
export const AuthorizationCodeOAuthFlowSchema = z.strictObject({
  /** The authorization endpoint. */
  authorizationUrl: requiredString(),
  /** The token endpoint. */
  tokenUrl: requiredString(),
  /** The endpoint for refresh tokens. */
  refreshUrl: z.string().optional(),
  /** Available scopes: name to description. May be empty. */
  scopes: ScopesSchema,
  /** Whether PKCE (RFC 7636) is required for this flow. */
  pkceRequired: z.boolean().optional(),
});
export type AuthorizationCodeOAuthFlow = z.infer<typeof AuthorizationCodeOAuthFlowSchema>;

/** @see proto `ClientCredentialsOAuthFlow` */
export const ClientCredentialsOAuthFlowSchema = z.strictObject({
  /** The token endpoint. */
  tokenUrl: requiredString(),
  /** The endpoint for refresh tokens. */
  refreshUrl: z.string().optional(),
  /** Available scopes: name to description. May be empty. */
  scopes: ScopesSchema,
});
export type ClientCredentialsOAuthFlow = z.infer<typeof ClientCredentialsOAuthFlowSchema>;

/** @see proto `DeviceCodeOAuthFlow` (RFC 8628) */
export const DeviceCodeOAuthFlowSchema = z.strictObject({
  /** The device authorization endpoint. */
  deviceAuthorizationUrl: requiredString(),
  /** The token endpoint. */
  tokenUrl: requiredString(),
  /** The endpoint for refresh tokens. */
  refreshUrl: z.string().optional(),
  /** Available scopes: name to description. May be empty. */
  scopes: ScopesSchema,
});
export type DeviceCodeOAuthFlow = z.infer<typeof DeviceCodeOAuthFlowSchema>;

/**
 * Deprecated in the proto: use `authorizationCode` with PKCE instead.
 * @see proto `ImplicitOAuthFlow`
 */
export const ImplicitOAuthFlowSchema = z.strictObject({
  authorizationUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: ScopesSchema.optional(),
});
export type ImplicitOAuthFlow = z.infer<typeof ImplicitOAuthFlowSchema>;

/**
 * Deprecated in the proto: use `authorizationCode` or `deviceCode` instead.
 * @see proto `PasswordOAuthFlow`
 */
export const PasswordOAuthFlowSchema = z.strictObject({
  tokenUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: ScopesSchema.optional(),
});
export type PasswordOAuthFlow = z.infer<typeof PasswordOAuthFlowSchema>;

/**
 * Exactly one member per object: the JSON form of a proto message made of one `oneof`.
 * zod has no min/max-properties, so the count is a refinement; `z.toJSONSchema` is told the
 * same through `meta` overrides in `json-schema.ts`.
 */
function exactlyOne<T extends z.ZodObject>(schema: T, what: string) {
  return schema.refine((value) => Object.keys(value).length === 1, {
    message: `Exactly one ${what} must be set.`,
  });
}

/**
 * The OAuth 2.0 flow a scheme uses: exactly one of the members.
 * @see proto `OAuthFlows`
 */
export const OAuthFlowsSchema = exactlyOne(
  z.strictObject({
    authorizationCode: AuthorizationCodeOAuthFlowSchema.optional(),
    clientCredentials: ClientCredentialsOAuthFlowSchema.optional(),
    implicit: ImplicitOAuthFlowSchema.optional(),
    password: PasswordOAuthFlowSchema.optional(),
    deviceCode: DeviceCodeOAuthFlowSchema.optional(),
  }),
  'OAuth flow',
);
export type OAuthFlows = z.infer<typeof OAuthFlowsSchema>;

/** @see proto `APIKeySecurityScheme` */
export const APIKeySecuritySchemeSchema = z.strictObject({
  /** A description of the scheme. */
  description: z.string().optional(),
  /** Where the key goes: `query`, `header` or `cookie`. */
  location: z.enum(['query', 'header', 'cookie']),
  /** The name of the header, query parameter or cookie. */
  name: requiredString(),
});
export type APIKeySecurityScheme = z.infer<typeof APIKeySecuritySchemeSchema>;

/** @see proto `HTTPAuthSecurityScheme` */
export const HTTPAuthSecuritySchemeSchema = z.strictObject({
  /** A description of the scheme. */
  description: z.string().optional(),
  /** The HTTP Authorization scheme (RFC 7235), e.g. `Bearer` or `Basic`. */
  scheme: requiredString(),
  /** A hint about the bearer token format, e.g. `JWT`. */
  bearerFormat: z.string().optional(),
});
export type HTTPAuthSecurityScheme = z.infer<typeof HTTPAuthSecuritySchemeSchema>;

/** @see proto `OAuth2SecurityScheme` */
export const OAuth2SecuritySchemeSchema = z.strictObject({
  /** A description of the scheme. */
  description: z.string().optional(),
  /** The flow this scheme supports. */
  flows: OAuthFlowsSchema,
  /** RFC 8414 authorization server metadata URL. TLS is required. */
  oauth2MetadataUrl: z.string().optional(),
});
export type OAuth2SecurityScheme = z.infer<typeof OAuth2SecuritySchemeSchema>;

/** @see proto `OpenIdConnectSecurityScheme` */
export const OpenIdConnectSecuritySchemeSchema = z.strictObject({
  /** A description of the scheme. */
  description: z.string().optional(),
  /** The OpenID Connect discovery URL. */
  openIdConnectUrl: requiredString(),
});
export type OpenIdConnectSecurityScheme = z.infer<typeof OpenIdConnectSecuritySchemeSchema>;

/** @see proto `MutualTlsSecurityScheme` */
export const MutualTlsSecuritySchemeSchema = z.strictObject({
  /** A description of the scheme. */
  description: z.string().optional(),
});
export type MutualTlsSecurityScheme = z.infer<typeof MutualTlsSecuritySchemeSchema>;

/** The five wrapper keys of `SecurityScheme`, in proto order. */
export const SECURITY_SCHEME_KINDS = [
  'apiKeySecurityScheme',
  'httpAuthSecurityScheme',
  'oauth2SecurityScheme',
  'openIdConnectSecurityScheme',
  'mtlsSecurityScheme',
] as const;
export type SecuritySchemeKind = (typeof SECURITY_SCHEME_KINDS)[number];

/**
 * A named way to authenticate: exactly one of the five wrappers.
 * @see proto `SecurityScheme`
 * @example { "httpAuthSecurityScheme": { "scheme": "Bearer", "bearerFormat": "JWT" } }
 */
export const SecuritySchemeSchema = exactlyOne(
  z.strictObject({
    apiKeySecurityScheme: APIKeySecuritySchemeSchema.optional(),
    httpAuthSecurityScheme: HTTPAuthSecuritySchemeSchema.optional(),
    oauth2SecurityScheme: OAuth2SecuritySchemeSchema.optional(),
    openIdConnectSecurityScheme: OpenIdConnectSecuritySchemeSchema.optional(),
    mtlsSecurityScheme: MutualTlsSecuritySchemeSchema.optional(),
  }),
  'security scheme',
);
export type SecurityScheme = z.infer<typeof SecuritySchemeSchema>;

/** @see proto `StringList` */
export const StringListSchema = z.strictObject({
  /** The scopes (OAuth) or roles the requirement needs. */
  list: z.array(z.string()).optional(),
});
export type StringList = z.infer<typeof StringListSchema>;

/**
 * One alternative way to satisfy security: every named scheme must be satisfied, with the listed
 * scopes. A list of requirements is an OR of ANDs, as in OpenAPI.
 * @see proto `SecurityRequirement`
 * @example { "schemes": { "oauth": { "list": ["agent:invoke"] } } }
 */
export const SecurityRequirementSchema = z.strictObject({
  /** Scheme name (a key of `securitySchemes`) to required scopes. */
  schemes: mapOf(StringListSchema).optional(),
});
export type SecurityRequirement = z.infer<typeof SecurityRequirementSchema>;

/**
 * A focused ability of the agent.
 * @see proto `AgentSkill`
 */
export const AgentSkillSchema = z.strictObject({
  /** A unique identifier for the skill within the card. */
  id: requiredString(),
  /** A human-readable name. */
  name: requiredString(),
  /** What the skill does. */
  description: requiredString(),
  /** Keywords describing the skill; at least one. */
  tags: requiredArray(z.string()),
  /** Example prompts or scenarios. */
  examples: z.array(z.string()).optional(),
  /** Input media types, overriding the card's `defaultInputModes`. */
  inputModes: z.array(z.string()).optional(),
  /** Output media types, overriding the card's `defaultOutputModes`. */
  outputModes: z.array(z.string()).optional(),
  /** Security needed for this skill, overriding the card-level requirements. */
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});
export type AgentSkill = z.infer<typeof AgentSkillSchema>;

/**
 * A JWS (RFC 7515) over the canonical card, in its JSON form with a detached payload.
 * @see proto `AgentCardSignature`, spec §8.4
 */
export const AgentCardSignatureSchema = z.strictObject({
  /** The base64url protected header: `{alg, typ: "JOSE", kid[, jku]}`. */
  protected: requiredString(),
  /** The base64url signature. */
  signature: requiredString(),
  /** The unprotected header. */
  header: StructSchema.optional(),
});
export type AgentCardSignature = z.infer<typeof AgentCardSignatureSchema>;

/**
 * The Agent Card: a self-describing manifest of an agent, published at
 * `/.well-known/agent-card.json`.
 * @see proto `AgentCard`, spec §5 and §8
 */
export const AgentCardSchema = z.strictObject({
  /** A human-readable name for the agent. @example "Recipe Agent" */
  name: requiredString(),
  /** What the agent does, for people and for other agents choosing it. */
  description: requiredString(),
  /** Where and how to reach the agent; the first entry is preferred (§8.3.1). */
  supportedInterfaces: requiredArray(AgentInterfaceSchema),
  /** The service provider. */
  provider: AgentProviderSchema.optional(),
  /** The agent's own version (not the protocol's). @example "1.0.0" */
  version: requiredString(),
  /** A URL with more documentation. */
  documentationUrl: z.string().optional(),
  /** Optional protocol features. */
  capabilities: AgentCapabilitiesSchema,
  /** Named security schemes, referenced by `securityRequirements`. */
  securitySchemes: mapOf(SecuritySchemeSchema).optional(),
  /** Security needed to contact the agent. */
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
  /** Input media types supported across all skills. @example ["text/plain"] */
  defaultInputModes: requiredArray(z.string()),
  /** Output media types supported across all skills. @example ["text/plain"] */
  defaultOutputModes: requiredArray(z.string()),
  /** What the agent can do; at least one skill. */
  skills: requiredArray(AgentSkillSchema),
  /** JWS signatures over this card. */
  signatures: z.array(AgentCardSignatureSchema).optional(),
  /** A URL to an icon for the agent. */
  iconUrl: z.string().optional(),
});
export type AgentCard = z.infer<typeof AgentCardSchema>;
/** What {@link AgentCardSchema} accepts before parsing (identical to {@link AgentCard}). */
export type AgentCardInput = z.input<typeof AgentCardSchema>;
