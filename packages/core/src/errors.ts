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

/** Options of {@link formatFindings}. */
export interface FormatFindingsOptions {
  /** Lines at most; the findings past them are counted on one last line. @default Infinity */
  max?: number;
  /** Where that last line sends the reader for every finding. @default 'findings' */
  rest?: string;
}

/** The lines an {@link AgentCardError} message lists, at most: the rest are in `error.findings`. */
export const ERROR_MESSAGE_LINES = 20;

/** One line: findings of one rule and one fix whose paths differ only in their last index. */
interface FindingGroup {
  first: Finding;
  /** The last array index of each finding's path, when the group can list them as ranges. */
  indexes: number[];
  count: number;
}

/**
 * The key of a finding whose pointer ends its last array index where its message's last `[n]`
 * names the same index (`/skills/3/name`, `skills[3].name: blank`): everything but that index.
 */
function groupKey(f: Finding): { key: string; index: number } | undefined {
  // The last segment that is a number (`/skills/3/examples` → 3, not a later one).
  const segments = f.path.split('/');
  let at = -1;
  for (let i = segments.length - 1; i > 0; i--)
    if (/^(?:0|[1-9]\d{0,8})$/.test(segments[i]!)) {
      at = i;
      break;
    }
  if (at === -1) return undefined;
  const index = Number(segments[at]);
  const inMessage = f.message.lastIndexOf(`[${index}]`);
  if (inMessage === -1 || f.message.indexOf(`[${index}]`, inMessage + 1) !== -1) return undefined;
  const template = [...segments.slice(0, at), '#', ...segments.slice(at + 1)].join('/');
  const message = `${f.message.slice(0, inMessage)}[#]${f.message.slice(inMessage + `[${index}]`.length)}`;
  return { key: `${f.rule}\u0000${template}\u0000${message}\u0000${f.hint}`, index };
}

/** `0..29`, `1,3..5,9`: sorted indexes as runs. */
function ranges(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(j === i ? `${sorted[i]}` : `${sorted[i]}..${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(',');
}

function formatLine({ first: f, indexes }: FindingGroup): string {
  let path = f.path || '/';
  let message = f.message;
  if (indexes.length > 1) {
    const index = indexes[0]!;
    const listed = ranges(indexes);
    const segments = f.path.split('/');
    const at = segments.lastIndexOf(String(index));
    path = [...segments.slice(0, at), listed, ...segments.slice(at + 1)].join('/');
    const inMessage = message.lastIndexOf(`[${index}]`);
    message = `${message.slice(0, inMessage)}[${listed}]${message.slice(inMessage + `[${index}]`.length)}`;
  }
  return `  - [${f.rule}] ${path}: ${message}${f.hint ? ` ${f.hint}` : ''}`;
}

/**
 * Formats findings as the lines of an error message: `[rule] path: message Hint.` Findings of
 * one rule and one fix that differ only in one array index share a line that lists the indexes
 * (`[skill-required-fields] /skills/0..29/name: skills[0..29].name: blank …`), in the order of
 * their first finding; past `max` lines, one line counts the rest and names `rest`.
 *
 * @example
 * formatFindings(error.findings, { max: 20, rest: 'error.findings' })
 */
export function formatFindings(findings: readonly Finding[], options: FormatFindingsOptions = {}): string {
  const groups: FindingGroup[] = [];
  const byKey = new Map<string, FindingGroup>();
  for (const f of findings) {
    const grouped = groupKey(f);
    const existing = grouped === undefined ? undefined : byKey.get(grouped.key);
    if (existing !== undefined) {
      existing.indexes.push(grouped!.index);
      existing.count++;
      continue;
    }
    const group: FindingGroup = { first: f, indexes: grouped === undefined ? [] : [grouped.index], count: 1 };
    groups.push(group);
    if (grouped !== undefined) byKey.set(grouped.key, group);
  }
  const max = options.max ?? Number.POSITIVE_INFINITY;
  if (groups.length <= max) return groups.map(formatLine).join('\n');
  const shown = groups.slice(0, Math.max(0, max));
  const more = groups.slice(shown.length).reduce((n, g) => n + g.count, 0);
  return [...shown.map(formatLine), `  - and ${more} more: ${options.rest ?? 'findings'} lists every one`].join('\n');
}

/** The findings of an {@link AgentCardError} message: grouped, at most {@link ERROR_MESSAGE_LINES} lines. */
export function formatErrorFindings(findings: readonly Finding[]): string {
  return formatFindings(findings, { max: ERROR_MESSAGE_LINES, rest: 'error.findings' });
}
