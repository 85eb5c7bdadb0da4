/** One difference between two cards. */
export interface CardChange {
  kind: 'added' | 'removed' | 'changed';
  /**
   * JSON Pointer in the newer card (in the older one for `removed`). Skills are keyed by id
   * (`/skills[id=book]`), interfaces by URL (`/supportedInterfaces[url=https://acme.io/a2a]`) and
   * extensions by URI, so reordering them is not a change.
   */
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

/**
 * The member that identifies the elements of an array, by the array's pointer (`default` for any
 * other array): arrays whose elements all carry it are matched by it, so reordering is not a change.
 */
export type KeyMembers = Readonly<Record<string, string>> & { readonly default: string };

/** A card's: `url` for interfaces, `uri` for extensions, `id` anywhere else. */
const CARD_KEYS: KeyMembers = {
  '/supportedInterfaces': 'url',
  '/additionalInterfaces': 'url',
  '/capabilities/extensions': 'uri',
  default: 'id',
};

/**
 * The key member of two arrays when every element of both carries it as a string, once per
 * array: they are then matched by it, so reordering is not a change.
 */
function keyOf(keys: KeyMembers, path: string, a: unknown[], b: unknown[]): string | undefined {
  const key = (Object.hasOwn(keys, path) ? keys[path] : undefined) ?? keys.default;
  const ok = (list: unknown[]) =>
    list.every((x) => isObject(x) && typeof x[key] === 'string') &&
    new Set(list.map((x) => (x as Record<string, string>)[key])).size === list.length;
  return a.length + b.length > 0 && ok(a) && ok(b) ? key : undefined;
}

/** One step of the walk: compare two values, or record a change found on the way. */
type Step = { before: unknown; after: unknown; path: string } | { change: CardChange };

/** The steps comparing `before` with `after`, in the order their changes are listed. */
function stepsOf(keys: KeyMembers, before: unknown, after: unknown, path: string): Step[] | CardChange | undefined {
  const steps: Step[] = [];
  if (Array.isArray(before) && Array.isArray(after)) {
    const key = keyOf(keys, path, before, after);
    if (key !== undefined) {
      const old = new Map(before.map((x) => [(x as Record<string, string>)[key], x]));
      const neu = new Map(after.map((x) => [(x as Record<string, string>)[key], x]));
      for (const [id, value] of old) {
        if (!neu.has(id)) steps.push({ change: { kind: 'removed', path: `${path}[${key}=${id}]`, before: value } });
      }
      for (const [id, value] of neu) {
        if (!old.has(id)) steps.push({ change: { kind: 'added', path: `${path}[${key}=${id}]`, after: value } });
        else steps.push({ before: old.get(id), after: value, path: `${path}[${key}=${id}]` });
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
function walk(keys: KeyMembers, before: unknown, after: unknown): CardChange[] {
  const out: CardChange[] = [];
  const stack: Step[] = [{ before, after, path: '' }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ('change' in step) {
      out.push(step.change);
      continue;
    }
    const next = stepsOf(keys, step.before, step.after, step.path);
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
  const changes = walk(CARD_KEYS, before, after);
  const versionChanged = changes.some((c) => c.path === '/version');
  const contentChanged = changes.some((c) => c.path !== '/version' && !c.path.startsWith('/signatures'));
  return { changes, versionChanged, contentChanged };
}

/**
 * Field-level differences between two JSON documents, the arrays matched by `keys` (an AI
 * Catalog's or an ARD manifest's `entries` by `identifier`). The walk of {@link diffAgentCards}.
 *
 * @example diffJsonDocuments(a, b, { '/entries': 'identifier', default: 'id' })
 */
export function diffJsonDocuments(before: unknown, after: unknown, keys: KeyMembers): CardChange[] {
  return walk(keys, before, after);
}
