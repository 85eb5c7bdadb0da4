/**
 * What a change between two JWK Sets (RFC 7517 §5: the keys a host publishes for its signed cards
 * and catalogs) means for whoever verifies them, in `diff`'s classes: a reviewed key gone, or
 * another key material or algorithm under its `kid`, is breaking (what was signed with it no
 * longer verifies); a key added, or `use`, `key_ops` or another member changed, is structural.
 */
import { keyThumbprint } from './commands/keys';
import { type CardChange, diffJsonDocuments } from './diff-cards';
import { type DiffFinding, pointerSegments } from './diff-impact';

/** The rules a key set change is reported under, all in the catalogue's `diff` section. */
type KeyRuleId = 'diff-key-removed' | 'diff-key-changed' | 'diff-structural';

const HINTS: Record<KeyRuleId, string> = {
  'diff-key-removed':
    'Signatures made with this key no longer verify. Deploy the reviewed key set (agent-card build writes it), and keep a retired key published until nothing signed with it is served.',
  'diff-key-changed':
    'Signatures made with the reviewed key fail. Deploy the reviewed key set; a new key takes a new kid, published next to the old one.',
  'diff-structural': 'Review it: the key set offers something else, no reviewed key is gone or changed.',
};

/** The members that make the key (RFC 7518 §6) and the algorithm it verifies: another value is another key. */
const KEY_MATERIAL = new Set(['kty', 'crv', 'x', 'y', 'n', 'e', 'alg']);

/**
 * Keys without a `kid` matched by thumbprint, per set: each is imported to compute it, so a served
 * set of thousands of such keys costs no more than this; the rest are matched by position.
 */
const MAX_THUMBPRINTS = 64;

/** A value as a message shows it: at most 80 characters. */
const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `keys` of a JWK Set, none when it has no such array. */
function keysOf(set: unknown): unknown[] {
  return isObject(set) && Array.isArray(set.keys) ? set.keys : [];
}

/**
 * Each key of a set by the step that names it in a pointer: `[kid=k1]`, `[thumbprint=…]` for a key
 * without a kid (or a kid given twice), else its position `/3`.
 */
function indexKeys(set: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  let thumbprints = 0;
  keysOf(set).forEach((key, i) => {
    const kid = isObject(key) && typeof key.kid === 'string' ? `[kid=${key.kid}]` : undefined;
    if (kid !== undefined && !out.has(kid)) {
      out.set(kid, key);
      return;
    }
    if (isObject(key) && thumbprints < MAX_THUMBPRINTS) {
      thumbprints += 1;
      const { kid: _, ...material } = key;
      const thumbprint = keyThumbprint(material);
      const step = thumbprint === undefined ? undefined : `[thumbprint=${thumbprint}]`;
      if (step !== undefined && !out.has(step)) {
        out.set(step, key);
        return;
      }
    }
    out.set(`/${i}`, key);
  });
  return out;
}

/** A value in a message: its JSON, cut (the gate escapes what the host put in a message). */
function shown(v: unknown): string {
  return cut(JSON.stringify(v) ?? 'nothing');
}

/** What a key is, for a message: `kid "k1", EC P-256, ES256`. */
function describeKey(key: unknown): string {
  if (!isObject(key)) return `not a key (${shown(key)})`;
  const parts = [
    typeof key.kid === 'string' ? `kid ${shown(key.kid)}` : 'no kid',
    [key.kty, key.crv].filter((m) => typeof m === 'string').join(' '),
    typeof key.alg === 'string' ? key.alg : '',
  ];
  return parts.filter((p) => p !== '').join(', ');
}

function finding(rule: KeyRuleId, impact: 'breaking' | 'structural', c: CardChange, reason: string): DiffFinding {
  const where = c.path.length > 160 ? `${c.path.slice(0, 159)}…` : c.path;
  return {
    rule,
    severity: impact === 'breaking' ? 'error' : 'warning',
    path: c.path,
    message: `${where}: ${reason}.`,
    hint: HINTS[rule],
    impact,
    kind: c.kind,
  };
}

/** The changes inside one key matched in both sets, `at` its step. */
function keyChanges(at: string, before: unknown, after: unknown): DiffFinding[] {
  const prefix = `/keys${at}`;
  return diffJsonDocuments(before, after, { default: 'kid' }).map((c) => {
    const change = { ...c, path: `${prefix}${c.path}` };
    const member = pointerSegments(c.path)[0] ?? '';
    const values =
      c.kind === 'changed'
        ? `${shown(c.before)} → ${shown(c.after)}`
        : c.kind === 'added'
          ? `now ${shown(c.after)}`
          : `was ${shown(c.before)}`;
    if (c.path === '') return finding('diff-key-changed', 'breaking', change, `key replaced (${values})`);
    if (KEY_MATERIAL.has(member))
      return finding('diff-key-changed', 'breaking', change, `key ${member} ${c.kind} (${values})`);
    return finding('diff-structural', 'structural', change, `${cut(member)} ${c.kind} (${values})`);
  });
}

/**
 * Each difference between the reviewed JWK Set (`before`) and the served one (`after`) as a
 * finding of `diff`'s classes: keys matched by `kid` (a key without one by its RFC 7638
 * thumbprint, else by position); a reviewed key gone is `diff-key-removed`, its key material or
 * `alg` changed `diff-key-changed`, a key added or another member changed `diff-structural`.
 *
 * @example classifyKeySetChanges(reviewedJwks, servedJwks).filter((f) => f.impact === 'breaking')
 */
export function classifyKeySetChanges(before: unknown, after: unknown): DiffFinding[] {
  const old = indexKeys(before);
  const neu = indexKeys(after);
  const out: DiffFinding[] = [];
  for (const [step, key] of old) {
    if (neu.has(step)) out.push(...keyChanges(step, key, neu.get(step)));
    else {
      const c: CardChange = { kind: 'removed', path: `/keys${step}`, before: key };
      out.push(finding('diff-key-removed', 'breaking', c, `key removed (${describeKey(key)})`));
    }
  }
  for (const [step, key] of neu) {
    if (old.has(step)) continue;
    const c: CardChange = { kind: 'added', path: `/keys${step}`, after: key };
    out.push(finding('diff-structural', 'structural', c, `key added (${describeKey(key)})`));
  }
  // Members of the set besides its keys (RFC 7517 §5 allows others): structural.
  const rest = (set: unknown) => {
    const { keys: _, ...others } = isObject(set) ? set : {};
    return others;
  };
  for (const c of diffJsonDocuments(rest(before), rest(after), { default: 'kid' })) {
    const member = pointerSegments(c.path)[0] ?? '';
    out.push(finding('diff-structural', 'structural', c, `${cut(member)} ${c.kind}`));
  }
  return out;
}

/** The finding for a reviewed JWK Set the host does not serve: every key it holds is gone. */
export function keySetGone(reviewed: unknown, answer: string): DiffFinding {
  const keys = keysOf(reviewed).length;
  return {
    rule: 'diff-key-removed',
    severity: 'error',
    path: '',
    message: `/: the host serves no JWK Set (${answer}); the reviewed one holds ${keys} key${keys === 1 ? '' : 's'}.`,
    hint: HINTS['diff-key-removed'],
    impact: 'breaking',
    kind: 'removed',
  };
}
