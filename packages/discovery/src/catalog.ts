/**
 * The catalog part of a discovery run: reads the host's AI Catalog, validates it, and checks the
 * A2A cards it lists with bounded concurrency, within the run's deadline.
 *
 * Everything here reads hostile input: the catalog's entry count, its URLs, its nesting and the
 * time each listed URL takes are all bounded (see {@link runCatalog}). Nothing recurses on the
 * document: entries are walked with an explicit queue, inline nested catalogs to the draft's
 * depth of 4, catalogs referenced by URL one level deep.
 */
import type { CatalogRuleId, DiscoveryRuleId } from '@agent-card/core';
import { nonPublicTarget, publicOnlyFetch } from '@agent-card/core/http';
import {
  applyRuleOverrides,
  type Severity,
  quoteUntrusted as show,
  validateAiCatalog,
  verifyAiCatalog,
} from '@agent-card/core';
import {
  A2A_ENTRY_MEDIA_TYPES,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  registeredEntryTypeOf,
  urnAirOf,
} from '@agent-card/core/http';
import { parseBody, parseMediaType } from './body';
import { type ExchangeSpec, exchange } from './request';
import { DISCOVERY_DEFAULTS, type DiscoverySettings } from './target';
import type {
  DiscoveryAgentReport,
  DiscoveryFetch,
  DiscoveryAgentSkip,
  DiscoveryCatalogReport,
  DiscoveryFinding,
  DiscoveryPathReport,
} from './types';

/** Entries read per catalog walk (all catalogs of the run together), as `validateAiCatalog` reads. */
const SCAN_MAX = 1000;

/** What {@link runCatalog} needs from the discovery run. */
export interface CatalogContext {
  /** The origin checked, e.g. `https://acme.io`. */
  origin: string;
  settings: DiscoverySettings;
  /** Milliseconds left for follow-up requests (may be ≤ 0). */
  remaining(): number;
  onRequest(): void;
  /** Runs the per-path requests and rules on one listed card URL with these settings. */
  checkCard(
    url: string,
    settings: DiscoverySettings,
  ): Promise<{ report: DiscoveryPathReport; findings: DiscoveryFinding[] }>;
}

/** What the catalog part adds to a report. */
export interface CatalogOutcome {
  catalog: DiscoveryCatalogReport;
  agents: DiscoveryAgentReport[];
  /** Catalog validation findings and the per-agent summary findings. */
  findings: DiscoveryFinding[];
}

interface Listing {
  value: Record<string, unknown>;
  /** JSON Pointer segments of this catalog object inside its document. */
  at: (string | number)[];
  catalogUrl: string;
  /** Inline nesting depth: the document's root is 1. */
  depth: number;
  /** 0 for the host's catalog, 1 for a catalog fetched by URL from it. */
  level: 0 | 1;
  report: DiscoveryCatalogReport;
}

