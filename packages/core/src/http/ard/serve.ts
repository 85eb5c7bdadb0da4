// The `ard` option, and the manifest of a single-card host and of a multi-agent host.
import type { ArdEntry } from '../../ard/format';
import { ARD_QUERIES } from '../../ard/format';
import { AI_CATALOG_PREVIOUS_DRAFT } from '../../catalog/format';
import type { AgentCard } from '../../model';
import { showValue } from '../../util';
import type { Agent } from '../host/agent';
import { hostDocumentSettings } from '../host/settings';
import type { AiCatalogServeOptions } from '../host/types';
import type { CardSettings } from '../kernel/options';
import type { ProxyTrust } from '../kernel/trust';
import type { VariantSource } from '../kernel/derived';
import { type AgentCardResponder, internalsOf } from '../kernel/responder';
import type { AgentCardOptions } from '../types';
import { carriedEntry, nameSegment, representativeQueries } from './entries';
import { type ArdRoute, type ArdSource, createArdRoute } from './route';

/**
 * Checks the `ard` option: `true` serves the manifest, `false` does not; absent, the host's
 * default (served with `agents`, not for a single card).
 */
export function resolveArdOption(value: unknown, byDefault: boolean, problems: string[]): boolean {
  if (value === undefined) return byDefault;
  if (typeof value === 'boolean') return value;
  problems.push(
    `options.ard: must be true or false (${showValue(value)}). Use ard: false to serve no /.well-known/ard.json, or ard: true to serve it.`,
  );
  return false;
}

/** Warns when a card gives ARD fewer representative queries than it asks for (2–5). */
function warnQueries(card: AgentCard | undefined, who: string, logger: Pick<Console, 'warn'>): void {
  if (card === undefined) return;
  const n = representativeQueries(card).length;
  if (n < ARD_QUERIES.min)
    logger.warn(
      `${who}: its ARD entry has ${n} representative ${n === 1 ? 'query' : 'queries'}; search services index these. Add examples to the card's skills (${ARD_QUERIES.min} to ${ARD_QUERIES.max} in all).`,
    );
}

/** The card variants `responder` holds (every card responder made here holds them). */
function variantOf<Req>(responder: AgentCardResponder<Req>): VariantSource<Req> {
  return internalsOf(responder)!.variant!;
}

/** What the manifest of a single card reads of how its variants are made (the `dynamic` option's). */
export interface CardVariantSettings {
  /** The card function, when the card is made per request. */
  readonly card: unknown;
  readonly trustProxy: ProxyTrust | undefined;
  readonly maxVariants: number;
  readonly retryAfter: number;
}

/** The manifest of a single-card host: one entry, the card, named after the card. */
export function cardArdRoute<Req>(
  responder: AgentCardResponder<Req>,
  kernel: CardSettings<Req>,
  dynamic: CardVariantSettings,
): ArdRoute<Req> {
  const card = kernel.card as AgentCard | undefined;
  if (dynamic.card === undefined) warnQueries(card, 'agent card', kernel.logger);
  const id = nameSegment(typeof card?.name === 'string' ? card.name : 'agent');
  return createArdRoute([{ id, path: '', dynamic: dynamic.card !== undefined, variant: variantOf(responder) }], {
    baseUrl: undefined,
    cacheControl: kernel.cacheControl,
    cors: kernel.cors,
    trustProxy: dynamic.trustProxy,
    maxVariants: dynamic.maxVariants,
    retryAfter: dynamic.retryAfter,
    extra: [],
  });
}

/**
 * The manifest of a multi-agent host: an entry per agent its catalog lists, then the catalog's
 * declared entries that ARD can carry (the others are left out, with a warning at start-up).
 */
export function hostArdRoute<Req>(
  options: AgentCardOptions<Req>,
  catalog: (AiCatalogServeOptions & { baseUrl?: string; draft?: string; namespace?: string }) | false,
  agents: readonly Agent<Req>[],
  handles: ReadonlyMap<string, AgentCardResponder<any>>,
  version?: () => number,
): ArdRoute<Req> | undefined {
  const shared = hostDocumentSettings(options);
  if (shared === undefined) return undefined;
  const logger = options.logger ?? console;
  const listed = agents.filter((a) => a.entry !== false);
  for (const a of listed) warnQueries(a.card, `agent "${a.id}"`, logger);
  const extra: ArdEntry[] = [];
  const declared = catalog === false ? [] : (catalog.entries ?? []);
  declared.forEach((raw, i) => {
    const entry = carriedEntry(raw);
    if ('reason' in entry)
      logger.warn(`options.catalog.entries[${i}]: not listed in /.well-known/ard.json: ${entry.reason}. ${entry.fix}`);
    else extra.push(entry);
  });
  const sources: ArdSource<Req>[] = listed.map((a) => ({
    id: a.id,
    path: a.path,
    identifier: a.entry === false ? undefined : a.entry?.identifier,
    dynamic: a.card === undefined,
    variant: (request) => variantOf(handles.get(a.id)!)(request),
  }));
  return createArdRoute(sources, {
    baseUrl: catalog === false ? undefined : catalog.baseUrl,
    cacheControl: shared.cacheControl,
    cors: shared.cors,
    trustProxy: shared.trustProxy,
    maxVariants: shared.maxVariants,
    retryAfter: shared.retryAfter,
    extra,
    version,
    // The AI Catalog of the current draft names each agent urn:air:{publisher}:{namespace}:{id}.
    naming:
      catalog === false || catalog.draft === AI_CATALOG_PREVIOUS_DRAFT.id
        ? undefined
        : { publisher: catalog.publisher, namespace: catalog.namespace ?? 'agent' },
  });
}
