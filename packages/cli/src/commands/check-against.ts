/**
 * `agent-card check <url> --against <file|dir|rev:path>`: the drift gate. What the host serves is
 * compared with what was reviewed by `diff`'s rules: each change is a `diff-*` finding of the
 * check, breaking, structural or descriptive, and `--fail-on` (default `any`: production must
 * serve what was merged) decides which fail the run.
 *
 * The reviewed side is one card (a file, or `rev:path` read with `git cat-file` without a shell,
 * the revision validated first; or a registry's record, as `agent-card export --registry` writes
 * it), or a site: the folder `agent-card build` writes (`./public`, or `rev:public` in git), which
 * holds every document the middleware serves at its own path. With a site, the AI Catalog, the
 * ARD manifest, the MCP catalog, the cards the catalog lists on the host and the JWK Set are
 * compared too; whatever is not compared is said in one `drift-not-compared` info. Differences in
 * signatures only are reported (descriptive), never hidden.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_CARD_PATH, AI_CATALOG_PATH, ARD_PATH, JWKS_PATH, MCP_CATALOG_PATH } from '@agent-card/core/http';
import type { DiscoveryFinding, DiscoveryReport } from '@agent-card/discovery';
import type { CliIO } from '../io';
import { gitObjectType, gitRevisionOf, readCardSource, readGitBlob } from '../card-source';
import { CliError } from '../io';
import { cardFromBytes, parseJson, readBytes } from '../read';
import { cardOfRegistryRecord } from './export';
import { diffAgentCards } from '../diff-cards';
import { classifyChanges, type DiffFinding } from '../diff-impact';
import { classifyKeySetChanges, keySetGone } from '../diff-keys';
import {
  classifyListingChanges,
  LISTING_NAMES,
  type ListingKind,
  listingGone,
  listingUnreviewed,
} from '../diff-listings';
import { visible } from '../terminal';
import { type FailOn, failsUnder } from './diff';

export interface DriftOptions {
  timeoutMs: number;
  allowHttp: boolean;
  /** @default 'any' */
  failOn?: FailOn;
}

export interface DriftResult {
  findings: DiscoveryFinding[];
  /** Whether a change fails the run under `--fail-on`. */
  failing: boolean;
  /** The reviewed documents, whose strings `--redact` replaces too. */
  reviewed: unknown[];
}

/** A reviewed document: its parsed JSON and where it came from, for messages. */
interface ReviewedDocument {
  value: unknown;
  name: string;
}

/** The reviewed side: a card, and with a site its listings and JWK Set (each absent when the site has none). */
interface Reviewed {
  card: ReviewedDocument;
  site?: {
    name: string;
    listings: Partial<Record<ListingKind, ReviewedDocument>>;
    keys?: ReviewedDocument;
    read: SiteReader;
  };
}

/** The listings of a site, each at the path the host serves it. */
const LISTING_PATHS: Readonly<Record<ListingKind, string>> = {
  'ai-catalog': AI_CATALOG_PATH,
  ard: ARD_PATH,
  'mcp-catalog': MCP_CATALOG_PATH,
};
const KINDS = Object.keys(LISTING_PATHS) as ListingKind[];
/**
 * Listings a host serves only when configured for them (the MCP catalog: MCP Server Card entries
 * declared in `catalog`): one that neither side has is not named, as a JWK Set neither side has.
 */
const OPTIONAL: ReadonlySet<ListingKind> = new Set(['mcp-catalog']);

/** Reads one file of a site (`path` is a served path): `undefined` when the site has no such file. */
type SiteReader = (path: string) => Promise<{ bytes: Uint8Array; name: string } | undefined>;

