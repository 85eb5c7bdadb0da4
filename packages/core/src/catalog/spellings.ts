/**
 * How a reader takes the spellings published catalogs use in place of the registered ones: a
 * `urn:ai:` identifier (about one published entry in nine) is the `urn:air:` identifier it meant,
 * and an entry type written in other letters, with parameters or without its `+json` suffix is
 * the registered type it names. `validateAiCatalog` reports each (`catalog-identifier-urn-ai`,
 * `catalog-entry-type-spelling`) and checks the entry as read; discovery follows it as read.
 */
import {
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  AGENT_SKILLS_ENTRY_TYPE,
  AI_CATALOG_MEDIA_TYPE,
  MCP_SERVER_CARD_ENTRY_TYPE,
} from './format';

/** The entry types the drafts register, and the A2A type of the previous draft's example. */
const REGISTERED: readonly string[] = [
  A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
  MCP_SERVER_CARD_ENTRY_TYPE,
  AGENT_SKILLS_ENTRY_TYPE,
  AI_CATALOG_MEDIA_TYPE,
  'application/a2a+json',
];

/**
 * The `urn:air:` identifier a `urn:ai:` one stands for (`urn:ai:acme.com:agents:billing` →
 * `urn:air:acme.com:agents:billing`; the namespace identifier is case-insensitive, RFC 8141), or
 * `undefined` when `identifier` is not spelled that way.
 */
export function urnAirOf(identifier: string): string | undefined {
  return /^urn:ai:/i.test(identifier) ? `urn:air:${identifier.slice('urn:ai:'.length)}` : undefined;
}

/**
 * The registered entry type `type` is another spelling of (other letter case, spaces, media type
 * parameters, a missing `+json`), or `undefined` when it is registered as written or names none.
 */
export function registeredEntryTypeOf(type: string): string | undefined {
  if (REGISTERED.includes(type)) return undefined;
  const essence = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (REGISTERED.includes(essence)) return essence;
  if (REGISTERED.includes(`${essence}+json`)) return `${essence}+json`;
  return undefined;
}
