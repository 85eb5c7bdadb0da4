// `POST {base}/search` of the ARD registry API (v0.91 draft §5.3.2 and its OpenAPI document) over
// one host's agents: a bounded JSON body, a query validated against the draft's `SearchRequest`,
// and a match over a word index of the agents' names, descriptions, skill tags and skills, built
// at the host's first search and kept until its listing changes.
import { z } from 'zod';
import type { ArdEntry } from '../../ard/format';
import { readJsonText } from '../../json/read';
import type { AgentCard } from '../../model';
import type { RequestBodyRead } from '../kernel/body';
import { buildCorsVariants, type CorsSetting, type CorsVariants, PREFLIGHT_MAX_AGE, selectCors } from '../kernel/cors';
import { encodeJson } from '../kernel/encode';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import { LruCache } from '../kernel/lru';
import { markServed } from '../kernel/served';
import { countSearchIndexBuild, SEARCH_DEFAULTS, type SearchSettings } from '../host/search';
import type { PageSeal } from './page-token';

export { SEARCH_DEFAULTS, type SearchSettings };

/** Results per page without `pageSize`, and the most a page may ask for (draft §5.3.2). */
export const SEARCH_PAGE_SIZE = { default: 10, max: 100 } as const;
/** Longest `query.text`, in UTF-16 code units. */
export const MAX_SEARCH_TEXT = 256;
/** Most words of `query.text` searched for; later ones are ignored. */
const MAX_TERMS = 16;
/** Most matches ranked and paged through, the best first. */
export const MAX_SEARCH_MATCHES = 1000;
/** Deepest nesting a search request needs (`{ query: { filter: { tags: [ … ] } } }`), with room. */
const MAX_DEPTH = 6;
/** Longest indexed word; a longer run of letters is cut. */
const MAX_WORD = 64;
/** Search answers kept per host, by query and page. */
const MAX_CACHED = 64;

/** An agent as search sees it: its ARD entry, its card (for the skills) and the registry it is in. */
export interface SearchAgent {
  readonly entry: ArdEntry;
  readonly card: AgentCard;
  /** The API base of the registry that holds it (`source` of a result). */
  readonly source: string;
}

/**
 * Folds text for matching: compatibility forms and accents dropped (NFKD without combining
 * marks), then full case folding as `toUpperCase().toLowerCase()` gives it (`ß` → `ss`), and the
 * final sigma as any sigma. The same fold reads the index and the query.
 */
export function foldText(text: string): string {
  // ASCII folds to its lower case; the long way is five passes over the text.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/ς/g, 'σ');
}

const ASCII = /^\p{ASCII}*$/u;

/** The words of folded text: runs of letters and digits, each cut to {@link MAX_WORD}. */
function wordsOf(folded: string): string[] {
  const out: string[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) if (word !== '') out.push(word.slice(0, MAX_WORD));
  return out;
}

/** Weights of where a word is found: the name, then skills and tags, then descriptions. */
const NAME = 3;
const SKILL = 2;
const TEXT = 1;

const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];

/** Every (text, weight) of an agent that search reads. */
function fieldsOf(agent: SearchAgent): [string, number][] {
  const card = agent.card;
  const out: [string, number][] = [[agent.entry.displayName, NAME]];
  if (typeof agent.entry.description === 'string') out.push([agent.entry.description, TEXT]);
  for (const skill of Array.isArray(card.skills) ? card.skills : []) {
    if (typeof skill.name === 'string') out.push([skill.name, SKILL]);
    if (typeof skill.id === 'string') out.push([skill.id, SKILL]);
    for (const tag of strings(skill.tags)) out.push([tag, SKILL]);
    if (typeof skill.description === 'string') out.push([skill.description, TEXT]);
  }
  return out;
}

/** A host's word index: each word (sorted) and, per agent holding it, its best weight. */
interface WordIndex {
  readonly words: readonly string[];
  readonly postings: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** Per agent: its folded skill tags, skill ids and publisher, for `filter`. */
  readonly tags: readonly ReadonlySet<string>[];
  readonly capabilities: readonly ReadonlySet<string>[];
  readonly publishers: readonly string[];
}

