/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`): one annotation
 * per finding, shown on the pull request's diff and in the run's summary.
 * @see https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
import { findingFix } from '../report';
import { visible } from '../terminal';
import { locateFindings } from './locate';
import { type FormatReport, failsByDefault } from './report';

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/**
 * A value for a command's message: control characters as `\uXXXX` text (a newline in a card
 * could otherwise start a command of its own), then `%`, CR and LF as the runner decodes them.
 */
const data = (text: string) => visible(text).replaceAll('%', '%25');
/** A property value: also `:` and `,`, which end a property. */
const property = (text: string) => data(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** The workflow commands of `report`, one line each, then a one-line summary. */
export function toGithub(report: FormatReport): string {
  const fails = report.fails ?? failsByDefault;
  const locations = locateFindings([report.artifact], report.findings);
  const lines = report.findings.map((f, i) => {
    const where = locations[i]!;
    const props: string[] = [];
    if (where.file !== undefined) {
      props.push(`file=${property(where.file)}`);
      if (where.line !== undefined) props.push(`line=${where.line}`, `col=${where.column ?? 1}`);
    }
    props.push(`title=${property(`${f.rule}${f.path ? ` ${f.path}` : ''}`)}`);
    const source = where.file === undefined && where.uri ? ` (${where.uri})` : '';
    // "Fix:" only for a fix: a hint such as "Nothing to do" is a note, printed as it is.
    const { fix, note } = findingFix(f.hint);
    const after = fix ? `Fix: ${fix}` : note;
    const text = `${data(f.message)}${data(source)}${after ? `%0A${data(after)}` : ''}`;
    return `::${fails(f) ? 'error' : COMMAND[f.severity]} ${props.join(',')}::${text}`;
  });
  const failing = report.findings.filter(fails).length;
  lines.push(
    `agent-card ${report.command}: ${report.ok ? 'ok' : 'failed'} (${failing} failing of ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'})`,
  );
  return `${lines.join('\n')}\n`;
}
