/**
 * What a change between two cards means for the clients of the older one: breaking (a call that
 * worked fails), structural (what a client can do changed, nothing it did breaks) or descriptive
 * (text for people). Judged from the change's pointer and values, one rule per kind of change.
 */
import type { CliRuleId, Finding } from '@agent-card/core';
import type { CardChange, CardDiff } from './diff-cards';

/** How much a change matters to the clients of the older card. */
export type ChangeImpact = 'breaking' | 'structural' | 'descriptive';

/** The impacts from most to least severe. */
export const CHANGE_IMPACTS: readonly ChangeImpact[] = ['breaking', 'structural', 'descriptive'];

/** A change as a finding: rule, severity (breaking → error, structural → warning, descriptive → info), pointer, reason and what to do. */
export interface DiffFinding extends Finding {
  /** `undefined` only for `diff-version-not-bumped`, which is about the pair, not one change. */
  impact?: ChangeImpact;
  kind?: CardChange['kind'];
}

/**
 * The rules of one change of a card (`diff-version-not-bumped` is about the pair; the entry and key
 * rules and `drift-not-compared` are the drift gate's, about the AI Catalog, the ARD manifest, the
 * MCP catalog and the JWK Set).
 */
type ChangeRuleId = Extract<
  Exclude<
    CliRuleId,
    | 'diff-version-not-bumped'
    | 'diff-entry-removed'
    | 'diff-entry-url-changed'
    | 'diff-key-removed'
    | 'diff-key-changed'
    | 'drift-not-compared'
  >,
  `diff-${string}`
>;

interface Verdict {
  rule: ChangeRuleId;
  impact: ChangeImpact;
  reason: string;
}

const SEVERITY = { breaking: 'error', structural: 'warning', descriptive: 'info' } as const;

/** What to do, by rule: each breaking rule names what clients lose. */
const HINTS: Record<ChangeRuleId, string> = {
  'diff-skill-removed':
    'Clients that ask for this skill fail. Keep it (mark it deprecated in its description) until they move, or publish the card under a new major version.',
  'diff-interface-removed':
    'Clients that call this interface fail. Keep serving it next to the new one until they move, or publish under a new major version.',
  'diff-interface-url-changed':
    'Clients calling the old URL fail. Keep the old URL answering (list both interfaces) until they move.',
  'diff-binding-changed':
    'Clients speaking the old binding fail. Add the new binding as another interface and keep the old one.',
  'diff-protocol-version-changed':
    'Clients of the old protocol version may fail. List the new version as another interface and keep the old one for a while.',
  'diff-capability-removed':
    'Clients that rely on this capability fail. Keep it, or publish the card under a new major version.',
  'diff-scheme-removed':
    'Clients that authenticate with this scheme fail. Keep the scheme until no requirement and no client uses it.',
  'diff-scheme-changed':
    'Clients configured for the old scheme fail to authenticate. Add the changed scheme under a new name and keep the old one.',
  'diff-security-tightened':
    'Clients with the credentials that were enough before are refused. Add the new requirement as an alternative first, or publish under a new major version.',
  'diff-structural': 'Review it: clients see a different capability, interface or mode, none they used is gone.',
  'diff-descriptive': 'Text for people: nothing to do for clients.',
};

const DESCRIPTIVE_MEMBERS = new Set([
  'name',
  'description',
  'documentationUrl',
  'iconUrl',
  'examples',
  'tags',
  'provider',
  'organization',
  'displayName',
  'version',
]);

const isTrue = (v: unknown) => v === true;
const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** `/skills[id=a]/x` → `['skills[id=a]', 'x']`; a bracket key may hold `/` (a URL). */
export function pointerSegments(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] !== '/') break;
    let j = i + 1;
    let segment = '';
    while (j < path.length && path[j] !== '/') {
      if (path[j] === '[') {
        const close = path.indexOf(']', j);
        const end = close === -1 ? path.length : close + 1;
        segment += path.slice(j, end);
        j = end;
      } else {
        segment += path[j];
        j += 1;
      }
    }
    out.push(segment);
    i = j;
  }
  return out;
}

const SKILL = /^skills$/;
const INTERFACES = /^(supportedInterfaces|additionalInterfaces)$/;
const INTERFACE_FIELD: Record<string, ChangeRuleId> = {
  url: 'diff-interface-url-changed',
  protocolBinding: 'diff-binding-changed',
  transport: 'diff-binding-changed',
  protocolVersion: 'diff-protocol-version-changed',
  tenant: 'diff-interface-url-changed',
};

