import type { CliIO, Painter } from '../io';
import { createPainter } from '../io';
import { diffAgentCards } from '../diff-cards';
import { CHANGE_IMPACTS, type ChangeImpact, classifyChanges, type DiffFinding, worstImpact } from '../diff-impact';
import { type CardSource, readCardSource } from '../card-source';
import { type OutputFormat, outputFormat, type ReportFinding, writeFormatted } from '../format';
import { Redactor } from '../redact';
import { toJsonText } from '../read';
import { visible } from '../terminal';

/** `--fail-on`: the least impact that fails the run, `any` for any change, `none` never. */
export const FAIL_ON = ['breaking', 'structural', 'any', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface DiffCommandOptions {
  json?: boolean;
  format?: OutputFormat;
  /** @default 'breaking' */
  failOn?: FailOn;
  timeout?: number;
  allowHttp?: boolean;
  /** The largest card of a host read (`--max-card-bytes`). @default 262144 (256 KiB) */
  maxCardBytes?: number;
  /** Replace every string of both cards in the report by its pointer, length and hash. */
  redact?: boolean;
}

/** A value in one line: JSON (read at most 64 levels deep, see readCard), cut to 120 characters. */
const show = (v: unknown) => {
  const text = JSON.stringify(v);
  return visible(text === undefined ? 'undefined' : text.length > 120 ? `${text.slice(0, 117)}…` : text);
};

/** The impacts `failOn` fails on. */
function failingImpacts(failOn: FailOn): ReadonlySet<ChangeImpact> {
  if (failOn === 'none') return new Set();
  if (failOn === 'any') return new Set(CHANGE_IMPACTS);
  return new Set(CHANGE_IMPACTS.slice(0, CHANGE_IMPACTS.indexOf(failOn) + 1));
}

/** Whether a finding fails the run under `failOn`: its impact, or an unbumped version unless `none`. */
export const failsUnder = (failOn: FailOn) => {
  const impacts = failingImpacts(failOn);
  return (f: ReportFinding) =>
    f.impact === undefined
      ? failOn !== 'none' && f.rule === 'diff-version-not-bumped'
      : impacts.has(f.impact as ChangeImpact);
};

/** What made the run fail, and only that: the changes at or above `--fail-on`, the unbumped version. */
function failReasons(findings: readonly ReportFinding[], fails: (f: ReportFinding) => boolean): string {
  const changes = findings.filter((f) => f.impact !== undefined && fails(f)).length;
  const reasons = changes > 0 ? [`${changes} change(s) at or above it`] : [];
  if (findings.some((f) => f.impact === undefined && fails(f))) reasons.push('"version" not bumped');
  return reasons.join(', and ');
}

const TONE = { breaking: 'red', structural: 'yellow', descriptive: 'cyan' } as const;

/** Today's change lines, then the judged changes by impact, then the counts. */
function textReport(diff: ReturnType<typeof diffAgentCards>, findings: DiffFinding[], painter: Painter): string {
  const out: string[] = [];
  for (const c of diff.changes) {
    const path = visible(c.path);
    if (c.kind === 'added') out.push(painter.paint('green', `+ ${path}: ${show(c.after)}`));
    else if (c.kind === 'removed') out.push(painter.paint('red', `- ${path}: ${show(c.before)}`));
    else out.push(painter.paint('yellow', `~ ${path}: ${show(c.before)} → ${show(c.after)}`));
  }
  const counts = CHANGE_IMPACTS.map((impact) => [impact, findings.filter((f) => f.impact === impact)] as const);
  const n = diff.changes.length;
  out.push(
    `${n} difference${n === 1 ? '' : 's'}: ${counts.map(([impact, list]) => `${list.length} ${impact}`).join(', ')}.`,
  );
  for (const [impact, list] of counts) {
    if (impact === 'descriptive' || list.length === 0) continue;
    out.push('', painter.paint(TONE[impact], `${impact[0]!.toUpperCase()}${impact.slice(1)} changes:`));
    for (const f of list) {
      out.push(`  ${painter.paint('bold', visible(f.rule))}  ${visible(f.message)}`);
      if (impact === 'breaking') out.push(`    ${painter.paint('dim', `→ ${visible(f.hint)}`)}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * `agent-card diff <a> <b>`: every change from `a` (the older card) to `b`, judged breaking,
 * structural or descriptive. Exit 1 when a change reaches `--fail-on` (default: breaking) or the
 * content changed but `version` did not (unless `--fail-on none`), 0 otherwise.
 */
export async function diffCommand(io: CliIO, a: string, b: string, options: DiffCommandOptions): Promise<number> {
  const format = outputFormat(options);
  const failOn = options.failOn ?? 'breaking';
  const read = {
    timeoutMs: options.timeout ?? 10_000,
    allowHttp: options.allowHttp ?? false,
    ...(options.maxCardBytes === undefined ? {} : { maxCardBytes: options.maxCardBytes }),
  };
  const [before, after]: [CardSource, CardSource] = await Promise.all([
    readCardSource(io, a, read),
    readCardSource(io, b, read),
  ]);
  const compared = diffAgentCards(before.card, after.card);
  const classified = classifyChanges(compared, after.card);
  // --redact: the cards' strings leave the report here, before any format writes it.
  const redactor = options.redact === true ? new Redactor() : undefined;
  if (redactor) {
    redactor.addDocument(before.card);
    redactor.addDocument(after.card);
  }
  const diff = redactor ? redactor.report(compared) : compared;
  const findings = redactor ? redactor.report(classified) : classified;
  const stale = diff.contentChanged && !diff.versionChanged;
  const fails = failsUnder(failOn);
  const failing = findings.some(fails);
  const code = failing ? 1 : 0;
  if (format === 'json') {
    io.stdout.write(
      toJsonText({
        ...diff,
        versionNotBumped: stale,
        impact: worstImpact(findings),
        failOn,
        failed: failing,
        findings,
      }),
    );
    return code;
  }
  if (format !== 'text') {
    // Every finding points into the newer card (the file a pull request changes): a removal at
    // the nearest member that is still there, such as /skills for a skill removed.
    const artifact = {
      ...(after.file === undefined ? { uri: after.name } : { file: after.file }),
      ...(after.bytes === undefined || redactor ? {} : { text: Buffer.from(after.bytes).toString('utf8') }),
      document: redactor ? redactor.addDocument(after.card) : after.card,
    };
    writeFormatted(io, format, { command: 'diff', artifact, findings, fails, ok: !failing });
    return code;
  }
  const painter = createPainter(io);
  if (diff.changes.length === 0) {
    io.stdout.write('No differences.\n');
    return 0;
  }
  io.stdout.write(textReport(diff, findings, painter));
  if (stale) {
    io.stdout.write(
      painter.paint('yellow', '⚠ The content changed but "version" did not.') +
        ' Bump "version" so clients and caches can tell the cards apart.\n',
    );
  }
  if (failing)
    io.stdout.write(`${painter.paint('red', `✖ failed (--fail-on ${failOn})`)}: ${failReasons(findings, fails)}.\n`);
  return code;
}
