/**
 * `agent-card check --html`: the discovery report as one self-contained page. Every value in a
 * report (status lines, headers, URLs, failure messages, findings, the card itself) came from
 * the checked host and is hostile; all of it goes through core's `html` escaping, links only
 * through `safeHref`, and the page carries the viewer's Content-Security-Policy as a `<meta>`.
 */
import type { Severity } from '@agent-card/core';
import type {
  DiscoveryAgentReport,
  DiscoveryCatalogReport,
  DiscoveryFinding,
  DiscoveryHeaders,
  DiscoveryPathReport,
  DiscoveryReport,
  DiscoverySignature,
} from '@agent-card/discovery';
import {
  html,
  renderCardSection,
  renderHtmlDocument,
  type SafeHtml,
  safeHref,
  type ViewerSignature,
} from '@agent-card/core/view';
import { documentsSection, gradeLine } from './grade';
import { findingFix } from './report';
import { countPromptTokens, PROMPT_ENCODING } from './prompt';

export { findingFix } from './report';

/** At most this many signatures are listed (a card may carry any number). */
const MAX_SIGNATURES = 16;

/**
 * The signatures as `check` verified them, or `undefined` when no verifier ran (the card section
 * then reads each protected header itself and says it did not verify it).
 */
export function checkedSignatures(signature: DiscoverySignature | undefined): ViewerSignature[] | undefined {
  const checks = signature?.result?.signatures;
  if (!checks || (signature?.status !== 'verified' && signature?.status !== 'failed')) return undefined;
  return checks.slice(0, MAX_SIGNATURES).map((c) => {
    const out: ViewerSignature = { verified: c.valid };
    if (c.kid !== undefined) out.kid = c.kid;
    if (c.alg !== undefined) out.alg = c.alg;
    if (c.jku !== undefined) out.jku = c.jku;
    return out;
  });
}

/**
 * Each listed card that loaded, keyed as the catalog page looks it up: by the entry's `url` as
 * the catalog writes it (and as resolved), and by `identifier` only when no other entry shares
 * it (entries may list versions of one identifier; each must show its own card).
 */
export function catalogCards(
  agents: readonly DiscoveryAgentReport[],
  catalog?: DiscoveryCatalogReport,
): Map<string, unknown> {
  const cards = new Map<string, unknown>();
  const shared = new Set<string>();
  const seen = new Set<string>();
  for (const agent of agents) {
    if (agent.identifier === undefined) continue;
    if (seen.has(agent.identifier)) shared.add(agent.identifier);
    seen.add(agent.identifier);
  }
  const entries = (catalog?.document as { entries?: unknown } | undefined)?.entries;
  for (const agent of agents) {
    const document = agent.card?.document;
    if (!agent.checked || typeof document !== 'object' || document === null) continue;
    cards.set(agent.url, document);
    // The URL as written in the host's own catalog (it may be relative); nested catalogs' entries
    // are not on its page.
    const index =
      agent.catalogUrl === catalog?.url || agent.catalogUrl === catalog?.finalUrl
        ? /^\/entries\/(\d+)$/.exec(agent.entry)?.[1]
        : undefined;
    const written =
      index !== undefined && Array.isArray(entries)
        ? (entries[Number(index)] as { url?: unknown } | undefined)?.url
        : undefined;
    if (typeof written === 'string') cards.set(written, document);
    if (agent.identifier !== undefined && !shared.has(agent.identifier)) cards.set(agent.identifier, document);
  }
  return cards;
}

const kib = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);
const ms = (n: number) => `${Math.round(n)} ms`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A URL from the report: a link when it is http(s), else text. */
function url(value: string | undefined): SafeHtml {
  if (value === undefined) return html`<span class="muted">none</span>`;
  const href = safeHref(value);
  return href === undefined ? html`<code>${value}</code>` : html`<a href="${href}" rel="noreferrer">${value}</a>`;
}

function statusOf(
  status: number | undefined,
  failure: { kind: string; message: string } | undefined,
  expected = 200,
): SafeHtml {
  if (status === undefined) {
    return html`<strong>failed</strong> (${failure ? `${failure.kind}: ${failure.message}` : 'no response'})`;
  }
  const tone = status === expected ? 'status-ok' : 'status-warn';
  return html`<span class="${tone}">${String(status)}</span>`;
}

