export {
  AI_CATALOG_SPEC_VERSION,
  AI_CATALOG_DRAFT,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MAX_DEPTH,
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  A2A_ENTRY_MEDIA_TYPES,
  toAgentEntry,
  toAiCatalog,
} from './format';
export type { AiCatalog, AiCatalogEntry, AiCatalogHost, AiCatalogPublisher, AgentEntrySource } from './format';
export { validateAiCatalog } from './validate';
export type { ValidateAiCatalogOptions, AiCatalogValidationResult } from './validate';
