// The public surface of @agent-card/core, named export by export: a new export is added here on purpose.
export {
  APIKeySecuritySchemeSchema,
  AgentCapabilitiesSchema,
  AgentCardSchema,
  AgentCardSignatureSchema,
  AgentExtensionSchema,
  AgentInterfaceSchema,
  AgentProviderSchema,
  AgentSkillSchema,
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
  SECURITY_SCHEME_KINDS,
  STANDARD_PROTOCOL_BINDINGS,
  SecurityRequirementSchema,
  SecuritySchemeSchema,
  StringListSchema,
} from './model';
export type {
  APIKeySecurityScheme,
  AgentCapabilities,
  AgentCard,
  AgentCardInput,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  AuthorizationCodeOAuthFlow,
  ClientCredentialsOAuthFlow,
  DeviceCodeOAuthFlow,
  HTTPAuthSecurityScheme,
  ImplicitOAuthFlow,
  MutualTlsSecurityScheme,
  OAuth2SecurityScheme,
  OAuthFlows,
  OpenIdConnectSecurityScheme,
  PasswordOAuthFlow,
  ProtocolBinding,
  SecurityRequirement,
  SecurityScheme,
  SecuritySchemeKind,
  StringList,
} from './model';
export { toPointer } from './findings';
export type {
  Finding,
  Severity,
  ValidationProfile,
} from './findings';
export { AgentCardError, formatFindings } from './errors';
export type { AgentCardErrorCode } from './errors';
export { agentCardJsonSchema } from './json-schema';
export type { JsonSchema } from './json-schema';
// Serving, as an application author does it: one fetch handler for Deno, Bun, Workers and Next.js,
// and the state of the cards an adapter serves. The responder, the bridges, the served paths and
// the request/response types an adapter or a host integration uses are in @agent-card/core/http.
export { agentCardStatus, agentCardStore, closeAgentCard } from './http';
export type { AgentCardRegistryOptions, AgentCardState, AgentCardStatus, AgentCardStoreOptions } from './http';
export { createAgentCardFetchHandler } from './bridges';
export type {
  AgentCardFetchConnection,
  AgentCardFetchHandler,
  AgentCardFetchHandlerSettings,
} from './bridges';
export { AI_CATALOG_SIGNATURE_ALGORITHMS, validateAiCatalog } from './catalog';
export type {
  AiCatalog,
  AiCatalogEntry,
  AiCatalogHost,
  AiCatalogPublisher,
  AiCatalogSignature,
  AiCatalogValidationResult,
  ValidateAiCatalogOptions,
} from './catalog';
export {
  AI_CATALOG_VERIFY_LIMITS,
  aiCatalogDidDocument,
  prepareAiCatalogDidWebSigner,
  signAiCatalog,
  signAiCatalogDidWeb,
  verifyAiCatalog,
} from './sign/catalog-signing';
export type {
  AiCatalogDidWebSigner,
  AiCatalogDigestCheck,
  AiCatalogManifestCheck,
  AiCatalogSignatureObject,
  SignAiCatalogDidWebOptions,
  VerifyAiCatalogOptions,
  VerifyAiCatalogResult,
} from './sign/catalog-signing';
// ARD (Agentic Resource Discovery): the manifest at /.well-known/ard.json and its validator.
export { validateArdManifest } from './ard';
export type { ArdEntry, ArdManifest, ArdValidationResult, ValidateArdManifestOptions } from './ard';
export { validateAgentCard } from './validate/validate';
export { readJsonBytes } from './validate/json-bytes';
export { quoteUntrusted } from './util';
// One reader of untrusted JSON text (bytes or a string): UTF-8, byte order mark, size, syntax,
// depth, members named twice and inexact numbers, for every place that reads a card, a catalog,
// a key set, a configuration file or command-line input.
export { readJsonText } from './json/index';
export type { ValidationResult, ValidationOptions, CardShape } from './validate/validate';
export { applyRuleOverrides, checkRuleOverrides, getRule, listRules } from './rules';
export type {
  ArdRuleId,
  CardRuleId,
  CatalogRuleId,
  CliRuleId,
  DiscoveryRuleId,
  PerProfile,
  ResolvedRuleOverrides,
  RuleId,
  RuleInfo,
  RuleOverrides,
  RuleSection,
  RuleSetting,
  RuleTurnedOff,
} from './rules';
export { migrateAgentCard } from './migrate';
export type { MigrationResult, MigrationChange } from './migrate';
export { defineAgentCard, defineAgentCardWithFindings } from './define';
export type {
  AgentCardDefinition,
  DefineAgentCardOptions,
  DefinedAgentCard,
} from './define';
export { loadAgentCardConfig, readAgentCardConfig } from './config';
export type { LoadAgentCardConfigOptions, AgentCardConfig } from './config';
export {
  AGENT_CARD_CANONICAL_FORMS,
  AGENT_CARD_SIGNING_ALGORITHMS,
  AGENT_CARD_VERIFY_LIMITS,
  MAX_SIGNED_DEPTH,
  prunedOnlyNote,
  canonicalizeAgentCard,
  signAgentCard,
  toPublicJwk,
  verifyAgentCard,
} from './sign';
export type {
  AgentCardCanonicalForm,
  AgentCardPrivateKey,
  AgentCardJwk,
  AgentCardPublicJwk,
  AgentCardPublicKey,
  AgentCardSignatureCheck,
  AgentCardSigningAlgorithm,
  CanonicalizeAgentCardOptions,
  SignAgentCardOptions,
  ToPublicJwkOptions,
  VerifyAgentCardOptions,
  VerifyAgentCardResult,
} from './sign';
