export * from './model';
export * from './findings';
export { AgentCardError, formatFindings } from './errors';
export type { AgentCardErrorCode, AgentCardErrorOptions } from './errors';
export { agentCardJsonSchema } from './json-schema';
export type { JsonSchema } from './json-schema';
export * from './discover';
export * from './http';
