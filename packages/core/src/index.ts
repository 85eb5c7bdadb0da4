export * from './model';
export * from './findings';
export { AgentCardError, formatFindings } from './errors';
export type { AgentCardErrorCode, AgentCardErrorOptions } from './errors';
export { agentCardJsonSchema } from './json-schema';
export type { JsonSchema } from './json-schema';
export * from './discover';
export * from './http';
export * from './catalog';
export { validateAgentCard } from './validate/validate';
export type { ValidationResult, ValidationOptions, CardShape } from './validate/validate';
export { migrateAgentCard } from './migrate';
export type { MigrationResult, MigrationChange } from './migrate';
export { defineAgentCard, defineAgentCardWithFindings } from './define';
export type {
  AgentCardDefinition,
  AgentInterfaceDefinition,
  AgentCardLogger,
  DefineAgentCardOptions,
  DefinedAgentCard,
} from './define';
export { loadAgentCardConfig, readAgentCardConfig, AGENT_CARD_CONFIG_FILE } from './config';
export type { LoadAgentCardConfigOptions, AgentCardConfig } from './config';
export * from './sign';
