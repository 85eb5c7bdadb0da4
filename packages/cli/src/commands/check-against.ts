/**
 * `agent-card check <url> --against <file|rev:path>`: the drift gate. The card the host serves is
 * compared with the reviewed one from the repository (a file, or `rev:path` read with
 * `git cat-file` without a shell, the revision validated first) by `diff`'s rules: each change is
 * a `diff-*` finding of the check, breaking, structural or descriptive, and `--fail-on` (default
 * `any`: production must serve what was merged) decides which fail the run. The reviewed card may
 * be a registry's copy, as `agent-card export --registry` writes it. A difference in
 * `signatures` only is reported as such (descriptive), never hidden.
 */
import type { DiscoveryFinding } from '@agent-card/discovery';
import type { CliIO } from '../io';
import { readCardSource } from '../card-source';
import { CliError } from '../io';
import { cardOfRegistryRecord } from './export';
import { diffAgentCards } from '../diff-cards';
import { classifyChanges } from '../diff-impact';
import { visible } from '../terminal';
import { type FailOn, failsUnder } from './diff';

export interface DriftOptions {
  timeoutMs: number;
  allowHttp: boolean;
  /** @default 'any' */
  failOn?: FailOn;
  /** The URL of the served card, for the findings. */
  cardUrl?: string;
}

export interface DriftResult {
  findings: DiscoveryFinding[];
  /** Whether a change fails the run under `--fail-on`. */
  failing: boolean;
  /** The reviewed card, whose strings `--redact` replaces too. */
  reviewed: unknown;
}

/** The served card against the reviewed one at `against`. */
export async function checkAgainst(
  io: CliIO,
  against: string,
  served: unknown,
  options: DriftOptions,
): Promise<DriftResult> {
  const read = await readCardSource(io, against, { timeoutMs: options.timeoutMs, allowHttp: options.allowHttp });
  // A record of `agent-card export --registry aws`: the gate compares the card inside it.
  const inner = cardOfRegistryRecord(read.card);
  if (inner !== undefined && 'error' in inner) throw new CliError(`${visible(read.name)}: ${inner.error}`, 2);
  const reviewed = inner === undefined ? read : { ...read, card: inner.card };
  const url = options.cardUrl === undefined ? {} : { url: options.cardUrl };
  if (typeof served !== 'object' || served === null || Array.isArray(served)) {
    return {
      reviewed: reviewed.card,
      failing: true,
      findings: [
        {
          rule: 'diff-skill-removed',
          severity: 'error',
          path: '',
          message: `The host serves no card to compare with ${visible(reviewed.name)}.`,
          hint: 'Deploy the reviewed card: production serves something other than what was merged.',
          ...url,
        },
      ],
    };
  }
  const diff = diffAgentCards(reviewed.card, served);
  const fails = failsUnder(options.failOn ?? 'any');
  const findings = classifyChanges(diff, served).map((f) => ({
    ...f,
    // A change the gate fails on is an error of the check, whatever its class.
    severity: fails(f) ? ('error' as const) : f.severity,
    message: `served card differs from ${visible(reviewed.name)}: ${f.message}`,
    ...url,
  }));
  return { findings, failing: findings.some(fails), reviewed: reviewed.card };
}
