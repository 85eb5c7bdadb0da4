// Start-up problems: each feature's resolver adds its lines, the responder throws them together,
// one line each, `options.where: what is wrong (value). How to fix.`
import { AgentCardError } from '../../errors';
import type { Finding } from '../../findings';
import { showValue } from '../../util';

/** Adds one problem: `options.{where}: {what} ({value}). {fix}`. */
export type Report = (where: string, what: string, value: unknown, fix: string) => void;

/** The {@link Report} that adds to `problems`. */
export function reporter(problems: string[]): Report {
  return (where, what, value, fix) => problems.push(`options.${where}: ${what} (${showValue(value)}). ${fix}`);
}

/**
 * The one error of a start-up (or update) check, with every problem in it:
 * `ERR_AGENT_CARD_INVALID` when only cards failed validation, else `ERR_AGENT_CARD_OPTIONS`.
 */
export function optionsError(problems: readonly string[], findings: readonly Finding[] = []): AgentCardError {
  const code =
    findings.length > 0 && problems.every((p) => p.includes('validation error'))
      ? 'ERR_AGENT_CARD_INVALID'
      : 'ERR_AGENT_CARD_OPTIONS';
  return new AgentCardError(code, `Invalid agent card options:\n  - ${problems.join('\n  - ')}`, {
    findings: [...findings],
  });
}

/** Throws every problem at once, if there is any. */
export function throwProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw optionsError(problems);
}

/** A positive whole number. */
export function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0;
}
