import { AgentCardError } from '../../errors';
import type { Finding } from '../../findings';
import type { AgentCard, AgentSkill } from '../../model';
import { deepFreeze } from '../../util';
import { validateVariant } from '../kernel/card-validation';
import { type CorsVariants, selectCors } from '../kernel/cors';
import {
  answerError,
  type ErrorResponseSet,
  type PreparedDocument,
  prepareDocument,
  prepareErrorResponses,
} from '../kernel/documents';
import { signedVariant } from '../kernel/encode';
import { ifNoneMatchMatches } from '../kernel/etag';
import { LruCache } from '../kernel/lru';
import type { CardSettings } from '../kernel/options';
import { extendedPathsOf } from '../kernel/paths';
import {
  type A2AErrorKind,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED,
  EXTENDED_CARD_UNAVAILABLE,
  toJsonRpcError,
  toRestErrorBody,
  UNAUTHENTICATED,
  UNSUPPORTED_OPERATION,
} from '../kernel/protocol-errors';
import type { ExtendedEndpoint } from '../card/variant';
import type { ResolvedExtendedOptions } from './options';
import type { ExtendedCardContent, GetExtendedAgentCardResult } from '../kernel/extended';
import { buildWwwAuthenticate, credentialHeaders } from './www-authenticate';

/** Media type of the REST binding (spec §11.1, §14.1). */
const REST_CONTENT_TYPE = 'application/a2a+json';
/** The extended card depends on who asks: never store it in a shared cache (spec §13.3). */
const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** What the extended card of a variant is built with. */
export interface ExtendedSettings {
  readonly card: Pick<CardSettings, 'profile' | 'rules' | 'cors' | 'signer' | 'onError' | 'agent'>;
  /** `undefined` without the `extended` option. */
  readonly extended: ResolvedExtendedOptions<any> | undefined;
  /** `Retry-After` seconds of a 503. */
  readonly retryAfter: number;
}

type Content = ExtendedCardContent;

/**
 * Merges what `extended.card` returned over the public card: a skill list is appended (a skill
 * with an existing id replaces it); a partial card replaces the top-level fields it sets.
 */
export function mergeExtendedCard(publicCard: AgentCard, content: Content | undefined | null): AgentCard {
  if (content === undefined || content === null) return publicCard;
  if (Array.isArray(content)) {
    const extra = content as readonly AgentSkill[];
    const ids = new Set(extra.map((s) => s.id));
    return { ...publicCard, skills: [...publicCard.skills.filter((s) => !ids.has(s.id)), ...extra] };
  }
  return { ...publicCard, ...(content as Partial<AgentCard>) };
}

interface PreparedExtended {
  readonly doc: PreparedDocument;
  /** A private, frozen copy of the card (what JSON-RPC callers receive). */
  readonly card: AgentCard;
}

function realmOf(card: AgentCard, configured: string | undefined): string {
  const name = (configured ?? card.name).replace(/[^\x20-\x7e]/g, '').trim();
  return name.length > 0 ? name : 'agent';
}

function errorResult(kind: A2AErrorKind, headers: Record<string, string> = {}): GetExtendedAgentCardResult {
  return Object.freeze({ error: toJsonRpcError(kind), status: kind.httpStatus, headers: Object.freeze(headers) });
}

/**
 * Builds the extended-card endpoint of one public card variant (spec §3.1.11, §13.3):
 *
 * - card does not declare `capabilities.extendedAgentCard` → `UnsupportedOperationError`
 *   (REST 400 `UNSUPPORTED_OPERATION`; the REST path is only taken over when `extended` is set);
 * - declared, no `extended` option → `ExtendedAgentCardNotConfiguredError` (400);
 * - declared and configured → `authenticate` decides: nothing → 401 with `WWW-Authenticate`;
 *   a principal → the merged card, validated, `Cache-Control: private, no-store`,
 *   `Vary: Authorization`.
 *
 * A static `extended.card` is merged and validated here, once; a function result is merged,
 * serialised and looked up in a bounded cache keyed by its JSON, so each distinct extended card
 * is validated and hashed once.
 */
