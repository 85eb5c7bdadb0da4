/** RFC 8615 well-known URI prefix. */
export const WELL_KNOWN_PREFIX = '/.well-known/';

/** The well-known path of the Agent Card (spec §8.2, §14.3). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The pre-v0.3 well-known path, served as an alias (not in the v1.0 spec). */
export const LEGACY_AGENT_CARD_PATH = '/.well-known/agent.json';

/** The `Link` header of the legacy alias (RFC 8288: the canonical document). */
export const CANONICAL_LINK = `<${AGENT_CARD_PATH}>; rel="canonical"`;

/**
 * Where a card's page is served unless `viewer.path` says otherwise: next to the card, under
 * `/.well-known/`, so the app's own routes still leave the responder after its one prefix check,
 * and a page links its card with the relative reference `agent-card.json` (which survives a mount
 * path). An agent of a multi-agent host has its page at `{agent path}/.well-known/agent-card.html`.
 */
export const VIEWER_PATH = '/.well-known/agent-card.html';

/** Where a multi-agent host's page (every agent, from the AI Catalog) is served by default. */
export const CATALOG_VIEWER_PATH = '/.well-known/ai-catalog.html';

/** The REST `GetExtendedAgentCard` suffix (spec §5.3, §11.3). */
export const EXTENDED_AGENT_CARD_SUFFIX = '/extendedAgentCard';

/**
 * Reduces a request target to the path the responder compares: the query string is dropped and
 * one trailing slash is ignored. Nothing is decoded or resolved, so `%61gent-card.json` or
 * dot-segments never match a well-known path by accident of normalisation.
 */
export function comparablePath(path: string): string {
  const q = path.indexOf('?');
  let p = q === -1 ? path : path.slice(0, q);
  if (p.length > 1 && p.charCodeAt(p.length - 1) === 47 /* / */) p = p.slice(0, -1);
  return p;
}

/**
 * The REST extended card paths of a card: for each `HTTP+JSON` interface, the path of its URL
 * plus `/extendedAgentCard` and, when the interface names a `tenant`, also
 * `/{tenant}/extendedAgentCard` under it (the tenant percent-encoded, as clients send it; spec
 * §11.3, a2a.proto `GetExtendedAgentCard` bindings). Empty when the card has no usable HTTP+JSON
 * interface.
 *
 * @example extendedPathsOf([{ url: 'https://a.io/a2a', protocolBinding: 'HTTP+JSON', tenant: 'acme' }])
 * // ['/a2a/extendedAgentCard', '/a2a/acme/extendedAgentCard']
 */
export function extendedPathsOf(
  interfaces: readonly { url: string; protocolBinding: string; tenant?: string }[],
): string[] {
  const paths: string[] = [];
  const add = (path: string) => {
    if (!paths.includes(path)) paths.push(path);
  };
  for (const intf of interfaces) {
    if (intf.protocolBinding !== 'HTTP+JSON') continue;
    let pathname: string;
    try {
      pathname = new URL(intf.url).pathname;
    } catch {
      continue;
    }
    if (pathname.endsWith('/')) pathname = pathname.slice(0, -1);
    add(pathname + EXTENDED_AGENT_CARD_SUFFIX);
    if (typeof intf.tenant === 'string' && intf.tenant !== '')
      add(`${pathname}/${encodeURIComponent(intf.tenant)}${EXTENDED_AGENT_CARD_SUFFIX}`);
  }
  return paths;
}
