// Documents made of the documents a responder serves (the AI Catalog, the ARD manifest, the
// viewer's pages): each source's current variant is read as it is held (the card object, its
// bytes and ETag, never an answer serialised and parsed back), a refusal is passed on, and the
// document is built once per set of variants (their ETags) and then answered like a card.
import { isPromiseLike } from '../../util';
import { selectCors } from './cors';
import type { PreparedDocument } from './documents';
import type { AgentCardRequest, AgentCardResponse } from './exchange';
import { LruCache } from './lru';

/** A JSON document a responder serves, as it is held for one variant. */
export interface DocumentVariant<T = unknown> {
  /** The document as served (a card: with its signatures when `sign` is set). */
  readonly document: T;
  /** The exact bytes it is served with. */
  readonly bytes: Uint8Array;
  readonly etag: string;
  /** The request headers it depends on (its `Vary`, without `Origin` and `Accept`). */
  readonly vary: readonly string[];
  /** The agent it is about, for the serve hook. */
  readonly agent?: string | undefined;
}

/**
 * What a responder has at a request's path: the variant, the answer that refuses it to this
 * request (an unknown host, a card function that failed), or `undefined` when it serves nothing
 * there.
 */
export type VariantFound<T = unknown> = DocumentVariant<T> | AgentCardResponse | undefined;

/** Finds the current variant of the document at a request's path. */
export type VariantSource<Req, T = unknown> = (
  request: AgentCardRequest<Req>,
) => VariantFound<T> | Promise<VariantFound<T>>;

/** The variant of the prepared document `doc`, made of `document`; built once, with the document. */
export function documentVariant<T>(document: T, doc: PreparedDocument, agent?: string): DocumentVariant<T> {
  // CORS and the card's media type negotiation say nothing about what a document is made of.
  const vary = (selectCors(doc.responses, {}).ok.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '' && v.toLowerCase() !== 'origin' && v.toLowerCase() !== 'accept');
  return Object.freeze({ document, bytes: doc.bytes, etag: doc.etag, vary: Object.freeze(vary), agent });
}

/** A source's refusal, passed on as the derived document's answer. */
export class Refused {
  constructor(readonly answer: AgentCardResponse) {}
}

/** How a derived document is kept. */
export interface DerivedSettings {
  /** Most documents kept (one per set of variants and `key`). */
  readonly maxVariants: number;
  /**
   * Whether a source depends on the request. When none does, the document built last is answered
   * while every source holds the same variant objects.
   */
  readonly perRequest: boolean;
  /**
   * A value that changes whenever a source may have changed (the host's count of updates); with
   * it, and no source per request, the document built last is answered without asking a source.
   */
  readonly version?: (() => number) | undefined;
}

/**
 * The document derived from `sources` for a request: `build` runs once per set of variants (and
 * `key`, what else the document depends on, e.g. the request's origin) and its result is kept.
 * A source that refuses the request makes that refusal the answer (a derived document never lists
 * what is not served; without its body for HEAD); a source that serves nothing there, or a `build`
 * that returns `undefined`, gives `undefined`.
 */
export function createDerived<Req, T>(
  sources: readonly VariantSource<Req>[],
  settings: DerivedSettings,
  build: (variants: readonly DocumentVariant[], key: string) => T | undefined,
): (request: AgentCardRequest<Req>, sourceRequest: AgentCardRequest<Req>, key?: string) => Derived<T> {
  const cache = new LruCache<string, T>(settings.maxVariants);
  const version = settings.perRequest ? undefined : settings.version;
  let last: { variants: readonly DocumentVariant[]; key: string; value: T; version: number | undefined } | undefined;

  const finish = (
    request: AgentCardRequest<Req>,
    found: readonly VariantFound[],
    key: string,
    asked: number | undefined,
  ): T | Refused | undefined => {
    if (
      last !== undefined &&
      !settings.perRequest &&
      key === last.key &&
      found.every((v, i) => v === last!.variants[i])
    )
      return last.value;
    let cacheKey = '';
    for (const v of found) {
      if (v === undefined) return undefined;
      if (!('document' in v))
        return new Refused(request.method === 'HEAD' ? { status: v.status, headers: v.headers } : v);
      cacheKey += `${v.etag}\n`;
    }
    cacheKey += key;
    let value = cache.get(cacheKey);
    if (value === undefined) {
      value = build(found as DocumentVariant[], key);
      if (value === undefined) return undefined;
      cache.set(cacheKey, value);
    }
    if (!settings.perRequest) last = { variants: found as DocumentVariant[], key, value, version: asked };
    return value;
  };

  return (request, sourceRequest, key = '') => {
    // Sources unchanged since the document was built: one comparison, no source asked.
    const asked = version?.();
    if (asked !== undefined && last?.version === asked && last.key === key) return last.value;
    const found = sources.map((source) => source(sourceRequest));
    if (!found.some(isPromiseLike)) return finish(request, found as VariantFound[], key, asked);
    return Promise.all(found).then((settled) => finish(request, settled, key, asked));
  };
}

/** A derived document (or what `build` made), a source's refusal, or nothing. */
export type Derived<T> = T | Refused | undefined | Promise<T | Refused | undefined>;
