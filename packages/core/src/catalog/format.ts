/**
 * The AI Catalog format, in one place: every fact taken from the drafts (version, media types,
 * the well-known paths, member names, which members are required, the nesting limit) lives here,
 * so following a new draft is one edit to this file and its tests.
 *
 * Two drafts are known. {@link AI_CATALOG_DRAFT} is the current one (served and checked by
 * default): Agent-Card/ai-catalog `specification/ai-catalog.md` at commit 0379c868 with its
 * decision records 0014–0033. {@link AI_CATALOG_PREVIOUS_DRAFT} is the one before it (commit
 * 634a09d9, 2026-04-30), which a server may pin. Both write `specVersion` "1.0": the draft changed
 * without a version bump, so the commit names the draft.
 *
 * @see https://github.com/Agent-Card/ai-catalog/blob/0379c868c8811f93e168caaa06dd42517449f6ac/specification/ai-catalog.md
 * @packageDocumentation
 */

/** The `specVersion` this library writes, and the major version it reads. */
export const AI_CATALOG_SPEC_VERSION = '1.0';

/** How a draft is named: the first eight hex digits of its commit. */
export type AiCatalogDraftId = '0379c868' | '634a09d9';

/** Where a draft is written down. */
export interface AiCatalogDraftSource {
  /** How options and results name it (`catalog.draft`, `validateAiCatalog`'s `draft`). */
  readonly id: AiCatalogDraftId;
  readonly repository: string;
  readonly path: string;
  readonly commit: string;
  /** The decision records the draft includes, when it names them. */
  readonly decisions?: string;
  /** Date of the commit, when known. */
  readonly date?: string;
}

/**
 * The current draft: what the server writes and the validator holds documents to by default.
 * Changing the draft this library follows is this one constant and the member lists below.
 */
export const AI_CATALOG_DRAFT: AiCatalogDraftSource & { readonly id: '0379c868' } = Object.freeze({
  id: '0379c868' as const,
  repository: 'https://github.com/Agent-Card/ai-catalog',
  path: 'specification/ai-catalog.md',
  commit: '0379c868c8811f93e168caaa06dd42517449f6ac',
  decisions: 'adr/0014–0033',
});

/** The draft before it: what `catalog: { draft: '634a09d9' }` serves, byte for byte as before. */
export const AI_CATALOG_PREVIOUS_DRAFT: AiCatalogDraftSource & { readonly id: '634a09d9' } = Object.freeze({
  id: '634a09d9' as const,
  repository: 'https://github.com/Agent-Card/ai-catalog',
  path: 'specification/ai-catalog.md',
  commit: '634a09d98b644153384cde4f1cb4cbb70ead0e04',
  date: '2026-04-30',
});

/** Every draft id this library reads, current first. */
export const AI_CATALOG_DRAFT_IDS: readonly AiCatalogDraftId[] = Object.freeze([
  AI_CATALOG_DRAFT.id,
  AI_CATALOG_PREVIOUS_DRAFT.id,
]);

/** Media type of an AI Catalog document (draft §"Media Type"). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** The well-known path of a host's AI Catalog (RFC 8615; draft §"Well-Known URI"). */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/**
 * The well-known path of the MCP discovery subset: the host's catalog with its MCP Server Card
 * entries only, served when it has any.
 */
/** Where a root `did:web` DID's document is served (the did:web method, §3.2). */
export const DID_DOCUMENT_PATH = '/.well-known/did.json';

export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';

/** The link relation that points to a catalog (RFC 8288; draft §"Link Relation Discovery"). */
export const AI_CATALOG_LINK_REL = 'ai-catalog';

/** The entry type of an A2A Agent Card, as the drafts list it. */
export const A2A_AGENT_CARD_ENTRY_MEDIA_TYPE = 'application/a2a-agent-card+json';

/** The entry type of an MCP Server Card (draft §"Catalog Entry", known types). */
export const MCP_SERVER_CARD_ENTRY_TYPE = 'application/mcp-server-card+json';

/** The entry type of an Agent Skills metadata document, such as a skills index (draft §"Catalog Entry"). */
export const AGENT_SKILLS_ENTRY_TYPE = 'application/agent-skills+json';

/**
 * Entry media types read as A2A Agent Cards: the draft's value, and the A2A media type the
 * previous draft's ADR-0012 example uses.
 */
export const A2A_ENTRY_MEDIA_TYPES: readonly string[] = Object.freeze([
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  'application/a2a+json',
]);

/**
 * Maximum nesting of catalogs (an entry whose type is the catalog media type). The drafts
 * recommend 4 (ADR-0001); the root catalog is depth 1.
 */
export const AI_CATALOG_MAX_DEPTH = 4;

/**
 * JWS algorithms the current draft allows for the catalog `signature` (§"Signature Algorithms"):
 * a producer must use one of them.
 */
export const AI_CATALOG_SIGNATURE_ALGORITHMS: readonly string[] = Object.freeze([
  'ES256',
  'ES384',
  'EdDSA',
  'PS256',
  'PS384',
  'RS256',
]);

