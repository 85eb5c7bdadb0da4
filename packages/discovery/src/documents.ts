/**
 * Which discovery documents a host serves and whether they agree: the card (and its legacy
 * alias), the AI Catalog in either draft, the ARD manifest, the MCP catalog, the JWK Set and the
 * `Link` header, graded in one line a reader can act on. Every request stays on the checked
 * origin: a URL a document names on another origin is compared as text, never fetched.
 */
import { createHash } from 'node:crypto';
import { validateArdManifest } from '@agent-card/core';
import { A2A_ENTRY_MEDIA_TYPES, ARD_PATH, JWKS_PATH, MCP_CATALOG_PATH } from '@agent-card/core/http';
import { parseBody, parseMediaType } from './body';
import { type ExchangeSpec, exchange, type Exchange } from './request';
import type { DiscoverySettings } from './target';
import type {
  DiscoveryDisagreement,
  DiscoveryDocument,
  DiscoveryDocumentsReport,
  DiscoveryGrade,
  DiscoveryReport,
} from './types';

const CARD_ENTRY_TYPE = 'application/a2a-agent-card+json';
/** Entries compared per document; more are counted, not read. */
const MAX_COMPARED = 100;
/** Cards fetched again for their bytes (entries that carry a digest). */
const MAX_DIGESTS = 8;
/** Longest `Link` header read; relations past it are not looked at. */
const MAX_LINK_LENGTH = 8192;

/** What {@link gradeDocuments} needs from the run. */
export interface DocumentsContext {
  origin: string;
  settings: DiscoverySettings;
  /** Milliseconds a follow-up request may take from now. */
  followUp(timeoutMs: number): number;
  onRequest(): void;
}

type Entry = Record<string, unknown>;
const isObject = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const cut = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s);

function get(ctx: DocumentsContext, path: string, accept: string): Promise<Exchange> {
  const { settings } = ctx;
  const spec: ExchangeSpec = {
    method: 'GET',
    url: new URL(path, ctx.origin).href,
    headers: { accept },
    caller: { origin: ctx.origin, headers: settings.headers },
    // Same-origin redirects only: exchange() never follows a hop to another origin.
    follow: true,
    allowHttp: settings.allowHttp,
    maxRedirects: settings.maxRedirects,
    maxBytes: settings.maxBytes,
    timeoutMs: ctx.followUp(settings.timeoutMs),
    fetch: settings.fetch,
    onRequest: ctx.onRequest,
  };
  if (settings.signal) spec.signal = settings.signal;
  return exchange(spec);
}

/** A fetched document as the report lists it, and its parsed JSON when it is served. */
function describe(
  kind: DiscoveryDocument['kind'],
  path: string,
  got: Exchange,
): { doc: DiscoveryDocument; value?: unknown } {
  const doc: DiscoveryDocument = { kind, path, url: got.finalUrl, served: false };
  if (got.status !== undefined) doc.status = got.status;
  const type = got.headers?.get('content-type');
  if (type) doc.contentType = type;
  if (got.failure) doc.failure = got.failure.kind;
  if (got.status !== 200 || got.truncated) return { doc };
  const parsed = parseBody(got.body);
  if (parsed.kind !== 'json') return { doc };
  doc.served = true;
  // Kept for the drift gate (check --against), which compares it with the reviewed site's copy;
  // the AI Catalog's parsed body is the catalog report's `document`.
  doc.document = parsed.value;
  return { doc, value: parsed.value };
}

function entriesOf(value: unknown): Entry[] {
  const list = isObject(value) ? value.entries : undefined;
  return Array.isArray(list) ? list.slice(0, MAX_COMPARED).filter(isObject) : [];
}

const entryType = (e: Entry) => str(e.type) ?? str(e.mediaType);
const isCardEntry = (e: Entry) => A2A_ENTRY_MEDIA_TYPES.includes(entryType(e) ?? '');

function resolve(url: unknown, base: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url, base).href;
  } catch {
    return undefined;
  }
}

/** The relations and targets of a `Link` header (RFC 8288), as far as the bound allows. */
export function parseLinkHeader(value: string | undefined): { rel: string; href: string }[] {
  if (value === undefined || value.length > MAX_LINK_LENGTH) return [];
  const out: { rel: string; href: string }[] = [];
  for (const m of value.matchAll(/<([^>]{0,2048})>((?:\s*;\s*[^,;]{0,256})*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]{1,128})"?/i.exec(m[2] ?? '')?.[1];
    if (rel !== undefined) for (const r of rel.trim().split(/\s+/)) out.push({ rel: r.toLowerCase(), href: m[1]! });
  }
  return out;
}

