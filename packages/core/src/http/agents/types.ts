import type { AiCatalogEntry, AiCatalogHost } from '../../catalog/format';

/** What an agent's `catalogEntry` may replace of the entry its card gives. */
export type AgentCardEntryOverrides = Partial<Omit<AiCatalogEntry, 'url' | 'data' | 'mediaType'>>;

/** The AI Catalog a multi-agent responder serves at `/.well-known/ai-catalog.json`. */
export interface AiCatalogServeOptions {
  /** Who runs the catalog (draft §"Host Info"). */
  host?: AiCatalogHost;
  /**
   * Absolute URL of the mount point (e.g. `https://api.acme.com` or `https://acme.com/api`): the
   * entry URLs and the `Link` header are built on it. Set it when the middleware is mounted
   * under a base path or the cards' interfaces live on another host.
   * @default each static card's first interface origin; the request origin for a dynamic card
   */
  baseUrl?: string;
  /** More entries: agents hosted elsewhere, nested catalogs (`mediaType: application/ai-catalog+json`). */
  entries?: readonly AiCatalogEntry[];
  /** Catalog-level `metadata`. */
  metadata?: Record<string, unknown>;
}
