/**
 * What a change between two listings (a host's AI Catalog, its ARD manifest, its MCP catalog) means
 * for the clients and search services that read them, in `diff`'s classes: an entry gone, or moved
 * to another URL or media type, is breaking (whoever followed it fails); an entry added or another
 * member changed is structural; text for people and signatures are descriptive, reported and never
 * hidden. An A2A card carried inline (`data`) is judged as `diff` judges a card.
 */
import type { CardChange } from './diff-cards';
import { diffJsonDocuments, type KeyMembers } from './diff-cards';
import { type ChangeImpact, changeFinding, classifyChanges, type DiffFinding, pointerSegments } from './diff-impact';

/** The listings the drift gate compares besides the card. */
export type ListingKind = 'ai-catalog' | 'ard' | 'mcp-catalog';

/** How a listing is named in messages. */
export const LISTING_NAMES: Readonly<Record<ListingKind, string>> = {
  'ai-catalog': 'AI Catalog',
  ard: 'ARD manifest',
  'mcp-catalog': 'MCP catalog',
};

/**
 * Entries are matched by `identifier` (every format requires it; the MCP catalog is the AI Catalog's
 * subset of MCP Server Card entries, so its entries are AI Catalog entries), anything else as a
 * card's arrays are.
 */
const LISTING_KEYS: KeyMembers = { '/entries': 'identifier', default: 'id' };

/** The rules a listing change is reported under, all in the catalogue's `diff` section. */
type ListingRuleId = 'diff-entry-removed' | 'diff-entry-url-changed' | 'diff-structural' | 'diff-descriptive';

interface Verdict {
  rule: ListingRuleId;
  impact: ChangeImpact;
  reason: string;
}

const HINTS: Record<ListingRuleId, string> = {
  'diff-entry-removed':
    'Clients and search services that find the agent through this entry lose it. Deploy the reviewed catalog and manifest (agent-card build writes them), or review the removal first.',
  'diff-entry-url-changed':
    'Clients following the reviewed entry fetch something else. Deploy the reviewed catalog and manifest, or keep the old URL answering and list both.',
  'diff-structural': 'Review it: what the listing offers changed, nothing a client followed is gone.',
  'diff-descriptive': 'Text for people: nothing to do for clients.',
};

/** Members whose change moves a client that followed the entry: where it goes and what it reads there. */
const ENTRY_TARGET = new Set(['url', 'type', 'mediaType', 'identifier']);

/** Text for people, in either format (AI Catalog drafts, ARD v0.91) or its host and publisher objects. */
const DESCRIPTIVE_MEMBERS = new Set([
  'displayName',
  'description',
  'tags',
  'version',
  'updatedAt',
  'representativeQueries',
  'documentationUrl',
  'logoUrl',
  'publisher',
  'name',
]);

/**
 * Signatures of the document (AI Catalog `signature`, `additionalSignatures`) and the digest of
 * a listed document, which changes with it (its own comparison says how).
 */
const SIGNATURE_MEMBERS = new Set(['signature', 'additionalSignatures', 'signatures', 'digest']);

