/**
 * JUnit XML, as CI systems read test reports: one test suite per run, one test case per
 * finding (a `<failure>` when it fails the run), or one passing case when there is none. Every
 * value is escaped for XML, and control characters, which XML 1.0 cannot carry, are `\uXXXX` text.
 */
import { findingFix } from '../report';
import { visible } from '../terminal';
import { locateFindings } from './locate';
import { type FormatReport, failsByDefault } from './report';

/** Text for an XML attribute or element: visible, then `& < > " '` as entities. */
export function xmlText(value: string): string {
  return visible(value)
    .replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16)}`,
    )
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** The JUnit XML document of `report`. */
export function toJunit(report: FormatReport): string {
  const fails = report.fails ?? failsByDefault;
  const locations = locateFindings([report.artifact], report.findings);
  const target = report.artifact.file ?? report.artifact.uri ?? '';
  const suite = `agent-card ${report.command} ${target}`.trim();
  const cases = report.findings.map((f, i) => {
    const where = locations[i]!;
    const at = `${where.file ?? where.uri}${where.line === undefined ? '' : `:${where.line}`}`;
    const name = `${f.rule} ${f.path || '/'}`;
    // Each line escaped on its own: only the newlines between them are the report's.
    const { fix, note } = findingFix(f.hint);
    const after = fix ? [`Fix: ${fix}`] : note ? [note] : [];
    const body = [f.message, ...after, `at ${at} ${f.path || '/'}`].map(xmlText);
    const inner = fails(f)
      ? `<failure message="${xmlText(f.message)}" type="${xmlText(f.rule)}">${body.join('\n')}</failure>`
      : `<system-out>${xmlText(f.severity)}: ${body.join('\n')}</system-out>`;
    return `    <testcase classname="${xmlText(suite)}" name="${xmlText(name)}">${inner}</testcase>`;
  });
  if (cases.length === 0)
    cases.push(`    <testcase classname="${xmlText(suite)}" name="${xmlText(`${report.command} ${target}`.trim())}"/>`);
  const failures = report.findings.filter(fails).length;
  const tests = Math.max(report.findings.length, 1);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-card" tests="${tests}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xmlText(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
