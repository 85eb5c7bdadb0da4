// The discovery set of `check`: which documents the host serves, where they disagree, and the
// one-line grade, for the terminal and for the HTML report (where it comes first). Every string
// from the host goes through visible() (terminal) or the escaping html`` (page).
import type { DiscoveryDocument, DiscoveryDocumentsReport } from '@agent-card/discovery';
import { html, type SafeHtml, safeHref } from '@agent-card/core/view';
import type { Painter } from './io';
import { visible } from './terminal';

const NAMES: Record<DiscoveryDocument['kind'], string> = {
  card: 'Agent Card',
  legacy: 'legacy alias',
  'ai-catalog': 'AI Catalog',
  ard: 'ARD',
  'mcp-catalog': 'MCP catalog',
  jwks: 'JWK Set',
};

const TONE = { A: 'green', B: 'yellow', C: 'red', F: 'red' } as const;

function state(d: DiscoveryDocument): string {
  if (!d.served) return d.status === undefined ? (d.failure ?? 'no response') : String(d.status);
  return `${d.valid === false ? 'invalid' : 'served'}${d.entries === undefined ? '' : `, ${d.entries} entr${d.entries === 1 ? 'y' : 'ies'}`}${d.format === undefined ? '' : `, ${d.format}`}`;
}

/** The grade line and the documents, for the terminal. */
export function documentLines(set: DiscoveryDocumentsReport, painter: Painter): string[] {
  const lines = [
    '',
    `Discovery documents: ${painter.paint('bold', painter.paint(TONE[set.grade], visible(set.summary)))}`,
  ];
  // A host that served nothing (a refused connection, already reported once above) gets the grade
  // line only, not a table of the same failure.
  if (!set.documents.some((d) => d.served)) return lines;
  for (const d of set.documents) {
    const mark = d.served
      ? d.valid === false
        ? painter.paint('red', '✖')
        : painter.paint('green', '✔')
      : painter.paint('dim', '–');
    lines.push(`  ${mark} ${NAMES[d.kind].padEnd(12)} ${visible(d.path)}  ${visible(state(d))}`);
  }
  const rels = set.links.map(
    (l) => `rel="${visible(l.rel)}"${l.served === false ? painter.paint('red', ' (not served)') : ''}`,
  );
  lines.push(`  Link header: ${rels.length === 0 ? painter.paint('yellow', 'none') : rels.join(', ')}`);
  for (const d of set.disagreements)
    lines.push(`  ${painter.paint('red', '≠')} ${visible(d.message)} ${painter.paint('dim', visible(d.hint))}`);
  return lines;
}

function link(value: string): SafeHtml {
  const href = safeHref(value);
  return href === undefined ? html`<code>${value}</code>` : html`<a href="${href}" rel="noreferrer">${value}</a>`;
}

/** The grade in one line, for the top of the HTML report; its documents follow the findings. */
export function gradeLine(set: DiscoveryDocumentsReport): SafeHtml {
  const lead =
    set.grade === 'A' ? html`<span class="status-ok">${set.summary}</span>` : html`<strong>${set.summary}</strong>`;
  return html`<p class="grade"><a href="#grade">Discovery documents</a>: ${lead}</p>`;
}

/** The grade and the documents, for the HTML report. */
export function documentsSection(set: DiscoveryDocumentsReport): SafeHtml {
  const rows = set.documents.map(
    (d) =>
      html`<tr><th scope="row">${NAMES[d.kind]}</th><td>${d.served ? link(d.url) : html`<code>${d.path}</code>`}</td><td>${d.served && d.valid !== false ? html`<span class="status-ok">${state(d)}</span>` : d.served ? html`<strong>${state(d)}</strong>` : html`<span class="muted">${state(d)}</span>`}</td></tr>`,
  );
  const links =
    set.links.length === 0
      ? html`<p>The card's answer has no <code>Link</code> header naming them.</p>`
      : html`<p>The card's <code>Link</code> header names: ${set.links.map((l, i) => html`${i === 0 ? '' : ', '}<code>rel="${l.rel}"</code> ${link(l.href)}${l.served === false ? html` <strong>(not served)</strong>` : ''}`)}.</p>`;
  const differences =
    set.disagreements.length === 0
      ? ''
      : html`<h3>Where they disagree</h3><ul>${set.disagreements.map((d) => html`<li>${d.message} <span class="muted">${d.hint}</span></li>`)}</ul>`;
  // The grade's sentence is the header's (gradeLine, which links here): said once, the letter here.
  const grade = set.grade === 'A' ? html`<span class="status-ok">A</span>` : html`<strong>${set.grade}</strong>`;
  return html`<section aria-labelledby="grade"><h2 id="grade">Discovery documents</h2><p>Grade ${grade}, from the documents below.</p><table><thead><tr><th scope="col">Document</th><th scope="col">Where</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table>${links}${differences}</section>`;
}
