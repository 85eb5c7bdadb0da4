/**
 * What every machine-readable format of `validate`, `check`, `verify` and `diff` is made from:
 * the findings of one run, where they are, and which of them fail it.
 */
import type { Finding } from '@agent-card/core';

/** One finding of a report, with the document it is about when that is not the report's own. */
export interface ReportFinding extends Finding {
  /** The URL the finding is about (`check`: the card, catalog or listed card). */
  url?: string;
  /** `diff`: breaking, structural or descriptive. */
  impact?: string;
}

/** The document a report is about. */
export interface ReportArtifact {
  /** A local file as given on the command line (relative to the working directory). */
  file?: string;
  /** A URL, `stdin` or `rev:path`. */
  uri?: string;
  /** The document's text, to turn pointers into lines. */
  text?: string;
  /** The parsed document, to resolve keyed pointers (`/skills[id=book]`). */
  document?: unknown;
}

/** One run of a command, as the formats see it. */
export interface FormatReport {
  command: 'validate' | 'check' | 'verify' | 'diff';
  artifact: ReportArtifact;
  findings: readonly ReportFinding[];
  /** Whether a finding makes the run fail (exit 1). @default severity is error */
  fails?: (finding: ReportFinding) => boolean;
  /** The run's verdict (exit status 0). */
  ok: boolean;
}

/** The output formats: `text` is each command's own terminal report. */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const failsByDefault = (f: ReportFinding): boolean => f.severity === 'error';
