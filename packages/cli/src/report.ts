import type { Finding, Severity } from '@agent-card/core';
import type { Painter } from './io';
import { visible } from './terminal';

const MARK: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };
const STYLE = { error: 'red', warning: 'yellow', info: 'cyan' } as const;

/** Counts findings by severity. */
export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

/** `2 errors, 1 warning, 0 info` */
export function summarize(findings: readonly Finding[], painter: Painter): string {
  const c = countFindings(findings);
  const part = (n: number, word: string, style: 'red' | 'yellow' | 'cyan') =>
    n > 0
      ? painter.paint(style, `${n} ${word}${n === 1 || word === 'info' ? '' : 's'}`)
      : `${n} ${word}${word === 'info' ? '' : 's'}`;
  return `${part(c.error, 'error', 'red')}, ${part(c.warning, 'warning', 'yellow')}, ${part(c.info, 'info', 'cyan')}`;
}

/**
 * The fix of a finding, or `undefined` when its hint says there is nothing to do ("Nothing to do;
 * …", "Checked against the A2A v1.0 rules."): those read as notes, not as a fix to apply.
 */
export function findingFix(hint: string | undefined): { fix?: string; note?: string } {
  if (hint === undefined || hint.trim() === '') return {};
  const nothing = /^nothing to do\b[.;:,]?\s*/i.exec(hint);
  if (nothing) {
    const rest = hint.slice(nothing[0].length);
    return rest === '' ? {} : { note: rest.charAt(0).toUpperCase() + rest.slice(1) };
  }
  if (/^checked against\b/i.test(hint)) return { note: hint };
  return { fix: hint };
}

/**
 * One finding as two or three indented lines. Messages, hints and paths quote the card, so they
 * are printed {@link visible}.
 */
export function formatFinding(f: Finding, painter: Painter, indent = '  '): string {
  const head = `${indent}${painter.paint(STYLE[f.severity], `${MARK[f.severity]} ${f.severity.padEnd(7)}`)} ${painter.paint('bold', visible(f.rule))}${f.path ? painter.paint('dim', `  ${visible(f.path)}`) : ''}`;
  const lines = [head, `${indent}  ${visible(f.message)}`];
  const { fix, note } = findingFix(f.hint);
  if (fix) lines.push(`${indent}  ${painter.paint('dim', `→ ${visible(fix)}`)}`);
  if (note) lines.push(`${indent}  ${painter.paint('dim', visible(note))}`);
  return lines.join('\n');
}

/** Findings, errors first, then the summary line. */
export function formatFindings(
  findings: readonly Finding[],
  painter: Painter,
  options: { showInfo?: boolean } = {},
): string {
  const order: Severity[] = ['error', 'warning', 'info'];
  const shown = findings
    .filter((f) => options.showInfo !== false || f.severity !== 'info')
    .slice()
    .sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  return shown.map((f) => formatFinding(f, painter)).join('\n');
}
