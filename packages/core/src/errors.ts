import type { Finding } from './findings';

/** Stable error codes of {@link AgentCardError}. */
export type AgentCardErrorCode =
  /** The card (or a dynamic variant of it) has validation errors. */
  | 'ERR_AGENT_CARD_INVALID'
  /** Middleware, signing or discovery options are wrong. */
  | 'ERR_AGENT_CARD_OPTIONS'
  /** `agent-card.json` / `package.json` could not be found or read. */
  | 'ERR_AGENT_CARD_CONFIG'
  /** Signing or verification failed. */
  | 'ERR_AGENT_CARD_SIGNATURE'
  /** A card could not be fetched or discovered. */
  | 'ERR_AGENT_CARD_DISCOVERY'
  /** A card store could not be reached, or refused an operation. */
  | 'ERR_AGENT_CARD_STORE'
  /** A store write carried a version not newer than the stored one. */
  | 'ERR_AGENT_CARD_STORE_VERSION';

/** Options of {@link AgentCardError}. */
export interface AgentCardErrorOptions {
  /** The findings behind the error, when it comes from validation. */
  findings?: readonly Finding[];
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The one error type the library throws. `code` is stable; `message` reads
 * `where: what is wrong (value). How to fix.`, one line per problem.
 *
 * @example
 * try { defineAgentCard(input) } catch (e) {
 *   if (e instanceof AgentCardError && e.code === 'ERR_AGENT_CARD_INVALID') console.error(e.findings)
 * }
 */
export class AgentCardError extends Error {
  override readonly name = 'AgentCardError';
  /** Stable, machine-readable error code. */
  readonly code: AgentCardErrorCode;
  /** Every finding that made this error, errors first. Empty when not from validation. */
  readonly findings: readonly Finding[];

  constructor(code: AgentCardErrorCode, message: string, options: AgentCardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.findings = options.findings ?? [];
  }

  /**
   * What Node prints for an uncaught error (and `console.log(error)`): the stack with the message,
   * the code, and the findings counted by severity (the message lists the errors already), instead
   * of every finding object in full. A key from `Symbol.for`, so core imports nothing from Node.
   */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: unknown,
    inspect?: (value: unknown, options: unknown) => string,
  ): string {
    const lines = [this.stack ?? `${this.name}: ${this.message}`, `  code: '${this.code}'`];
    if (this.findings.length > 0) lines.push(`  findings: ${summarize(this.findings)}`);
    if (this.cause !== undefined && inspect !== undefined)
      lines.push(`  [cause]: ${inspect(this.cause, options).split('\n').join('\n  ')}`);
    return lines.join('\n');
  }
}

/** `12 (3 errors, 9 warnings): rule-a, rule-b, …` — the rules of the first few findings. */
function summarize(findings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  const bySeverity = [...counts].map(([severity, n]) => `${n} ${severity}${n === 1 ? '' : 's'}`).join(', ');
  const rules = [...new Set(findings.map((f) => f.rule))];
  const shown = rules.slice(0, 5).join(', ') + (rules.length > 5 ? `, and ${rules.length - 5} more rules` : '');
  return `${findings.length} (${bySeverity}): ${shown}; read error.findings for each one`;
}

/** Formats findings as the lines of an error message: `path: message Hint.` */
export function formatFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `  - [${f.rule}] ${f.path || '/'}: ${f.message}${f.hint ? ` ${f.hint}` : ''}`).join('\n');
}