/** A change under `securityRequirements` (v1.0) or `security` (v0.3), rest = the segments after it. */
function securityVerdict(c: CardChange, rest: string[], list: unknown): Verdict {
  const tightened = (reason: string): Verdict => ({ rule: 'diff-security-tightened', impact: 'breaking', reason });
  const loosened = (reason: string): Verdict => ({ rule: 'diff-structural', impact: 'structural', reason });
  if (rest.length === 0) {
    if (c.kind === 'added')
      return count(c.after) > 0 ? tightened('security requirement added') : loosened('empty list added');
    if (c.kind === 'removed') return loosened('security requirements removed (no credentials needed)');
    return count(c.after) > 0 ? tightened('security requirements replaced') : loosened('security requirements emptied');
  }
  if (rest.length === 1) {
    // One alternative (any one of them is enough).
    if (c.kind === 'added') {
      return count(list) > 1 ? loosened('another way to authenticate added') : tightened('security requirement added');
    }
    if (c.kind === 'removed') {
      return count(list) > 0
        ? tightened('a way to authenticate removed')
        : loosened('last security requirement removed');
    }
    return tightened('security requirement replaced');
  }
  // Inside one alternative: a scheme more, or a scope more, is asked together with the others.
  if (c.kind === 'removed') return loosened('scheme or scope no longer required');
  return tightened(c.kind === 'added' ? 'scheme or scope required in addition' : 'required scheme or scope changed');
}

