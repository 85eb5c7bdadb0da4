import { type HtmlDocumentOptions, renderHtmlDocument } from './document';
import { html, type SafeHtml } from './escape';
import { jsonLink, renderRawJson } from './card';
import { list, member, strings, text } from './read';
import { describeAuthentication, renderAuthentication, renderUrl } from './schemes';

/** Options of {@link renderAiCatalogPage}. */
export interface AiCatalogPageOptions {
  /**
   * The cards the catalog points to, by entry `identifier` or by entry `url`: each entry with a
   * card shows its skills and how to authenticate.
   */
  cards?: ReadonlyMap<string, unknown>;
  /** Each entry's own viewer page, by entry `identifier` (a same-origin path or http(s) URL). */
  pageHrefs?: ReadonlyMap<string, string>;
  /** Where the catalog JSON is served. */
  jsonHref?: string;
  /** The page title. @default the host's name + " — agents" */
  title?: string;
  /** Put the policy in a `<meta>` tag (a page saved to a file). @default false */
  cspMeta?: boolean;
  /** `<link>` elements naming the host's discovery documents (see `renderHtmlDocument`). */
  links?: HtmlDocumentOptions['links'];
}

function cardFor(entry: unknown, cards: ReadonlyMap<string, unknown> | undefined): unknown {
  if (cards === undefined) return undefined;
  const identifier = text(entry, 'identifier');
  const url = text(entry, 'url');
  return (
    (identifier !== undefined ? cards.get(identifier) : undefined) ?? (url !== undefined ? cards.get(url) : undefined)
  );
}

/** The rows a card adds to its entry: its skills and what a call needs, as the card's page says it. */
function renderCardSummary(card: unknown): SafeHtml {
  const skills = list(card, 'skills').map((skill) => text(skill, 'name') ?? text(skill, 'id') ?? 'unnamed skill');
  return html`<dt>Skills</dt><dd>${skills.length > 0 ? skills.join(', ') : 'none listed'}</dd>
<dt>Authentication</dt><dd>${renderAuthentication(describeAuthentication(card))}</dd>`;
}

function renderEntry(entry: unknown, options: AiCatalogPageOptions): SafeHtml {
  const identifier = text(entry, 'identifier');
  const url = text(entry, 'url');
  const page = identifier === undefined ? undefined : jsonLink(options.pageHrefs?.get(identifier));
  const card = cardFor(entry, options.cards);
  // The AI Catalog's resolution order: the entry, then the artifact, then the identifier's last segment.
  const name = text(entry, 'displayName') ?? text(card, 'name') ?? identifier?.split(/[:/]/).pop() ?? 'Unnamed entry';
  const description = text(entry, 'description') ?? text(card, 'description');
  const publisher = member(entry, 'publisher');
  return html`<li><h2>${page ? html`<a href="${page}">${name}</a>` : name}</h2>
${description ? html`<p class="desc">${description}</p>` : ''}
${strings(entry, 'tags').length > 0 ? html`<ul class="chips" aria-label="Tags">${strings(entry, 'tags').map((tag) => html`<li>${tag}</li>`)}</ul>` : ''}
<dl class="facts"><dt>Identifier</dt><dd><code>${identifier ?? 'none'}</code></dd>
<dt>Version</dt><dd>${text(entry, 'version') ?? 'not given'}</dd>
<dt>Type</dt><dd>${text(entry, 'type') ?? text(entry, 'mediaType') ?? 'not given'}</dd>
${url !== undefined ? html`<dt>Document</dt><dd>${renderUrl(url)}</dd>` : member(entry, 'data') !== undefined ? html`<dt>Document</dt><dd>inline in the catalog</dd>` : ''}
${text(publisher, 'displayName') ? html`<dt>Publisher</dt><dd>${text(publisher, 'displayName')}</dd>` : ''}
${card === undefined ? '' : renderCardSummary(card)}</dl></li>`;
}

/**
 * A complete, self-contained HTML page for an AI Catalog: the host, then one item per entry with
 * its name (linked to the entry's own page when `pageHrefs` has it), description, tags, version,
 * document URL and, when `cards` has the card, its skills and authentication; the raw JSON last.
 * Renders partial or invalid catalogs as far as they go and never throws.
 */
export function renderAiCatalogPage(catalog: unknown, options: AiCatalogPageOptions = {}): string {
  let body: SafeHtml;
  const host = member(catalog, 'host');
  const hostName = text(host, 'displayName');
  try {
    const documentation = text(host, 'documentationUrl');
    const entries = list(catalog, 'entries');
    body = html`<header class="page"><h1>${hostName ?? 'Agents on this host'}</h1><p class="muted">AI Catalog${text(catalog, 'specVersion') ? ` ${text(catalog, 'specVersion')}` : ''} — ${entries.length === 1 ? 'one entry' : `${entries.length} entries`}</p>
${documentation ? html`<p>Documentation: ${renderUrl(documentation)}</p>` : ''}</header>
${entries.length === 0 ? html`<p class="muted">The catalog lists no entry.</p>` : html`<ul class="items">${entries.map((entry) => renderEntry(entry, options))}</ul>`}
${renderRawJson(catalog, options.jsonHref)}`;
  } catch {
    body = html`<p class="status-warn">This catalog could not be shown.</p>${renderRawJson(catalog, options.jsonHref)}`;
  }
  const footer = html`<footer>Rendered by agent-card. Every value above comes from the catalog; links open only http and https URLs.</footer>`;
  return renderHtmlDocument({
    title: options.title ?? `${hostName ?? 'Host'} — agents`,
    body: html`${body}${footer}`,
    cspMeta: options.cspMeta === true,
    links: options.links,
  });
}