/** The names and versions the served cards give, by card URL. */
function servedCards(report: DiscoveryReport): Map<string, { name?: string; version?: string }> {
  const cards = new Map<string, { name?: string; version?: string }>();
  const read = (doc: unknown) => ({
    ...(isObject(doc) && str(doc.name) !== undefined ? { name: doc.name as string } : {}),
    ...(isObject(doc) && str(doc.version) !== undefined ? { version: doc.version as string } : {}),
  });
  if (report.cardUrl !== undefined && report.document !== undefined) cards.set(report.cardUrl, read(report.document));
  cards.set(report.primary.url, read(report.primary.document));
  for (const a of report.agents ?? []) if (a.card?.document !== undefined) cards.set(a.url, read(a.card.document));
  return cards;
}

/** The identifier each listing gives a card URL: one agent, one name in every document. */
function compareIdentifiers(
  a: { name: string; url: string; entries: Entry[] },
  b: { name: string; url: string; entries: Entry[] },
  out: DiscoveryDisagreement[],
): void {
  const named = new Map<string, string>();
  for (const e of a.entries.filter(isCardEntry)) {
    const url = resolve(e.url, a.url);
    const id = str(e.identifier);
    if (url !== undefined && id !== undefined && !named.has(url)) named.set(url, id);
  }
  for (const e of b.entries.filter(isCardEntry)) {
    const url = resolve(e.url, b.url);
    const id = str(e.identifier);
    const other = url === undefined ? undefined : named.get(url);
    if (other !== undefined && id !== undefined && id !== other)
      out.push({
        about: 'identifier',
        message: `${a.name} names the card ${cut(url!)} ${JSON.stringify(cut(other))}; ${b.name} names it ${JSON.stringify(cut(id))}.`,
        hint: 'Name each agent the same way in every discovery document: serve them from one declaration.',
      });
  }
}

/** Each listing's A2A entries against the cards served: name, version, and listed by the other. */
function compareListings(
  report: DiscoveryReport,
  listings: { name: string; url: string; entries: Entry[] }[],
  out: DiscoveryDisagreement[],
): void {
  const cards = servedCards(report);
  const urlsBy = new Map<string, Set<string>>();
  for (const listing of listings) {
    const urls = new Set<string>();
    for (const e of listing.entries.filter(isCardEntry)) {
      const url = resolve(e.url, listing.url);
      if (url === undefined) continue;
      urls.add(url);
      const card = cards.get(url);
      const label = str(e.identifier) ?? url;
      if (card === undefined) continue;
      const name = str(e.displayName);
      if (name !== undefined && card.name !== undefined && name !== card.name)
        out.push({
          about: 'name',
          message: `${listing.name} names ${cut(label)} ${JSON.stringify(cut(name))}; the card at ${cut(url)} says ${JSON.stringify(cut(card.name))}.`,
          hint: `Build ${listing.name} from the served card, or leave displayName out where the format allows it.`,
        });
      const version = str(e.version);
      if (version !== undefined && card.version !== undefined && version !== card.version)
        out.push({
          about: 'version',
          message: `${listing.name} gives ${cut(label)} version ${JSON.stringify(cut(version))}; the card at ${cut(url)} is ${JSON.stringify(cut(card.version))}.`,
          hint: `Publish ${listing.name} again after every card release (the middleware builds it from the card).`,
        });
    }
    urlsBy.set(listing.name, urls);
  }
  const [a, b] = listings;
  if (a === undefined || b === undefined) return;
  compareIdentifiers(a, b, out);
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const)
    for (const url of urlsBy.get(from.name) ?? [])
      if (!urlsBy.get(to.name)?.has(url))
        out.push({
          about: 'url',
          message: `${from.name} lists the card ${cut(url)}; ${to.name} does not.`,
          hint: 'List the same agents in every discovery document: serve them from one declaration.',
        });
}

