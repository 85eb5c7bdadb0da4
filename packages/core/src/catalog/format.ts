/**
 * The AI Catalog format, in one place: every fact taken from the draft (version, media types,
 * the well-known path, member names, which members are required, the nesting limit) lives here,
 * so following a new draft is one edit to this file and its tests.
 *
 * Implemented draft: the editor's draft of Agent-Card/ai-catalog,
 * `specification/ai-catalog.md` at commit {@link AI_CATALOG_DRAFT}.commit, `specVersion` "1.0".
 *
 * @see https://github.com/Agent-Card/ai-catalog/blob/634a09d98b644153384cde4f1cb4cbb70ead0e04/specification/ai-catalog.md
 * @packageDocumentation
 */

/** The `specVersion` this library writes, and the major version it reads. */
export const AI_CATALOG_SPEC_VERSION = '1.0';

/** The draft the format follows (pinned: the draft changes without version bumps). */
export const AI_CATALOG_DRAFT = Object.freeze({
  repository: 'https://github.com/Agent-Card/ai-catalog',
  path: 'specification/ai-catalog.md',
  commit: '634a09d98b644153384cde4f1cb4cbb70ead0e04',
  date: '2026-04-30',
});

/** Media type of an AI Catalog document (draft §"Media Type"). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** The well-known path of a host's AI Catalog (RFC 8615; draft §"Well-Known URI"). */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/** The link relation that points to a catalog (RFC 8288; draft §"Link Relation Discovery"). */
export const AI_CATALOG_LINK_REL = 'ai-catalog';

/** The entry `mediaType` of an A2A Agent Card, as the draft lists it. */
export const A2A_AGENT_CARD_ENTRY_MEDIA_TYPE = 'application/a2a-agent-card+json';

/**
 * Entry media types read as A2A Agent Cards: the draft's value, and the A2A media type its
 * ADR-0012 example uses.
 */
export const A2A_ENTRY_MEDIA_TYPES: readonly string[] = Object.freeze([
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  'application/a2a+json',
]);

/**
 * Maximum nesting of catalogs (an entry whose `mediaType` is the catalog media type). The draft
 * recommends 4 (ADR-0001); the root catalog is depth 1.
 */
export const AI_CATALOG_MAX_DEPTH = 4;

/** Members of the top-level object: required first. */
export const CATALOG_MEMBERS = Object.freeze({
  required: ['specVersion', 'entries'] as const,
  optional: ['host', 'metadata'] as const,
});

/** Members of a Host Info object. */
export const HOST_MEMBERS = Object.freeze({
  required: ['displayName'] as const,
  optional: ['identifier', 'documentationUrl', 'logoUrl', 'trustManifest'] as const,
});

/** Members of a Catalog Entry; exactly one of `content` is required. */
export const ENTRY_MEMBERS = Object.freeze({
  required: ['identifier', 'displayName', 'mediaType'] as const,
  content: ['url', 'data'] as const,
  optional: ['description', 'tags', 'version', 'updatedAt', 'metadata', 'publisher', 'trustManifest'] as const,
});

/** Members of a Publisher object. */
export const PUBLISHER_MEMBERS = Object.freeze({
  required: ['identifier', 'displayName'] as const,
  optional: ['identityType'] as const,
});

/** `specVersion` is "Major.Minor", both non-negative integers. */
export const SPEC_VERSION_PATTERN = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/** Who runs the catalog (draft §"Host Info"). */
export interface AiCatalogHost {
  displayName: string;
  identifier?: string;
  documentationUrl?: string;
  logoUrl?: string;
  /** A Trust Manifest; passed through as given. */
  trustManifest?: Record<string, unknown>;
}

/** Who publishes an artifact (draft §"Publisher Object"). */
export interface AiCatalogPublisher {
  identifier: string;
  displayName: string;
  identityType?: string;
}

/** One artifact of a catalog (draft §"Catalog Entry"): exactly one of `url` and `data`. */
export interface AiCatalogEntry {
  identifier: string;
  displayName: string;
  mediaType: string;
  url?: string;
  data?: unknown;
  description?: string;
  tags?: string[];
  version?: string;
  /** RFC 3339 timestamp. */
  updatedAt?: string;
  metadata?: Record<string, unknown>;
  publisher?: AiCatalogPublisher;
  trustManifest?: Record<string, unknown>;
}

/** An AI Catalog document (`application/ai-catalog+json`). */
export interface AiCatalog {
  specVersion: string;
  host?: AiCatalogHost;
  entries: AiCatalogEntry[];
  metadata?: Record<string, unknown>;
}

/** What a served agent contributes to its entry (taken from its card). */
export interface AgentEntrySource {
  /** Stable identifier of the entry. */
  identifier: string;
  /** Absolute URL of the agent's card. */
  url: string;
  /** The agent's card: `name`, `description`, `version` and the skills' tags are read. */
  card: { name: string; description: string; version: string; skills: readonly { tags?: readonly string[] }[] };
  /** Entry members that replace what the card gives (e.g. a shorter `displayName`). */
  overrides?: Partial<Omit<AiCatalogEntry, 'url' | 'data'>>;
}

/** The distinct tags of a card's skills, in first-seen order. */
export function tagsOf(card: AgentEntrySource['card']): string[] {
  const seen = new Set<string>();
  for (const skill of card.skills) for (const tag of skill.tags ?? []) seen.add(tag);
  return [...seen];
}

/** The catalog entry of one served A2A agent. */
export function toAgentEntry(source: AgentEntrySource): AiCatalogEntry {
  const { card } = source;
  const tags = tagsOf(card);
  const entry: AiCatalogEntry = {
    identifier: source.identifier,
    displayName: card.name,
    mediaType: A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
    url: source.url,
    description: card.description,
    version: card.version,
  };
  if (tags.length > 0) entry.tags = tags;
  return { ...entry, ...source.overrides };
}

/** Assembles a catalog document, members in the draft's order (`specVersion`, `host`, `entries`). */
export function toAiCatalog(parts: {
  host?: AiCatalogHost;
  entries: readonly AiCatalogEntry[];
  metadata?: Record<string, unknown>;
}): AiCatalog {
  const catalog: AiCatalog = { specVersion: AI_CATALOG_SPEC_VERSION } as AiCatalog;
  if (parts.host !== undefined) catalog.host = parts.host;
  catalog.entries = [...parts.entries];
  if (parts.metadata !== undefined) catalog.metadata = parts.metadata;
  return catalog;
}
