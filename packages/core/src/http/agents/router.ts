// Finds the agent of a request with one Map lookup and answers with it, or with the catalog;
// adds the `Link` headers each agent's card answers carry.
import { AI_CATALOG_PATH, DID_DOCUMENT_PATH, MCP_CATALOG_PATH } from '../../catalog/format';
import { isPromiseLike } from '../../util';
import { answerDocument, withHeaders } from '../kernel/documents';
import type { AgentCardResponse } from '../kernel/exchange';
import {
  AGENT_CARD_PATH,
  CANONICAL_LINK,
  comparablePath,
  EXTENDED_AGENT_CARD_SUFFIX,
  WELL_KNOWN_PREFIX,
} from '../kernel/paths';
import type { VariantFound, VariantSource } from '../kernel/derived';
import { type AgentCardResponder, internalsOf } from '../kernel/responder';
import type { CatalogRoute } from './catalog';
import type { Agent } from '../host/agent';

/**
 * Frozen copies of card responses with the `Link` header they need, made once per response
 * object: the catalog link added, and the legacy alias's canonical link replaced by `canonical`
 * (an agent's alias names its own card, not the root one).
 */
function createLinker(
  canonical: string | undefined,
  catalogLink: string | undefined,
): (res: AgentCardResponse) => AgentCardResponse {
  if (canonical === undefined && catalogLink === undefined) return (res) => res;
  const linked = new WeakMap<AgentCardResponse, AgentCardResponse>();
  return (res) => {
    const found = linked.get(res);
    if (found !== undefined) return found;
    let link = res.headers.link;
    if (canonical !== undefined && link === CANONICAL_LINK) link = canonical;
    if (catalogLink !== undefined) link = link ? `${link}, ${catalogLink}` : catalogLink;
    if (link === undefined || link === res.headers.link) return res;
    const out = withHeaders(res, { ...res.headers, link });
    // Prebuilt answers are frozen and shared: the copy is made once and then shared too.
    if (Object.isFrozen(res)) linked.set(res, out);
    return out;
  };
}

/** The canonical `Link` of the legacy alias of the card at `path` (the root card: `''`). */
function canonicalLink(base: string, path: string): string | undefined {
  return base === '' && path === '' ? undefined : `<${base}${path}${AGENT_CARD_PATH}>; rel="canonical"`;
}

/** Finds the agent of a request and answers with it (or with the catalog). */
export function createRouter<Req>(
  agents: readonly Agent<Req>[],
  defaultAgent: Agent<Req> | undefined,
  catalog: CatalogRoute<Req> | undefined,
  base: string,
  links: string | undefined = catalog?.link,
): Pick<AgentCardResponder<Req>, 'respond'> & { variant: VariantSource<Req> } {
  const byPath = new Map<string, Agent<Req>>(agents.map((a) => [a.path, a]));
  const byExtendedPath = new Map<string, Agent<Req>>();
  for (const a of agents) for (const p of a.extendedPaths) byExtendedPath.set(p, a);
  // Agents whose extended paths are only known per variant (card functions) are found by prefix.
  const dynamicExtended = agents.some((a) => a.card === undefined);
  const linkers = new Map(agents.map((a) => [a, createLinker(canonicalLink(base, a.path), links)]));
  const rootLinker = createLinker(canonicalLink(base, ''), links);
  const linked = (
    link: (res: AgentCardResponse) => AgentCardResponse,
    res: AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>,
  ): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined> => {
    if (res === undefined) return undefined;
    if (isPromiseLike(res)) return res.then((r) => (r === undefined ? undefined : link(r)));
    return link(res);
  };

  const extendedAgent = (path: string): Agent<Req> | undefined => {
    const p = comparablePath(path);
    const exact = byExtendedPath.get(p);
    if (exact !== undefined || !dynamicExtended || !p.endsWith(EXTENDED_AGENT_CARD_SUFFIX)) return exact;
    // One Map lookup per path segment (not per agent): the longest agent path that prefixes it.
    for (let slash = p.lastIndexOf('/'); slash > 0; slash = p.lastIndexOf('/', slash - 1)) {
      const a = byPath.get(p.slice(0, slash));
      if (a !== undefined) return a.card === undefined ? a : undefined;
    }
    return undefined;
  };

  // A refused card is refused with the `Link` headers its answer carries through the router.
  const linkedRefusal = (
    link: (res: AgentCardResponse) => AgentCardResponse,
    found: VariantFound | Promise<VariantFound>,
  ) => {
    const refusal = (v: VariantFound) => (v === undefined || 'document' in v ? v : link(v));
    return isPromiseLike(found) ? found.then(refusal) : refusal(found);
  };
  const variantOf = (a: Agent<Req>) => internalsOf(a.responder)!.variant!;

  const responder: Pick<AgentCardResponder<Req>, 'respond'> & { variant: VariantSource<Req> } = {
    variant(request) {
      const path = request.path;
      const wk = path.indexOf(WELL_KNOWN_PREFIX);
      if (wk === 0) {
        if (catalog !== undefined && (path === AI_CATALOG_PATH || comparablePath(path) === AI_CATALOG_PATH))
          return catalog.variant(request);
        return defaultAgent === undefined ? undefined : linkedRefusal(rootLinker, variantOf(defaultAgent)(request));
      }
      const a = wk === -1 ? undefined : byPath.get(path.slice(0, wk));
      if (a === undefined) return undefined;
      return linkedRefusal(linkers.get(a)!, variantOf(a)({ ...request, path: path.slice(wk) }));
    },
    respond(request) {
      const path = request.path;
      const wk = path.indexOf(WELL_KNOWN_PREFIX);
      if (wk === -1) {
        // The app's own routes leave here, after at most one Map lookup.
        if (byExtendedPath.size === 0 && !dynamicExtended) return undefined;
        const a = extendedAgent(path);
        return a === undefined ? undefined : a.responder.respond(request);
      }
      if (wk === 0) {
        if (catalog !== undefined && (path === AI_CATALOG_PATH || comparablePath(path) === AI_CATALOG_PATH)) {
          return catalog.document !== undefined ? answerDocument(catalog.document, request) : catalog.build(request);
        }
        if (catalog?.nested !== undefined) {
          const nested = catalog.nested.get(path) ?? catalog.nested.get(comparablePath(path));
          if (nested !== undefined) return answerDocument(nested, request);
        }
        if (catalog?.mcp !== undefined && (path === MCP_CATALOG_PATH || comparablePath(path) === MCP_CATALOG_PATH))
          return answerDocument(catalog.mcp, request);
        if (catalog?.did !== undefined && (path === DID_DOCUMENT_PATH || comparablePath(path) === DID_DOCUMENT_PATH))
          return answerDocument(catalog.did, request);
        return defaultAgent === undefined ? undefined : linked(rootLinker, defaultAgent.responder.respond(request));
      }
      const a = byPath.get(path.slice(0, wk));
      if (a === undefined) return undefined;
      return linked(linkers.get(a)!, a.responder.respond({ ...request, path: path.slice(wk) }));
    },
  };
  return responder;
}
