// What the validator's steps share: the walk's state and how a finding is written.
import type { CatalogRuleId } from '../rules';
import { type Finding, type Severity, toPointer, type ValidationProfile } from '../findings';
import type { Segments } from '../validate/rules/read-json';
import type { AiCatalogDraftId, AiCatalogMembers } from './format';

export const SHOW_MAX = 80;
/** How a catalog finding names a value it read: core's one rendering. */
export { showFound as show } from '../util';

export interface Walk {
  draft: AiCatalogDraftId;
  members: AiCatalogMembers;
  profile: ValidationProfile;
  maxEntries: number;
  baseUrl: string | undefined;
  findings: Finding[];
  entriesRead: number;
}

export function at(path: Segments): string {
  let out = 'catalog';
  for (const s of path)
    out += typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  return out;
}

export function report(
  w: Walk,
  rule: CatalogRuleId,
  severity: Severity,
  path: Segments,
  what: string,
  hint: string,
): void {
  w.findings.push({ rule, severity, path: toPointer(path), message: `${at(path)}: ${what}.`, hint });
}

export function isString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
