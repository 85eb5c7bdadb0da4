/**
 * Validations already made of frozen cards. `defineAgentCard` validates the exact object it
 * returns; when that object reaches the responder with the same profile, the responder reads the
 * findings recorded here instead of validating the same card a second time. Internal to the
 * package: not exported from its entry point.
 */
import type { Finding, ValidationProfile } from '../findings';

interface RecordedValidation {
  readonly profile: ValidationProfile;
  readonly findings: readonly Finding[];
}

const recorded = new WeakMap<object, RecordedValidation>();

/**
 * Remembers the findings of `validateAgentCard(card, { profile })`. Only for a deep-frozen card:
 * nothing can change it afterwards, so the findings stay true for as long as it lives.
 */
export function recordValidation(card: object, profile: ValidationProfile, findings: readonly Finding[]): void {
  recorded.set(card, { profile, findings: Object.freeze([...findings]) });
}

/** The recorded findings of `card` under `profile`, or `undefined` when it must be validated. */
export function recordedFindings(card: unknown, profile: ValidationProfile): readonly Finding[] | undefined {
  if (typeof card !== 'object' || card === null) return undefined;
  const entry = recorded.get(card);
  return entry !== undefined && entry.profile === profile ? entry.findings : undefined;
}
