import type {
  AiCatalogDraftId,
  AiCatalogEntry,
  AiCatalogHost,
  AiCatalogPreviousEntry,
  AiCatalogPreviousHost,
} from '../../catalog/format';

/** What an agent's `catalogEntry` may replace of the entry its card gives. */
export type AgentCardEntryOverrides =
  | Partial<Omit<AiCatalogEntry, 'url' | 'data' | 'type' | 'digest'>>
  | Partial<Omit<AiCatalogPreviousEntry, 'url' | 'data' | 'mediaType'>>;

/**
 * The AI Catalog a multi-agent responder serves at `/.well-known/ai-catalog.json`, written to the
 * current draft (0379c868) unless `draft` pins the previous one.
 */
export interface AiCatalogServeOptions {
  /**
   * The draft the catalog follows: `'0379c868'` (current: `type`, `extensions`, `urn:air`
   * identifiers, `digest` and `signature` with `sign`) or `'634a09d9'` (previous: `mediaType`,
   * `metadata`, `urn:agent-card:{host}:{id}`, served byte for byte as before).
   * @default '0379c868'
   */
  draft?: AiCatalogDraftId;
  /**
   * Your domain, the `{publisher}` of the agents' identifiers: `urn:air:{publisher}:{namespace}:{id}`.
   * Taken from configuration only, never from a request, so identifiers stay the same on
   * staging and production. Current draft only.
   * @default the host name of `baseUrl`, else of each static card's first interface URL
   * @example 'acme.com'
   */
  publisher?: string;
  /** The `{namespace}` of the agents' identifiers: one or more `:`-separated segments. @default 'agent' */
  namespace?: string;
  /** Who runs the catalog (draft §"Host Info"). */
  host?: AiCatalogHost | AiCatalogPreviousHost;
  /**
   * Absolute URL of the mount point (e.g. `https://api.acme.com` or `https://acme.com/api`): the
   * entry URLs and the `Link` header are built on it. Set it when the middleware is mounted
   * under a base path or the cards' interfaces live on another host.
   * @default each static card's first interface origin; the request origin for a dynamic card
   */
  baseUrl?: string;
  /**
   * Most entries one catalog document lists. With more agents, the agents (sorted by id) are
   * split into nested catalogs at `/.well-known/ai-catalog/{n}.json` (deeper levels
   * `/.well-known/ai-catalog/{n}/{m}.json`), which the root lists as entries of type
   * `application/ai-catalog+json`, at most 4 levels deep as the drafts recommend. Static cards
   * only. A whole number, at least 2.
   * @default no limit (a store-backed host: `store.maxCatalogEntries`, 100)
   */
  maxEntries?: number;
  /**
   * Entries declared by hand, listed after the agents: agents hosted elsewhere, nested catalogs
   * (`type: 'application/ai-catalog+json'`), MCP Server Cards
   * (`type: 'application/mcp-server-card+json'`, also listed at `/.well-known/mcp/catalog.json`),
   * Agent Skills indexes (`type: 'application/agent-skills+json'`). Each is an entry of the
   * draft: `{ identifier, type, url }` plus `displayName`, `description`, `version`, `tags`
   * when the artifact does not carry them (`mediaType` instead of `type` for the previous draft).
   */
  entries?: readonly (AiCatalogEntry | AiCatalogPreviousEntry)[];
  /** Catalog-level `extensions`, keyed by a URL or a reverse-DNS name (current draft). */
  extensions?: Record<string, unknown>;
  /** Catalog-level `metadata` (previous draft; the current draft calls it `extensions`). */
  metadata?: Record<string, unknown>;
  /**
   * With the top-level `sign` option and the current draft: the catalog carries a `signature`
   * (signed once, with the first key whose algorithm the draft allows) and each agent's entry the
   * `digest` of its card bytes. `false` serves the catalog unsigned.
   * @default true
   */
  sign?: boolean;
  /**
   * The root `did:web` DID that signs the catalog in the current specification's form, e.g.
   * `'did:web:agents.example.com'`: the catalog's `signature` becomes a Signature object
   * (`did-web-v1`, ES256, `kid` `{signer}#{key kid}`), `host.identifier` the signer, and
   * `/.well-known/did.json` is served with every ES256 key of `sign` under `assertionMethod`.
   * Serve the responder at that domain's root. A Trust Manifest given in an agent's
   * `catalogEntry.trustManifests` with this `contributor` and no `signature` is signed too, its
   * `subject` copied from the entry. Needs `sign` with an ES256 key.
   * @default the earlier detached JWS string form, with the keys of `sign`
   */
  signer?: string;
  /**
   * With `signer`: the Signature object's `issuedAt`, an RFC 3339 date-time (or a `Date`), the
   * time this catalog was released. Required with `signer`, and never the start-up time: every
   * replica must sign the same catalog bytes (one ETag, one 304 whichever replica answers), so
   * take it from the release, e.g. the deploy's timestamp or the commit date.
   * @example issuedAt: process.env.RELEASED_AT // '2026-12-07T09:00:00Z'
   */
  issuedAt?: string | Date;
}
