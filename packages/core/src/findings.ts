/** How serious a finding is. Profiles can change a rule's default severity. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * Validation profile.
 * - `development`: `http://` and loopback URLs are allowed (info).
 * - `production`: they are errors. The default when `NODE_ENV=production`.
 * - `strict`: production, plus unknown fields and snake_case keys are errors, as the official
 *   TCK's schema treats them.
 */
export type ValidationProfile = 'development' | 'production' | 'strict';

/** One problem (or note) about a card. */
export interface Finding {
  /** Stable rule id from the catalogue, e.g. `skill-id-unique`. */
  rule: string;
  /** Severity after the profile was applied. */
  severity: Severity;
  /** JSON Pointer (RFC 6901) to the offending value; `''` is the whole card. */
  path: string;
  /** `where: what is wrong (value).` */
  message: string;
  /** How to fix it: the field to add or the value to use. */
  hint: string;
}

/** Builds a JSON Pointer from path segments, escaping `~` and `/` (RFC 6901). */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
