// The AI Catalog of a multi-agent host: the `catalog` option checked, and the catalog document
// built from the agents' cards (once for static cards, once per combination of variants otherwise).
import {
  AI_CATALOG_DRAFT,
  AI_CATALOG_DRAFT_IDS,
  AI_CATALOG_LINK_REL,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_MEMBERS,
  AI_CATALOG_PATH,
  AI_CATALOG_PREVIOUS_DRAFT,
  type AiCatalogDraftId,
  type AiCatalogEntry,
  type AiCatalogPreviousEntry,
  MCP_SERVER_CARD_ENTRY_TYPE,
  toAgentEntry,
  toAiCatalog,
} from '../../catalog/format';
import { validateAiCatalog } from '../../catalog/validate';
import { AgentCardError } from '../../errors';
import { rootDidWebProblem } from '../../sign/catalog-did-web';
import {
  type AiCatalogDidWebSigner,
  type AiCatalogSigner,
  aiCatalogDidDocument,
  prepareAiCatalogDidWebSigner,
  prepareAiCatalogSigner,
  sha256Digest,
} from '../../sign/catalog-signing';
import type { ValidationProfile } from '../../findings';
import type { AgentCard } from '../../model';
import { unknownOption } from '../../nearest';
import { isPromiseLike, showValue } from '../../util';
import { parseAbsoluteUrl } from '../../validate/urls';
import { publishedUrlProblems } from '../../catalog/published-urls';
import { requestOrigin } from '../kernel/origin';
import { type CorsVariants, selectCors } from '../kernel/cors';
import {
  answerDocument,
  answerError,
  type ErrorResponseSet,
  type PreparedDocument,
  prepareDocument,
  prepareErrorResponses,
} from '../kernel/documents';
import {
  createDerived,
  type DocumentVariant,
  documentVariant,
  Refused,
  type VariantFound,
  type VariantSource,
} from '../kernel/derived';
import { encodeJson } from '../kernel/encode';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import { AGENT_CARD_PATH } from '../kernel/paths';
import { internalsOf } from '../kernel/responder';
import type { AgentCardOptions } from '../types';
import type { Agent } from '../host/agent';
import { originOfCard } from '../host/origin';
import { type HostDocumentSettings, hostDocumentSettings } from '../host/settings';
import type { AiCatalogServeOptions } from '../host/types';

const CATALOG_KEYS = new Set([
  'draft',
  'publisher',
  'namespace',
  'host',
  'baseUrl',
  'entries',
  'extensions',
  'metadata',
  'sign',
  'signer',
  'issuedAt',
  'maxEntries',
]);

/** Where nested catalog `segments` (e.g. `[1, 2]`) are served: `/.well-known/ai-catalog/1/2.json`. */
export const nestedCatalogPath = (segments: readonly number[]): string =>
  `${AI_CATALOG_PATH.slice(0, -'.json'.length)}/${segments.join('/')}.json`;

/** A domain name: two labels or more, the last one letters (draft §"Catalog Entry", `{publisher}`). */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const NAMESPACE = /^[A-Za-z0-9._~-]+(?::[A-Za-z0-9._~-]+)*$/;

/** The `catalog` option, checked: the draft it follows and what the agents' identifiers are made of. */
export type ResolvedCatalogOptions = AiCatalogServeOptions & {
  baseUrl?: string;
  draft: AiCatalogDraftId;
  namespace: string;
};

type AnyEntry = AiCatalogEntry | AiCatalogPreviousEntry;

const show = showValue;

function hostnameOf(base: string): string {
  try {
    return new URL(base).hostname;
  } catch {
    return 'localhost';
  }
}

/**
 * Builds one agent's catalog entry on `base` (no trailing slash). Current draft: identifier
 * `urn:air:{publisher}:{namespace}:{id}`, the publisher from configuration; previous draft:
 * `urn:agent-card:{host of base}:{id}`, as before.
 */
