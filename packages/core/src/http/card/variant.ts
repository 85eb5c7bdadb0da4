import type { Finding } from '../findings';
import type { AgentCard } from '../model';
import { validateVariant } from './card-validation';
import { prepareDocument, type PreparedDocument } from './documents';
import { encodeCard, signedVariant } from './encode';
import { createExtendedEndpoint, type ExtendedEndpoint } from './extended';
import { toLegacyV03Card } from './legacy-v03';
import type { ResolvedAgentCardOptions } from './options';
import { AGENT_CARD_PATH } from './paths';

/** One card variant, ready to serve: every document and answer computed once. */
export interface PreparedVariant {
  readonly card: AgentCard;
  readonly main: PreparedDocument;
  /** `undefined` when the legacy path is off. */
  readonly legacy: PreparedDocument | undefined;
  readonly extended: ExtendedEndpoint;
}

/** The `Link` header of the legacy alias (RFC 8288: the canonical document). */
export const CANONICAL_LINK = `<${AGENT_CARD_PATH}>; rel="canonical"`;

/**
 * Validates, serialises, hashes and prepares every answer of one card variant. Runs once per
 * variant (at start-up for a static card), never per request.
 */
export function prepareVariant(
  input: unknown,
  options: ResolvedAgentCardOptions<any>,
  warn: (findings: Finding[]) => void,
): PreparedVariant {
  const card = validateVariant(input, options, warn);
  // Signed here, where the variant becomes bytes, so the signature, the bytes and the ETag are
  // made together once; the v0.3 document differs from it and stays unsigned, the extended card
  // is signed where it becomes bytes (extended.ts).
  const served = signedVariant(card, options.signer);
  const bytes = encodeCard(served);
  // A dynamic variant depends on Host (and the trusted proxy headers): say so to shared caches.
  const headerSettings = {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    cors: options.cors,
    vary: options.vary,
  };
  const main = prepareDocument(bytes, headerSettings);
  let legacy: PreparedDocument | undefined;
  if (options.legacy === true) {
    legacy = prepareDocument(bytes, { ...headerSettings, link: CANONICAL_LINK }, main.etag);
  } else if (options.legacy === 'v0.3') {
    legacy = prepareDocument(encodeCard(toLegacyV03Card(card)), { ...headerSettings, link: CANONICAL_LINK });
  }
  const extended = createExtendedEndpoint(card, options, warn);
  return { card, main, legacy, extended };
}