function headerList(headers: DiscoveryHeaders): SafeHtml {
  const rows = Object.entries(headers);
  if (rows.length === 0) return html`<p class="muted">No response headers of interest.</p>`;
  return html`<p><strong>Response headers</strong></p><dl class="facts headers">${rows.map(([name, value]) => html`<dt><code>${name}</code></dt><dd><code>${value}</code></dd>`)}</dl>`;
}

/** One fetched URL: status line, redirects, the follow-up requests, headers and signature. */
function pathSection(p: DiscoveryPathReport, heading: 'h3' | 'h4' = 'h3'): SafeHtml {
  const title = heading === 'h3' ? html`<h3>${p.path}</h3>` : html`<h4>${p.path}</h4>`;
  const facts: SafeHtml[] = [
    html`<dt>Status</dt><dd>${statusOf(p.status, p.failure)}</dd>`,
    html`<dt>URL</dt><dd>${url(p.url)}</dd>`,
  ];
  if (p.finalUrl !== p.url) facts.push(html`<dt>Final URL</dt><dd>${url(p.finalUrl)}</dd>`);
  facts.push(
    html`<dt>Content type</dt><dd>${p.contentType === undefined ? html`<span class="muted">none</span>` : html`<code>${p.contentType}</code>`}</dd>`,
    html`<dt>Size</dt><dd>${kib(p.bytes)}${p.truncated ? ' (cut off)' : ''}</dd>`,
    html`<dt>Time</dt><dd>${ms(p.timeMs)}</dd>`,
  );
  if (p.status !== undefined && p.failure) {
    facts.push(html`<dt>Failure</dt><dd>${p.failure.kind}: ${p.failure.message}</dd>`);
  }
  if (p.conditional) {
    facts.push(html`<dt>If-None-Match</dt><dd>${statusOf(p.conditional.status, p.conditional.failure, 304)}</dd>`);
  }
  if (p.head) facts.push(html`<dt>HEAD</dt><dd>${p.head.status ?? p.head.failure?.kind ?? 'no response'}</dd>`);
  if (p.preflight) {
    facts.push(
      html`<dt>CORS preflight</dt><dd>${p.preflight.status ?? p.preflight.failure?.kind ?? 'no response'}${p.preflight.ok ? ' (allows GET)' : ' (does not allow GET)'}</dd>`,
    );
  }
  if (p.versioned) {
    facts.push(
      html`<dt>With A2A-Version</dt><dd>${p.versioned.status ?? p.versioned.failure?.kind ?? 'no response'}${p.versioned.sameBody ? ', same body' : ', a different body'}</dd>`,
    );
  }
  if (p.signature) facts.push(html`<dt>Signature</dt><dd>${signatureText(p.signature)}</dd>`);
  const redirects =
    p.redirects.length === 0
      ? ''
      : html`<p>Redirects:</p><ul class="plain">${p.redirects.map(
          (r) =>
            html`<li>${String(r.status)} ${url(r.url)} → ${url(r.location)}${r.followed ? '' : html` <strong>(not followed)</strong>`}</li>`,
        )}</ul>`;
  const details =
    p.signature && p.signature.details.length > 0
      ? html`<ul class="plain">${p.signature.details.map((d) => html`<li>${d}</li>`)}</ul>`
      : '';
  return html`<section class="path">${title}<dl class="facts">${facts}</dl>${redirects}${details}${headerList(p.headers)}</section>`;
}

function signatureText(s: DiscoverySignature): SafeHtml {
  const from = s.keysFrom === 'host' ? " (keys: the host's own key set)" : '';
  const tone = s.status === 'verified' ? 'status-ok' : 'status-warn';
  return html`<span class="${tone}">${s.status}</span>${from}`;
}

const SEVERITIES: readonly { severity: Severity; title: string; mark: string }[] = [
  { severity: 'error', title: 'Errors', mark: '✖' },
  { severity: 'warning', title: 'Warnings', mark: '⚠' },
  { severity: 'info', title: 'Info', mark: 'ℹ' },
];

function findingItem(f: DiscoveryFinding, mark: string): SafeHtml {
  const { fix, note } = findingFix(f.hint);
  return html`<li class="finding finding-${f.severity}"><p><strong class="sev-${f.severity}">${mark} ${f.severity}</strong> <code>${f.rule}</code>${f.path ? html` <code class="muted">${f.path}</code>` : ''}</p><p>${f.message}</p>${fix ? html`<p><strong>Fix:</strong> ${fix}</p>` : ''}${note ? html`<p class="muted">${note}</p>` : ''}</li>`;
}

