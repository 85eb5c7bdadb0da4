export { createAgentCardResponder } from './responder';
export { getExtendedAgentCard } from './extended/get';
export type { TrustProxySetting } from './kernel/trust';
export { agentResponderOf } from './multi-agent';
export { servedPathsOf } from './kernel/responder';
export { agentCardRoutes, agentCardStatus, agentCardStore, closeAgentCard } from './observe/status';
export type { AgentCardClientFamily } from './observe/client';
export type { AgentCardServeEvent, AgentCardServeHook } from './observe/hook';
export type { AgentCardWatchOptions } from './observe/options';
export type { AgentCardRoute } from './observe/routes';
export type { AgentCardServedKind } from './kernel/served';
export type { AgentCardState, AgentCardStatus } from './kernel/health';
export { toLegacyV03Card, LEGACY_PROTOCOL_VERSION } from './legacy/v03';
export type { LegacyV03AgentCard, LegacyV03SecurityScheme, LegacyV03SecurityRequirement } from './legacy/v03';
export { mergeExtendedCard } from './extended/endpoint';
export { computeEtag, ifNoneMatchMatches } from './kernel/etag';
export { AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, EXTENDED_AGENT_CARD_SUFFIX } from './kernel/paths';
export { buildWwwAuthenticate } from './extended/www-authenticate';
export {
  UNSUPPORTED_OPERATION,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED,
  UNAUTHENTICATED,
  EXTENDED_CARD_UNAVAILABLE,
  toJsonRpcError,
  toRestErrorBody,
} from './kernel/protocol-errors';
export type { A2AErrorInfo, A2AErrorKind, JsonRpcErrorObject, RestErrorBody } from './kernel/protocol-errors';
export type {
  AgentCardRequest,
  AgentCardRequestHeaders,
  AgentCardResponse,
  AgentCardContext,
  AgentCardOptions,
  AgentCardResponder,
  AgentCardUpdate,
  AgentCardRegistryOptions,
  AgentCardStoreOptions,
  AgentCardTenantOption,
  TenantOwns,
  AgentOptions,
  AiCatalogServeOptions,
  DynamicCardOptions,
  ExtendedAgentCardOptions,
  ExtendedCardRequest,
  GetExtendedAgentCardResult,
  Principal,
} from './types';
