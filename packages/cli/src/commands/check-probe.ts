/**
 * `check --probe`: calls the interfaces of the checked card (see `probeAgentCard` of
 * `@agent-card/discovery`) and adds its `probe-*` findings to the report.
 */
import { type DiscoveryReport, type ProbeReport, probeAgentCard } from '@agent-card/discovery';
import type { Painter } from '../io';
import { CliError } from '../io';
import { visible } from '../terminal';

/** The options of `check` that drive the probe. */
export interface CheckProbeOptions {
  probe?: boolean;
  /** `Name: value`, sent to the checked origin only. */
  probeHeader?: string[];
  /** Other origins whose interfaces may be called, without credentials. */
  probeOrigin?: string[];
}

/** A token (RFC 9110 §5.6.2): the characters a header name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The probe's headers and origins from the command line, checked before any request: every
 * problem in one usage error.
 */
export function probeSettings(options: CheckProbeOptions): { headers: Record<string, string>; origins: string[] } {
  const problems: string[] = [];
  const given = (options.probeHeader ?? []).length + (options.probeOrigin ?? []).length > 0;
  if (given && options.probe !== true)
    problems.push('--probe-header and --probe-origin: only with --probe. Add --probe.');
  const headers: Record<string, string> = {};
  for (const raw of options.probeHeader ?? []) {
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).trim() : '';
    const value = colon > 0 ? raw.slice(colon + 1).trim() : '';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a header value may not carry them.
    if (!TOKEN.test(name) || /[\u0000-\u001f\u007f]/.test(value)) {
      problems.push(
        `--probe-header ${visible(JSON.stringify(raw))}: expected "Name: value", e.g. "Authorization: Bearer …".`,
      );
    } else headers[name.toLowerCase()] = value;
  }
  const origins: string[] = [];
  for (const raw of options.probeOrigin ?? []) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== raw.replace(/\/$/, '')) {
      problems.push(`--probe-origin ${visible(JSON.stringify(raw))}: expected an origin, e.g. https://api.acme.io.`);
    } else origins.push(url.origin);
  }
  if (problems.length > 0) throw new CliError(problems.join(' '));
  return { headers, origins };
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Probes the card of `report` and adds the findings to it (its `ok` too); the probe is returned. */
export async function runProbe(
  report: DiscoveryReport,
  settings: { headers: Record<string, string>; origins: string[]; timeoutMs: number; allowHttp: boolean },
): Promise<ProbeReport | undefined> {
  if (typeof report.document !== 'object' || report.document === null) return undefined;
  const probe = await probeAgentCard(report.document, {
    origin: report.origin,
    allowOrigins: settings.origins,
    headers: settings.headers,
    timeoutMs: settings.timeoutMs,
    allowHttp: settings.allowHttp,
  });
  report.findings.push(...probe.findings);
  report.findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  report.ok = !report.findings.some((f) => f.severity === 'error');
  report.requests += probe.requests;
  return probe;
}

const TONE = { answers: 'green', refused: 'green', wrong: 'red', unreachable: 'red', 'not-probed': 'dim' } as const;

/** The probe as terminal lines: one per interface, then the extended card. */
export function probeLines(probe: ProbeReport, painter: Painter): string {
  const lines = ['Probe (--probe):'];
  for (const i of probe.interfaces) {
    lines.push(
      `  ${painter.paint(TONE[i.outcome], i.outcome)}  ${visible(i.binding)}  ${visible(i.url)}  ${visible(i.detail)}`,
    );
  }
  const e = probe.extended;
  if (e) {
    const status = (n: number | undefined) => (n === undefined ? '–' : String(n));
    lines.push(
      `  extended card ${visible(e.url)}: without credentials ${status(e.withoutCredentials)}, with ${status(e.withCredentials)}`,
    );
  }
  lines.push(`  ${probe.requests} requests in ${probe.timeMs} ms`);
  return `${lines.join('\n')}\n`;
}