/**
 * Findings grouped by severity, errors first, each with its fix: errors and warnings open,
 * infos in a closed `<details>` (they need no action).
 */
function findingsSection(
  findings: readonly DiscoveryFinding[],
  options: { showInfo: boolean; level: 3 | 4 },
): SafeHtml {
  const groups = SEVERITIES.filter((s) => options.showInfo || s.severity !== 'info').map(
    ({ severity, title, mark }) => {
      const shown = findings.filter((f) => f.severity === severity);
      if (shown.length === 0) return '';
      const label = `${title} (${shown.length})`;
      const heading = options.level === 3 ? html`<h3>${label}</h3>` : html`<h4>${label}</h4>`;
      const list = html`<ul class="items">${shown.map((f) => findingItem(f, mark))}</ul>`;
      return severity === 'info'
        ? html`<details class="more"><summary>${heading}</summary>${list}</details>`
        : html`${heading}${list}`;
    },
  );
  const any = groups.some((g) => g !== '');
  return any ? html`${groups}` : html`<p class="status-ok">No findings.</p>`;
}

type CheckState = 'ok' | 'bad' | 'none';

const MARKS: Record<CheckState, string> = { ok: '✓', bad: '✗', none: '–' };

function check(state: CheckState, label: SafeHtml | string, detail: string): SafeHtml {
  return html`<li class="check-${state}"><span class="mark">${MARKS[state]}</span><span><strong>${label}</strong> <span class="muted">${detail}</span></span></li>`;
}

function answer(status: number | undefined, failure: { kind: string } | undefined): string {
  return status === undefined ? (failure?.kind ?? 'no response') : String(status);
}

/**
 * The verdict at a glance: each well-known path and each check of the run as ✓, ✗ or – (not
 * applicable), in the order a publisher fixes them.
 */
export function summaryStrip(report: DiscoveryReport): SafeHtml {
  const items: SafeHtml[] = [];
  const primary = report.primary;
  items.push(
    check(
      primary.status === 200 ? 'ok' : 'bad',
      primary.path,
      `${answer(primary.status, primary.failure)}${primary.contentType ? `, ${primary.contentType.split(';')[0]}` : ''}`,
    ),
  );
  const legacy = report.legacy;
  items.push(
    check(
      legacy.status === 200 ? 'ok' : 'none',
      legacy.path,
      legacy.status === 200 ? '200 (legacy path)' : `${answer(legacy.status, legacy.failure)} (legacy path, optional)`,
    ),
  );
  const served = report.cardUrl === legacy.finalUrl ? legacy : primary;
  if (typeof report.document !== 'object' || report.document === null) {
    items.push(check('bad', 'Card', 'none could be read'));
  } else {
    const errors = served.findings.filter((f) => f.severity === 'error').length;
    items.push(
      check(
        served.valid ? 'ok' : 'bad',
        'Valid card',
        served.valid ? `profile ${report.profile}` : `${plural(errors, 'error')} (profile ${report.profile})`,
      ),
    );
  }
  const signature = served.signature;
  if (signature) {
    const state: CheckState = signature.status === 'verified' ? 'ok' : signature.status === 'failed' ? 'bad' : 'none';
    const detail =
      signature.status === 'unsigned'
        ? 'not signed'
        : signature.status === 'unavailable'
          ? 'not checked'
          : signature.status;
    items.push(check(state, 'Signature', detail));
  }
  if (primary.status === 200) {
    const conditional = primary.conditional;
    items.push(
      check(
        conditional?.status === 304 ? 'ok' : 'bad',
        'ETag revalidation',
        conditional === undefined ? 'no ETag' : `If-None-Match → ${answer(conditional.status, conditional.failure)}`,
      ),
    );
    if (primary.preflight) {
      items.push(
        check(
          primary.preflight.ok ? 'ok' : 'bad',
          'CORS preflight',
          `${answer(primary.preflight.status, primary.preflight.failure)}${primary.preflight.ok ? ', allows GET' : ', does not allow GET'}`,
        ),
      );
    }
    if (primary.versioned) {
      items.push(
        check(
          primary.versioned.status === 200 ? 'ok' : 'bad',
          'A2A-Version: 1.0',
          `${answer(primary.versioned.status, primary.versioned.failure)}${primary.versioned.sameBody ? ', same card' : ', a different body'}`,
        ),
      );
    }
  }
  if (report.consistency) {
    items.push(
      check(
        report.pathsConsistent ? 'ok' : 'bad',
        'Both paths',
        report.pathsConsistent ? 'the same document' : 'different documents',
      ),
    );
  }
  if (report.httpProbe) {
    const safe = report.httpProbe.outcome === 'redirects-to-https' || report.httpProbe.outcome === 'refused';
    items.push(check(safe ? 'ok' : 'bad', 'Plain http', report.httpProbe.outcome.replaceAll('-', ' ')));
  }
  const catalog = report.catalog;
  if (catalog) {
    items.push(
      catalog.found
        ? check(
            catalog.valid ? 'ok' : 'bad',
            'AI Catalog',
            `${catalog.valid ? 'valid' : 'not valid'}, ${catalog.entries === 1 ? 'one entry' : `${catalog.entries} entries`}`,
          )
        : check(
            catalog.status === 404 ? 'none' : 'bad',
            'AI Catalog',
            catalog.status === 404 ? 'none (404)' : answer(catalog.status, catalog.failure),
          ),
    );
  }
  const agents = report.agents ?? [];
  if (agents.length > 0) {
    const ok = agents.filter((a) => a.ok).length;
    items.push(check(ok === agents.length ? 'ok' : 'bad', 'Listed agents', `${ok} of ${agents.length} ok`));
  }
  return html`<ul class="checks" aria-label="Checks">${items}</ul>`;
}

