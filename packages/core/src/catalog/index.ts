export {
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  A2A_ENTRY_MEDIA_TYPES,
  AGENT_SKILLS_ENTRY_TYPE,
  AI_CATALOG_DRAFT,
  AI_CATALOG_DRAFT_IDS,
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  AI_CATALOG_PREVIOUS_DRAFT,
  AI_CATALOG_SIGNATURE_ALGORITHMS,
  AI_CATALOG_SPEC_VERSION,
  MCP_CATALOG_PATH,
  MCP_SERVER_CARD_ENTRY_TYPE,
  toAgentEntry,
  toAiCatalog,
} from './format';
export type {
  AgentEntrySource,
  AiCatalog,
  AiCatalogDraftId,
  AiCatalogDraftSource,
  AiCatalogEntry,
  AiCatalogHost,
  AiCatalogPrevious,
  AiCatalogPreviousEntry,
  AiCatalogPreviousHost,
  AiCatalogPublisher,
  AiCatalogSignature,
} from './format';
export { registeredEntryTypeOf, urnAirOf } from './spellings';
export { validateAiCatalog } from './validate';
export type { AiCatalogValidationResult, ValidateAiCatalogOptions } from './validate';
