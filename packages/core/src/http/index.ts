export { createAgentCardResponder, getExtendedAgentCard } from './responder';
export type { TrustProxySetting } from './trust';
export { agentResponderOf } from './agents';
export type { AgentOptions, AiCatalogServeOptions } from './agents';
export { toLegacyV03Card, LEGACY_PROTOCOL_VERSION } from './legacy-v03';
export type { LegacyV03AgentCard, LegacyV03SecurityScheme, LegacyV03SecurityRequirement } from './legacy-v03';
export { mergeExtendedCard } from './extended';
export type { ExtendedCardRequest, GetExtendedAgentCardResult } from './extended';
export { computeEtag, ifNoneMatchMatches } from './etag';
export { AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, EXTENDED_AGENT_CARD_SUFFIX } from './paths';
export { buildWwwAuthenticate } from './www-authenticate';
export {
  UNSUPPORTED_OPERATION,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED,
  UNAUTHENTICATED,
  EXTENDED_CARD_UNAVAILABLE,
  toJsonRpcError,
  toRestErrorBody,
} from './protocol-errors';
export type { A2AErrorInfo, A2AErrorKind, JsonRpcErrorObject, RestErrorBody } from './protocol-errors';
export type {
  AgentCardRequest,
  AgentCardRequestHeaders,
  AgentCardResponse,
  AgentCardContext,
  AgentCardOptions,
  AgentCardResponder,
  AgentCardUpdate,
  ExtendedAgentCardOptions,
  Principal,
} from './types';