function counts(findings: readonly DiscoveryFinding[]): string {
  const n = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return `${plural(n('error'), 'error')}, ${plural(n('warning'), 'warning')}, ${n('info')} info`;
}

function catalogSection(catalog: DiscoveryCatalogReport, agents: readonly DiscoveryAgentReport[], showInfo: boolean) {
  const facts: SafeHtml[] = [
    html`<dt>URL</dt><dd>${url(catalog.finalUrl)}</dd>`,
    html`<dt>Status</dt><dd>${statusOf(catalog.status, catalog.failure)}${catalog.found ? '' : catalog.status === 404 ? ' (the host has no catalog)' : ' (not read)'}</dd>`,
  ];
  if (catalog.found) {
    facts.push(
      html`<dt>Entries</dt><dd>${String(catalog.entries)}</dd>`,
      html`<dt>Valid</dt><dd>${catalog.valid ? html`<span class="status-ok">yes</span>` : html`<strong>no</strong>`}</dd>`,
    );
    if (catalog.hostName !== undefined) facts.push(html`<dt>Host</dt><dd>${catalog.hostName}</dd>`);
  }
  for (const nested of catalog.nested ?? []) {
    facts.push(html`<dt>Nested catalog</dt><dd>${url(nested.url)} ${statusOf(nested.status, nested.failure)}</dd>`);
  }
  const list =
    agents.length === 0
      ? ''
      : html`<h3>Agents (${agents.length})</h3><ul class="items">${agents.map((a, i) => agentItem(a, showInfo, i + 1))}</ul>`;
  return html`<section aria-labelledby="catalog"><h2 id="catalog">AI Catalog</h2><dl class="facts">${facts}</dl>${list}</section>`;
}

const SKIPPED: Record<NonNullable<DiscoveryAgentReport['skipped']>, string> = {
  origin: 'not followed (another origin; --follow-catalog any)',
  scheme: 'not followed (not an https URL)',
  private: 'not followed (another origin on a non-public address)',
  deadline: 'not checked (time ran out)',
};

function agentItem(a: DiscoveryAgentReport, showInfo: boolean, n: number): SafeHtml {
  // A current-draft entry leaves the name and version to the card it points to.
  const name = a.displayName ?? a.cardName ?? a.identifier ?? '(no displayName)';
  const version = a.version ?? a.cardVersion;
  const head = html`<h4>${a.ok ? '✔' : '✖'} ${name}${version === undefined ? '' : ` ${version}`}</h4>`;
  if (!a.checked) {
    return html`<li class="agent">${head}<p>${url(a.url)}</p><p><strong>${SKIPPED[a.skipped ?? 'deadline']}</strong></p></li>`;
  }
  const match = (label: string, ok: boolean | undefined, got: string | undefined) =>
    ok === undefined
      ? ''
      : ok
        ? html`<li>${label} matches the card</li>`
        : html`<li><strong>${label} differs:</strong> the card says ${got ?? '?'}</li>`;
  const checks = html`<ul class="plain">${match('name', a.nameMatches, a.cardName)}${match('version', a.versionMatches, a.cardVersion)}<li>${plural(a.errors, 'error')}, ${plural(a.warnings, 'warning')}</li></ul>`;
  const card =
    a.card && typeof a.card.document === 'object' && a.card.document !== null
      ? html`<details><summary>Card of ${name}</summary>${cardFragment(a.card.document, a.card, a.url, n, a.findings)}</details>`
      : '';
  return html`<li class="agent">${head}${a.card ? pathSection(a.card, 'h4') : html`<p>${url(a.url)}</p>`}${checks}${findingsSection(a.findings, { showInfo, level: 4 })}${card}</li>`;
}

