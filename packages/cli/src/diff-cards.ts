/** One difference between two cards. */
export interface CardChange {
  kind: 'added' | 'removed' | 'changed';
  /** JSON Pointer in the newer card (in the older one for `removed`). Skills are keyed by id: `/skills[id=book]`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/** The result of {@link diffAgentCards}. */
export interface CardDiff {
  changes: CardChange[];
  /** `version` differs between the two cards. */
  versionChanged: boolean;
  /** Anything other than `version` and `signatures` differs. */
  contentChanged: boolean;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Arrays whose elements carry a stable `id` are matched by id, so reordering is not a change. */
function keyedById(a: unknown[], b: unknown[]): boolean {
  const ok = (list: unknown[]) =>
    list.every((x) => isObject(x) && typeof x.id === 'string') &&
    new Set(list.map((x) => (x as { id: string }).id)).size === list.length;
  return a.length + b.length > 0 && ok(a) && ok(b);
}

/** One step of the walk: compare two values, or record a change found on the way. */
type Step = { before: unknown; after: unknown; path: string } | { change: CardChange };

/** The steps comparing `before` with `after`, in the order their changes are listed. */
function stepsOf(before: unknown, after: unknown, path: string): Step[] | CardChange | undefined {
  const steps: Step[] = [];
  if (Array.isArray(before) && Array.isArray(after)) {
    if (keyedById(before, after)) {
      const old = new Map(before.map((x) => [(x as { id: string }).id, x]));
      const neu = new Map(after.map((x) => [(x as { id: string }).id, x]));
      for (const [id, value] of old) {
        if (!neu.has(id)) steps.push({ change: { kind: 'removed', path: `${path}[id=${id}]`, before: value } });
      }
      for (const [id, value] of neu) {
        if (!old.has(id)) steps.push({ change: { kind: 'added', path: `${path}[id=${id}]`, after: value } });
        else steps.push({ before: old.get(id), after: value, path: `${path}[id=${id}]` });
      }
      return steps;
    }
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      if (i >= after.length) steps.push({ change: { kind: 'removed', path: `${path}/${i}`, before: before[i] } });
      else if (i >= before.length) steps.push({ change: { kind: 'added', path: `${path}/${i}`, after: after[i] } });
      else steps.push({ before: before[i], after: after[i], path: `${path}/${i}` });
    }
    return steps;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      const p = `${path}/${escapePointer(key)}`;
      if (!Object.hasOwn(after, key)) steps.push({ change: { kind: 'removed', path: p, before: before[key] } });
      else steps.push({ before: before[key], after: after[key], path: p });
    }
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key))
        steps.push({ change: { kind: 'added', path: `${path}/${escapePointer(key)}`, after: after[key] } });
    }
    return steps;
  }
  return Object.is(before, after) ? undefined : { kind: 'changed', path, before, after };
}

/** Depth-first, with an explicit stack: a card nested 100 000 levels deep cannot overflow it. */
function walk(before: unknown, after: unknown): CardChange[] {
  const out: CardChange[] = [];
  const stack: Step[] = [{ before, after, path: '' }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ('change' in step) {
      out.push(step.change);
      continue;
    }
    const next = stepsOf(step.before, step.after, step.path);
    if (next === undefined) continue;
    if (!Array.isArray(next)) out.push(next);
    else for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return out;
}

/**
 * Field-level differences between two cards. Never recurses: any depth of nesting is walked.
 *
 * @example diffAgentCards(old, neu).changes // [{ kind: 'changed', path: '/version', before: '1.0.0', after: '1.1.0' }]
 */
export function diffAgentCards(before: unknown, after: unknown): CardDiff {
  const changes = walk(before, after);
  const versionChanged = changes.some((c) => c.path === '/version');
  const contentChanged = changes.some((c) => c.path !== '/version' && !c.path.startsWith('/signatures'));
  return { changes, versionChanged, contentChanged };
}
