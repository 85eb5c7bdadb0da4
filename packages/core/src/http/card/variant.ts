// One card variant, ready to serve: the card, its legacy alias and its extended card, every
// answer computed once (at start-up for a static card, once per variant for a card function).
import { A2A_AGENT_CARD_ENTRY_MEDIA_TYPE } from '../../catalog/format';
import type { Finding } from '../../findings';
import type { AgentCard } from '../../model';
import { validateVariant } from '../kernel/card-validation';
import { type DocumentVariant, documentVariant } from '../kernel/derived';
import { type DocumentHeaderSettings, type PreparedDocument, prepareDocument } from '../kernel/documents';
import { encodeCard, signedVariant } from '../kernel/encode';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import type { ExtendedCardRequest, GetExtendedAgentCardResult } from '../kernel/extended';
import type { CardSettings } from '../kernel/options';

/** The extended card of one public card variant (extended/endpoint.ts makes it). */
export interface ExtendedEndpoint {
  /** REST paths this endpoint answers; empty when the REST endpoint is not served. */
  readonly paths: readonly string[];
  /** Answers `GET` on one of `paths` (and HEAD, OPTIONS, others → 405). */
  handle(request: AgentCardRequest<unknown>): AgentCardResponse | Promise<AgentCardResponse>;
  /** Resolves the extended card for a JSON-RPC `GetExtendedAgentCard` call. */
  resolve(request: ExtendedCardRequest<unknown>): Promise<GetExtendedAgentCardResult>;
}

/** What a variant reads of the resolved `extended` option (`update()` replaces its `card`). */
export interface ExtendedOptionSettings {
  readonly card?: unknown;
  /** The REST paths (declared), `false`, or derived from the card. */
  readonly path: readonly string[] | false | undefined;
}

/**
 * The parts of a variant that other rooms prepare (the legacy alias, the extended card), handed
 * in where the rooms are composed (responder.ts).
 */
export interface VariantParts {
  /** The document at the legacy path, or `undefined` when none is served. */
  legacy(card: AgentCard, main: PreparedDocument, headers: DocumentHeaderSettings): PreparedDocument | undefined;
  /** The variant's extended card. */
  extended(card: AgentCard, settings: VariantSettings, warn: (findings: Finding[]) => void): ExtendedEndpoint;
}

/** What every variant of a card is built with. */
export interface VariantSettings {
  readonly card: CardSettings<any>;
  /** `undefined` without the `extended` option. */
  readonly extended: ExtendedOptionSettings | undefined;
  /** `Retry-After` seconds of a 503. */
  readonly retryAfter: number;
  /** Whether the legacy path is served at all. */
  readonly legacyPath: boolean;
  readonly parts: VariantParts;
  /** The request headers a variant depends on (`Vary`); empty for a static card. */
  readonly vary: readonly string[];
  /** The `Link` of the discovery documents the host serves (on the card, not its legacy alias). */
  readonly link?: string | undefined;
}

/** One card variant, ready to serve: every document and answer computed once. */
export interface PreparedVariant {
  readonly card: AgentCard;
  readonly main: PreparedDocument;
  /** The card as served, its bytes and ETag: what the documents about the host are made of. */
  readonly variant: DocumentVariant<AgentCard>;
  /** `undefined` when the legacy path is off. */
  readonly legacy: PreparedDocument | undefined;
  readonly extended: ExtendedEndpoint;
}

/**
 * Validates, serialises, hashes and prepares every answer of one card variant. Runs once per
 * variant (at start-up for a static card), never per request.
 */
export function prepareVariant(
  input: unknown,
  settings: VariantSettings,
  warn: (findings: Finding[]) => void,
): PreparedVariant {
  const card = validateVariant(input, settings.card, warn);
  // Signed here, where the variant becomes bytes, so the signature, the bytes and the ETag are
  // made together once; the v0.3 document differs from it and stays unsigned, the extended card
  // is signed where it becomes bytes (extended/endpoint.ts).
  const served = signedVariant(card, settings.card.signer);
  // A dynamic variant depends on Host (and the trusted proxy headers): say so to shared caches.
  const headers = {
    served: { kind: 'card', agent: settings.card.agent },
    contentType: settings.card.contentType,
    cacheControl: settings.card.cacheControl,
    cors: settings.card.cors,
    vary: settings.vary,
  };
  // The card path also answers `Accept: application/a2a-agent-card+json` (the entry type of the
  // AI Catalog and ARD) with that type: the same bytes, prebuilt like the default answer.
  const main = prepareDocument(encodeCard(served), {
    ...headers,
    link: settings.link,
    alternateContentType: A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  });
  const legacy = settings.parts.legacy(card, main, headers);
  const extended = settings.parts.extended(card, settings, warn);
  return { card, main, variant: documentVariant(served, main, settings.card.agent), legacy, extended };
}

/** Warns at start-up (and on update) when the card and the `extended` option disagree. */
export function warnAboutExtended(card: AgentCard, variant: PreparedVariant, settings: VariantSettings): void {
  const declared = card.capabilities.extendedAgentCard === true;
  const logger = settings.card.logger;
  if (declared && settings.extended === undefined) {
    logger.warn(
      'agent card: capabilities.extendedAgentCard is true but no `extended` option is set; GetExtendedAgentCard answers ExtendedAgentCardNotConfiguredError. Add extended: { authenticate, card }.',
    );
  } else if (!declared && settings.extended !== undefined) {
    logger.warn(
      'agent card: the `extended` option is set but the card does not declare capabilities.extendedAgentCard: true; GetExtendedAgentCard answers UnsupportedOperationError. Set capabilities.extendedAgentCard to true.',
    );
  } else if (declared && variant.extended.paths.length === 0 && settings.extended?.path !== false) {
    logger.warn(
      'agent card: the card has no HTTP+JSON interface, so the REST GET …/extendedAgentCard endpoint is not served; use getExtendedAgentCard() from your JSON-RPC handler, or set extended.path.',
    );
  }
}