/** A folder on disk, or a tree at a git revision; `undefined` when `against` names neither. */
async function siteReader(io: CliIO, against: string): Promise<{ name: string; read: SiteReader } | undefined> {
  const revision = gitRevisionOf(io, against);
  if (revision) {
    if ((await gitObjectType(io, revision.rev, revision.path)) !== 'tree') return undefined;
    const base = revision.path.replace(/\/+$/, '');
    return {
      name: against,
      read: async (path) => {
        const file = `${base}${path}`;
        if ((await gitObjectType(io, revision.rev, file)) !== 'blob') return undefined;
        return { bytes: await readGitBlob(io, revision.rev, file), name: `${revision.rev}:${file}` };
      },
    };
  }
  const isDirectory = await stat(resolve(io.cwd, against)).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) return undefined;
  const base = against.replace(/[\\/]+$/, '');
  return {
    name: against,
    read: async (path) => {
      const file = `${base}${path}`;
      const isFile = await stat(resolve(io.cwd, file)).then(
        (s) => s.isFile(),
        () => false,
      );
      return isFile ? { bytes: await readBytes(io, file), name: file } : undefined;
    },
  };
}

/** The reviewed card, and the listings when `against` is a site. */
async function readReviewed(io: CliIO, against: string, options: DriftOptions): Promise<Reviewed> {
  const site = await siteReader(io, against);
  if (site) {
    const card = await site.read(AGENT_CARD_PATH);
    if (card === undefined) {
      throw new CliError(
        `${visible(against)}: a folder without ${AGENT_CARD_PATH.slice(1)}, so not a site agent-card build writes. Pass the card file, or the folder of agent-card build --out <dir>.`,
        2,
      );
    }
    const listings: Partial<Record<ListingKind, ReviewedDocument>> = {};
    for (const kind of KINDS) {
      const file = await site.read(LISTING_PATHS[kind]);
      if (file) listings[kind] = { value: parseJson(file.bytes, file.name), name: file.name };
    }
    const jwks = await site.read(JWKS_PATH);
    const keys = jwks && { value: parseJson(jwks.bytes, jwks.name), name: jwks.name };
    return {
      card: { value: cardFromBytes(card.bytes, card.name), name: card.name },
      site: { name: site.name, listings, ...(keys ? { keys } : {}), read: site.read },
    };
  }
  const read = await readCardSource(io, against, { timeoutMs: options.timeoutMs, allowHttp: options.allowHttp });
  // A record of `agent-card export --registry aws`: the gate compares the card inside it.
  const inner = cardOfRegistryRecord(read.card);
  if (inner !== undefined && 'error' in inner) throw new CliError(`${visible(read.name)}: ${inner.error}`, 2);
  return { card: { value: inner === undefined ? read.card : inner.card, name: read.name } };
}

/** A document compared (its findings, the URL served and the reviewed file), or why it was not (`skipped`). */
interface Comparison {
  findings: DiffFinding[];
  url?: string;
  from: string;
  skipped?: string;
}

/** A listing as the host answered: served (its JSON), not served (why), or not asked for. */
type ServedListing =
  | { state: 'served'; value: unknown; url: string }
  | { state: 'none'; answer: string }
  | { state: 'not-read' };

function answerOf(status: number | undefined, failure: string | undefined): string {
  if (status === 404) return '404';
  if (status !== undefined) return status === 200 ? 'status 200, not JSON' : `status ${status}`;
  return failure ?? 'no response';
}

/** What the discovery run read of the host's listings: the catalog report and the graded ARD document. */
function servedListing(report: DiscoveryReport, kind: ListingKind): ServedListing {
  if (kind === 'ai-catalog') {
    const c = report.catalog;
    if (c === undefined) return { state: 'not-read' };
    if (c.found) return { state: 'served', value: c.document, url: c.finalUrl };
    return { state: 'none', answer: answerOf(c.status, c.failure?.kind) };
  }
  return servedDocument(report, kind);
}

/** A document the discovery run graded (`checkDocuments`), with its parsed JSON when served. */
function servedDocument(report: DiscoveryReport, kind: 'ard' | 'mcp-catalog' | 'jwks'): ServedListing {
  const d = report.documents?.documents.find((doc) => doc.kind === kind);
  if (d === undefined) return { state: 'not-read' };
  if (d.served) return { state: 'served', value: d.document, url: d.url };
  return { state: 'none', answer: answerOf(d.status, d.failure) };
}