/** The member lists of one draft: required first. */
export interface AiCatalogMembers {
  /** The entry member naming the artifact's media type. */
  readonly entryType: 'type' | 'mediaType';
  /** The member holding custom data. */
  readonly custom: 'extensions' | 'metadata';
  readonly catalog: { readonly required: readonly string[]; readonly optional: readonly string[] };
  readonly host: { readonly required: readonly string[]; readonly optional: readonly string[] };
  readonly entry: {
    readonly required: readonly string[];
    readonly content: readonly string[];
    readonly optional: readonly string[];
  };
  readonly publisher: { readonly required: readonly string[]; readonly optional: readonly string[] };
}

const PUBLISHER = Object.freeze({ required: ['identifier', 'displayName'], optional: ['identityType'] });

/** The member lists of each draft. */
export const AI_CATALOG_MEMBERS: Readonly<Record<AiCatalogDraftId, AiCatalogMembers>> = Object.freeze({
  '0379c868': Object.freeze({
    entryType: 'type',
    custom: 'extensions',
    catalog: {
      required: ['specVersion', 'entries'],
      optional: ['host', 'extensions', 'signature', 'additionalSignatures'],
    },
    host: { required: ['displayName'], optional: ['identifier', 'documentationUrl', 'logoUrl'] },
    entry: {
      required: ['identifier', 'type'],
      content: ['url', 'data'],
      // `trustManifest` is the specification text's; `trustManifests` (one per contributor) and
      // `digest` come from its decision records 0028 and 0032.
      optional: [
        'displayName',
        'description',
        'tags',
        'version',
        'updatedAt',
        'extensions',
        'publisher',
        'trustManifest',
        'trustManifests',
        'digest',
      ],
    },
    publisher: PUBLISHER,
  }),
  '634a09d9': Object.freeze({
    entryType: 'mediaType',
    custom: 'metadata',
    catalog: { required: ['specVersion', 'entries'], optional: ['host', 'metadata'] },
    host: {
      required: ['displayName'],
      optional: ['identifier', 'documentationUrl', 'logoUrl', 'trustManifest'],
    },
    entry: {
      required: ['identifier', 'displayName', 'mediaType'],
      content: ['url', 'data'],
      optional: ['description', 'tags', 'version', 'updatedAt', 'metadata', 'publisher', 'trustManifest'],
    },
    publisher: PUBLISHER,
  }),
});

/** `specVersion` is "Major.Minor", both non-negative integers. */
export const SPEC_VERSION_PATTERN = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/**
 * A `urn:air` identifier (draft §"Catalog Entry"): `urn:air:{publisher}:{namespace…}:{name}`, the
 * publisher a domain name, one or more namespace segments.
 */
export const URN_AIR_PATTERN =
  /^urn:air:((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}):((?:[A-Za-z0-9._~-]+:)+)([A-Za-z0-9._~-]+)$/;

/** Who runs the catalog (draft §"Host Info"). */
export interface AiCatalogHost {
  displayName: string;
  identifier?: string;
  documentationUrl?: string;
  logoUrl?: string;
}

/** Who runs the catalog, as the previous draft has it (with a Trust Manifest of its own). */
export interface AiCatalogPreviousHost extends AiCatalogHost {
  /** A Trust Manifest; passed through as given. */
  trustManifest?: Record<string, unknown>;
}

/** Who publishes an artifact (draft §"Publisher Object"). */
export interface AiCatalogPublisher {
  identifier: string;
  displayName: string;
  identityType?: string;
}

/**
 * One artifact of a catalog (current draft §"Catalog Entry"): exactly one of `url` and `data`.
 * Leave `displayName`, `description` and `version` out when the artifact carries them (an A2A
 * card has `name`, `description`, `version`): readers take them from the artifact.
 */
export interface AiCatalogEntry {
  identifier: string;
  /** The artifact's media type, e.g. `application/mcp-server-card+json`. */
  type: string;
  url?: string;
  data?: unknown;
  displayName?: string;
  description?: string;
  tags?: string[];
  version?: string;
  /** RFC 3339 timestamp. */
  updatedAt?: string;
  /** Custom data, keyed by a URL or a reverse-DNS name (`com.example.region`). */
  extensions?: Record<string, unknown>;
  publisher?: AiCatalogPublisher;
  /** A Trust Manifest (specification text); passed through as given. */
  trustManifest?: Record<string, unknown>;
  /** Trust Manifests, one per contributor (ADR-0028); passed through as given. */
  trustManifests?: Record<string, unknown>[];
  /** `sha256:{hex}` of the exact bytes at `url` (ADR-0032). */
  digest?: string;
}

