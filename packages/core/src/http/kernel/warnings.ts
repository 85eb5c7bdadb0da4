import { formatFindings } from '../../errors';
import type { Finding } from '../../findings';
import { findingFields, isStructuredLogger, logWarning } from './log';

/** Distinct rule + location pairs remembered; beyond it, new ones are counted, not logged. */
export const MAX_REMEMBERED_WARNINGS = 1000;
/** Log messages allowed per {@link WARNING_WINDOW_MS}; the rest are counted and reported later. */
export const WARNINGS_PER_WINDOW = 10;
/** The rate-limit window of warning messages. */
export const WARNING_WINDOW_MS = 60_000;

/**
 * Logs each warning once per rule and JSON Pointer (to a pino-style logger, one entry per finding
 * with `{ rule, path, severity, hint }` as fields), whatever card variant (host, tenant) it was
 * found in, and at most {@link WARNINGS_PER_WINDOW} messages a minute: a client that makes new
 * variants cannot flood the log. What is held back is counted and reported with the next message
 * that may be logged.
 */
export function createWarner(
  logger: Pick<Console, 'warn'>,
  now: () => number = Date.now,
): (findings: readonly Finding[]) => void {
  const seen = new Set<string>();
  let windowStart = -Infinity;
  let inWindow = 0;
  let held = 0;
  const structured = isStructuredLogger(logger);
  return (findings) => {
    const fresh = findings.filter((f) => {
      const key = `${f.rule}\u0000${f.path}`;
      if (seen.has(key)) return false;
      if (seen.size >= MAX_REMEMBERED_WARNINGS) {
        held++;
        return false;
      }
      seen.add(key);
      return true;
    });
    if (fresh.length === 0) return;
    const t = now();
    if (t - windowStart >= WARNING_WINDOW_MS) {
      windowStart = t;
      inWindow = 0;
    }
    if (inWindow >= WARNINGS_PER_WINDOW) {
      held += fresh.length;
      return;
    }
    inWindow++;
    const note = held > 0 ? `(${held} more warning(s) were not logged: too many in a short time.)` : '';
    if (structured) {
      for (const f of fresh) logWarning(logger, `agent card: ${f.message}`, findingFields(f));
      if (note !== '') logWarning(logger, `agent card: ${note}`, { held });
    } else logger.warn(`agent card: ${fresh.length} warning(s):\n${formatFindings(fresh)}${note && `\n${note}`}`);
    held = 0;
  };
}
