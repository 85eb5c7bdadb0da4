// The settings a multi-agent host's own documents (the AI Catalog, the ARD manifest) take from the
// top-level options: CORS and Cache-Control like a card, and the dynamic card's variant limits.
import { resolveTrustProxy } from '../kernel/trust';
import { type CardSettings, resolveCardSettings } from '../kernel/options';
import { reporter } from '../kernel/problems';
import type { AgentCardOptions } from '../types';

/** What the host's documents are served with. */
export interface HostDocumentSettings<Req> {
  readonly cors: CardSettings<Req>['cors'];
  readonly cacheControl: CardSettings<Req>['cacheControl'];
  readonly trustProxy: ReturnType<typeof resolveTrustProxy>['trust'];
  /** How many variants of a document built per request are kept. */
  readonly maxVariants: number;
  /** The `Retry-After` seconds of a 503 when a document cannot be built. */
  readonly retryAfter: number;
}

/**
 * The host documents' settings, or `undefined` when an option they read is bad: the agents report
 * each bad option already, so it is not reported twice.
 */
export function hostDocumentSettings<Req>(options: AgentCardOptions<Req>): HostDocumentSettings<Req> | undefined {
  const reported: string[] = [];
  const shared = resolveCardSettings(
    { cors: options.cors, cacheControl: options.cacheControl },
    reporter(reported),
    reported,
  );
  // Read as the dynamic room reads them; the host's documents keep as many variants as a card does.
  const dynamic = options.dynamic as { trustProxy?: unknown; maxVariants?: number; retryAfter?: number } | undefined;
  const trusted = resolveTrustProxy(dynamic?.trustProxy);
  if (reported.length > 0 || trusted.problems.length > 0) return undefined;
  return {
    cors: shared.cors,
    cacheControl: shared.cacheControl,
    trustProxy: trusted.trust,
    maxVariants: dynamic?.maxVariants ?? 100,
    retryAfter: dynamic?.retryAfter ?? 30,
  };
}
