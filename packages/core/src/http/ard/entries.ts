// The ARD entries of a host: one per agent, built from its card, and the AI Catalog's declared
// extra entries carried over; every term taken from what the host already declares.
import { ARD_CONTEXT, ARD_IDENTIFIER, ARD_QUERIES, type ArdEntry } from '../../ard/format';
import { A2A_AGENT_CARD_ENTRY_MEDIA_TYPE } from '../../catalog/format';
import type { AgentCard } from '../../model';

/** A publisher domain as the `urn:air:` form allows it (`[::1]` and ports are not domains). */
function publisherOf(base: string): string {
  let host: string;
  try {
    host = new URL(base).hostname;
  } catch {
    host = 'localhost';
  }
  const cleaned = host.replace(/[^A-Za-z0-9.-]/g, '');
  return cleaned === '' ? 'localhost' : cleaned;
}

/** A name segment from free text: letters, digits, `.`, `_`, `-`; at most 64. */
export function nameSegment(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  return s === '' ? 'agent' : s;
}

/** How the AI Catalog of the host names its agents (current draft): `urn:air:{publisher}:{namespace}:{id}`. */
export interface AgentNaming {
  /** `catalog.publisher`; the host of the mount point when it is not set, as the catalog does. */
  readonly publisher?: string | undefined;
  /** `catalog.namespace` (`agent` by default). */
  readonly namespace: string;
}

/**
 * The ARD identifier of an agent: the identifier its catalog entry names when that is already a
 * `urn:air:` URN, else the one the host's AI Catalog gives it, `urn:air:{publisher}:{namespace}:{id}`
 * (`naming`; without an AI Catalog of the current draft, `urn:air:{host}:agent:{id}`), the
 * publisher's default being the host of the mount point (`baseUrl`, or the origin of the card's
 * interfaces). The catalog and the manifest so name each agent the same way.
 */
export function agentIdentifier(id: string, base: string, declared?: string, naming?: AgentNaming): string {
  if (declared !== undefined && declared.length <= 1024 && ARD_IDENTIFIER.test(declared)) return declared;
  return `urn:air:${naming?.publisher ?? publisherOf(base)}:${naming?.namespace ?? 'agent'}:${id}`;
}

/**
 * Up to five of the skills' `examples`, one skill at a time in turn (so every skill is heard
 * before any speaks twice), blank and repeated ones left out.
 */
export function representativeQueries(card: AgentCard): string[] {
  const lists = (Array.isArray(card.skills) ? card.skills : []).map((s) =>
    Array.isArray(s.examples) ? s.examples.filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [],
  );
  const out: string[] = [];
  const seen = new Set<string>();
  for (let round = 0; out.length < ARD_QUERIES.max; round++) {
    let any = false;
    for (const list of lists) {
      if (round >= list.length) continue;
      any = true;
      const q = list[round]!.trim();
      if (!seen.has(q) && out.length < ARD_QUERIES.max) {
        seen.add(q);
        out.push(q);
      }
    }
    if (!any) break;
  }
  return out;
}

/** An agent's entry: its card's name, description, version and skills, and where the card is. */
export function agentEntry(card: AgentCard, identifier: string, url: string): ArdEntry {
  const queries = representativeQueries(card);
  const skills = (Array.isArray(card.skills) ? card.skills : [])
    .map((s) => s.id)
    .filter((id): id is string => typeof id === 'string' && id !== '');
  const entry: ArdEntry = {
    '@context': ARD_CONTEXT,
    identifier,
    displayName: card.name,
    type: A2A_AGENT_CARD_ENTRY_MEDIA_TYPE,
    url,
  };
  if (typeof card.description === 'string' && card.description !== '') entry.description = card.description;
  if (typeof card.version === 'string' && card.version !== '') entry.version = card.version;
  if (queries.length > 0) entry.representativeQueries = queries;
  if (skills.length > 0) entry.capabilities = skills;
  return entry;
}

const CARRIED = ['description', 'tags', 'version', 'updatedAt'] as const;

/** Why a declared catalog entry cannot be an ARD entry, and the member to set, with a value. */
export interface NotCarried {
  reason: string;
  fix: string;
}

/** `urn:air:acme.com:mcp:invoice-search` → `Invoice search`: a display name to start from. */
function nameFrom(identifier: string): string {
  const words = identifier
    .slice(identifier.lastIndexOf(':') + 1)
    .replace(/[-_.~]+/g, ' ')
    .trim();
  return words === '' ? 'Acme invoices' : words[0]!.toUpperCase() + words.slice(1);
}

/**
 * A declared catalog entry as an ARD entry, or why it cannot be one (ARD requires a `urn:air:`
 * identifier and a display name; a catalog entry may leave the name to its artifact).
 */
export function carriedEntry(raw: unknown): ArdEntry | NotCarried {
  const e = raw as Record<string, unknown>;
  const identifier = e.identifier;
  if (typeof identifier !== 'string' || identifier.length > 1024 || !ARD_IDENTIFIER.test(identifier))
    return {
      reason: `its identifier is not a urn:air:<publisher>:<namespace>:<name> URN (${String(identifier).slice(0, 80)})`,
      fix: "Set its identifier to one, e.g. identifier: 'urn:air:acme.com:mcp:invoices'.",
    };
  const displayName = e.displayName;
  if (typeof displayName !== 'string' || displayName === '')
    return {
      reason: 'it has no displayName, which ARD requires',
      fix: `Set its displayName to the name people see, e.g. displayName: ${JSON.stringify(nameFrom(identifier))}.`,
    };
  // `type` in the current draft of the catalog, `mediaType` in the one before.
  const type = typeof e.type === 'string' ? e.type : e.mediaType;
  if (typeof type !== 'string')
    return {
      reason: 'it has no media type',
      fix: "Set its type to the artifact's media type, e.g. type: 'application/mcp-server-card+json'.",
    };
  const entry: ArdEntry = { '@context': ARD_CONTEXT, identifier, displayName, type };
  if (typeof e.url === 'string') entry.url = e.url;
  else if (typeof e.data === 'object' && e.data !== null) entry.data = e.data as Record<string, unknown>;
  for (const term of CARRIED) if (e[term] !== undefined) (entry as Record<string, unknown>)[term] = e[term];
  return entry;
}
