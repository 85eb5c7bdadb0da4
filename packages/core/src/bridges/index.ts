export { createAgentCardNodeHandler, writeFastifyReply } from './node';
export type {
  AgentCardFastifyReply,
  AgentCardNodeHandler,
  AgentCardNodeHandlerSettings,
  AgentCardNodeRequest,
  AgentCardNodeResponder,
  AgentCardNodeResponse,
} from './node';
export { createAgentCardFetchBridge, createAgentCardFetchHandler } from './fetch';
export type {
  AgentCardFetchBridge,
  AgentCardFetchBridgeSettings,
  AgentCardFetchConnection,
  AgentCardFetchHandler,
  AgentCardFetchHandlerSettings,
} from './fetch';