function cardFragment(
  document: unknown,
  from: DiscoveryPathReport,
  href: string | undefined,
  n = 0,
  findings: readonly DiscoveryFinding[] = [],
): SafeHtml {
  const signatures = checkedSignatures(from.signature);
  return renderCardSection(document, {
    headingLevel: 2,
    valid: from.valid,
    prompt: { countTokens: countPromptTokens, encoding: PROMPT_ENCODING, findings },
    // Several cards on one page: each raw JSON block needs its own id for its copy button.
    ...(n === 0 ? {} : { rawJsonId: `raw-json-${n}` }),
    ...(signatures === undefined ? {} : { signatures }),
    ...(href === undefined ? {} : { jsonHref: href }),
  });
}

/**
 * The discovery report of `agent-card check` as one HTML document: the verdict, the findings
 * with their fixes grouped by severity (what a reader acts on, so first), each path's status,
 * headers and timings, the card as the viewer shows it, and for a catalog host each agent with
 * its own findings and card.
 */
export function formatHtmlReport(report: DiscoveryReport, options: { showInfo?: boolean } = {}): string {
  const showInfo = options.showInfo !== false;
  const verdict = report.ok
    ? html`<p class="lead"><span class="status-ok">✔ ok</span>: ${counts(report.findings)} · ${plural(report.requests, 'request')} in ${ms(report.timeMs)}</p>`
    : html`<p class="lead"><strong class="status-bad">✖ failed</strong>: ${counts(report.findings)} · ${plural(report.requests, 'request')} in ${ms(report.timeMs)}</p>`;
  const consistency = report.consistency
    ? html`<p>Both paths: ${report.pathsConsistent ? 'the same document' : html`<strong>different documents</strong>`} (${report.consistency.method}${report.consistency.sameEtag === undefined ? '' : report.consistency.sameEtag ? ', same ETag' : ', different ETags'})</p>`
    : '';
  const probe = report.httpProbe
    ? html`<p>Plain http (${url(report.httpProbe.url)}): ${report.httpProbe.outcome}${report.httpProbe.status === undefined ? '' : ` (${report.httpProbe.status})`}</p>`
    : '';
  const primary = report.cardUrl === report.legacy.finalUrl ? report.legacy : report.primary;
  const card =
    typeof report.document === 'object' && report.document !== null
      ? html`<section aria-label="The card"><p>The card below is served at ${url(report.cardUrl)}.</p>${cardFragment(report.document, primary, report.cardUrl, 0, report.findings)}</section>`
      : html`<section aria-labelledby="card"><h2 id="card">Card</h2><p><strong>No card could be read.</strong> See the findings.</p></section>`;
  const body = html`<header class="page"><h1>Discovery report: ${report.origin}</h1>${verdict}<p class="muted">Checked ${report.input} with profile ${report.profile}.</p>${report.documents ? gradeLine(report.documents) : ''}${summaryStrip(report)}</header>
<section aria-labelledby="findings"><h2 id="findings">Findings</h2>${findingsSection(report.findings, { showInfo, level: 3 })}</section>
${report.documents ? documentsSection(report.documents) : ''}
<section aria-labelledby="paths"><h2 id="paths">Well-known paths</h2>${pathSection(report.primary)}${pathSection(report.legacy)}${consistency}${probe}</section>
${card}
${report.catalog ? catalogSection(report.catalog, report.agents ?? [], showInfo) : ''}
<footer>Written by agent-card check. Everything above came from the checked host and is shown as text.</footer>`;
  return renderHtmlDocument({ title: `Discovery report: ${report.origin}`, body, cspMeta: true });
}
