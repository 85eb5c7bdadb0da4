import type { AgentCard } from '../model';
import { SignatureChecker } from './verify-check';
import { formsNeeded, signable } from './verify-content';
import { readSignature } from './verify-header';
import { KeyFinder } from './verify-keys';
import { optionsError, resolveVerifyOptions } from './verify-options';
import { showValue } from '../util';
import {
  AGENT_CARD_VERIFY_LIMITS,
  type AgentCardSignatureCheck,
  type VerifyAgentCardOptions,
  type VerifyAgentCardResult,
  type VerifyRun,
} from './verify-types';

// A verification in named steps: the options (verify-options.ts), the forms the signatures may
// cover (verify-content.ts), each signature's header (verify-header.ts), its trusted keys
// (verify-keys.ts) and the public-key checks within the budget (verify-check.ts).

export { AGENT_CARD_VERIFY_LIMITS };
export type { AgentCardSignatureCheck, VerifyAgentCardOptions, VerifyAgentCardResult, VerifyRun };

/**
 * A sentence for a result in which signatures verified over the pruned form only: then members
 * at their default value are covered by no signature (one could have been added or removed,
 * such as a requirement without scopes). `undefined` otherwise.
 */
export function prunedOnlyNote(result: VerifyAgentCardResult): string | undefined {
  const verified = result.signatures.filter((s) => s.valid);
  // A signature that names no form and verified over a card whose two forms coincide covers both.
  const prunedOnly = (s: AgentCardSignatureCheck) =>
    s.form === 'pruned' && (s.formNamed === true || (s.uncovered?.length ?? 0) > 0);
  if (verified.length === 0 || !verified.every(prunedOnly)) return undefined;
  const uncovered = [...new Set(verified.flatMap((s) => s.uncovered ?? []))];
  return `only the pruned form verified: no signature covers the members at their default value${
    uncovered.length > 0 ? ` (${uncovered.join(', ')})` : ''
  }, so one could have been added or removed since signing`;
}

/**
 * Verifies the signatures of an Agent Card against trusted keys, and says for each one whether
 * it verified, with which key and over which canonical form, or why not. Never throws for
 * anything in the card (a card from the network may be hostile); only wrong options throw.
 *
 * A signature is valid only over a canonical form of the JSON as received (see
 * {@link canonicalizeAgentCard}): served as is, or with default-valued members pruned. No model
 * round trip happens on this side, so nothing a reader of the card sees is outside what a valid
 * signature covers. A card that names one field under both its JSON and its proto name is
 * refused whatever its signatures, and a signature over the card as a model reads it
 * (unknown members dropped, snake_case read, one oneof member kept) fails with the pointers of
 * the content it leaves out.
 *
 * Each signature must have a base64url protected header with `alg` (in the allowlist; `none`
 * and `HS*` never), `typ` and `kid` (as `@a2a-js/sdk` requires), an https `jku` if any, and a
 * trusted key with that `kid` that fits `alg`.
 *
 * Key trust: keys come from `keys`, `jwks` and `jwksUrl`, which the caller chose. A `jku` in a
 * signature is fetched only when an `allowJkuHosts` entry admits it.
 *
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` when no key source is given, a key is
 *   secret, unreadable or private-only as CryptoKey, `algorithms` names a refused algorithm,
 *   `forms` names no form, an `allowJkuHosts` entry is malformed, `jwksUrl` is not https, or
 *   `maxCheckTimeMs` is not a number ≥ 0.
 * @example
 * const result = await verifyAgentCard(card, { jwksUrl: 'https://agent.example.com/.well-known/jwks.json' })
 * if (!result.valid) console.error(result.signatures.map((s) => `#${s.index} ${s.kid}: ${s.reason}`))
 * @see spec §8.4.3, RFC 7515 §5.2, A2A#2122
 */
export async function verifyAgentCard(
  card: AgentCard,
  options: VerifyAgentCardOptions,
): Promise<VerifyAgentCardResult> {
  const limit = typeof options === 'object' && options !== null ? options.maxCheckTimeMs : undefined;
  if (limit === undefined) return verifyAgentCardRun(card, options, {});
  if (typeof limit !== 'number' || !(limit >= 0)) {
    throw optionsError(
      `maxCheckTimeMs must be a number of milliseconds ≥ 0 (${showValue(limit)})`,
      'Leave it out for no limit.',
    );
  }
  return verifyAgentCardRun(card, options, { deadline: performance.now() + limit });
}

/** {@link verifyAgentCard}, with no public-key check started after `run.deadline`. */
export async function verifyAgentCardRun(
  card: AgentCard,
  options: VerifyAgentCardOptions,
  run: VerifyRun,
): Promise<VerifyAgentCardResult> {
  const resolved = resolveVerifyOptions(options);
  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    return { valid: false, signatures: [], reason: 'the card is not a JSON object' };
  }
  const entries: unknown = (card as { signatures?: unknown }).signatures;
  if (entries === undefined || (Array.isArray(entries) && entries.length === 0)) {
    return { valid: false, signatures: [], reason: 'the card has no signatures' };
  }
  if (!Array.isArray(entries)) return { valid: false, signatures: [], reason: '"signatures" is not an array' };

  const content = signable(card, resolved.forms, formsNeeded(entries, resolved.forms));
  if ('reason' in content) {
    const { reason, uncovered } = content;
    return {
      valid: false,
      reason,
      signatures: entries.map((_, index) => ({ index, valid: false, reason, ...(uncovered ? { uncovered } : {}) })),
    };
  }

  const checks: AgentCardSignatureCheck[] = [];
  const limits: string[] = [];
  const maxSignatures = AGENT_CARD_VERIFY_LIMITS.signatures;
  if (entries.length > maxSignatures) {
    limits.push(
      `only the first ${maxSignatures} of ${entries.length} signatures were checked (at most ${maxSignatures} per card)`,
    );
  }
  const keys = new KeyFinder(resolved, limits);
  const checker = new SignatureChecker(card, content, resolved.algorithms, run.deadline);
  for (const [index, entry] of entries.entries()) {
    const check: AgentCardSignatureCheck = { index, valid: false };
    checks.push(check);
    if (index >= maxSignatures) {
      check.reason = `not checked: only the first ${maxSignatures} signatures of a card are checked`;
      continue;
    }
    const read = readSignature(entry, check, resolved.algorithms, resolved.forms);
    if (typeof read === 'string') {
      check.reason = read;
      continue;
    }
    const candidates = await keys.find(read.kid, read.header);
    if (typeof candidates === 'string') {
      check.reason = candidates;
      continue;
    }
    await checker.check(check, read, entry, candidates);
  }
  const budget = checker.limit();
  if (budget !== undefined) limits.push(budget);
  return { valid: checks.some((check) => check.valid), signatures: checks, ...(limits.length > 0 ? { limits } : {}) };
}
