import { isObject } from './validate/context';
import { z } from 'zod';
import { deepFreeze } from './util';
import {
  AgentCapabilitiesSchema,
  AgentCardSchema,
  AgentCardSignatureSchema,
  AgentExtensionSchema,
  AgentInterfaceSchema,
  AgentProviderSchema,
  AgentSkillSchema,
  APIKeySecuritySchemeSchema,
  AuthorizationCodeOAuthFlowSchema,
  ClientCredentialsOAuthFlowSchema,
  DeviceCodeOAuthFlowSchema,
  HTTPAuthSecuritySchemeSchema,
  ImplicitOAuthFlowSchema,
  MutualTlsSecuritySchemeSchema,
  OAuth2SecuritySchemeSchema,
  OAuthFlowsSchema,
  OpenIdConnectSecuritySchemeSchema,
  PasswordOAuthFlowSchema,
  SecurityRequirementSchema,
  SecuritySchemeSchema,
  StringListSchema,
} from './model';

/** A JSON Schema document (draft 2020-12) as a plain JSON value. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * Every message schema under its proto message name, so `$defs` reads like the proto (and like
 * the derived schema the A2A generator emits on main).
 */
const DEFINITIONS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['AgentInterface', AgentInterfaceSchema],
  ['AgentProvider', AgentProviderSchema],
  ['AgentExtension', AgentExtensionSchema],
  ['AgentCapabilities', AgentCapabilitiesSchema],
  ['AuthorizationCodeOAuthFlow', AuthorizationCodeOAuthFlowSchema],
  ['ClientCredentialsOAuthFlow', ClientCredentialsOAuthFlowSchema],
  ['DeviceCodeOAuthFlow', DeviceCodeOAuthFlowSchema],
  ['ImplicitOAuthFlow', ImplicitOAuthFlowSchema],
  ['PasswordOAuthFlow', PasswordOAuthFlowSchema],
  ['OAuthFlows', OAuthFlowsSchema],
  ['APIKeySecurityScheme', APIKeySecuritySchemeSchema],
  ['HTTPAuthSecurityScheme', HTTPAuthSecuritySchemeSchema],
  ['OAuth2SecurityScheme', OAuth2SecuritySchemeSchema],
  ['OpenIdConnectSecurityScheme', OpenIdConnectSecuritySchemeSchema],
  ['MutualTlsSecurityScheme', MutualTlsSecuritySchemeSchema],
  ['SecurityScheme', SecuritySchemeSchema],
  ['StringList', StringListSchema],
  ['SecurityRequirement', SecurityRequirementSchema],
  ['AgentSkill', AgentSkillSchema],
  ['AgentCardSignature', AgentCardSignatureSchema],
];

/**
 * Messages that are a single proto `oneof`. zod expresses "exactly one member" as a refinement,
 * which JSON Schema cannot see, so the generated schema states it with min/maxProperties.
 */
const ONE_OF_MESSAGES: ReadonlySet<unknown> = new Set<unknown>([OAuthFlowsSchema, SecuritySchemeSchema]);

let cached: JsonSchema | undefined;

/**
 * Returns the JSON Schema (draft 2020-12) of an A2A v1.0 Agent Card, generated from
 * {@link AgentCardSchema} with `z.toJSONSchema`.
 *
 * It accepts exactly what `AgentCardSchema` accepts: REQUIRED strings non-empty, REQUIRED arrays
 * non-empty, one member per `oneof` (`SecurityScheme`, `OAuthFlows`), no unknown keys. Messages
 * are under `$defs` by their proto names and the root is `{"$ref": "#/$defs/AgentCard"}`. It is
 * structural only: the rule catalogue of {@link validateAgentCard} (URLs, references, profiles)
 * goes much further.
 *
 * The result is computed once and deep-frozen; every call returns the same object.
 *
 * @returns The schema as a JSON value, ready for Ajv (`ajv/dist/2020`) or an editor.
 * @example
 * import Ajv2020 from 'ajv/dist/2020';
 * const validate = new Ajv2020().compile(agentCardJsonSchema());
 * validate(JSON.parse(body)); // true for a structurally valid v1.0 card
 * @see https://a2a-protocol.org/latest/specification/#5-protocol-data-model
 */
export function agentCardJsonSchema(): JsonSchema {
  cached ??= deepFreeze(generate());
  return cached;
}

function generate(): JsonSchema {
  const registry = z.registry<{ id: string; description?: string }>();
  for (const [id, schema] of DEFINITIONS) {
    registry.add(schema, schema.description === undefined ? { id } : { id, description: schema.description });
  }
  const root = z.toJSONSchema(AgentCardSchema, {
    target: 'draft-2020-12',
    metadata: registry,
    unrepresentable: 'throw',
    override(ctx) {
      if (ONE_OF_MESSAGES.has(ctx.zodSchema)) {
        ctx.jsonSchema.minProperties = 1;
        ctx.jsonSchema.maxProperties = 1;
      }
    },
  }) as Record<string, unknown>;

  const { $schema, $defs, ...card } = root;
  const defs = { AgentCard: card, ...($defs as Record<string, unknown>) };
  return strip({
    $schema,
    title: 'A2A v1.0 Agent Card',
    description:
      'An A2A v1.0 Agent Card in its ProtoJSON (camelCase) form, as published at /.well-known/agent-card.json.',
    $ref: '#/$defs/AgentCard',
    $defs: defs,
  }) as JsonSchema;
}

/**
 * Removes keywords that constrain nothing in JSON: `propertyNames: {type: "string"}` (JSON keys
 * are always strings) and `additionalProperties: {}` (the same as `true`).
 */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'propertyNames' && isStringType(value)) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    out[key] = strip(value);
  }
  return out;
}

function isStringType(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 1 && value.type === 'string';
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}