/**
 * One listing: compared, or a finding saying it is gone, unreviewed, or why it was not compared;
 * `undefined` for an {@link OPTIONAL} listing that neither side has.
 */
function compareListing(kind: ListingKind, reviewed: Reviewed, served: ServedListing): Comparison | undefined {
  const site = reviewed.site;
  const name = LISTING_NAMES[kind];
  const mine = site?.listings[kind];
  const from = mine?.name ?? site?.name ?? reviewed.card.name;
  if (OPTIONAL.has(kind) && mine === undefined && served.state !== 'served') return undefined;
  if (served.state === 'not-read') {
    const why = kind === 'ai-catalog' ? 'not requested: --follow-catalog off' : 'not read by this run';
    return { findings: [], from, skipped: `the ${name} (${why})` };
  }
  if (site === undefined) {
    const why =
      served.state === 'served'
        ? `--against is one card; pass the folder agent-card build writes`
        : 'the host serves none';
    return { findings: [], from, skipped: `the ${name} (${why})` };
  }
  if (mine === undefined) {
    if (served.state === 'none')
      return { findings: [], from, skipped: `the ${name} (neither the host nor the site has one)` };
    return { findings: [listingUnreviewed(kind)], url: served.url, from: site.name };
  }
  if (served.state === 'none') return { findings: [listingGone(kind, mine.value, served.answer)], from };
  return { findings: classifyListingChanges(mine.value, served.value), url: served.url, from };
}

/**
 * The JWK Set: compared when the site has one; else named as not compared when the host serves
 * one, since a host may serve another key set at that path (an authorization server's), which is
 * no drift of what `agent-card build` wrote; `undefined` when neither side has one.
 */
function compareKeySet(reviewed: Reviewed, served: ServedListing): Comparison | undefined {
  const site = reviewed.site;
  const mine = site?.keys;
  const from = mine?.name ?? site?.name ?? reviewed.card.name;
  const skip = (why: string) => ({ findings: [], from, skipped: `the JWK Set (${why})` });
  if (served.state === 'not-read') return mine === undefined ? undefined : skip('not read by this run');
  if (mine === undefined) {
    if (served.state === 'none') return undefined;
    return skip(
      site === undefined ? '--against is one card; pass the folder agent-card build writes' : 'the site has none',
    );
  }
  if (served.state === 'none') return { findings: [keySetGone(mine.value, served.answer)], from };
  return { findings: classifyKeySetChanges(mine.value, served.value), url: served.url, from };
}

/** The served card against the reviewed one: `diff`'s findings, or one saying the host serves none. */
function compareCard(reviewed: ReviewedDocument, served: unknown): DiffFinding[] {
  if (typeof served !== 'object' || served === null || Array.isArray(served)) {
    return [
      {
        rule: 'diff-skill-removed',
        severity: 'error',
        path: '',
        message: `The host serves no card to compare with ${visible(reviewed.name)}.`,
        hint: 'Deploy the reviewed card: production serves something other than what was merged.',
        impact: 'breaking',
      },
    ];
  }
  return classifyChanges(diffAgentCards(reviewed.value, served), served).map((f) => ({
    ...f,
    message: `served card differs from ${visible(reviewed.name)}: ${f.message}`,
  }));
}

/**
 * A card path a site may hold: segments of RFC 3986 path characters, none `.` or `..`, and no
 * escape, ending in the well-known card path. Anything else a served catalog names is not read.
 */