function entryOf(
  agent: Agent<unknown>,
  card: AgentCard,
  base: string,
  catalog: ResolvedCatalogOptions,
  digest?: string,
): AnyEntry {
  const overrides = agent.entry === false ? undefined : agent.entry;
  const url = `${base}${agent.path}${AGENT_CARD_PATH}`;
  if (catalog.draft === AI_CATALOG_PREVIOUS_DRAFT.id)
    return toAgentEntry(
      { identifier: overrides?.identifier ?? `urn:agent-card:${hostnameOf(base)}:${agent.id}`, url, card, overrides },
      AI_CATALOG_PREVIOUS_DRAFT.id,
    );
  const publisher = catalog.publisher ?? hostnameOf(base);
  const identifier = overrides?.identifier ?? `urn:air:${publisher}:${catalog.namespace}:${agent.id}`;
  return toAgentEntry({ identifier, url, card, overrides, ...(digest === undefined ? {} : { digest }) });
}

/**
 * The card's URL rules for the URLs the catalog publishes (its host's, each entry's, and those of
 * inline nested catalogs): credentials are refused in every profile; in `production` and
 * `strict` only http(s) URLs on hosts other machines reach (not loopback, not link-local).
 */
function checkPublishedUrls(catalog: unknown, at: string, profile: string, problems: string[], depth = 1): void {
  if (typeof catalog !== 'object' || catalog === null) return;
  const check = (value: unknown, where: string) => {
    if (typeof value !== 'string') return;
    const url = parseAbsoluteUrl(value);
    if (url === undefined) return; // the draft check reports it
    for (const p of publishedUrlProblems(value, url, profile as ValidationProfile))
      problems.push(`${where}: ${p.problem} (${show(p.value)}). ${p.fix}`);
  };
  const c = catalog as { host?: Record<string, unknown>; entries?: unknown };
  if (typeof c.host === 'object' && c.host !== null)
    for (const key of ['documentationUrl', 'logoUrl']) check(c.host[key], `${at}.host.${key}`);
  if (!Array.isArray(c.entries)) return;
  c.entries.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) return;
    const e = entry as { url?: unknown; data?: unknown; mediaType?: unknown; type?: unknown };
    check(e.url, `${at}.entries[${i}].url`);
    if ((e.type ?? e.mediaType) === AI_CATALOG_MEDIA_TYPE && depth < AI_CATALOG_MAX_DEPTH)
      checkPublishedUrls(e.data, `${at}.entries[${i}].data`, profile, problems, depth + 1);
  });
}

/** The options that belong to one draft only: an error saying the other draft's spelling. */
function checkDraftSpelling(c: AiCatalogServeOptions, draft: AiCatalogDraftId, problems: string[]): void {
  const pin = `or pin the previous draft with catalog.draft: '${AI_CATALOG_PREVIOUS_DRAFT.id}'`;
  if (draft === AI_CATALOG_PREVIOUS_DRAFT.id) {
    for (const key of ['extensions', 'publisher', 'namespace'] as const)
      if (c[key] !== undefined)
        problems.push(
          `options.catalog.${key}: belongs to the current AI Catalog draft (${AI_CATALOG_DRAFT.id}), not to the pinned ${draft} (set). ${key === 'extensions' ? 'Use metadata for the pinned draft' : 'Give each agent catalogEntry.identifier for the pinned draft'}, or remove draft to follow the current one.`,
        );
    return;
  }
  if (c.metadata !== undefined)
    problems.push(
      `options.catalog.metadata: the current AI Catalog draft (${draft}) calls it extensions (set). Rename metadata to extensions, keyed by a URL or a reverse-DNS name (com.example.region), ${pin}.`,
    );
  const host = c.host as Record<string, unknown> | undefined;
  if (typeof host === 'object' && host !== null && host.trustManifest !== undefined)
    problems.push(
      `options.catalog.host.trustManifest: the current AI Catalog draft (${draft}) has no host Trust Manifest (set). Remove it and sign the catalog (the sign option), ${pin}.`,
    );
  (Array.isArray(c.entries) ? c.entries : []).forEach((e: unknown, i) => {
    if (typeof e !== 'object' || e === null) return;
    const entry = e as Record<string, unknown>;
    if (entry.mediaType !== undefined && entry.type === undefined)
      problems.push(
        `options.catalog.entries[${i}].mediaType: the current AI Catalog draft (${draft}) names it type (${show(entry.mediaType)}). Rename mediaType to type, ${pin}.`,
      );
    if (entry.metadata !== undefined)
      problems.push(
        `options.catalog.entries[${i}].metadata: the current AI Catalog draft (${draft}) calls it extensions (set). Rename metadata to extensions, ${pin}.`,
      );
  });
}

