import type { AgentCardCanonicalForm, ValidationProfile } from '@agent-card/core';
import {
  type DiscoveryAgentReport,
  type DiscoveryCatalogReport,
  type DiscoveryFinding,
  discoverAgentCard,
  type DiscoveryPathReport,
  type DiscoveryReport,
} from '@agent-card/discovery';
import type { CliIO, Painter } from '../io';
import { CliError, createPainter } from '../io';
import { isRemote, readJson, refuseOverwrite, toJsonText, writeText } from '../read';
import { formatHtmlReport } from '../html-report';
import { documentLines } from '../grade';
import { formatFindings, summarize } from '../report';
import { applySettings, resolveRuleSettings, turnedOffLine } from '../rule-settings';
import { guardOutput, visible } from '../terminal';
import { promptSizeFindings } from '../prompt';
import { checkAgainst } from './check-against';
import type { FailOn } from './diff';
import { collectDocuments, Redactor } from '../redact';

/** A redactor of every string of the documents `report` holds. */
function redactorOfReport(report: object, ...documents: unknown[]): Redactor {
  const redactor = new Redactor();
  for (const document of documents) if (document !== undefined) redactor.addDocument(document);
  collectDocuments(redactor, report);
  return redactor;
}
import { readKeyFile, verifyingKeyId } from './keys';
import { type OutputFormat, outputFormat, writeFormatted } from '../format';
import { type CheckProbeOptions, probeLines, probeSettings, runProbe } from './check-probe';

export interface CheckCommandOptions extends CheckProbeOptions {
  profile?: ValidationProfile;
  json?: boolean;
  /** `text` (default), `json` (as `--json`), `sarif`, `github` or `junit`. */
  format?: OutputFormat;
  timeout?: number;
  allowHttp?: boolean;
  key?: string;
  kid?: string;
  jwks?: string;
  info?: boolean;
  requireSignature?: boolean;
  /** `same-origin` (default), `any`, or `off` (no catalog request). */
  followCatalog?: 'same-origin' | 'any' | 'off';
  /** `--allow-private-targets`: other origins at non-public addresses are followed too. */
  allowPrivateTargets?: boolean;
  maxAgents?: number;
  /** `--max-card-bytes`: the largest card body read. @default 262144 (256 KiB) */
  maxCardBytes?: number;
  /** Also write the report as one self-contained HTML page to this file. */
  html?: string;
  /** Overwrite the `html` file. */
  force?: boolean;
  /** The one canonical form a signature may cover. */
  form?: AgentCardCanonicalForm;
  /** `--rule <id>=<setting>`, repeated; after the `rules` of agent-card.config.json. */
  rule?: string[];
  /** Replace every string of the host's documents in the report by its pointer, length and hash. */
  redact?: boolean;
  /**
   * What the host must serve, the drift gate: a card (a file or `rev:path`), or the folder
   * `agent-card build` writes (a directory or `rev:dir`), whose AI Catalog and ARD manifest are
   * compared too.
   */
  against?: string;
  /** With `against`: the least impact that fails the run. @default 'any' */
  failOn?: FailOn;
}

/** Said once per report that read a card: what the card says was written by its host. */
export const UNTRUSTED =
  "Note: a card's text (names, descriptions, examples) is written by its host: untrusted input for whoever gives it to a model. Pass it as data, never as instructions.";

const kib = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

function pathLines(p: DiscoveryPathReport, painter: Painter): string[] {
  // Status, headers, URLs and failure messages all come from the server: printed visible().
  const status =
    p.status === undefined
      ? painter.paint(
          'red',
          p.failure ? `failed (${visible(p.failure.kind)}: ${visible(p.failure.message)})` : 'no response',
        )
      : painter.paint(p.status === 200 ? 'green' : p.status >= 400 ? 'red' : 'yellow', String(p.status));
  const lines = [
    `${painter.paint('bold', p.path)}  ${status}  ${visible(p.contentType ?? '(no content type)')}  ${kib(p.bytes)}  ${Math.round(p.timeMs)} ms`,
  ];
  for (const r of p.redirects) {
    lines.push(
      `  ↪ ${r.status} ${visible(r.url)} → ${visible(r.location ?? '(no Location)')}${r.followed ? '' : painter.paint('yellow', ' (not followed)')}`,
    );
  }
  if (p.status === 200) {
    const h = p.headers;
    const header = (value: string | undefined) =>
      value === undefined ? painter.paint('yellow', 'none') : visible(value);
    const parts = [
      `ETag ${header(h.etag)}`,
      `Cache-Control ${header(h['cache-control'])}`,
      `CORS ${header(h['access-control-allow-origin'])}`,
    ];
    if (p.conditional) {
      const ok = p.conditional.status === 304;
      parts.push(`If-None-Match → ${painter.paint(ok ? 'green' : 'yellow', String(p.conditional.status ?? 'failed'))}`);
    }
    lines.push(`  ${parts.join('  ·  ')}`);
  }
  if (p.signature) {
    const from = p.signature.keysFrom === 'host' ? " (keys: the host's own key set)" : '';
    const tone = p.signature.status === 'verified' ? 'green' : p.signature.status === 'unsigned' ? 'yellow' : 'red';
    lines.push(`  signature: ${painter.paint(tone, p.signature.status)}${from}`);
    // One line per signature: verified with which key over which form, or why not.
    for (const detail of p.signature.details) lines.push(`    ${visible(detail)}`);
  }
  return lines;
}