const LISTED_CARD_PATH = /^(?:\/(?!\.\.?(?:\/|$))[\w.~!$&'()*+,;=:@-]+)*\/\.well-known\/agent-card\.json$/;

/**
 * The cards the host's catalog lists on its own origin (as discovery read them), each against the
 * site's file at the same path: a card served at `/agents/orders` is compared with
 * `site/agents/orders/.well-known/agent-card.json`.
 */
async function compareListedCards(
  found: DiscoveryReport,
  site: NonNullable<Reviewed['site']>,
): Promise<{ findings: DiscoveryFinding[]; compared: number; skipped: string[]; reviewed: unknown[] }> {
  const out = { findings: [] as DiscoveryFinding[], compared: 0, skipped: [] as string[], reviewed: [] as unknown[] };
  const seen = new Set<string>([AGENT_CARD_PATH]);
  for (const agent of found.agents ?? []) {
    const served = agent.card?.document;
    let url: URL;
    try {
      url = new URL(agent.url);
    } catch {
      continue;
    }
    if (served === undefined || url.origin !== found.origin || seen.has(url.pathname)) continue;
    seen.add(url.pathname);
    const file = LISTED_CARD_PATH.test(url.pathname) ? await site.read(url.pathname) : undefined;
    if (file === undefined) {
      out.skipped.push(`the card at ${visible(url.pathname)} (the site has none there)`);
      continue;
    }
    const reviewed = { value: cardFromBytes(file.bytes, file.name), name: file.name };
    out.reviewed.push(reviewed.value);
    out.compared += 1;
    for (const f of compareCard(reviewed, served)) out.findings.push({ ...f, url: agent.url });
  }
  return out;
}

/** What the host serves (the discovery report) against what was reviewed at `against`. */
export async function checkAgainst(
  io: CliIO,
  against: string,
  found: DiscoveryReport,
  options: DriftOptions,
): Promise<DriftResult> {
  const reviewed = await readReviewed(io, against, options);
  const fails = failsUnder(options.failOn ?? 'any');
  const at = (url: string | undefined) => (url === undefined ? {} : { url });
  const changes: DiscoveryFinding[] = compareCard(reviewed.card, found.document).map((f) => ({
    ...f,
    ...at(found.cardUrl),
  }));
  const skipped: string[] = [];
  const compared = ['the card'];
  /** One compared document: said compared or not, and its findings under its name and URL. */
  const record = (name: string, path: string, result: Comparison | undefined) => {
    if (result === undefined) return;
    if (result.skipped !== undefined) skipped.push(result.skipped);
    else compared.push(`the ${name}`);
    for (const f of result.findings) {
      const message = `served ${name} differs from ${visible(result.from)}: ${f.message}`;
      changes.push({ ...f, message, ...at(result.url ?? `${found.origin}${path}`) });
    }
  };
  for (const kind of KINDS)
    record(LISTING_NAMES[kind], LISTING_PATHS[kind], compareListing(kind, reviewed, servedListing(found, kind)));
  const listed = reviewed.site ? await compareListedCards(found, reviewed.site) : undefined;
  if (listed) {
    changes.push(...listed.findings);
    skipped.push(...listed.skipped);
    if (listed.compared > 0) compared.push(`${listed.compared} listed card${listed.compared === 1 ? '' : 's'}`);
  }
  record('JWK Set', JWKS_PATH, compareKeySet(reviewed, servedDocument(found, 'jwks')));
  // A change the gate fails on is an error of the check, whatever its class. Every message quotes
  // values the host served: their control and bidi characters are escaped in the value itself, so
  // a report read back from --json shows them escaped too.
  const findings = changes.map((f) => ({
    ...f,
    message: visible(f.message),
    ...(fails(f) ? { severity: 'error' as const } : {}),
  }));
  if (skipped.length > 0) {
    findings.push({
      rule: 'drift-not-compared',
      severity: 'info',
      path: '',
      message: `Compared ${compared.join(', ')} with ${visible(reviewed.site?.name ?? reviewed.card.name)}; not compared: ${skipped.join(', ')}.`,
      hint: 'Nothing to do, unless the document should have been compared: pass the folder agent-card build writes (--against <dir> or rev:<dir>).',
      url: found.origin,
    });
  }
  const documents = [
    reviewed.card.value,
    ...KINDS.map((k) => reviewed.site?.listings[k]?.value),
    ...(listed?.reviewed ?? []),
    reviewed.site?.keys?.value,
  ];
  return { findings, failing: findings.some(fails), reviewed: documents.filter((d) => d !== undefined) };
}
