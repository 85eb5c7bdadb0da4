import { describe, expect, it } from 'vitest';
import { diffAgentCards } from './diff-cards';

/** `{a: {a: … {a: leaf}}}`, `levels` deep, built without recursion. */
function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('diffAgentCards', () => {
  it('walks cards nested 100,000 levels deep without overflowing the stack', () => {
    const diff = diffAgentCards({ version: '1', x: nested(100_000, 1) }, { version: '1', x: nested(100_000, 2) });
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]).toMatchObject({ kind: 'changed', before: 1, after: 2 });
    expect(diff.changes[0]?.path).toBe(`/x${'/a'.repeat(100_000)}`);
    expect(diff.contentChanged).toBe(true);
    expect(diff.versionChanged).toBe(false);
  });

  it('lists changes depth-first in document order, skills matched by id', () => {
    const before = { name: 'A', skills: [{ id: 's1', tags: ['a'] }, { id: 's2' }], version: '1' };
    const after = { name: 'B', skills: [{ id: 's3' }, { id: 's1', tags: ['b', 'c'] }], version: '2', extra: true };
    expect(diffAgentCards(before, after).changes).toEqual([
      { kind: 'changed', path: '/name', before: 'A', after: 'B' },
      { kind: 'removed', path: '/skills[id=s2]', before: { id: 's2' } },
      { kind: 'added', path: '/skills[id=s3]', after: { id: 's3' } },
      { kind: 'changed', path: '/skills[id=s1]/tags/0', before: 'a', after: 'b' },
      { kind: 'added', path: '/skills[id=s1]/tags/1', after: 'c' },
      { kind: 'changed', path: '/version', before: '1', after: '2' },
      { kind: 'added', path: '/extra', after: true },
    ]);
  });
});
