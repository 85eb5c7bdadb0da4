/** RFC 8615 well-known URI prefix. */
export const WELL_KNOWN_PREFIX = '/.well-known/';

/** The well-known path of the Agent Card (spec §8.2, §14.3). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The pre-v0.3 well-known path, served as an alias (not in the v1.0 spec). */
export const LEGACY_AGENT_CARD_PATH = '/.well-known/agent.json';

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

/** Whether `path` could be a REST extended-card path (cheap pre-filter before building a variant). */
export function endsWithExtendedSuffix(path: string): boolean {
  return path.endsWith(EXTENDED_AGENT_CARD_SUFFIX);
}

/**
 * The REST extended card path for a card: the path of its first `HTTP+JSON` interface URL plus
 * `/extendedAgentCard`, or `undefined` when the card has no usable HTTP+JSON interface.
 */
export function extendedPathOf(interfaces: readonly { url: string; protocolBinding: string }[]): string | undefined {
  for (const intf of interfaces) {
    if (intf.protocolBinding !== 'HTTP+JSON') continue;
    let pathname: string;
    try {
      pathname = new URL(intf.url).pathname;
    } catch {
      continue;
    }
    if (pathname.endsWith('/')) pathname = pathname.slice(0, -1);
    return pathname + EXTENDED_AGENT_CARD_SUFFIX;
  }
  return undefined;
}
