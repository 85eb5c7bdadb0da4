/**
 * `@agent-card/core/http`: what an adapter or a host-level integration imports. The responder
 * every adapter wraps and the request/response types it translates, the Node and fetch bridges,
 * the served-path helpers, the extended card for an A2A server's JSON-RPC method, and the wire
 * constants of the documents a host serves (paths, media types, entry types, drafts, JWS `typ`s).
 * An application author needs none of it: `@agent-card/core` holds the model, `defineAgentCard`,
 * validation, `AgentCardError`, signing, `createAgentCardFetchHandler` and the status helpers.
 *
 * Named export by export, like the main entry: a new export is added here on purpose.
 *
 * @example
 * // An adapter for a Node framework (packages/express/src/index.ts, in short): core decides, the
 * // bridge writes the answer with `writeHead` + `end` or calls `next()`.
 * import { type AgentCardOptions, createAgentCardNodeHandler, createAgentCardResponder } from '@agent-card/core/http'
 * export function agentCard(options?: AgentCardOptions<IncomingMessage>) {
 *   const responder = createAgentCardResponder<IncomingMessage>(options)
 *   const middleware = createAgentCardNodeHandler<IncomingMessage, ServerResponse, void>(responder)
 *   return Object.assign(middleware, { update: responder.update, responder })
 * }
 * @packageDocumentation
 */
export {
  AGENT_CARD_PATH,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED,
  UNAUTHENTICATED,
  UNSUPPORTED_OPERATION,
  agentCardRoutes,
  agentResponderOf,
  computeEtag,
  createAgentCardResponder,
  getExtendedAgentCard,
  mergeExtendedCard,
  servedPathsOf,
} from './index';
export type {
  AgentCardClientFamily,
  AgentCardContext,
  AgentCardOptions,
  AgentCardRequest,
  AgentCardRequestHeaders,
  AgentCardResponder,
  AgentCardResponse,
  AgentCardRoute,
  AgentCardServeEvent,
  AgentCardServeHook,
  AgentCardServedKind,
  AgentCardTenantOption,
  AgentCardUpdate,
  AgentCardWatchOptions,
  AgentOptions,
  AiCatalogServeOptions,
  DynamicCardOptions,
  ExtendedAgentCardOptions,
  ExtendedCardRequest,
  GetExtendedAgentCardResult,
  Principal,
  TenantOwns,
} from './index';
export { createAgentCardFetchBridge, createAgentCardNodeHandler, writeFastifyReply } from '../bridges';
// A card an integration hands out while it keeps serving it (Nest's AgentCardService.getCard).
export { deepFreeze } from '../util';
export type {
  AgentCardFastifyReply,
  AgentCardFetchBridge,
  AgentCardFetchBridgeSettings,
  AgentCardNodeHandler,
  AgentCardNodeHandlerSettings,
  AgentCardNodeRequest,
  AgentCardNodeResponder,
  AgentCardNodeResponse,
} from '../bridges';
// The wire of the documents about the host: where they are served, their media and entry types,
// the catalog drafts, and the catalog a host serves built from its agents.
export {
  A2A_ENTRY_MEDIA_TYPES,
  AGENT_SKILLS_ENTRY_TYPE,
  AI_CATALOG_DRAFT,
  AI_CATALOG_DRAFT_IDS,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  AI_CATALOG_PREVIOUS_DRAFT,
  AI_CATALOG_SPEC_VERSION,
  MCP_CATALOG_PATH,
  MCP_SERVER_CARD_ENTRY_TYPE,
  registeredEntryTypeOf,
  toAgentEntry,
  toAiCatalog,
  urnAirOf,
} from '../catalog';
export type {
  AgentEntrySource,
  AiCatalogDraftId,
  AiCatalogDraftSource,
  AiCatalogPrevious,
  AiCatalogPreviousEntry,
  AiCatalogPreviousHost,
} from '../catalog';
export {
  AI_CATALOG_JWS_TYP,
  DID_WEB_PROFILE,
  didWebDocumentUrl,
  TRUST_MANIFEST_JWS_TYP,
} from '../sign/catalog-did-web';
export { ARD_SPEC, ARD_PATH, ARD_LINK_REL, ARD_MEDIA_TYPE, ARD_CONTEXT } from '../ard';
// Where `sign` publishes the JWK Set of the card signing keys unless `sign.jwksPath` says otherwise.
export { DEFAULT_JWKS_PATH as JWKS_PATH } from '../sign/signing-options';
// For discovery and other host-level clients: what a remote document names on another origin is
// fetched from public addresses only, connecting to the address that was checked.
export { nonPublicTarget } from '../sign/fetch-target';
export { publicOnlyFetch, type PublicOnlyInit } from '../sign/pinned-get';