/** `entries`, `[identifier=x]` (or `3`), then the member path: a keyed step split like `diff`'s. */
function segmentsOf(path: string): string[] {
  return pointerSegments(path).flatMap((s) => {
    const keyed = /^([^[]*)(\[.*\])$/.exec(s);
    return keyed ? [keyed[1]!, keyed[2]!] : [s];
  });
}

function verdictOf(c: CardChange): Verdict {
  const seg = segmentsOf(c.path);
  const structural = (reason: string): Verdict => ({ rule: 'diff-structural', impact: 'structural', reason });
  const descriptive = (reason: string): Verdict => ({ rule: 'diff-descriptive', impact: 'descriptive', reason });
  const last = seg.at(-1) ?? '';
  if (seg.length === 0) return { rule: 'diff-entry-removed', impact: 'breaking', reason: 'document replaced' };
  if (seg.some((s) => SIGNATURE_MEMBERS.has(s)))
    return descriptive(`${last === 'digest' ? 'digest' : 'signature'} ${c.kind}`);
  if (seg[0] === 'entries') {
    if (seg.length <= 2) {
      if (c.kind === 'added') return structural(seg.length === 1 ? 'entries added' : 'entry added');
      return {
        rule: 'diff-entry-removed',
        impact: 'breaking',
        reason: seg.length === 1 ? 'entries removed' : 'entry removed',
      };
    }
    const member = seg[2] ?? '';
    if (seg.length === 3 && ENTRY_TARGET.has(member) && c.kind !== 'added') {
      return { rule: 'diff-entry-url-changed', impact: 'breaking', reason: `entry ${member} ${c.kind}` };
    }
  }
  if (seg.some((s) => DESCRIPTIVE_MEMBERS.has(s))) return descriptive(`${last} ${c.kind}`);
  return structural(`${last} ${c.kind}`);
}

/** A value in one line for a message: JSON, cut to 80 characters (printers make it visible). */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The entry at `[identifier=x]` of `document`, when the entries were matched by identifier. */
function entryAt(document: unknown, step: string): Record<string, unknown> | undefined {
  const id = /^\[identifier=(.*)\]$/.exec(step)?.[1];
  const entries = isObject(document) && Array.isArray(document.entries) ? document.entries : [];
  const entry = id === undefined ? undefined : entries.find((e) => isObject(e) && e.identifier === id);
  return isObject(entry) ? entry : undefined;
}

const A2A_TYPES = new Set(['application/a2a-agent-card+json', 'application/a2a+json']);

/**
 * The changes inside an A2A card carried inline by one entry (`/entries[identifier=x]/data/…`),
 * judged as `diff` judges a card, their pointers kept in the listing; the others left as they are.
 */
function inlineCards(changes: CardChange[], after: unknown): { rest: CardChange[]; judged: DiffFinding[] } {
  const byEntry = new Map<string, CardChange[]>();
  const rest: CardChange[] = [];
  for (const c of changes) {
    const seg = pointerSegments(c.path);
    const inside = seg[0]?.startsWith('entries[') === true && seg[1] === 'data' && seg.length > 2;
    const entry = inside ? entryAt(after, seg[0]!.slice('entries'.length)) : undefined;
    const type = entry?.type ?? entry?.mediaType;
    if (!inside || typeof type !== 'string' || !A2A_TYPES.has(type)) {
      rest.push(c);
      continue;
    }
    const prefix = `/${seg[0]}/data`;
    byEntry.set(prefix, [...(byEntry.get(prefix) ?? []), { ...c, path: c.path.slice(prefix.length) }]);
  }
  const judged: DiffFinding[] = [];
  for (const [prefix, list] of byEntry) {
    const card = entryAt(after, prefix.slice('/entries'.length, -'/data'.length))?.data;
    const diff = { changes: list, versionChanged: false, contentChanged: false };
    for (const f of classifyChanges(diff, card)) {
      judged.push({ ...f, path: `${prefix}${f.path}`, message: `${prefix}${f.message}` });
    }
  }
  return { rest, judged };
}

/**
 * Each difference between the reviewed listing (`before`) and the served one (`after`) as a
 * finding of `diff`'s classes: its rule, impact, pointer in the listing and a short reason.
 *
 * @example classifyListingChanges(reviewedCatalog, servedCatalog).filter((f) => f.impact === 'breaking')
 */
export function classifyListingChanges(before: unknown, after: unknown): DiffFinding[] {
  const { rest, judged } = inlineCards(diffJsonDocuments(before, after, LISTING_KEYS), after);
  const findings = rest.map((c) => {
    const v = verdictOf(c);
    return changeFinding(c, v, HINTS[v.rule]);
  });
  return [...findings, ...judged];
}

/** The finding for a reviewed listing the host does not serve: every entry it lists is gone. */
export function listingGone(kind: ListingKind, reviewed: unknown, answer: string): DiffFinding {
  const entries = isObject(reviewed) && Array.isArray(reviewed.entries) ? reviewed.entries.length : 0;
  return {
    rule: 'diff-entry-removed',
    severity: 'error',
    path: '',
    message: `/: the host serves no ${LISTING_NAMES[kind]} (${answer}); the reviewed one lists ${entries} entr${entries === 1 ? 'y' : 'ies'}.`,
    hint: HINTS['diff-entry-removed'],
    impact: 'breaking',
    kind: 'removed',
  };
}

/** The finding for a listing the host serves that the reviewed site does not have. */
export function listingUnreviewed(kind: ListingKind): DiffFinding {
  return {
    rule: 'diff-structural',
    severity: 'warning',
    path: '',
    message: `/: the host serves an ${LISTING_NAMES[kind]} that the reviewed site does not have.`,
    hint: 'Review it: build the site from the configuration that is deployed (agent-card build), or stop serving it.',
    impact: 'structural',
    kind: 'added',
  };
}