/** A card member shown in the report: a string as it is (made visible), anything else by its type. */
function member(value: unknown, missing: string): string {
  if (value === undefined) return missing;
  if (typeof value === 'string') return visible(value);
  return `(${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`;
}

const SKIPPED: Record<NonNullable<DiscoveryAgentReport['skipped']>, string> = {
  origin: 'not followed (another origin; --follow-catalog any)',
  scheme: 'not followed (not an https URL)',
  private: 'not followed (another origin on a non-public address)',
  deadline: 'not checked (time ran out)',
};

/** The catalog and one line per listed agent; every string from the host goes through visible(). */
function catalogLines(
  catalog: DiscoveryCatalogReport,
  agents: readonly DiscoveryAgentReport[],
  painter: Painter,
): string[] {
  const status =
    catalog.status === undefined
      ? painter.paint('red', `failed (${visible(catalog.failure?.kind ?? 'no response')})`)
      : painter.paint(
          catalog.status === 200 ? 'green' : catalog.status === 404 ? 'dim' : 'red',
          String(catalog.status),
        );
  if (!catalog.found) {
    return ['', `AI Catalog: ${visible(catalog.url)}  ${status}  ${catalog.status === 404 ? 'none' : 'not read'}`];
  }
  const host = catalog.hostName === undefined ? '' : `  host ${painter.paint('bold', visible(catalog.hostName))}`;
  const lines = [
    '',
    `AI Catalog: ${visible(catalog.finalUrl)}  ${status}  ${catalog.entries} entr${catalog.entries === 1 ? 'y' : 'ies'}${host}  ${catalog.valid ? painter.paint('green', 'valid') : painter.paint('red', 'invalid')}`,
  ];
  for (const nested of catalog.nested ?? []) {
    lines.push(`  nested ${visible(nested.url)}  ${String(nested.status ?? nested.failure?.kind ?? '?')}`);
  }
  lines.push(`Agents (${agents.length}):`);
  for (const a of agents) {
    // The AI Catalog's resolution order: the entry, then the card it points to, then the identifier.
    const name = painter.paint('bold', visible(a.displayName ?? a.cardName ?? a.identifier ?? '(no displayName)'));
    const shown = a.version ?? a.cardVersion;
    const version = shown === undefined ? '' : ` ${visible(shown)}`;
    if (!a.checked) {
      lines.push(
        `  ${painter.paint('yellow', '–')} ${name}${version}  ${visible(a.url)}  ${painter.paint('yellow', SKIPPED[a.skipped ?? 'deadline'])}`,
      );
      continue;
    }
    const card = a.card;
    const code =
      card?.status === undefined
        ? painter.paint('red', visible(card?.failure?.kind ?? 'failed'))
        : painter.paint(card.status === 200 ? 'green' : 'red', String(card.status));
    const match = (label: string, ok: boolean | undefined, got: string | undefined) =>
      ok === undefined
        ? ''
        : ok
          ? `  ${label} ${painter.paint('green', '✔')}`
          : `  ${label} ${painter.paint(label === 'version' ? 'red' : 'yellow', `✖ card says ${visible(got ?? '?')}`)}`;
    const counts = `${a.errors} error${a.errors === 1 ? '' : 's'}, ${a.warnings} warning${a.warnings === 1 ? '' : 's'}`;
    lines.push(
      `  ${a.ok ? painter.paint('green', '✔') : painter.paint('red', '✖')} ${name}${version}  ${visible(a.url)}  ${code}${match('name', a.nameMatches, a.cardName)}${match('version', a.versionMatches, a.cardVersion)}  ${a.errors > 0 ? painter.paint('red', counts) : counts}`,
    );
  }
  return lines;
}

/** Hints of the discovery library, in the words of the CLI: its options are the CLI's flags. */
const FLAG_WORDS: readonly (readonly [string, string])[] = [
  ['(allowed by allowHttp)', '(allowed by --allow-http)'],
  ['raise the limit (maxCardBytes)', 'raise the limit (--max-card-bytes <bytes>)'],
];

const inFlagWords = (text: string): string => FLAG_WORDS.reduce((t, [from, to]) => t.replaceAll(from, to), text);