/** `baseUrl`, normalised (no trailing slash), or `undefined` with a problem. */
function checkBaseUrl(value: unknown, problems: string[]): string | undefined {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.search ||
    url.hash ||
    url.username
  ) {
    problems.push(
      `options.catalog.baseUrl: must be an absolute http(s) URL without query, fragment or credentials (${show(value)}). Use e.g. 'https://api.example.com'.`,
    );
    return undefined;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Checks the `catalog` option; returns it normalised. */
export function checkCatalogOption(
  catalog: unknown,
  profile: string,
  problems: string[],
): ResolvedCatalogOptions | false {
  if (catalog === false) return false;
  const c = (catalog === undefined ? {} : catalog) as AiCatalogServeOptions & Record<string, unknown>;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) {
    problems.push(
      `options.catalog: must be an object or false (${show(catalog)}). Pass { host: { displayName } }, or false to serve no catalog.`,
    );
    return false;
  }
  for (const key of Object.keys(c))
    if (!CATALOG_KEYS.has(key))
      problems.push(unknownOption(`options.catalog.${key}`, key, CATALOG_KEYS, 'the catalog option'));
  let draft: AiCatalogDraftId = AI_CATALOG_DRAFT.id;
  if (c.draft !== undefined) {
    if ((AI_CATALOG_DRAFT_IDS as readonly unknown[]).includes(c.draft)) draft = c.draft;
    else
      problems.push(
        `options.catalog.draft: is not a draft this version knows (${show(c.draft)}). Use '${AI_CATALOG_DRAFT.id}' (current) or '${AI_CATALOG_PREVIOUS_DRAFT.id}' (previous).`,
      );
  }
  checkDraftSpelling(c, draft, problems);
  if (c.publisher !== undefined && (typeof c.publisher !== 'string' || !DOMAIN.test(c.publisher)))
    problems.push(
      `options.catalog.publisher: must be a lowercase domain name you publish under (${show(c.publisher)}). Use e.g. 'acme.com'.`,
    );
  if (c.namespace !== undefined && (typeof c.namespace !== 'string' || !NAMESPACE.test(c.namespace)))
    problems.push(
      `options.catalog.namespace: must be one or more ':'-separated segments of letters, digits, '.', '_', '~' or '-' (${show(c.namespace)}). Use e.g. 'agent' or 'finance:agent'.`,
    );
  if (c.sign !== undefined && typeof c.sign !== 'boolean')
    problems.push(
      `options.catalog.sign: must be true or false (${show(c.sign)}). Leave it out to sign the catalog with the sign option.`,
    );
  if (c.issuedAt !== undefined && c.signer === undefined)
    problems.push(
      `options.catalog.issuedAt: only dates a did:web signature (set without signer: ${show(c.issuedAt)}). Remove it, or add signer.`,
    );
  if (c.signer !== undefined) {
    const problem = rootDidWebProblem(c.signer);
    if (problem !== undefined)
      problems.push(
        `options.catalog.signer: ${problem}. Name the domain that serves this responder, e.g. 'did:web:agents.example.com'.`,
      );
    else if (draft !== AI_CATALOG_DRAFT.id)
      problems.push(
        `options.catalog.signer: the pinned draft ${draft} has no catalog signature (set). Remove signer, or remove draft to follow the current specification.`,
      );
    else if (c.sign === false)
      problems.push('options.catalog.signer: is set but catalog.sign is false. Remove one of them.');
    else if (c.issuedAt === undefined)
      problems.push(
        "options.catalog.issuedAt: is required with signer (missing). Set it to when this catalog was released, the same on every replica (never the start-up time, or replicas sign different bytes), e.g. issuedAt: process.env.RELEASED_AT ?? '2026-12-07T09:00:00Z'.",
      );
    else {
      const identifier = (c.host as { identifier?: unknown } | undefined)?.identifier;
      if (identifier !== undefined && identifier !== c.signer)
        problems.push(
          `options.catalog.host.identifier: must be the signer (${c.signer}) for readers to accept the signature as the catalog operator's (${show(identifier)}). Leave host.identifier out (it is set to the signer), or sign as that DID.`,
        );
    }
  }
  if (c.maxEntries !== undefined && (!Number.isSafeInteger(c.maxEntries) || (c.maxEntries as number) < 2))
    problems.push(
      `options.catalog.maxEntries: must be a whole number, at least 2 (${show(c.maxEntries)}). Leave it out to list every agent in one catalog.`,
    );
  const baseUrl = c.baseUrl === undefined ? undefined : checkBaseUrl(c.baseUrl, problems);
  checkPublishedUrls(c, 'options.catalog', profile, problems);
  // The document the options describe, with the agents left out, must already be a valid catalog.
  const custom = AI_CATALOG_MEMBERS[draft].custom;
  const skeleton = {
    specVersion: '1.0',
    ...(c.host === undefined ? {} : { host: c.host }),
    entries: c.entries ?? [],
    ...(c[custom] === undefined ? {} : { [custom]: c[custom] }),
  };
  const reported = (f: { path: string }) =>
    problems.some((p) =>
      p.startsWith(
        `options.catalog${f.path
          .replace(/\/(\d+)/g, '[$1]')
          .replace(/\//g, '.')
          .replace(/\.type$/, '.mediaType')}:`,
      ),
    );
  for (const f of validateAiCatalog(skeleton, { draft, profile: profile as ValidationProfile }).findings)
    if (f.severity === 'error' && !reported(f))
      problems.push(`options.${f.message.replace(/^catalog/, 'catalog')} ${f.hint}`);
  return { ...c, draft, namespace: typeof c.namespace === 'string' ? c.namespace : 'agent', baseUrl };
}