type Task = () => Promise<void>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (obj: Record<string, unknown>, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function pointer(at: readonly (string | number)[]): string {
  return at.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `entries[3].data.entries[0]`, for messages. */
function label(at: readonly (string | number)[]): string {
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function mediaTypeOf(entry: Record<string, unknown>): string | undefined {
  // `type` in the current AI Catalog draft, `mediaType` in the previous one.
  // Another spelling of a registered type is read as that type (validateAiCatalog reports it).
  const raw = text(own(entry, 'type')) ?? text(own(entry, 'mediaType'));
  if (raw === undefined) return undefined;
  const essence = parseMediaType(raw)?.essence;
  return registeredEntryTypeOf(essence ?? raw) ?? essence;
}

/** Adds one finding about `url` to the run's findings. */
type ReportFinding = (
  rule: DiscoveryRuleId | CatalogRuleId,
  severity: Severity,
  url: string,
  path: string,
  message: string,
  hint: string,
) => void;

/** The catalog part of one run: what the steps below share while the catalog is walked. */
interface CatalogWalk {
  ctx: CatalogContext;
  /** The host's catalog; nested catalogs read by URL are added to its `nested`. */
  catalog: DiscoveryCatalogReport;
  agents: DiscoveryAgentReport[];
  report: ReportFinding;
  /** Below this, a listed URL's turn is skipped rather than started with too little time to answer. */
  minimumMs: number;
  /** Each distinct card URL is checked once, however many entries list it. */
  cards: Map<string, Promise<{ report?: DiscoveryPathReport; findings: DiscoveryFinding[] }>>;
  /** The public-address check of each host on another origin, made once per host. */
  targets: Map<string, Promise<string | undefined>>;
  /** Entries followed (cards and catalogs by URL), at most `maxCatalogEntries`. */
  followed: number;
  /** Entries not followed past `maxCatalogEntries`. */
  overflow: number;
  /** Entries read, at most {@link SCAN_MAX}. */
  scanned: number;
  scanCut: boolean;
  queue: Task[];
}

/**
 * Reads `{origin}/.well-known/ai-catalog.json` (a 404 means none), validates it with
 * `validateAiCatalog`, then checks every listed A2A card (`mediaType`
 * `application/a2a-agent-card+json` or `application/a2a+json`) with the same per-path requests
 * and rules as the well-known card, at most `catalogConcurrency` at a time.
 *
 * Bounds, whatever the catalog says: at most `maxCatalogEntries` entries followed (cards plus
 * nested catalogs, each distinct URL fetched once); entry URLs on another origin only with
 * `followCatalog: 'any'`; only http(s) URLs (`http:` with `allowHttp`); catalogs referenced by
 * URL one level deep; every fetch capped at `maxBytes` and at what is left of the run's
 * follow-up window, and an entry whose turn comes when that window is (nearly) over is reported,
 * not fetched.
 */
export async function runCatalog(ctx: CatalogContext): Promise<CatalogOutcome> {
  const { origin, settings } = ctx;
  const findings: DiscoveryFinding[] = [];
  const agents: DiscoveryAgentReport[] = [];
  const report: ReportFinding = (rule, severity, url, path, message, hint) => {
    findings.push({ rule, severity, path, message, hint, url });
  };

  const catalogUrl = `${origin}${AI_CATALOG_PATH}`;
  const root = await fetchCatalog(ctx, catalogUrl, settings.timeoutMs, settings.headers, report);
  const catalog = root.report;
  if (root.value === undefined) return { catalog, agents, findings };

  const w: CatalogWalk = {
    ctx,
    catalog,
    agents,
    report,
    minimumMs: Math.min(250, Math.ceil(settings.timeoutMs / 10)),
    cards: new Map(),
    targets: new Map(),
    followed: 0,
    overflow: 0,
    scanned: 0,
    scanCut: false,
    queue: [],
  };
  walk(w, { value: root.value, at: [], catalogUrl: catalog.finalUrl, depth: 1, level: 0, report: catalog });
  await drain(w.queue, DISCOVERY_DEFAULTS.catalogConcurrency);
  await verifyCatalogSignature(ctx, root.value, catalog.finalUrl, report);

  if (w.overflow > 0 || w.scanCut)
    report(
      'discovery-catalog-limit',
      'warning',
      catalog.url,
      '/entries',
      w.scanCut
        ? `${catalog.url}: more than ${SCAN_MAX} entries: the rest were not read; ${w.followed} entries followed.`
        : `${catalog.url}: ${w.overflow} more entr${w.overflow === 1 ? 'y' : 'ies'} not followed: at most ${settings.maxCatalogEntries} are followed per run.`,
      'Raise maxCatalogEntries (--max-agents) to check more, or split the catalog.',
    );
  return { catalog, agents, findings };
}

/**
 * A catalog signed in the current form (a Signature object): its did:web signature, each signed
 * Trust Manifest and each entry digest, with the run's fetch and bounds (entries at the catalog's
 * origin unless `followCatalog: 'any'`, public addresses only, what is left of the run's time).
 * Each failure is a `catalog-signature-verify` finding. The earlier string form needs keys the
 * run does not have; the validator already says it is the earlier form.
 */
async function verifyCatalogSignature(
  ctx: CatalogContext,
  value: Record<string, unknown>,
  url: string,
  report: ReportFinding,
): Promise<void> {
  if (!isObject(own(value, 'signature'))) return;
  const left = ctx.remaining();
  const hint =
    "Sign the catalog again with a key the signer's DID document lists under assertionMethod (ES256), with host.identifier the signer, and publish the bytes its digests name.";
  if (left <= 0) {
    report(
      'catalog-signature-verify',
      'warning',
      url,
      '/signature',
      `${url}: signature not verified: the time for follow-up requests is spent.`,
      'Raise timeoutMs (--timeout) to verify it.',
    );
    return;
  }
  const result = await verifyAiCatalog(value, {
    ...(ctx.settings.callerFetch === undefined ? {} : { fetch: ctx.settings.callerFetch as typeof globalThis.fetch }),
    catalogUrl: url,
    followArtifacts: ctx.settings.followCatalog === 'any' ? 'any' : 'same-origin',
    allowInsecureArtifactUrls: ctx.settings.allowHttp,
    allowPrivateTargets: ctx.settings.allowPrivateTargets,
    artifactTimeoutMs: left,
    maxArtifactBytes: ctx.settings.maxBytes,
  });
  const s = result.signature;
  if (!s.valid)
    report(
      'catalog-signature-verify',
      'error',
      url,
      '/signature',
      `${url}: signature: did not verify: ${show(s.reason ?? 'no reason')}.`,
      hint,
    );
  for (const m of result.manifests)
    if (!m.valid)
      report(
        'catalog-signature-verify',
        'error',
        url,
        `/entries/${m.entry}/trustManifests/${m.index}`,
        `${url}: entries[${m.entry}].trustManifests[${m.index}]: did not verify: ${show(m.reason ?? 'no reason')}.`,
        'Sign the manifest again as its contributor, with its subject copied from the entry.',
      );
  for (const d of result.digests)
    if (!d.valid)
      report(
        'catalog-signature-verify',
        'error',
        url,
        `/entries/${d.index}/digest`,
        `${url}: entries[${d.index}].digest: did not verify: ${show(d.reason ?? 'no reason')}.`,
        'Publish the digest of the exact bytes served at the entry url, and sign the catalog again.',
      );
}

/** The caller's headers (credentials, API keys under any name) stay on the origin checked. */
function headersFor(w: CatalogWalk, url: URL): Record<string, string> {
  return url.origin === w.ctx.origin ? w.ctx.settings.headers : {};
}

/**
 * Why a URL named by a remote document may not be fetched, or `undefined` when it may. The origin
 * checked is the user's choice (loopback included); any other origin must be public: address
 * literals, `localhost` and names resolving to a loopback, private, link-local or reserved
 * address are refused before any connection.
 */
function privateTarget(w: CatalogWalk, url: URL): Promise<string | undefined> {
  if (url.origin === w.ctx.origin || w.ctx.settings.allowPrivateTargets) return Promise.resolve(undefined);
  let check = w.targets.get(url.host);
  if (check === undefined) {
    check = nonPublicTarget(url);
    w.targets.set(url.host, check);
  }
  return check;
}

/**
 * The fetch for a URL on another origin: without the caller's own `fetch`, one that connects only
 * to the public addresses it checked (no second resolution for DNS rebinding to answer). With
 * the caller's `fetch`, that one, after {@link privateTarget}'s check.
 */
function fetchFor(w: CatalogWalk, url: URL): DiscoveryFetch {
  const { settings, origin } = w.ctx;
  if (url.origin === origin || settings.callerFetch !== undefined || settings.allowPrivateTargets)
    return settings.fetch;
  return publicOnlyFetch as DiscoveryFetch;
}

/** The URL an entry names, when the run may fetch it; else why not. */
function decide(w: CatalogWalk, raw: string, base: string): URL | DiscoveryAgentSkip {
  const { settings, origin } = w.ctx;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return 'scheme';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && settings.allowHttp)) return 'scheme';
  if (url.username !== '' || url.password !== '') return 'scheme';
  if (settings.followCatalog !== 'any' && url.origin !== origin) return 'origin';
  return url;
}

/** Milliseconds a fetch started now may take: what is left of the follow-up window, at most `timeoutMs`. */
function fetchTimeout(w: CatalogWalk, left: number): number {
  return Math.max(1, Math.min(w.ctx.settings.timeoutMs, Math.floor(left)));
}

/** A reason built from a parsed URL's host: control characters shown as `?`, as {@link show} does, unquoted. */
function masked(reason: string): string {
  return show(reason, 200).slice(1, -1);
}

function skipFinding(w: CatalogWalk, agent: DiscoveryAgentReport, where: string): void {
  const at = `${agent.catalogUrl} ${where}`;
  if (agent.skipped === 'origin')
    w.report(
      'discovery-catalog-origin',
      'warning',
      agent.url,
      agent.entry,
      `${at}: not followed: the card is on another origin (${show(agent.url)}).`,
      "Check that host on its own (agent-card check <url>), or pass followCatalog: 'any' (--follow-catalog any).",
    );
  else if (agent.skipped === 'private')
    w.report(
      'discovery-catalog-origin',
      'warning',
      agent.url,
      agent.entry,
      `${at}: not followed: another origin on a non-public address (${masked(agent.refused ?? '')}) at ${show(agent.url)}.`,
      'Check that host on its own (agent-card check <url>): a catalog may name only public hosts on other origins.',
    );
  else if (agent.skipped === 'scheme')
    w.report(
      'discovery-catalog-origin',
      'info',
      agent.url,
      agent.entry,
      `${at}: not followed: not an https URL (${show(agent.url)}).`,
      'List each card by its absolute https:// URL.',
    );
  else
    w.report(
      'discovery-catalog-deadline',
      'warning',
      agent.url,
      agent.entry,
      `${at}: not checked: the run's time ran out (${show(agent.url)}).`,
      'Raise timeoutMs (--timeout), or make the listed cards answer faster.',
    );
}

/**
 * Whether the card was validated: its validator found no error, or validation ran (the shape it
 * detected is recorded) and the errors it found were turned into less by the user's settings.
 * A card left at the deadline has neither.
 */
function validated(card: DiscoveryPathReport): boolean {
  return card.valid || card.shape !== undefined;
}

/** The summary findings of one checked agent: does not load, has errors, names or versions differ. */
function summarize(w: CatalogWalk, agent: DiscoveryAgentReport, where: string): void {
  const at = `${agent.catalogUrl} ${where}`;
  const card = agent.card;
  const served = card?.status === 200 && card.failure === undefined && card.document !== undefined;
  if (!served) {
    const why =
      card?.status === undefined
        ? card?.failure
          ? `${card.failure.kind}: ${card.failure.message}`
          : 'no response'
        : card.status === 200
          ? card.failure
            ? `status 200, ${card.failure.kind}`
            : 'status 200, not JSON'
          : `status ${card.status}`;
    w.report(
      'catalog-entry-card',
      'error',
      agent.url,
      `${agent.entry}/url`,
      `${at}: the listed card does not load (${show(why)} at ${show(agent.url)}).`,
      'Serve the card at the entry url with status 200, or remove the entry from the catalog.',
    );
  } else if (agent.errors === 0 && !validated(card)) {
    w.report(
      'discovery-catalog-deadline',
      'warning',
      agent.url,
      agent.entry,
      `${at}: not validated: the run's time ran out (${show(agent.url)}).`,
      'Raise timeoutMs (--timeout), or list fewer cards in the catalog.',
    );
  } else if (agent.errors > 0) {
    w.report(
      'catalog-entry-card',
      'error',
      agent.url,
      `${agent.entry}/url`,
      `${at}: the listed card has ${agent.errors} error${agent.errors === 1 ? '' : 's'} (${show(agent.url)}).`,
      'Fix the findings of this agent (agents[].findings, or agent-card check <url>).',
    );
  }
  if (agent.nameMatches === false)
    w.report(
      'catalog-entry-name',
      'warning',
      agent.url,
      `${agent.entry}/displayName`,
      `${at}: displayName ${show(agent.displayName ?? '', 80)} is not the card's name (${show(agent.cardName ?? '', 80)}).`,
      "Use the card's name as the entry's displayName, so the catalog shows what the agent calls itself.",
    );
  if (agent.versionMatches === false)
    w.report(
      'catalog-entry-version',
      'error',
      agent.url,
      `${agent.entry}/version`,
      `${at}: version ${show(agent.version ?? '', 80)} is not the card's version (${show(agent.cardVersion ?? '', 80)}).`,
      'Update the catalog when the card changes (the middleware builds it from the cards), or drop version from the entry.',
    );
}

/** An A2A card entry: reported as skipped, or queued for the per-path checks. */
function followCard(
  w: CatalogWalk,
  listing: Listing,
  entry: Record<string, unknown>,
  at: (string | number)[],
  raw: string,
): void {
  const agent: DiscoveryAgentReport = {
    catalogUrl: listing.catalogUrl,
    entry: pointer(at),
    url: raw,
    checked: false,
    findings: [],
    errors: 0,
    warnings: 0,
    ok: false,
  };
  const identifier = text(own(entry, 'identifier'));
  const displayName = text(own(entry, 'displayName'));
  const version = text(own(entry, 'version'));
  // A urn:ai: identifier is read as the urn:air: one it means (validateAiCatalog warns).
  if (identifier !== undefined) agent.identifier = urnAirOf(identifier) ?? identifier;
  if (displayName !== undefined) agent.displayName = displayName;
  if (version !== undefined) agent.version = version;
  w.agents.push(agent);
  const where = label(at);
  const target = decide(w, raw, listing.catalogUrl);
  if (!(target instanceof URL)) {
    agent.skipped = target;
    skipFinding(w, agent, where);
    return;
  }
  agent.url = target.href;
  w.queue.push(() => checkAgent(w, agent, target, where));
}

/** Checks one listed card (once per URL), then compares it with its entry. */
async function checkAgent(w: CatalogWalk, agent: DiscoveryAgentReport, target: URL, where: string): Promise<void> {
  const refused = await privateTarget(w, target);
  if (refused !== undefined) {
    agent.skipped = 'private';
    agent.refused = refused;
    skipFinding(w, agent, where);
    return;
  }
  let pending = w.cards.get(target.href);
  if (pending === undefined) {
    const left = w.ctx.remaining();
    if (left < w.minimumMs) {
      agent.skipped = 'deadline';
      skipFinding(w, agent, where);
      return;
    }
    pending = w.ctx.checkCard(target.href, {
      ...w.ctx.settings,
      fetch: fetchFor(w, target),
      headers: headersFor(w, target),
      timeoutMs: fetchTimeout(w, left),
    });
    w.cards.set(target.href, pending);
  }
  const checked = await pending;
  if (checked.report === undefined) return;
  agent.checked = true;
  agent.card = checked.report;
  // The user's rule settings decide what counts, as they do for the well-known card.
  const { findings } = applyRuleOverrides(checked.findings, w.ctx.settings.rules);
  agent.findings = findings;
  agent.errors = findings.filter((f) => f.severity === 'error').length;
  agent.warnings = findings.filter((f) => f.severity === 'warning').length;
  // A card left unvalidated at the deadline is not called ok.
  agent.ok =
    agent.errors === 0 &&
    checked.report.status === 200 &&
    checked.report.document !== undefined &&
    validated(checked.report);
  const doc = checked.report.document;
  if (isObject(doc)) {
    const name = text(own(doc, 'name'));
    const cardVersion = text(own(doc, 'version'));
    if (name !== undefined) agent.cardName = name;
    if (cardVersion !== undefined) agent.cardVersion = cardVersion;
    if (name !== undefined && agent.displayName !== undefined) agent.nameMatches = name === agent.displayName;
    if (agent.version !== undefined) agent.versionMatches = cardVersion === agent.version;
  }
  summarize(w, agent, where);
}

/** A catalog entry referenced by URL: reported when not followed, or queued to be read and walked. */
function followCatalog(w: CatalogWalk, listing: Listing, at: (string | number)[], raw: string): void {
  const where = label(at);
  const target = decide(w, raw, listing.catalogUrl);
  if (!(target instanceof URL)) {
    w.report(
      'discovery-catalog-origin',
      target === 'origin' ? 'warning' : 'info',
      raw,
      pointer(at),
      `${listing.catalogUrl} ${where}: nested catalog not followed: ${target === 'origin' ? 'another origin' : 'not an https URL'} (${show(raw)}).`,
      target === 'origin'
        ? "Check that catalog on its own, or pass followCatalog: 'any' (--follow-catalog any)."
        : 'Reference nested catalogs by their absolute https:// URL.',
    );
    return;
  }
  w.queue.push(() => readNestedCatalog(w, listing, at, target));
}

/** Reads a catalog referenced by URL and walks it (its own catalogs by URL are not followed). */
async function readNestedCatalog(
  w: CatalogWalk,
  listing: Listing,
  at: (string | number)[],
  target: URL,
): Promise<void> {
  const where = label(at);
  const left = w.ctx.remaining();
  if (left < w.minimumMs) {
    w.report(
      'discovery-catalog-deadline',
      'warning',
      target.href,
      pointer(at),
      `${listing.catalogUrl} ${where}: nested catalog not read: the run's time ran out (${show(target.href)}).`,
      'Raise timeoutMs (--timeout), or make the nested catalog answer faster.',
    );
    return;
  }
  const refused = await privateTarget(w, target);
  if (refused !== undefined) {
    w.report(
      'discovery-catalog-origin',
      'warning',
      target.href,
      pointer(at),
      `${listing.catalogUrl} ${where}: nested catalog not followed: another origin on a non-public address (${masked(refused)}) at ${show(target.href)}.`,
      'Check that catalog on its own: a catalog may name only public hosts on other origins.',
    );
    return;
  }
  const nested = await fetchCatalog(
    w.ctx,
    target.href,
    fetchTimeout(w, left),
    headersFor(w, target),
    w.report,
    fetchFor(w, target),
  );
  if (w.catalog.nested === undefined) w.catalog.nested = [];
  w.catalog.nested.push(nested.report);
  if (nested.report.found === false && nested.report.status !== undefined && nested.report.status !== 200)
    w.report(
      'catalog-entry-card',
      'error',
      target.href,
      `${pointer(at)}/url`,
      `${listing.catalogUrl} ${where}: the nested catalog does not load (status ${nested.report.status} at ${show(target.href)}).`,
      'Serve the nested catalog at the entry url with status 200, or remove the entry.',
    );
  if (nested.value !== undefined)
    walk(w, {
      value: nested.value,
      at: [],
      catalogUrl: nested.report.finalUrl,
      depth: 1,
      level: 1,
      report: nested.report,
    });
}

/** Iterative walk of one catalog's entries: inline nested catalogs are queued, never recursed into. */
function walk(w: CatalogWalk, first: Listing): void {
  const { maxCatalogEntries } = w.ctx.settings;
  const listings: Listing[] = [first];
  let notFollowed = 0;
  for (let listing = listings.shift(); listing !== undefined; listing = listings.shift()) {
    const entries = own(listing.value, 'entries');
    if (!Array.isArray(entries)) continue;
    for (let i = 0; i < entries.length; i++) {
      if (w.scanned >= SCAN_MAX) {
        w.scanCut = true;
        break;
      }
      w.scanned++;
      const entry = entries[i];
      if (!isObject(entry)) continue;
      const at = [...listing.at, 'entries', i];
      const type = mediaTypeOf(entry);
      const url = text(own(entry, 'url'));
      if (type === AI_CATALOG_MEDIA_TYPE) {
        const data = own(entry, 'data');
        // Deeper inline nesting is validateAiCatalog's catalog-nesting-depth error.
        if (isObject(data) && listing.depth < AI_CATALOG_MAX_DEPTH)
          listings.push({ ...listing, value: data, at: [...at, 'data'], depth: listing.depth + 1 });
        if (url === undefined) continue;
        if (listing.level === 1) {
          notFollowed++;
          continue;
        }
        if (w.followed >= maxCatalogEntries) {
          w.overflow++;
          continue;
        }
        w.followed++;
        followCatalog(w, listing, at, url);
      } else if (type !== undefined && A2A_ENTRY_MEDIA_TYPES.includes(type) && url !== undefined) {
        if (w.followed >= maxCatalogEntries) {
          w.overflow++;
          continue;
        }
        w.followed++;
        followCard(w, listing, entry, at, url);
      }
    }
  }
  if (notFollowed > 0)
    w.report(
      'discovery-catalog-nested',
      'info',
      first.catalogUrl,
      '',
      `${first.catalogUrl}: ${notFollowed} nested catalog${notFollowed === 1 ? '' : 's'} not read: catalogs referenced by URL are followed one level deep.`,
      'Check that catalog on its own, or list its agents in a catalog the host serves.',
    );
}

/** Decodes a catalog body `parseBody` read as JSON (valid UTF-8); a byte order mark is dropped. */
const catalogText = new TextDecoder('utf-8', { ignoreBOM: false });

/** Runs queued tasks, at most `limit` at once; tasks may queue more. Never rejects. */
function drain(queue: Task[], limit: number): Promise<void> {
  return new Promise((resolve) => {
    let active = 0;
    const pump = (): void => {
      while (active < limit && queue.length > 0) {
        const task = queue.shift() as Task;
        active++;
        task()
          .catch(() => undefined)
          .finally(() => {
            active--;
            pump();
          });
      }
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
}

/** Fetches and validates one catalog; `value` is the catalog object when one was served. */
async function fetchCatalog(
  ctx: CatalogContext,
  url: string,
  timeoutMs: number,
  headers: Record<string, string>,
  reportFinding: ReportFinding,
  fetch: DiscoveryFetch = ctx.settings.fetch,
): Promise<{ report: DiscoveryCatalogReport; value?: Record<string, unknown> }> {
  const { settings } = ctx;
  const spec: ExchangeSpec = {
    method: 'GET',
    url,
    headers: { accept: `${AI_CATALOG_MEDIA_TYPE}, application/json` },
    caller: { origin: ctx.origin, headers },
    follow: true,
    allowHttp: settings.allowHttp,
    maxRedirects: settings.maxRedirects,
    maxBytes: settings.maxBytes,
    timeoutMs,
    fetch,
    onRequest: ctx.onRequest,
  };
  if (settings.signal) spec.signal = settings.signal;
  const got = await exchange(spec);
  const report: DiscoveryCatalogReport = {
    url,
    finalUrl: got.finalUrl,
    bytes: got.body.byteLength,
    truncated: got.truncated,
    timeMs: got.timeMs,
    found: false,
    valid: false,
    findings: [],
    entries: 0,
  };
  if (got.status !== undefined) report.status = got.status;
  const contentType = got.headers?.get('content-type');
  if (contentType !== null && contentType !== undefined) report.contentType = contentType;
  if (got.failure) report.failure = got.failure;
  const hint = `Serve the AI Catalog at ${AI_CATALOG_PATH} with status 200, or answer 404 when there is none.`;

  if (got.status === 404 || got.status === 410) return { report };
  if (got.status !== 200 || got.failure !== undefined) {
    const why = got.failure
      ? `${got.failure.kind}: ${got.failure.message}`
      : got.redirects.length > 0 && got.status !== undefined && got.status >= 300 && got.status < 400
        ? `status ${got.status}, redirect ${got.redirectStop ?? 'not followed'}`
        : `status ${got.status ?? 'none'}`;
    reportFinding(
      'discovery-catalog',
      'warning',
      got.finalUrl,
      '',
      `${got.finalUrl}: catalog not read (${show(why)}).`,
      hint,
    );
    return { report };
  }
  const parsed = parseBody(got.body);
  if (parsed.kind !== 'json') {
    const what =
      parsed.kind === 'html'
        ? 'an HTML page, not an AI Catalog; read as no catalog'
        : parsed.kind === 'too-deep'
          ? `not read: nests deeper than ${parsed.limit} levels`
          : parsed.kind === 'empty'
            ? 'an empty body with status 200'
            : parsed.kind === 'invalid-utf8'
              ? `not valid UTF-8 (byte offset ${parsed.offset})`
              : `not JSON (${parsed.reason})`;
    reportFinding(
      'discovery-catalog',
      parsed.kind === 'html' ? 'info' : 'warning',
      got.finalUrl,
      '',
      `${got.finalUrl}: ${what}.`,
      parsed.kind === 'html' ? `Answer 404 at ${AI_CATALOG_PATH} when the host has no catalog.` : hint,
    );
    return { report };
  }
  report.found = true;
  report.document = parsed.value;
  // Given the text, the validator also reports the members named twice (catalog-duplicate-member).
  const result = validateAiCatalog(catalogText.decode(got.body), { profile: settings.profile, baseUrl: got.finalUrl });
  report.valid = result.valid;
  for (const f of result.findings) {
    const finding: DiscoveryFinding = { ...f, message: `${got.finalUrl}: ${f.message}`, url: got.finalUrl };
    report.findings.push(finding);
    // validateAiCatalog reports by the ids of its own catalogue.
    reportFinding(
      finding.rule as CatalogRuleId,
      finding.severity,
      got.finalUrl,
      finding.path,
      finding.message,
      finding.hint,
    );
  }
  if (!isObject(parsed.value)) return { report };
  const entries = own(parsed.value, 'entries');
  if (Array.isArray(entries)) report.entries = entries.length;
  const host = own(parsed.value, 'host');
  const hostName = isObject(host) ? text(own(host, 'displayName')) : undefined;
  if (hostName !== undefined) report.hostName = hostName;
  return { report, value: parsed.value };
}