/** The verdict on one change. `before`/`after` are the two cards, `changes` all of the diff. */
function verdictOf(c: CardChange, after: Record<string, unknown>, changes: readonly CardChange[]): Verdict {
  // `skills[id=a]` as two steps, `skills` and `[id=a]`, like `skills/0`.
  const seg = pointerSegments(c.path).flatMap((s) => {
    const keyed = /^([^[]*)(\[.*\])$/.exec(s);
    return keyed ? [keyed[1]!, keyed[2]!] : [s];
  });
  const [head = '', second, third] = seg;
  const last = seg.at(-1) ?? '';
  const structural = (reason: string): Verdict => ({ rule: 'diff-structural', impact: 'structural', reason });
  const descriptive = (reason: string): Verdict => ({ rule: 'diff-descriptive', impact: 'descriptive', reason });
  const breaking = (rule: ChangeRuleId, reason: string): Verdict => ({ rule, impact: 'breaking', reason });

  if (head === 'version' && seg.length === 1) return descriptive('version changed');
  if (head === 'signatures') return descriptive('signatures changed');
  // Security requirements: of the card, or of one skill.
  const securityAt = seg.findIndex((s) => s === 'securityRequirements' || s === 'security');
  if (securityAt === 0 || (securityAt === 2 && SKILL.test(head))) {
    const owner = securityAt === 0 ? after : skillIn(after, second ?? '');
    return securityVerdict(c, seg.slice(securityAt + 1), owner?.[seg[securityAt] ?? '']);
  }
  if (SKILL.test(head) && seg.length === 2) {
    if (c.kind === 'removed') return breaking('diff-skill-removed', 'skill removed');
    if (c.kind === 'added') return structural('skill added');
  }
  if (INTERFACES.test(head) && seg.length === 2) {
    if (c.kind === 'added') return structural('interface added');
    const binding = (c.before as { protocolBinding?: unknown } | undefined)?.protocolBinding;
    const replaced = changes.some(
      (o) =>
        o.kind === 'added' &&
        (o.path.startsWith(`/${head}[`) || new RegExp(`^/${head}/\\d+$`).test(o.path)) &&
        (o.after as { protocolBinding?: unknown } | undefined)?.protocolBinding === binding,
    );
    return replaced
      ? breaking('diff-interface-url-changed', 'interface URL changed (another interface of its binding was added)')
      : breaking('diff-interface-removed', 'interface removed');
  }
  if (INTERFACES.test(head) && seg.length === 3 && second !== undefined && INTERFACE_FIELD[last]) {
    return breaking(INTERFACE_FIELD[last] ?? 'diff-interface-url-changed', `interface ${last} changed`);
  }
  if (seg.length === 1 && (head === 'url' || head === 'protocolVersion' || head === 'preferredTransport')) {
    const rule =
      head === 'url'
        ? 'diff-interface-url-changed'
        : head === 'protocolVersion'
          ? 'diff-protocol-version-changed'
          : 'diff-binding-changed';
    return c.kind === 'added' ? structural(`${head} added`) : breaking(rule, `${head} changed`);
  }
  if (head === 'capabilities') return capabilityVerdict(c, seg);
  if (head === 'securitySchemes') {
    if (seg.length === 1)
      return c.kind === 'removed'
        ? breaking('diff-scheme-removed', 'every security scheme removed')
        : structural('security schemes changed');
    if (seg.length === 2) {
      if (c.kind === 'removed') return breaking('diff-scheme-removed', 'security scheme removed');
      if (c.kind === 'added') return structural('security scheme added');
    }
    if (last === 'description') return descriptive('scheme description changed');
    return breaking('diff-scheme-changed', `security scheme changed (${third ?? last})`);
  }
  if (seg.some((s) => DESCRIPTIVE_MEMBERS.has(s))) return descriptive(`${last} ${c.kind}`);
  return structural(`${last} ${c.kind}`);
}

/** The skill at step `[id=x]` (skills with ids) or `n` (skills matched by index) of the newer card. */
function skillIn(card: Record<string, unknown>, step: string): Record<string, unknown> | undefined {
  const skills = Array.isArray(card.skills) ? (card.skills as Record<string, unknown>[]) : [];
  const id = /^\[id=(.*)\]$/.exec(step)?.[1];
  const skill = id === undefined ? skills[Number(step)] : skills.find((s) => typeof s === 'object' && s?.id === id);
  return typeof skill === 'object' && skill !== null ? skill : undefined;
}

/** `capabilities`: a flag going from true to anything else, or an extension gone, breaks its users. */
function capabilityVerdict(c: CardChange, seg: string[]): Verdict {
  const [, name, item, member] = seg;
  // extensions are keyed by URI: `extensions`, `[uri=…]`, then the member.
  const breaking = (reason: string): Verdict => ({ rule: 'diff-capability-removed', impact: 'breaking', reason });
  const structural = (reason: string): Verdict => ({ rule: 'diff-structural', impact: 'structural', reason });
  if (name === undefined) {
    const had = c.before && typeof c.before === 'object' ? Object.values(c.before).some(isTrue) : false;
    return c.kind !== 'added' && had ? breaking('capabilities removed') : structural(`capabilities ${c.kind}`);
  }
  if (name === 'extensions') {
    const extension = item;
    const field = member;
    if (extension === undefined)
      return c.kind === 'removed' ? breaking('extensions removed') : structural(`extensions ${c.kind}`);
    if (field === undefined) {
      if (c.kind === 'removed') return breaking('extension removed');
      const required = (c.after as { required?: unknown } | undefined)?.required === true;
      return required
        ? { rule: 'diff-security-tightened', impact: 'breaking', reason: 'required extension added' }
        : structural('extension added');
    }
    if (field === 'required' && c.after === true) {
      return { rule: 'diff-security-tightened', impact: 'breaking', reason: 'extension made required' };
    }
    if (field === 'description')
      return { rule: 'diff-descriptive', impact: 'descriptive', reason: 'extension description changed' };
    return structural(`extension ${field} ${c.kind}`);
  }
  if (c.before === true && c.after !== true) return breaking(`capability ${name} removed`);
  return structural(`capability ${name} ${c.after === true ? 'added' : c.kind}`);
}

/** A value in one line for a message: JSON, cut to 80 characters (printers make it visible). */
function brief(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The values of a change, `(before → after)`, `(was before)` or `(now after)`. */
function values(c: CardChange): string {
  if (c.kind === 'changed') return `${brief(c.before)} → ${brief(c.after)}`;
  return c.kind === 'removed' ? `was ${brief(c.before)}` : `now ${brief(c.after)}`;
}

/** One change as a finding of `diff`'s classes, for the card's changes and the listings' alike. */
export function changeFinding(
  c: CardChange,
  verdict: { rule: DiffFinding['rule']; impact: ChangeImpact; reason: string },
  hint: string,
): DiffFinding {
  return {
    rule: verdict.rule,
    severity: SEVERITY[verdict.impact],
    path: c.path,
    message: `${c.path || '/'}: ${verdict.reason} (${values(c)}).`,
    hint,
    impact: verdict.impact,
    kind: c.kind,
  };
}

/**
 * Each change of `diff` as a finding: its rule (`diff-skill-removed`, `diff-security-tightened`,
 * `diff-structural`, `diff-descriptive`…), its impact, its pointer and a short reason; then
 * `diff-version-not-bumped` when the content changed and `version` did not.
 *
 * @example classifyChanges(diffAgentCards(a, b), b).filter((f) => f.impact === 'breaking')
 */
export function classifyChanges(diff: CardDiff, after: unknown): DiffFinding[] {
  const card = typeof after === 'object' && after !== null ? (after as Record<string, unknown>) : {};
  const findings: DiffFinding[] = diff.changes.map((c) => {
    const v = verdictOf(c, card, diff.changes);
    return changeFinding(c, v, HINTS[v.rule] ?? '');
  });
  if (diff.contentChanged && !diff.versionChanged) {
    findings.push({
      rule: 'diff-version-not-bumped',
      severity: 'warning',
      path: '/version',
      message: '/version: the content changed but "version" did not.',
      hint: 'Bump "version" so clients and caches can tell the cards apart.',
    });
  }
  return findings;
}

/** The most severe impact among `findings`, or `none`. */
export function worstImpact(findings: readonly DiffFinding[]): ChangeImpact | 'none' {
  for (const impact of CHANGE_IMPACTS) if (findings.some((f) => f.impact === impact)) return impact;
  return 'none';
}
