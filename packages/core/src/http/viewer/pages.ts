// The pages of the viewer: a card's page and a multi-agent host's page, each made of the JSON
// documents the responder serves.
import { renderAgentCardPage } from '../../view/card';
import { renderAiCatalogPage } from '../../view/catalog';
import type { PageLink } from '../host/agent';

/**
 * The reference from the page at `from` to the document at `to`, relative so that it still
 * resolves when the middleware is mounted under a base path. Always starts with `./` or `../`
 * (a first segment with a colon would otherwise read as a scheme).
 */
export function relativeReference(from: string, to: string): string {
  const dir = from.split('/').slice(1, -1);
  const target = to.split('/').slice(1);
  let common = 0;
  while (common < dir.length && common < target.length - 1 && dir[common] === target[common]) common++;
  const up = dir.length - common;
  const rest = target.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/** One page: where it is served, the documents it is made of, and how. */
export interface ViewerPage {
  /** The page's path (relative to the mount point). */
  readonly path: string;
  /** Paths the responder serves whose bodies make the page (JSON documents). */
  readonly documents: readonly string[];
  /** The HTML, from the parsed documents (in the order of `documents`). */
  render(documents: readonly unknown[]): string;
}

/** The page's `<link>` elements: relative references for paths, absolute URLs as they are. */
function linksFrom(page: string, links: readonly PageLink[]) {
  return links.map((l) => ({
    rel: l.rel,
    href: l.path.startsWith('/') ? relativeReference(page, l.path) : l.path,
    type: l.type,
  }));
}

/** A card's page made of the card served at `cardPath`. */
export function cardPage(path: string, cardPath: string, links: readonly PageLink[] = []): ViewerPage {
  const pageLinks = linksFrom(path, links);
  return {
    path,
    documents: [cardPath],
    render: ([card]) => renderAgentCardPage(card, { jsonHref: relativeReference(path, cardPath), links: pageLinks }),
  };
}

/** An agent of a multi-agent host, as the host's page links it. */
export interface ViewerAgent {
  readonly path: string;
  readonly cardPath: string;
  readonly pagePath: string;
}

/**
 * The host's page: the AI Catalog served at `catalogPath` and each agent's card, linked to each
 * agent's page. An entry is matched to the agent whose path its URL ends with (the longest).
 */
export function catalogPage(
  path: string,
  catalogPath: string,
  agents: readonly ViewerAgent[],
  links: readonly PageLink[] = [],
): ViewerPage {
  const pageLinks = linksFrom(path, links);
  const byLength = [...agents].sort((a, b) => b.cardPath.length - a.cardPath.length);
  return {
    path,
    documents: [catalogPath, ...agents.map((a) => a.cardPath)],
    render([catalog, ...cards]) {
      const cardsByUrl = new Map<string, unknown>();
      const pageHrefs = new Map<string, string>();
      const entries = (catalog as { entries?: unknown }).entries;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const { url, identifier } = entry as { url?: unknown; identifier?: unknown };
        if (typeof url !== 'string') continue;
        let pathname: string;
        try {
          pathname = new URL(url).pathname;
        } catch {
          continue;
        }
        const agent = byLength.find((a) => pathname.endsWith(a.cardPath));
        if (agent === undefined) continue;
        cardsByUrl.set(url, cards[agents.indexOf(agent)]);
        if (typeof identifier === 'string') pageHrefs.set(identifier, relativeReference(path, agent.pagePath));
      }
      return renderAiCatalogPage(catalog, {
        cards: cardsByUrl,
        pageHrefs,
        jsonHref: relativeReference(path, catalogPath),
        links: pageLinks,
      });
    },
  };
}
