// One card variant, ready to serve: the card, its legacy alias and its extended card, every
// answer computed once (at start-up for a static card, once per variant for a card function).
import { A2A_AGENT_CARD_ENTRY_MEDIA_TYPE } from '../../catalog/format';
import type { Finding } from '../../findings';
import type { AgentCard } from '../../model';
import { createExtendedEndpoint, type ExtendedEndpoint, type ExtendedSettings } from '../extended/endpoint';
import { validateVariant } from '../kernel/card-validation';
import { type DocumentVariant, documentVariant } from '../kernel/derived';
import { type PreparedDocument, prepareDocument } from '../kernel/documents';
import { encodeCard, signedVariant } from '../kernel/encode';
import type { CardSettings } from '../kernel/options';
import { type LegacySetting, prepareLegacyDocument } from '../legacy/alias';

/** What every variant of a card is built with. */
export interface VariantSettings extends ExtendedSettings {
  readonly card: CardSettings<any>;
  readonly legacy: LegacySetting;
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
  const legacy = prepareLegacyDocument(settings.legacy, card, main, headers);
  const extended = createExtendedEndpoint(card, settings, warn);
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
