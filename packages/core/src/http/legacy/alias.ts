// The legacy path `/.well-known/agent.json`: a byte-identical alias of the card, or the
// v0.3-compatible superset card, or nothing.
import type { AgentCard } from '../../model';
import { type DocumentHeaderSettings, type PreparedDocument, prepareDocument } from '../kernel/documents';
import { encodeCard } from '../kernel/encode';
import { CANONICAL_LINK } from '../kernel/paths';
import type { Report } from '../kernel/problems';
import { toLegacyV03Card } from './v03';

/** The `legacy` option: `true` serves an alias, `'v0.3'` the v0.3 card, `false` nothing. */
export type LegacySetting = boolean | 'v0.3';

/** Checks the `legacy` option. @default true */
export function resolveLegacy(value: unknown, err: Report): LegacySetting {
  if (value === undefined) return true;
  if (typeof value === 'boolean' || value === 'v0.3') return value;
  err('legacy', "must be true, false or 'v0.3'", value, "Use true (alias), 'v0.3' (v0.3-compatible card) or false.");
  return true;
}

/**
 * The document at the legacy path for one card variant: the main document's bytes and ETag with
 * a canonical `Link`, or the v0.3 card (unsigned, it differs from the signed one); `undefined`
 * when the path is off.
 */
export function prepareLegacyDocument(
  setting: LegacySetting,
  card: AgentCard,
  main: PreparedDocument,
  headers: DocumentHeaderSettings,
): PreparedDocument | undefined {
  const alias = { ...headers, link: CANONICAL_LINK, served: { ...headers.served, kind: 'alias' } };
  if (setting === true) return prepareDocument(main.bytes, alias, main.etag);
  if (setting === 'v0.3') return prepareDocument(encodeCard(toLegacyV03Card(card)), alias);
  return undefined;
}
