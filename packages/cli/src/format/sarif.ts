/**
 * SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/): one run of the `agent-card`
 * tool, a rule for each rule id the findings name (the catalogue's summary, details and fix as
 * help, from {@link ruleHelp}), a result for each finding with its file and line, or its URL, and its
 * JSON Pointer as a logical location.
 */
import pkg from '../../package.json' with { type: 'json' };
import { findingFix } from '../report';
import { locateFindings } from './locate';
import { type FormatReport, failsByDefault, type ReportFinding } from './report';
import { ruleHelp } from './rules';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** The SARIF log of `report`, as one JSON text. */
export function toSarif(report: FormatReport): string {
  const fails = report.fails ?? failsByDefault;
  const ids = [...new Set(report.findings.map((f) => f.rule))];
  const index = new Map(ids.map((id, i) => [id, i]));
  const rules = ids.map((id) => {
    const help = ruleHelp(id, report.findings);
    const first = report.findings.find((f) => f.rule === id)!;
    return {
      id,
      name: id,
      shortDescription: { text: help.summary },
      ...(help.details === undefined ? {} : { fullDescription: { text: help.details } }),
      // Plain text only: a fix can quote a card, and markdown from a card could plant links.
      help: { text: help.fix },
      defaultConfiguration: { level: LEVEL[first.severity] },
    };
  });
  const locations = locateFindings([report.artifact], report.findings);
  const results = report.findings.map((f: ReportFinding, i) => {
    const where = locations[i]!;
    const physical: Record<string, unknown> = { artifactLocation: { uri: toUri(where.file ?? where.uri) } };
    if (where.line !== undefined) physical.region = { startLine: where.line, startColumn: where.column ?? 1 };
    const { fix, note } = findingFix(f.hint);
    const result: Record<string, unknown> = {
      ruleId: f.rule,
      ruleIndex: index.get(f.rule),
      level: fails(f) ? 'error' : LEVEL[f.severity],
      message: { text: fix ? `${f.message} Fix: ${fix}` : note ? `${f.message} ${note}` : f.message },
      locations: [
        {
          physicalLocation: physical,
          logicalLocations: [{ fullyQualifiedName: f.path === '' ? '/' : f.path, kind: 'member' }],
        },
      ],
    };
    if (f.impact !== undefined) result.properties = { impact: f.impact };
    return result;
  });
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'agent-card', semanticVersion: pkg.version, rules },
        },
        automationDetails: { id: `agent-card/${report.command}/` },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A file path as a relative URI reference (forward slashes, each segment percent-encoded); a URL as it is. */
function toUri(where: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(where)) return where;
  return where
    .replaceAll('\\', '/')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}
