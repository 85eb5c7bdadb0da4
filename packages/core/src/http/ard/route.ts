// The ARD manifest at /.well-known/ard.json, built from the cards the host serves: prepared once
// per set of card variants (at the first request for static cards, again only after an update)
// and answered like a card (ETag, 304, HEAD, CORS, 405).
import { ARD_LINK_REL, ARD_MEDIA_TYPE, ARD_PATH, type ArdEntry } from '../../ard/format';
import type { AgentCard } from '../../model';
import { isPromiseLike } from '../../util';
import { requestOrigin } from '../kernel/origin';
import type { ProxyTrust } from '../kernel/trust';
import { type CorsSetting, selectCors } from '../kernel/cors';
import {
  answerDocument,
  answerError,
  type PreparedDocument,
  prepareDocument,
  prepareErrorResponses,
} from '../kernel/documents';
import { createDerived, Refused, type VariantSource } from '../kernel/derived';
import { encodeJson } from '../kernel/encode';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import type { PageLink } from '../host/agent';
import { originOfCard } from '../host/origin';
import { AGENT_CARD_PATH, comparablePath } from '../kernel/paths';
import { type AgentCardResponder, internalsOf, sealResponder, withPaths } from '../kernel/responder';
import { type AgentNaming, agentEntry, agentIdentifier } from './entries';

/** An agent the manifest lists: where it is mounted and the responder that serves its card. */
export interface ArdSource<Req> {
  readonly id: string;
  /** Its mount path (`''` for the root card). */
  readonly path: string;
  /** The identifier its catalog entry declares, if any. */
  readonly identifier?: string | undefined;
  /** A card function: the card (and the manifest) depend on the request. */
  readonly dynamic: boolean;
  /** The agent's current card variant for a request for its card. */
  readonly variant: VariantSource<Req>;
}

/** How the manifest is built and answered. */
export interface ArdRouteSettings {
  /** The mount point's absolute URL (`catalog.baseUrl`); else each card's interface origin. */
  readonly baseUrl: string | undefined;
  readonly cacheControl: string | false;
  readonly cors: CorsSetting;
  readonly trustProxy: ProxyTrust | undefined;
  readonly maxVariants: number;
  readonly retryAfter: number;
  /** Entries listed after the agents (the catalog's declared entries that ARD can carry). */
  readonly extra: readonly ArdEntry[];
  /** How the host's AI Catalog names the agents, so that the manifest names them alike. */
  readonly naming?: AgentNaming | undefined;
  /**
   * A value that changes whenever a static card may have changed (the host's count of updates).
   * With it, a host of static cards answers from the manifest it prepared last without asking
   * each agent for its card; without it, every request asks them.
   */
  readonly version?: () => number;
}

/** The manifest's route: the `Link` the host's card answers carry, and its answer. */
export interface ArdRoute<Req> {
  readonly link: string;
  respond(request: AgentCardRequest<Req>): AgentCardResponse | Promise<AgentCardResponse>;
}

/** A static card's request: no header a static card depends on, so its answer is the same object. */
const STATIC_CARD_REQUEST: AgentCardRequest<any> = Object.freeze({
  method: 'GET',
  path: AGENT_CARD_PATH,
  headers: Object.freeze({}),
});

/** The `<link>` a viewer page carries for the manifest (relative, or under `baseUrl`). */
export function ardPageLink(baseUrl: string | undefined): PageLink {
  return { rel: ARD_LINK_REL, path: `${baseUrl ?? ''}${ARD_PATH}`, type: ARD_MEDIA_TYPE };
}

/** The `Link` header value that names the manifest. */
export function ardLink(baseUrl: string | undefined): string {
  return `<${baseUrl ?? ''}${ARD_PATH}>; rel="${ARD_LINK_REL}"`;
}

/**
 * The route of the manifest listing `sources`: made of every agent's current card variant (for
 * static cards the same objects until an update), and built again only when one of them changed:
 * a static host serves one prepared document.
 */
export function createArdRoute<Req>(sources: readonly ArdSource<Req>[], settings: ArdRouteSettings): ArdRoute<Req> {
  const anyDynamic = sources.some((s) => s.dynamic);
  const unavailable = prepareErrorResponses({
    served: { kind: 'ard' },
    status: 503,
    body: {
      error: { code: 503, status: 'UNAVAILABLE', message: 'The ARD manifest is temporarily unavailable. Retry later.' },
    },
    headers: { 'retry-after': String(settings.retryAfter) },
    cors: settings.cors,
  });
  const derive = createDerived<Req, PreparedDocument>(
    sources.map((s) => s.variant),
    { maxVariants: settings.maxVariants, perRequest: anyDynamic, version: settings.version },
    (variants, origin) => {
      const entries: ArdEntry[] = [];
      for (let i = 0; i < sources.length; i++) {
        const card = variants[i]!.document as AgentCard;
        const base = settings.baseUrl ?? originOfCard(card) ?? (origin || undefined);
        if (base === undefined) return undefined;
        const s = sources[i]!;
        entries.push(
          agentEntry(
            card,
            agentIdentifier(s.id, base, s.identifier, settings.naming),
            `${base}${s.path}${AGENT_CARD_PATH}`,
          ),
        );
      }
      return prepareDocument(encodeJson({ entries: [...entries, ...settings.extra] }), {
        served: { kind: 'ard' },
        contentType: ARD_MEDIA_TYPE,
        cacheControl: settings.cacheControl,
        cors: settings.cors,
        vary: anyDynamic ? variants[0]?.vary : undefined,
      });
    },
  );
  const answer = (request: AgentCardRequest<Req>, built: PreparedDocument | Refused | undefined) =>
    built === undefined
      ? answerError(selectCors(unavailable, request.headers), request.method)
      : built instanceof Refused
        ? built.answer
        : answerDocument(built, request);

  return {
    link: ardLink(settings.baseUrl),
    respond(request) {
      let cardRequest: AgentCardRequest<Req> = STATIC_CARD_REQUEST;
      let origin: string | undefined;
      if (anyDynamic) {
        cardRequest = {
          ...request,
          method: 'GET',
          path: AGENT_CARD_PATH,
          headers: { ...request.headers, 'if-none-match': undefined, accept: undefined },
        };
        if (settings.baseUrl === undefined) origin = requestOrigin(request, settings.trustProxy);
      }
      const built = derive(request, cardRequest, origin);
      return isPromiseLike(built) ? built.then((b) => answer(request, b)) : answer(request, built);
    },
  };
}

/**
 * Serves the ARD manifest in front of `responder` (a query string or trailing slash still matches),
 * and lists its path with those `responder` serves, for `servedPathsOf`.
 */
export function withArdRoute<Req>(
  responder: AgentCardResponder<Req>,
  route: ArdRoute<Req> | undefined,
): AgentCardResponder<Req> {
  if (route === undefined) return responder;
  const inner = responder.respond;
  return sealResponder(
    {
      respond: (request) =>
        request.path === ARD_PATH || (request.path.startsWith(ARD_PATH) && comparablePath(request.path) === ARD_PATH)
          ? route.respond(request)
          : inner(request),
      update: responder.update,
    },
    withPaths(internalsOf(responder)!, () => [ARD_PATH]),
  );
}