export function createExtendedEndpoint(
  card: AgentCard,
  settings: ExtendedSettings,
  warn: (findings: Finding[]) => void,
): ExtendedEndpoint {
  const ext = settings.extended;
  const options = settings.card;
  const declared = card.capabilities.extendedAgentCard === true;
  const explicit = ext?.path;
  const paths: readonly string[] =
    (!declared && ext === undefined) || explicit === false
      ? []
      : explicit !== undefined
        ? explicit
        : extendedPathsOf(card.supportedInterfaces);
  const cors = options.cors;
  const vary = credentialHeaders(card);
  const served = { kind: 'extended', agent: options.agent };
  const errorSettings = { served, contentType: REST_CONTENT_TYPE, cors, vary, allowHeaders: vary };
  const fixedError = (kind: A2AErrorKind, headers?: Record<string, string>) =>
    prepareErrorResponses({ ...errorSettings, status: kind.httpStatus, body: toRestErrorBody(kind), headers });

  if (!declared || ext === undefined) {
    const kind = declared ? EXTENDED_AGENT_CARD_NOT_CONFIGURED : UNSUPPORTED_OPERATION;
    const responses = fixedError(kind);
    const result = errorResult(kind);
    return {
      paths,
      handle: (request) => answerError(selectCors(responses, request.headers), request.method),
      resolve: async () => result,
    };
  }

  const wwwAuthenticate = buildWwwAuthenticate(card, realmOf(card, ext.realm));
  const unauthorized = fixedError(UNAUTHENTICATED, { 'www-authenticate': wwwAuthenticate });
  const unauthorizedResult = errorResult(UNAUTHENTICATED, { 'www-authenticate': wwwAuthenticate });
  const unavailable: CorsVariants<ErrorResponseSet> = fixedError(EXTENDED_CARD_UNAVAILABLE, {
    'retry-after': String(settings.retryAfter),
  });
  const unavailableResult = errorResult(EXTENDED_CARD_UNAVAILABLE, { 'retry-after': String(settings.retryAfter) });
  const docSettings = {
    served,
    contentType: REST_CONTENT_TYPE,
    cacheControl: PRIVATE_CACHE_CONTROL,
    cors,
    vary,
    allowHeaders: vary,
  };

  // With `sign`, each distinct extended card is signed here, once, with the keys of the public
  // card (the key set stays the same), so JSON-RPC and REST callers get the same signed bytes.
  const prepare = (merged: AgentCard, json: string): PreparedExtended => {
    validateVariant(merged, options, warn, 'extended.card');
    const served = options.signer === undefined ? json : JSON.stringify(signedVariant(merged, options.signer));
    const bytes = new TextEncoder().encode(served);
    return { doc: prepareDocument(bytes, docSettings), card: deepFreeze(JSON.parse(served) as AgentCard) };
  };

  let produce: (principal: unknown) => PreparedExtended | Promise<PreparedExtended>;
  const source = ext.card;
  if (typeof source === 'function') {
    // Keyed by the merged card's JSON: principals that see the same card share one entry.
    const cache = new LruCache<string, PreparedExtended | AgentCardError>(ext.maxVariants);
    produce = async (principal) => {
      const merged = mergeExtendedCard(card, await (source as (p: unknown) => Content | Promise<Content>)(principal));
      const json = JSON.stringify(merged);
      let entry = cache.get(json);
      if (entry === undefined) {
        try {
          entry = prepare(merged, json);
        } catch (error) {
          entry =
            error instanceof AgentCardError
              ? error
              : new AgentCardError('ERR_AGENT_CARD_INVALID', 'extended.card: could not be prepared.', { cause: error });
        }
        cache.set(json, entry);
      }
      if (entry instanceof AgentCardError) throw entry;
      return entry;
    };
  } else {
    const merged = mergeExtendedCard(card, source as Content | undefined);
    const fixed = prepare(merged, JSON.stringify(merged));
    produce = () => fixed;
  }

  const authenticate = async (raw: unknown): Promise<unknown> => {
    try {
      return await ext.authenticate(raw);
    } catch (error) {
      // A throwing authenticate is a rejection, never a 5xx: the caller learns nothing more.
      options.onError(error);
      return undefined;
    }
  };

  const tryProduce = async (principal: unknown): Promise<PreparedExtended | undefined> => {
    try {
      return await produce(principal);
    } catch (error) {
      options.onError(error);
      return undefined;
    }
  };

  return {
    paths,
    async handle(request) {
      const method = request.method;
      if (method !== 'GET' && method !== 'HEAD') return answerError(selectCors(unauthorized, request.headers), method);
      const principal = await authenticate(request.raw);
      if (!principal) return answerError(selectCors(unauthorized, request.headers), method);
      const prepared = await tryProduce(principal);
      if (prepared === undefined) return answerError(selectCors(unavailable, request.headers), method);
      const set = selectCors(prepared.doc.responses, request.headers);
      const inm = request.headers['if-none-match'];
      if (inm !== undefined && ifNoneMatchMatches(inm, prepared.doc.etag)) return set.notModified;
      return method === 'GET' ? set.ok : set.head;
    },
    async resolve(request) {
      const principal = await authenticate(request.raw);
      if (!principal) return unauthorizedResult;
      const prepared = await tryProduce(principal);
      if (prepared === undefined) return unavailableResult;
      return { card: prepared.card };
    },
  };
}