/** How the catalog is answered: one prepared document, or a builder per request variant. */
export type CatalogRoute<Req> = (
  | { readonly link: string; readonly document: PreparedDocument; readonly build?: undefined }
  | {
      readonly link: string;
      readonly document?: undefined;
      build(request: AgentCardRequest<Req>): Promise<AgentCardResponse>;
    }
) & {
  /** The catalog as served for a request, for the viewer's host page. */
  readonly variant: VariantSource<Req>;
  /** The MCP discovery subset (`/.well-known/mcp/catalog.json`), when MCP entries are declared. */
  readonly mcp?: PreparedDocument;
  /** The signer's DID document (`/.well-known/did.json`), when `catalog.signer` names one. */
  readonly did?: PreparedDocument;
  /** The nested catalogs the agents are split into (`maxEntries`), by path. */
  readonly nested?: ReadonlyMap<string, PreparedDocument>;
  /** The publisher domain the identifiers took from a host name, when `publisher` is not set. */
  readonly derivedPublisher?: string;
};

/**
 * The catalog signer of the top-level `sign` option (current draft, `catalog.sign` not false), or
 * `undefined`. A key set no catalog may be signed with is a start-up problem; other problems of
 * `sign` are the agents' to report.
 */
function catalogSigner(
  sign: AgentCardOptions<unknown>['sign'],
  catalog: ResolvedCatalogOptions,
  problems: string[],
): CatalogSigning | undefined {
  if (catalog.signer !== undefined) {
    const identifier = (catalog.host as { identifier?: unknown } | undefined)?.identifier;
    // A host.identifier other than the signer is already a problem of the catalog option.
    if (identifier !== undefined && identifier !== catalog.signer) return undefined;
    if (sign === undefined) {
      problems.push(
        `options.catalog.signer: signs with the keys of the sign option, which is not set. Add sign: { keys: [{ privateKey, alg: 'ES256', kid }] }, or remove signer.`,
      );
      return undefined;
    }
    const full = typeof sign === 'object' && sign !== null && !Array.isArray(sign) && 'keys' in sign;
    const keys = (full ? (sign as { keys: unknown }).keys : sign) as Parameters<typeof prepareAiCatalogSigner>[0];
    const list = (Array.isArray(keys) ? keys : [keys]) as { alg?: unknown }[];
    try {
      const didWeb = prepareAiCatalogDidWebSigner(
        keys,
        { signer: catalog.signer, issuedAt: catalog.issuedAt },
        'options.catalog.signer',
      );
      // Every ES256 key is published, so that a key can be added before it signs.
      const published = list
        .filter((k) => k?.alg === 'ES256')
        .map((k) => prepareAiCatalogDidWebSigner(k as never, { signer: catalog.signer! }, 'options.sign'));
      return {
        signer: { kid: didWeb.kid, alg: 'ES256', sign: (doc) => didWeb.sign(doc) as never },
        didWeb,
        didDocument: aiCatalogDidDocument(published),
      };
    } catch (error) {
      if (!(error instanceof AgentCardError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  }
  if (sign === undefined || catalog.sign === false || catalog.draft !== AI_CATALOG_DRAFT.id) return undefined;
  try {
    return { signer: prepareAiCatalogSigner(sign, 'options.sign') };
  } catch (error) {
    if (error instanceof AgentCardError && error.message.includes('AI Catalog draft'))
      problems.push(`${error.message.replace(/or leave the catalog unsigned\.$/, 'or set catalog.sign: false.')}`);
    return undefined;
  }
}

/** How the catalog is signed: the earlier string form, or a did:web Signature object and its DID document. */
interface CatalogSigning {
  signer: AiCatalogSigner;
  didWeb?: AiCatalogDidWebSigner;
  didDocument?: object;
}

/**
 * The Trust Manifests of an entry: those the host's did:web signer contributes without a
 * signature are signed, their subject copied from the entry; the others are served as given.
 */
function withSignedManifests(entry: AnyEntry, didWeb: AiCatalogDidWebSigner | undefined): AnyEntry {
  const manifests = (entry as AiCatalogEntry).trustManifests;
  if (didWeb === undefined || !Array.isArray(manifests)) return entry;
  const { trustManifests: _given, ...bare } = entry as AiCatalogEntry;
  return {
    ...entry,
    trustManifests: manifests.map((m) =>
      m.signature === undefined && (m.contributor === undefined || m.contributor === didWeb.signer)
        ? didWeb.signManifest(bare as Record<string, unknown>, m)
        : m,
    ),
  } as AnyEntry;
}

/** A static card's request: no header a static card depends on. */
const STATIC_CARD_REQUEST: AgentCardRequest<unknown> = Object.freeze({
  method: 'GET',
  path: AGENT_CARD_PATH,
  headers: Object.freeze({}),
});

/** A source that always has `variant`. */
const constant =
  <Req>(variant: VariantFound): VariantSource<Req> =>
  () =>
    variant;

/** The identifier an agent's `catalogEntry` gives, if any. */
const ownIdentifier = <Req>(a: Agent<Req>): string | undefined => (a.entry === false ? undefined : a.entry?.identifier);

/** The exact bytes a static agent's card is served with, or `undefined`. */
function cardBytesOf<Req>(agent: Agent<Req>): Uint8Array | undefined {
  const found = internalsOf(agent.responder)?.variant?.(STATIC_CARD_REQUEST as AgentCardRequest<Req>);
  return found === undefined || isPromiseLike(found) || !('document' in found) ? undefined : found.bytes;
}

/** The document builder of one catalog: entries in, the prepared (and signed) document out. */
function catalogWriter(catalog: ResolvedCatalogOptions, signer: AiCatalogSigner | undefined) {
  const draft = catalog.draft;
  const custom = AI_CATALOG_MEMBERS[draft].custom;
  return (entries: readonly AnyEntry[]): object => {
    const doc = toAiCatalog(
      { host: catalog.host, entries: entries as never, [custom]: catalog[custom] } as never,
      draft as never,
    ) as object;
    return signer === undefined ? doc : signer.sign(doc);
  };
}

/** The MCP subset: the host and the declared MCP Server Card entries, when there are any. */
function mcpDocument(
  catalog: ResolvedCatalogOptions,
  write: (entries: readonly AnyEntry[]) => object,
  settings: Parameters<typeof prepareDocument>[1],
): PreparedDocument | undefined {
  if (catalog.draft !== AI_CATALOG_DRAFT.id) return undefined;
  const mcp = (catalog.entries ?? []).filter((e) => (e as AiCatalogEntry).type === MCP_SERVER_CARD_ENTRY_TYPE);
  return mcp.length === 0
    ? undefined
    : prepareDocument(encodeJson(write(mcp)), { ...settings, served: { kind: 'mcp-catalog' } });
}

export function prepareCatalog<Req>(
  options: AgentCardOptions<Req>,
  catalog: ResolvedCatalogOptions,
  agents: readonly Agent<Req>[],
  problems: string[],
): CatalogRoute<Req> | undefined {
  const shared = hostDocumentSettings(options);
  if (shared === undefined) return undefined;
  const served = { kind: 'catalog' };
  const settings = { served, contentType: AI_CATALOG_MEDIA_TYPE, cacheControl: shared.cacheControl, cors: shared.cors };
  const listed = agents.filter((a) => a.entry !== false);
  const link = `<${catalog.baseUrl ?? ''}${AI_CATALOG_PATH}>; rel="${AI_CATALOG_LINK_REL}"`;
  const signing = catalogSigner(options.sign as AgentCardOptions<unknown>['sign'], catalog, problems);
  const signer = signing?.signer;
  const didWeb = signing?.didWeb;
  const did =
    signing?.didDocument === undefined
      ? undefined
      : prepareDocument(encodeJson(signing.didDocument), {
          ...settings,
          served: { kind: 'did' },
          contentType: 'application/did+json',
        });
  const write = catalogWriter(catalog, signer);
  const current = catalog.draft === AI_CATALOG_DRAFT.id;
  const assemble = (entries: AnyEntry[]) => write([...entries, ...(catalog.entries ?? [])]);
  const mcp = mcpDocument(catalog, write, settings);
  const checkUrls = (entries: readonly AnyEntry[]) => {
    const seen = new Map<string, string>();
    for (const e of entries) {
      const other = e.url === undefined ? undefined : seen.get(e.url);
      if (other !== undefined)
        problems.push(
          `options.catalog: entries "${other}" and "${e.identifier}" have the same card URL (${show(e.url)}). Give each agent its own path.`,
        );
      else if (e.url !== undefined) seen.set(e.url, e.identifier);
    }
  };
  const needsPublisher = current && catalog.publisher === undefined;
  let derivedPublisher: string | undefined;

  if (listed.every((a) => a.card !== undefined)) {
    const entries: AnyEntry[] = [];
    const bases = new Map<string, string>();
    for (const a of listed) {
      const base = catalog.baseUrl ?? originOfCard(a.card);
      if (base !== undefined) bases.set(a.id, base);
      if (base === undefined) {
        problems.push(
          `options.agents (agent "${a.id}"): its catalog entry needs an absolute URL, and the card has no interface URL to take the origin from (none). Set catalog.baseUrl.`,
        );
        continue;
      }
      if (needsPublisher && ownIdentifier(a) === undefined) derivedPublisher ??= hostnameOf(base);
      const bytes = signer === undefined ? undefined : cardBytesOf(a);
      entries.push(
        withSignedManifests(entryOf(a as Agent<unknown>, a.card!, base, catalog, bytes && sha256Digest(bytes)), didWeb),
      );
    }
    const doc = assemble(entries) as { entries: AnyEntry[] };
    checkUrls(doc.entries);
    // The declared entries were checked with the option; what is left is the agents' own.
    const declared = (f: { path: string; rule: string }) =>
      f.rule !== 'catalog-identifier-unique' && Number(/^\/entries\/(\d+)/.exec(f.path)?.[1] ?? -1) >= entries.length;
    for (const f of validateAiCatalog(doc, { profile: 'development', draft: catalog.draft }).findings)
      if (f.severity === 'error' && !declared(f))
        problems.push(`options.catalog: the catalog built from the agents is invalid: ${f.message} ${f.hint}`);
    const max = validMax(catalog.maxEntries);
    if (max !== undefined && entries.length > max) {
      const nested = new Map<string, PreparedDocument>();
      const ids = listed.map((a) => a.id);
      const sorted = entries.map((e, i) => ({ id: ids[i]!, e })).sort((x, y) => (x.id < y.id ? -1 : 1));
      const children = nestCatalogs(sorted, max, catalog, bases.get(sorted[0]!.id)!, write, (path, d) =>
        nested.set(path, prepareDocument(encodeJson(d), settings)),
      );
      const root = write([...children, ...(catalog.entries ?? [])]);
      const document = prepareDocument(encodeJson(root), settings);
      return {
        link,
        document,
        variant: constant(documentVariant(root, document)),
        nested,
        ...(mcp ? { mcp } : {}),
        ...(did ? { did } : {}),
        ...(derivedPublisher ? { derivedPublisher } : {}),
      };
    }
    const document = prepareDocument(encodeJson(doc), settings);
    return {
      link,
      document,
      variant: constant(documentVariant(doc, document)),
      ...(mcp ? { mcp } : {}),
      ...(did ? { did } : {}),
      ...(derivedPublisher ? { derivedPublisher } : {}),
    };
  }
  // A dynamic card has no host name of its own to name its publisher: only configuration may.
  if (needsPublisher && catalog.baseUrl === undefined)
    for (const a of listed)
      if (a.card === undefined && ownIdentifier(a) === undefined)
        problems.push(
          `options.catalog.publisher: is needed to name agent "${a.id}"'s entry (urn:air:{publisher}:${catalog.namespace}:${a.id}), and its card is a function, whose host comes from the request (none). Set catalog.publisher to your domain, e.g. 'acme.com', or give the agent catalogEntry.identifier.`,
        );
  if (needsPublisher && catalog.baseUrl !== undefined) derivedPublisher = hostnameOf(catalog.baseUrl);
  const route = dynamicCatalog(catalog, listed, settings, shared, assemble, signer !== undefined, didWeb);
  return {
    ...route,
    link,
    ...(mcp ? { mcp } : {}),
    ...(did ? { did } : {}),
    ...(derivedPublisher ? { derivedPublisher } : {}),
  };
}

/**
 * A catalog listing a dynamic card: one per combination of the agents' card variants (and
 * origin), built the first time it is asked for and kept like a card variant.
 */
function dynamicCatalog<Req>(
  catalog: ResolvedCatalogOptions,
  listed: readonly Agent<Req>[],
  settings: Parameters<typeof prepareDocument>[1],
  shared: HostDocumentSettings<Req>,
  assemble: (entries: AnyEntry[]) => object,
  digests: boolean,
  didWeb?: AiCatalogDidWebSigner,
): Pick<Extract<CatalogRoute<Req>, { document?: undefined }>, 'build' | 'variant'> {
  const unavailable: CorsVariants<ErrorResponseSet> = prepareErrorResponses({
    served: settings.served,
    status: 503,
    body: {
      error: { code: 503, status: 'UNAVAILABLE', message: 'The AI catalog is temporarily unavailable. Retry later.' },
    },
    headers: { 'retry-after': String(shared.retryAfter) },
    cors: shared.cors,
  });
  const derive = createDerived<Req, { prepared: PreparedDocument; variant: DocumentVariant }>(
    listed.map((a) => (request) => internalsOf(a.responder)!.variant!(request)),
    { maxVariants: shared.maxVariants, perRequest: true },
    (variants, origin) => {
      const entries = listed.map((a, i) =>
        withSignedManifests(
          entryOf(
            a as Agent<unknown>,
            variants[i]!.document as AgentCard,
            // A static card keeps the origin of its own interfaces; a dynamic one has the request's.
            catalog.baseUrl ?? (a.card === undefined ? origin : (originOfCard(a.card) ?? origin)),
            catalog,
            digests ? sha256Digest(variants[i]!.bytes) : undefined,
          ),
          didWeb,
        ),
      );
      // Signed (when signed) once per variant, when it is first built, never per request.
      const doc = assemble(entries);
      const prepared = prepareDocument(encodeJson(doc), settings);
      return { prepared, variant: documentVariant(doc, prepared) };
    },
  );
  const derived = (request: AgentCardRequest<Req>) => {
    const origin = catalog.baseUrl ?? requestOrigin(request, shared.trustProxy);
    if (origin === undefined) return undefined;
    // Each agent's own card for this request, without the catalog's conditional header.
    const headers = { ...request.headers, 'if-none-match': undefined };
    return derive(request, { ...request, method: 'GET', path: AGENT_CARD_PATH, headers }, origin);
  };
  return {
    async build(request) {
      const built = await derived(request);
      if (built === undefined) return answerError(selectCors(unavailable, request.headers), request.method);
      return built instanceof Refused ? built.answer : answerDocument(built.prepared, request);
    },
    async variant(request) {
      const built = await derived(request);
      if (built === undefined) return answerError(selectCors(unavailable, request.headers), request.method);
      return built instanceof Refused ? built.answer : built.variant;
    },
  };
}

const validMax = (value: unknown): number | undefined =>
  Number.isSafeInteger(value) && (value as number) >= 2 ? (value as number) : undefined;

/**
 * Splits the agents' entries (sorted by agent id) into nested catalogs of at most `max` entries
 * each, as few levels as fit, never deeper than the drafts' 4 (the deepest level takes what is
 * left): each document goes to `put`, and the entries naming the root's children are returned.
 * The same agents always give the same paths and bytes.
 */
function nestCatalogs(
  sorted: readonly { id: string; e: AnyEntry }[],
  max: number,
  catalog: ResolvedCatalogOptions,
  base: string,
  write: (entries: readonly AnyEntry[]) => object,
  put: (path: string, doc: object) => void,
): AnyEntry[] {
  const level = (items: readonly { id: string; e: AnyEntry }[], segments: number[], depth: number): AnyEntry[] => {
    if (items.length <= max || depth >= AI_CATALOG_MAX_DEPTH) return items.map((i) => i.e);
    // The smallest chunk (a power of max) that leaves at most max children, or the deepest allowed.
    let chunk = max;
    for (let d = depth + 1; Math.ceil(items.length / chunk) > max && d < AI_CATALOG_MAX_DEPTH; d++) chunk *= max;
    if (Math.ceil(items.length / chunk) > max) chunk = Math.ceil(items.length / max);
    const children: AnyEntry[] = [];
    for (let start = 0, n = 1; start < items.length; start += chunk, n++) {
      const part = items.slice(start, start + chunk);
      const path = nestedCatalogPath([...segments, n]);
      put(path, write(level(part, [...segments, n], depth + 1)));
      children.push(nestedEntry(catalog, base, path, [...segments, n], part[0]!.id, part.at(-1)!.id));
    }
    return children;
  };
  return level(sorted, [], 1);
}

/** The entry naming a nested catalog of agents `first` to `last`. */
function nestedEntry(
  catalog: ResolvedCatalogOptions,
  base: string,
  path: string,
  segments: readonly number[],
  first: string,
  last: string,
): AnyEntry {
  const url = `${base}${path}`;
  const displayName = `Agents ${first} to ${last}`;
  const id = `ai-catalog:${segments.join('.')}`;
  if (catalog.draft === AI_CATALOG_PREVIOUS_DRAFT.id)
    return {
      identifier: `urn:agent-card:${hostnameOf(base)}:${id}`,
      displayName,
      mediaType: AI_CATALOG_MEDIA_TYPE,
      url,
    };
  const publisher = catalog.publisher ?? hostnameOf(base);
  return {
    identifier: `urn:air:${publisher}:${catalog.namespace}:${id}`,
    type: AI_CATALOG_MEDIA_TYPE,
    displayName,
    url,
  };
}