function buildIndex(agents: readonly SearchAgent[]): WordIndex {
  const postings = new Map<string, Map<number, number>>();
  const tags: Set<string>[] = [];
  const capabilities: Set<string>[] = [];
  const publishers: string[] = [];
  agents.forEach((agent, i) => {
    for (const [text, weight] of fieldsOf(agent))
      for (const word of wordsOf(foldText(text))) {
        let list = postings.get(word);
        if (list === undefined) {
          list = new Map();
          postings.set(word, list);
        }
        if ((list.get(i) ?? 0) < weight) list.set(i, weight);
      }
    const skills = Array.isArray(agent.card.skills) ? agent.card.skills : [];
    tags.push(new Set(skills.flatMap((s) => strings(s.tags)).map(foldText)));
    capabilities.push(new Set(strings(agent.entry.capabilities)));
    publishers.push(/^urn:air:([^:]+):/.exec(agent.entry.identifier)?.[1]?.toLowerCase() ?? '');
  });
  return { words: [...postings.keys()].sort(), postings, tags, capabilities, publishers };
}

/** The first index of `words` not below `word` (binary search). */
function lowerBound(words: readonly string[], word: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// --- the request: the draft's SearchRequest, closed as its OpenAPI document closes it ---
const FILTER_VALUE = z.string().max(256);
const SearchRequestSchema = z.strictObject({
  query: z.strictObject({
    '@context': z.union([z.string().max(2048), z.record(z.string().max(256), z.string().max(2048))]).optional(),
    text: z.string().min(1).max(MAX_SEARCH_TEXT),
    filter: z.record(z.string().max(256), z.union([FILTER_VALUE, z.array(FILTER_VALUE).max(32)])).optional(),
  }),
  federation: z.enum(['auto', 'referrals', 'none']).optional(),
  pageSize: z.int().min(1).max(SEARCH_PAGE_SIZE.max).optional(),
  pageToken: z.string().max(128).optional(),
});
type SearchRequest = z.infer<typeof SearchRequestSchema>;

/** Filter keys searched on (core terms of the default namespace, and `publisher`). */
const FILTER_KEYS = ['type', 'tags', 'capabilities', 'publisher'] as const;

/** Why a request is not a search request, in words that name only the draft's members. */
function invalidMessage(issue: z.core.$ZodIssue | undefined): string {
  const path = issue?.path ?? [];
  const [top, member] = path;
  if (issue?.code === 'unrecognized_keys')
    return top === 'query'
      ? 'query takes only @context, text and filter.'
      : 'A search request takes only query, federation, pageSize and pageToken.';
  if (top === 'query' && member === 'text')
    return `query.text is required: a string of 1 to ${MAX_SEARCH_TEXT} characters.`;
  if (top === 'query' && member === 'filter')
    return 'query.filter must map each term to a string or a list of at most 32 strings of at most 256 characters.';
  if (top === 'query' && member === '@context') return 'query.@context must be a string or an object of strings.';
  if (top === 'query') return 'query is required: an object with text, and optionally filter and @context.';
  if (top === 'federation') return 'federation must be auto, referrals or none.';
  if (top === 'pageSize') return `pageSize must be a whole number from 1 to ${SEARCH_PAGE_SIZE.max}.`;
  if (top === 'pageToken') return 'pageToken must be a token this registry gave.';
  return 'The body must be a JSON object: { "query": { "text": "…" } }.';
}

interface Problem {
  readonly status: number;
  readonly errorCode: string;
  readonly message: string;
  readonly closeConnection?: boolean;
}

const problem = (status: number, errorCode: string, message: string): Problem => ({ status, errorCode, message });
const invalid = (message: string) => problem(400, 'INVALID_ARGUMENT', message);

/** Whether `value` names JSON (`application/json` or a `+json` type), in UTF-8 if a charset is given. */
function isJsonType(value: string | string[] | undefined): boolean {
  if (typeof value !== 'string' || value.length > 256) return false;
  const [type, ...params] = value.split(';');
  const name = type!.trim().toLowerCase();
  if (name !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(name)) return false;
  for (const param of params) {
    const [key, v] = param.split('=');
    if (key?.trim().toLowerCase() === 'charset' && v?.trim().replace(/"/g, '').toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/** The search request in a body as read, or the problem with it. */
function requestOf(read: RequestBodyRead, settings: SearchSettings): SearchRequest | Problem {
  const tooLarge = (closeConnection?: boolean): Problem => ({
    ...problem(413, 'PAYLOAD_TOO_LARGE', `A search request is at most ${settings.maxBodyBytes} bytes.`),
    closeConnection,
  });
  let value: unknown;
  if (read.kind === 'too-large') return tooLarge(read.closeConnection);
  if (read.kind === 'timeout')
    return {
      ...problem(408, 'REQUEST_TIMEOUT', `The request body did not arrive within ${settings.timeoutMs} ms.`),
      closeConnection: read.closeConnection,
    };
  if (read.kind === 'unavailable')
    return invalid('The request body was read before the registry could; mount the registry before body parsers.');
  if (read.kind === 'bytes') {
    const text = readJsonText(read.bytes, { maxBytes: settings.maxBodyBytes, maxDepth: MAX_DEPTH, duplicates: 1 });
    if (!text.ok) {
      if (text.error === 'too-large') return tooLarge();
      if (text.error === 'too-deep') return invalid(`The body nests deeper than a search request does (${MAX_DEPTH}).`);
      return invalid('The body is not JSON.');
    }
    if (text.duplicates.length > 0) return invalid('The body names a member twice in one object.');
    value = text.value;
  } else value = read.value;
  const parsed = SearchRequestSchema.safeParse(value);
  if (!parsed.success) return invalid(invalidMessage(parsed.error.issues[0]));
  // A value a framework parsed is held to the same size as bytes would be (its shape is bounded).
  if (read.kind === 'parsed' && encodeJson(parsed.data).byteLength > settings.maxBodyBytes) return tooLarge();
  return parsed.data;
}

/** The route's fixed parts, per CORS outcome. */
interface SearchHeaders {
  readonly base: Readonly<Record<string, string>>;
  readonly preflight: AgentCardResponse;
}

const SEARCH_METHODS = 'POST, OPTIONS';

function searchHeaders(cors: CorsSetting): CorsVariants<SearchHeaders> {
  return buildCorsVariants(cors, (corsHeaders): SearchHeaders => {
    const base: Record<string, string> = {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...corsHeaders,
    };
    if (cors.mode === 'list') base.vary = 'Origin';
    const preflight: Record<string, string> = { allow: SEARCH_METHODS, ...corsHeaders };
    if (cors.mode === 'list') preflight.vary = 'Origin';
    if (corsHeaders['access-control-allow-origin'] !== undefined) {
      preflight['access-control-allow-methods'] = SEARCH_METHODS;
      preflight['access-control-allow-headers'] = 'Accept, Content-Type';
      preflight['access-control-max-age'] = PREFLIGHT_MAX_AGE;
    }
    return Object.freeze({
      base: Object.freeze(base),
      preflight: markServed(Object.freeze({ status: 204, headers: Object.freeze(preflight) }), {
        kind: 'ard-registry',
      }),
    });
  });
}

/** Settings of {@link createSearchRoute}. */
export interface SearchRouteSettings {
  readonly cors: CorsSetting;
  readonly search: SearchSettings;
  /** The listing's page seal, shared with `GET /agents`. */
  readonly seal: PageSeal;
}

/**
 * The search of one host's agents (in the order of `GET /agents`). A page token names an offset
 * into the results of one query over this host's listing, sealed with a digest of both: a token
 * altered, made up, or given by another tenant or another query is refused (400), never followed.
 */
export function createSearchRoute(
  agents: readonly SearchAgent[],
  settings: SearchRouteSettings,
): (request: AgentCardRequest<unknown>) => AgentCardResponse | Promise<AgentCardResponse> {
  // Built at the first search, not with the host: most listings change more often than they are
  // searched, and the index of 10,000 agents takes about a second. Built synchronously, so no
  // two requests build it at once.
  let built: WordIndex | undefined;
  const indexed = (): WordIndex => {
    if (built === undefined) {
      built = buildIndex(agents);
      countSearchIndexBuild();
    }
    return built;
  };
  const headers = searchHeaders(settings.cors);
  const limits = { maxBodyBytes: settings.search.maxBodyBytes, timeoutMs: settings.search.timeoutMs };
  const { seal } = settings;
  const cache = new LruCache<string, Uint8Array>(MAX_CACHED);

  const answer = (set: SearchHeaders, status: number, body: Uint8Array, more?: Record<string, string>) =>
    markServed(
      { status, headers: { ...set.base, 'content-length': String(body.byteLength), ...more }, body },
      { kind: 'ard-registry' },
    );
  const fail = (set: SearchHeaders, p: Problem, more?: Record<string, string>) =>
    answer(set, p.status, encodeJson({ errorCode: p.errorCode, message: p.message }), {
      ...more,
      ...(p.closeConnection === true ? { connection: 'close' } : {}),
    });

  /** The matches of `request`, the best first: agent positions and scores. */
  const match = (request: SearchRequest): { at: number; score: number }[] | Problem => {
    const terms = [...new Set(wordsOf(foldText(request.query.text)))].slice(0, MAX_TERMS);
    if (terms.length === 0) return invalid('query.text has no word to search for (letters or digits).');
    const filter = request.query.filter ?? {};
    for (const key of Object.keys(filter))
      if (!(FILTER_KEYS as readonly string[]).includes(key))
        return invalid(`query.filter supports only ${FILTER_KEYS.join(', ')}.`);
    const index = indexed();
    let found: Map<number, number> | undefined;
    for (const term of terms) {
      const best = new Map<number, number>();
      for (let i = lowerBound(index.words, term); i < index.words.length; i++) {
        const word = index.words[i]!;
        if (!word.startsWith(term)) break;
        // A whole word counts fully, a word it begins half.
        const exact = word.length === term.length;
        for (const [at, weight] of index.postings.get(word)!) {
          const w = exact ? weight : weight / 2;
          if ((best.get(at) ?? 0) < w) best.set(at, w);
        }
      }
      const next = new Map<number, number>();
      for (const [at, w] of best) {
        const before = found === undefined ? 0 : found.get(at);
        if (before !== undefined) next.set(at, before + w);
      }
      found = next;
      if (found.size === 0) break;
    }
    const wanted = (key: string) => {
      const v = filter[key];
      return v === undefined ? undefined : Array.isArray(v) ? v : [v];
    };
    const types = wanted('type');
    const tags = wanted('tags')?.map(foldText);
    const capabilities = wanted('capabilities');
    const publishers = wanted('publisher')?.map((p) => p.toLowerCase());
    const out: { at: number; score: number }[] = [];
    for (const [at, sum] of found ?? []) {
      if (types !== undefined && !types.includes(agents[at]!.entry.type)) continue;
      if (tags !== undefined && !tags.some((t) => index.tags[at]!.has(t))) continue;
      if (capabilities !== undefined && !capabilities.some((c) => index.capabilities[at]!.has(c))) continue;
      if (publishers !== undefined && !publishers.includes(index.publishers[at]!)) continue;
      out.push({ at, score: Math.max(1, Math.round((100 * sum) / (terms.length * NAME))) });
    }
    const id = (at: number) => agents[at]!.entry.identifier;
    out.sort((a, b) => b.score - a.score || (id(a.at) < id(b.at) ? -1 : id(a.at) > id(b.at) ? 1 : 0));
    return out.slice(0, MAX_SEARCH_MATCHES);
  };

  const search = (request: SearchRequest): Uint8Array | Problem => {
    const size = request.pageSize ?? SEARCH_PAGE_SIZE.default;
    // The query as matched: the same words and filter give the same results, and the same tokens.
    const key = encodeJson([
      wordsOf(foldText(request.query.text)).slice(0, MAX_TERMS),
      request.query.filter ?? {},
      request.federation === 'referrals',
    ]);
    const keyText = new TextDecoder().decode(key);
    const matches = match(request);
    if (!Array.isArray(matches)) return matches;
    const token = request.pageToken;
    const offset = token === undefined || token === '' ? 0 : seal.offsetOf(`search\n${keyText}`, token, matches.length);
    if (offset === undefined)
      return invalid(
        'pageToken is not one this registry gave for this query, or the listing changed since. Search again without pageToken.',
      );
    const cacheKey = `${offset}:${size}:${keyText}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const next = offset + size;
    const results = matches.slice(offset, next).map(({ at, score }) => {
      const { representativeQueries: _queries, ...entry } = agents[at]!.entry;
      return { ...entry, score, source: agents[at]!.source };
    });
    const body = encodeJson({
      results,
      ...(request.federation === 'referrals' ? { referrals: [] } : {}),
      ...(next < matches.length ? { pageToken: seal.tokenOf(`search\n${keyText}`, next) } : {}),
    });
    cache.set(cacheKey, body);
    return body;
  };

  return (request) => {
    const set = selectCors(headers, request.headers);
    if (request.method === 'OPTIONS') return set.preflight;
    if (request.method !== 'POST')
      return fail(set, problem(405, 'METHOD_NOT_ALLOWED', 'Search with POST.'), { allow: SEARCH_METHODS });
    if (!isJsonType(request.headers['content-type']))
      return fail(set, problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the search request as application/json (UTF-8).'));
    const length = request.headers['content-length'];
    if (typeof length === 'string' && /^\d+$/.test(length) && Number(length) > limits.maxBodyBytes)
      return fail(set, problem(413, 'PAYLOAD_TOO_LARGE', `A search request is at most ${limits.maxBodyBytes} bytes.`));
    const read = request.readBody;
    if (read === undefined) return fail(set, invalid('The request carries no body this server can read.'));
    return read({ maxBytes: limits.maxBodyBytes, timeoutMs: limits.timeoutMs }).then((body) => {
      const parsed = requestOf(body, limits);
      if ('status' in parsed) return fail(set, parsed);
      const result = search(parsed);
      return result instanceof Uint8Array ? answer(set, 200, result) : fail(set, result);
    });
  };
}
