// How warnings reach the `logger` option: lines of text for `console` and loggers that take a
// message, structured fields for pino-style loggers (Fastify's `fastify.log`, pino), so that a log
// pipeline can filter on `rule`.
import type { Finding } from '../../findings';

/** The fields a structured logger receives with each finding. */
export interface FindingFields {
  rule: string;
  path: string;
  severity: Finding['severity'];
  hint: string;
  agent?: string;
}

/** A logger that takes `warn(fields, message)`, as pino and Fastify's logger do. */
interface StructuredLogger {
  warn(fields: object, message: string): void;
}

const STRUCTURED = Symbol.for('agent-card.structured-logger');

/**
 * Whether `logger` takes fields first (`warn({ rule }, message)`): pino and everything built on it
 * (Fastify's `fastify.log`), recognised by their `child()` and string `level`.
 */
export function isStructuredLogger(logger: unknown): boolean {
  if (typeof logger !== 'object' || logger === null) return false;
  const l = logger as { child?: unknown; level?: unknown; [STRUCTURED]?: unknown };
  return l[STRUCTURED] === true || (typeof l.child === 'function' && typeof l.level === 'string');
}

/** Logs `message` (and `fields`, for a structured logger). */
export function logWarning(logger: Pick<Console, 'warn'>, message: string, fields: object = {}): void {
  if (isStructuredLogger(logger)) (logger as unknown as StructuredLogger).warn(fields, message);
  else logger.warn(message);
}

/** The fields of one finding, for a structured logger. */
export function findingFields(f: Finding): FindingFields {
  return { rule: f.rule, path: f.path, severity: f.severity, hint: f.hint };
}

/** `logger` with every line naming agent `id` (and, structured, an `agent` field). */
export function agentLogger(logger: Pick<Console, 'warn'>, id: string): Pick<Console, 'warn'> {
  if (!isStructuredLogger(logger)) return { warn: (message: string) => logger.warn(`agent "${id}": ${message}`) };
  const structured = logger as unknown as StructuredLogger;
  const warn = (first: unknown, second?: string) =>
    typeof first === 'object' && first !== null
      ? structured.warn({ ...first, agent: id }, `agent "${id}": ${second ?? ''}`)
      : structured.warn({ agent: id }, `agent "${id}": ${String(first)}`);
  return { warn, [STRUCTURED]: true } as unknown as Pick<Console, 'warn'>;
}