/** One artifact as the previous draft lists it (`mediaType`, `metadata`, `displayName` required). */
export interface AiCatalogPreviousEntry {
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

/** An AI Catalog document (`application/ai-catalog+json`), current draft. */
export interface AiCatalog {
  specVersion: string;
  host?: AiCatalogHost;
  entries: AiCatalogEntry[];
  extensions?: Record<string, unknown>;
  /**
   * The Signature object `{ signer, profile, issuedAt, expiresAt?, jws }` of the current
   * specification, or the earlier draft's detached JWS string.
   */
  signature?: string | AiCatalogSignature;
  /** Reserved by the specification; excluded from the signed payload. */
  additionalSignatures?: unknown;
}

/** The AI Catalog's Signature object (specification §"Signature Object"). */
export interface AiCatalogSignature {
  /** The signer's identity URI, e.g. `did:web:agents.example.com`. */
  signer: string;
  /** The signer verification procedure, e.g. `did-web-v1`. */
  profile: string;
  /** RFC 3339 date-time. */
  issuedAt: string;
  /** RFC 3339 date-time. */
  expiresAt?: string;
  /** Detached compact JWS: `header..signature`. */
  jws: string;
}

/** An AI Catalog document as the previous draft has it. */
export interface AiCatalogPrevious {
  specVersion: string;
  host?: AiCatalogPreviousHost;
  entries: AiCatalogPreviousEntry[];
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
  /** Entry members that replace what the card gives (e.g. a `displayName` of the listing's own). */
  overrides?: Partial<Omit<AiCatalogEntry, 'url' | 'data'>> | Partial<Omit<AiCatalogPreviousEntry, 'url' | 'data'>>;
  /** `sha256:{hex}` of the card bytes served at `url` (current draft only). */
  digest?: string;
}

/** The distinct tags of a card's skills, in first-seen order. */
export function tagsOf(card: AgentEntrySource['card']): string[] {
  const seen = new Set<string>();
  for (const skill of card.skills) for (const tag of skill.tags ?? []) seen.add(tag);
  return [...seen];
}

/**
 * The catalog entry of one served A2A agent. Current draft: `identifier`, `type`, `url`, the
 * skills' `tags` and the card's `digest` when given; the card's name, description and version are
 * left to the card. Previous draft: as that draft had it (`displayName`, `mediaType`, description
 * and version copied from the card).
 */
export function toAgentEntry(source: AgentEntrySource): AiCatalogEntry;
export function toAgentEntry(source: AgentEntrySource, draft: '634a09d9'): AiCatalogPreviousEntry;
export function toAgentEntry(
  source: AgentEntrySource,
  draft?: AiCatalogDraftId,
): AiCatalogEntry | AiCatalogPreviousEntry;
export function toAgentEntry(
  source: AgentEntrySource,
  draft: AiCatalogDraftId = AI_CATALOG_DRAFT.id,
): AiCatalogEntry | AiCatalogPreviousEntry {
  const { card } = source;
  const tags = tagsOf(card);
  if (draft === AI_CATALOG_PREVIOUS_DRAFT.id) {
    const entry: AiCatalogPreviousEntry = {
      identifier: source.identifier,
      displayName: card.name,
      mediaType: A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
      url: source.url,
      description: card.description,
      version: card.version,
    };
    if (tags.length > 0) entry.tags = tags;
    return { ...entry, ...(source.overrides as Partial<AiCatalogPreviousEntry>) };
  }
  const entry: AiCatalogEntry = {
    identifier: source.identifier,
    type: A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
    url: source.url,
  };
  if (tags.length > 0) entry.tags = tags;
  const out: AiCatalogEntry = { ...entry, ...(source.overrides as Partial<AiCatalogEntry>) };
  if (source.digest !== undefined) out.digest = source.digest;
  return out;
}

/**
 * Assembles a catalog document, members in the draft's order (`specVersion`, `host`, `entries`,
 * then `extensions` — `metadata` for the previous draft).
 */
export function toAiCatalog(parts: {
  host?: AiCatalogHost;
  entries: readonly AiCatalogEntry[];
  extensions?: Record<string, unknown>;
}): AiCatalog;
export function toAiCatalog(
  parts: {
    host?: AiCatalogPreviousHost;
    entries: readonly AiCatalogPreviousEntry[];
    metadata?: Record<string, unknown>;
  },
  draft: '634a09d9',
): AiCatalogPrevious;
export function toAiCatalog(
  parts: {
    host?: AiCatalogHost;
    entries: readonly (AiCatalogEntry | AiCatalogPreviousEntry)[];
    extensions?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
  },
  draft: AiCatalogDraftId = AI_CATALOG_DRAFT.id,
): AiCatalog | AiCatalogPrevious {
  const catalog = { specVersion: AI_CATALOG_SPEC_VERSION } as Record<string, unknown>;
  if (parts.host !== undefined) catalog.host = parts.host;
  catalog.entries = [...parts.entries];
  const custom = AI_CATALOG_MEMBERS[draft].custom;
  if (parts[custom] !== undefined) catalog[custom] = parts[custom];
  return catalog as unknown as AiCatalog | AiCatalogPrevious;
}
