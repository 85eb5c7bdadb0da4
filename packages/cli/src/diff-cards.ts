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

function walk(before: unknown, after: unknown, path: string, out: CardChange[]): void {
  if (Array.isArray(before) && Array.isArray(after)) {
    if (keyedById(before, after)) {
      const old = new Map(before.map((x) => [(x as { id: string }).id, x]));
      const neu = new Map(after.map((x) => [(x as { id: string }).id, x]));
      for (const [id, value] of old) {
        if (!neu.has(id)) out.push({ kind: 'removed', path: `${path}[id=${id}]`, before: value });
      }
      for (const [id, value] of neu) {
        if (!old.has(id)) out.push({ kind: 'added', path: `${path}[id=${id}]`, after: value });
        else walk(old.get(id), value, `${path}[id=${id}]`, out);
      }
      return;
    }
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      if (i >= after.length) out.push({ kind: 'removed', path: `${path}/${i}`, before: before[i] });
      else if (i >= before.length) out.push({ kind: 'added', path: `${path}/${i}`, after: after[i] });
      else walk(before[i], after[i], `${path}/${i}`, out);
    }
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      const p = `${path}/${escapePointer(key)}`;
      if (!Object.hasOwn(after, key)) out.push({ kind: 'removed', path: p, before: before[key] });
      else walk(before[key], after[key], p, out);
    }
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key))
        out.push({ kind: 'added', path: `${path}/${escapePointer(key)}`, after: after[key] });
    }
    return;
  }
  if (!Object.is(before, after)) out.push({ kind: 'changed', path, before, after });
}

/**
 * Field-level differences between two cards.
 *
 * @example diffAgentCards(old, neu).changes // [{ kind: 'changed', path: '/version', before: '1.0.0', after: '1.1.0' }]
 */
export function diffAgentCards(before: unknown, after: unknown): CardDiff {
  const changes: CardChange[] = [];
  walk(before, after, '', changes);
  const versionChanged = changes.some((c) => c.path === '/version');
  const contentChanged = changes.some((c) => c.path !== '/version' && !c.path.startsWith('/signatures'));
  return { changes, versionChanged, contentChanged };
}