/** A finding whose message and hint name the CLI's flags; `more` is appended to the hint. */
const inCliWords = <F extends DiscoveryFinding>(f: F, more = ''): F => ({
  ...f,
  message: inFlagWords(f.message),
  hint: inFlagWords(f.hint) + more,
});

/** `127.0.0.1`, `[::1]`, `localhost`: a service on this machine, most likely without TLS. */
function isLoopbackOrigin(origin: string): boolean {
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * The report as a person reads it, in every format: a connection refused by the host, or a TLS
 * handshake it failed, is said once, on the card (the catalog request to the same host failed the
 * same way, which says nothing more); hints name the CLI's flags; and a failed https connection to
 * this machine says how to check a local service without TLS, not how to get a public certificate.
 */
export function forPeople(report: DiscoveryReport): DiscoveryReport {
  const failed = report.primary.failure?.kind;
  const once = failed === 'refused' || failed === 'tls';
  const catalogRefused = once && report.catalog?.failure?.kind === failed;
  const local = report.origin.startsWith('https:') && isLoopbackOrigin(report.origin);
  const command = `agent-card check --allow-http ${report.origin.replace('https:', 'http:')}`;
  const localHttp = failed === 'refused' && local ? ` If it is a local service without TLS: ${command}` : '';
  const localTls = failed === 'tls' && local;
  const findings = report.findings
    .filter((f) => !(catalogRefused && f.rule === 'discovery-catalog'))
    .map((f) =>
      localTls && f.rule === 'discovery-https' && f.severity === 'error'
        ? { ...f, hint: `A service on this machine most likely has no TLS: check it over http with ${command}` }
        : inCliWords(f, f.rule === 'discovery-status' ? localHttp : ''),
    );
  // The listed agents' findings come from the same library: their hints name the flags too.
  const agents = report.agents?.map((agent) => ({ ...agent, findings: agent.findings.map((f) => inCliWords(f)) }));
  const words = agents === undefined ? { findings } : { findings, agents };
  const { catalog, ...rest } = report;
  return catalogRefused ? { ...rest, ...words } : { ...report, ...words };
}

/** Renders a discovery report for a terminal. */
export function formatReport(report: DiscoveryReport, painter: Painter, options: { showInfo?: boolean } = {}): string {
  const out: string[] = [`Checking ${painter.paint('bold', visible(report.origin))} (profile ${report.profile})`, ''];
  out.push(...pathLines(report.primary, painter), ...pathLines(report.legacy, painter));
  if (report.consistency) {
    out.push(
      `Both paths: ${report.pathsConsistent ? painter.paint('green', 'same document') : painter.paint('yellow', 'different documents')} (${report.consistency.method}${report.consistency.sameEtag === undefined ? '' : report.consistency.sameEtag ? ', same ETag' : ', different ETags'})`,
    );
  }
  const doc = report.document as { name?: unknown; version?: unknown; skills?: unknown } | undefined;
  if (doc && typeof doc === 'object') {
    const skills = Array.isArray(doc.skills)
      ? doc.skills.map((s) => (s && typeof s === 'object' ? member((s as { id?: unknown }).id, '?') : '?'))
      : [];
    out.push(
      '',
      `Card: ${painter.paint('bold', member(doc.name, '(no name)'))} ${member(doc.version, '')} from ${visible(report.cardUrl ?? '?')}`,
      `  ${skills.length} skill${skills.length === 1 ? '' : 's'}${skills.length ? `: ${skills.join(', ')}` : ''}`,
    );
  }
  if (report.catalog) out.push(...catalogLines(report.catalog, report.agents ?? [], painter));
  if (report.documents) out.push(...documentLines(report.documents, painter));
  const body = formatFindings(report.findings, painter, { showInfo: options.showInfo !== false });
  if (body) out.push('', 'Findings', body);
  if (report.document !== undefined || (report.agents ?? []).some((a) => a.card?.status === 200))
    out.push('', UNTRUSTED);
  out.push(
    '',
    `${report.ok ? painter.paint('green', '✔ ok') : painter.paint('red', '✖ failed')}: ${summarize(report.findings, painter)} · ${report.requests} requests in ${Math.round(report.timeMs)} ms`,
  );
  return `${out.join('\n')}\n`;
}

/** `agent-card check <url|domain>`: exit 1 when the report has errors. */
export async function checkCommand(io: CliIO, target: string, options: CheckCommandOptions): Promise<number> {
  if (options.failOn !== undefined && options.against === undefined) {
    throw new CliError('--fail-on applies to --against (the reviewed card to compare with): pass both, or neither.');
  }
  const format = outputFormat(options);
  const probing = probeSettings(options);
  // A refused overwrite is known before the first request, not after a run of up to 2 × --timeout.
  if (options.html !== undefined) await refuseOverwrite(io, options.html, options.force === true);
  const rules = await resolveRuleSettings(io, options.rule);
  const keyOptions: Parameters<typeof discoverAgentCard>[1] = {};
  if (options.key) {
    const key = await readKeyFile(io, options.key);
    keyOptions.keys = { [verifyingKeyId(options.kid, key)]: key as never };
  } else if (options.jwks) {
    if (isRemote(options.jwks)) keyOptions.jwksUrl = options.jwks;
    else keyOptions.jwks = (await readJson(io, options.jwks)) as never;
  }
  const found = await discoverAgentCard(target, {
    ...keyOptions,
    // Without --key or --jwks, the host's own key set (and a jku on its origin) is checked.
    hostKeys: options.key === undefined && options.jwks === undefined,
    requireSignature: options.requireSignature === true,
    ...(options.form ? { forms: [options.form] } : {}),
    profile: options.profile ?? 'production',
    timeoutMs: options.timeout ?? 10_000,
    allowHttp: options.allowHttp ?? false,
    ...(options.allowHttp ? { allowInsecureJwksUrl: true } : {}),
    followCatalog: options.followCatalog === 'off' ? false : (options.followCatalog ?? 'same-origin'),
    allowPrivateTargets: options.allowPrivateTargets === true,
    ...(options.maxAgents === undefined ? {} : { maxCatalogEntries: options.maxAgents }),
    ...(options.maxCardBytes === undefined ? {} : { maxCardBytes: options.maxCardBytes }),
    // Every discovery document of the host, compared and graded in one line.
    checkDocuments: true,
    // The settings decide every finding, the listed agents' counts and the verdict.
    ...(rules === undefined ? {} : { rules }),
  });
  // --against: the drift gate, the served card compared with the reviewed one.
  const drift =
    options.against === undefined
      ? undefined
      : await checkAgainst(io, options.against, found, {
          timeoutMs: options.timeout ?? 10_000,
          allowHttp: options.allowHttp ?? false,
          ...(options.failOn === undefined ? {} : { failOn: options.failOn }),
        });
  // Rule prompt-size and the drift gate are the CLI's own findings: the rule settings apply to
  // them here, once, as discovery applied them to every finding of its report.
  const own = applySettings(
    [...promptSizeFindings(found.document, found.profile, found.cardUrl), ...(drift?.findings ?? [])],
    rules,
  );
  const discovered = {
    ...found,
    findings: [...found.findings, ...own.findings],
    ok: found.ok && !own.findings.some((f) => f.severity === 'error') && drift?.failing !== true,
    ...(rules === undefined ? {} : { turnedOff: mergeTurnedOff(found.turnedOff ?? [], own.turnedOff) }),
  };
  const timeoutMs = options.timeout ?? 10_000;
  const probed = options.probe
    ? await runProbe(discovered, { ...probing, timeoutMs, allowHttp: options.allowHttp ?? false })
    : undefined;
  // --redact: the host's strings leave the report here, before any format writes it.
  const redactor = options.redact === true ? redactorOfReport(discovered, ...(drift?.reviewed ?? [])) : undefined;
  const report = redactor ? redactor.report(discovered) : discovered;
  const probe = redactor && probed ? redactor.report(probed) : probed;
  if (format === 'json') io.stdout.write(toJsonText(probe ? { ...report, probe } : report));
  else if (format !== 'text') {
    const artifact = { uri: report.cardUrl ?? report.origin };
    // The same findings, in the same words, as the text report: the flags by their names, a
    // failed connection counted once.
    const { findings: shown } = forPeople(report);
    writeFormatted(io, format, { command: 'check', artifact, findings: shown, ok: report.ok });
  } else {
    const painter = createPainter(io);
    io.stdout.write(formatReport(forPeople(report), painter, { showInfo: options.info !== false }));
    if (probe) io.stdout.write(probeLines(probe, painter));
    io.stdout.write(turnedOffLine(report.turnedOff, painter));
  }
  if (options.html !== undefined) {
    // The same guard as stdout: a control or bidi character is \uXXXX text in the file too.
    const page = guardOutput(formatHtmlReport(forPeople(report), { showInfo: options.info !== false }));
    await writeText(io, options.html, page, { force: options.force === true });
    io.stderr.write(`Wrote ${visible(options.html)}.\n`);
  }
  // --html changes what is written, never the verdict.
  return report.ok ? 0 : 1;
}

/** The rules turned off by the settings, counted over discovery's findings and the CLI's own. */
function mergeTurnedOff(
  a: readonly { rule: string; findings: number }[],
  b: readonly { rule: string; findings: number }[],
): { rule: string; findings: number }[] {
  const counts = new Map<string, number>();
  for (const t of [...a, ...b]) counts.set(t.rule, (counts.get(t.rule) ?? 0) + t.findings);
  return [...counts].map(([rule, findings]) => ({ rule, findings }));
}