/** Entries that carry a `sha256:` digest, checked against the exact bytes their same-origin URL serves. */
async function compareDigests(
  ctx: DocumentsContext,
  listings: { name: string; url: string; entries: Entry[] }[],
  out: DiscoveryDisagreement[],
): Promise<void> {
  const wanted: { name: string; url: string; digest: string }[] = [];
  for (const l of listings)
    for (const e of l.entries) {
      const digest = str(e.digest);
      const url = resolve(e.url, l.url);
      if (digest === undefined || url === undefined || new URL(url).origin !== ctx.origin) continue;
      if (wanted.length < MAX_DIGESTS) wanted.push({ name: l.name, url, digest });
    }
  await Promise.all(
    wanted.map(async (w) => {
      const got = await get(ctx, new URL(w.url).pathname + new URL(w.url).search, CARD_ENTRY_TYPE);
      if (got.status !== 200 || got.truncated) return;
      const hash = createHash('sha256').update(got.body);
      const hex = hash.copy().digest('hex');
      const b64 = hash.digest('base64url');
      const given = w.digest
        .replace(/^sha-?256[:=]/i, '')
        .replace(/=+$/, '')
        .replace(/\+/g, '-')
        .replace(/\//g, '_');
      if (given.toLowerCase() !== hex && given !== b64)
        out.push({
          about: 'digest',
          message: `${w.name} gives ${cut(w.url)} the digest ${JSON.stringify(cut(w.digest))}; the bytes served there hash to sha256:${hex}.`,
          hint: 'Compute the digest from the exact bytes served (the middleware does), and publish it again after every change.',
        });
    }),
  );
}

function grade(
  report: DiscoveryReport,
  docs: DiscoveryDocument[],
  links: DiscoveryDocumentsReport['links'],
  out: DiscoveryDisagreement[],
): { grade: DiscoveryGrade; summary: string } {
  const served = (kind: DiscoveryDocument['kind']) => docs.find((d) => d.kind === kind && d.served);
  if (report.card === undefined)
    return {
      grade: 'F',
      summary: `F: no valid Agent Card at ${report.primary.url}. Fix the card's findings first; every other discovery document points to it.`,
    };
  const invalid = docs.find((d) => d.served && d.valid === false);
  if (out.length > 0 || invalid !== undefined) {
    const first = out[0];
    const count = out.length + (invalid === undefined ? 0 : 1);
    const what =
      first !== undefined
        ? `${first.message} ${first.hint}`
        : `${invalid!.url} is not a valid ${invalid!.kind === 'ard' ? 'ARD manifest' : 'document'}. See its findings.`;
    return {
      grade: 'C',
      summary: `C: the discovery documents disagree (${count} difference${count === 1 ? '' : 's'}). ${what}`,
    };
  }
  const missing: string[] = [];
  if (!served('ai-catalog')) missing.push(`an AI Catalog at /.well-known/ai-catalog.json`);
  if (!served('ard')) missing.push(`an ARD manifest at ${ARD_PATH}`);
  const named = new Set(links.map((l) => l.rel));
  const unnamed = (['ai-catalog', 'ard'] as const).filter((rel) => served(rel) && !named.has(rel));
  if (missing.length > 0)
    return {
      grade: 'B',
      summary: `B: the card is valid and what is served agrees; add ${missing.join(' and ')} so catalogs and search services find the agents (the middleware serves both with agents).`,
    };
  if (unnamed.length > 0)
    return {
      grade: 'B',
      summary: `B: every document is served and agrees; name ${unnamed.join(' and ')} in the card's Link header (rel="${unnamed[0]}") so clients that fetch only the card find them.`,
    };
  return {
    grade: 'A',
    summary: `A: the card, the AI Catalog, ARD and the Link header agree${served('jwks') ? ', and the key set is published' : ''}.`,
  };
}

/**
 * Fetches the ARD manifest, the MCP catalog, the JWK Set and the card under its entry media
 * type, on the checked origin only, and compares what every document says about the agents.
 */
export async function gradeDocuments(
  ctx: DocumentsContext,
  report: DiscoveryReport,
): Promise<DiscoveryDocumentsReport> {
  const [ard, mcp, jwks, negotiated] = await Promise.all([
    get(ctx, ARD_PATH, 'application/json'),
    get(ctx, MCP_CATALOG_PATH, 'application/json'),
    get(ctx, JWKS_PATH, 'application/jwk-set+json, application/json'),
    get(ctx, report.primary.path, CARD_ENTRY_TYPE),
  ]);
  const docs: DiscoveryDocument[] = [];
  const card = (kind: 'card' | 'legacy', p: DiscoveryReport['primary']): DiscoveryDocument => ({
    kind,
    path: p.path,
    url: p.finalUrl,
    served: p.status === 200 && p.document !== undefined,
    ...(p.status === undefined ? {} : { status: p.status }),
    ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
    valid: p.valid,
  });
  docs.push(card('card', report.primary), card('legacy', report.legacy));
  const out: DiscoveryDisagreement[] = [];
  const listings: { name: string; url: string; entries: Entry[] }[] = [];
  if (report.catalog !== undefined) {
    const c = report.catalog;
    const entries = entriesOf(c.document);
    const doc: DiscoveryDocument = {
      kind: 'ai-catalog',
      path: '/.well-known/ai-catalog.json',
      url: c.finalUrl,
      served: c.found,
      valid: c.valid,
    };
    if (c.status !== undefined) doc.status = c.status;
    if (c.contentType !== undefined) doc.contentType = c.contentType;
    if (c.found) {
      doc.entries = c.entries;
      // The current draft names an entry's media type `type`, the previous one `mediaType`.
      doc.format = entries.some((e) => typeof e.type === 'string')
        ? 'AI Catalog, current draft (type)'
        : 'AI Catalog, previous draft (mediaType)';
      listings.push({ name: 'the AI Catalog', url: c.finalUrl, entries });
    }
    docs.push(doc);
  }
  const ardDoc = describe('ard', ARD_PATH, ard);
  if (ardDoc.doc.served) {
    const result = validateArdManifest(ardDoc.value);
    ardDoc.doc.valid = result.valid;
    ardDoc.doc.format = 'ARD v0.91';
    const entries = entriesOf(ardDoc.value);
    ardDoc.doc.entries =
      isObject(ardDoc.value) && Array.isArray(ardDoc.value.entries) ? ardDoc.value.entries.length : 0;
    listings.push({ name: 'ARD', url: ard.finalUrl, entries });
    for (const e of entries.filter(isCardEntry))
      if (entryType(e) !== CARD_ENTRY_TYPE)
        out.push({
          about: 'media-type',
          message: `ARD lists ${cut(str(e.identifier) ?? '?')} as ${JSON.stringify(cut(entryType(e)!))}.`,
          hint: `Use the entry type ${CARD_ENTRY_TYPE} for an A2A card.`,
        });
  }
  docs.push(ardDoc.doc);
  const mcpDoc = describe('mcp-catalog', MCP_CATALOG_PATH, mcp);
  if (mcpDoc.doc.served) mcpDoc.doc.entries = entriesOf(mcpDoc.value).length;
  docs.push(mcpDoc.doc);
  const jwksDoc = describe('jwks', JWKS_PATH, jwks);
  if (jwksDoc.doc.served) jwksDoc.doc.valid = isObject(jwksDoc.value) && Array.isArray(jwksDoc.value.keys);
  docs.push(jwksDoc.doc);

  compareListings(report, listings, out);
  await compareDigests(ctx, listings, out);
  // A listing gives the card the entry type; the card URL should answer that type when asked.
  const negotiatedType = parseMediaType(negotiated.headers?.get('content-type') ?? undefined)?.essence;
  if (
    report.card !== undefined &&
    negotiated.status === 200 &&
    listings.length > 0 &&
    negotiatedType !== CARD_ENTRY_TYPE
  )
    out.push({
      about: 'media-type',
      message: `${report.primary.url} answers Accept: ${CARD_ENTRY_TYPE} with ${JSON.stringify(negotiatedType ?? 'no type')}, the type the listings give it.`,
      hint: `Answer that Accept with Content-Type ${CARD_ENTRY_TYPE} (the same bytes) and Vary: Accept.`,
    });
  const links = parseLinkHeader(report.primary.headers.link).map((l) => {
    const href = resolve(l.href, report.primary.finalUrl) ?? l.href;
    const target = docs.find((d) => d.url === href || (d.kind === l.rel && new URL(d.url).pathname === safePath(href)));
    return { rel: l.rel, href, ...(target === undefined ? {} : { served: target.served }) };
  });
  for (const l of links)
    if ((l.rel === 'ai-catalog' || l.rel === 'ard') && l.served === false)
      out.push({
        about: 'link',
        message: `The card's Link header names ${cut(l.href)} (rel="${l.rel}"), which is not served.`,
        hint: 'Name only the discovery documents the host serves.',
      });
  return { documents: docs, links, disagreements: out, ...grade(report, docs, links, out) };
}

function safePath(href: string): string | undefined {
  try {
    return new URL(href).pathname;
  } catch {
    return undefined;
  }
}
