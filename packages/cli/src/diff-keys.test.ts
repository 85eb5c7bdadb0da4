import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyThumbprint } from './commands/keys';
import { classifyKeySetChanges, keySetGone } from './diff-keys';

type Jwk = Record<string, unknown>;
const publicJwk = (): Jwk => generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as Jwk;
const [a, b, c] = [publicJwk(), publicJwk(), publicJwk()];
const thumb = (k: Jwk) => keyThumbprint(k) as string;

describe('classifyKeySetChanges: a served JWK Set against the reviewed one', () => {
  const set = (...keys: unknown[]) => ({ keys });
  it.each([
    {
      name: 'the same keys in another order',
      before: set({ ...a, kid: 'a' }, { ...b, kid: 'b' }),
      after: set({ ...b, kid: 'b' }, { ...a, kid: 'a' }),
      expected: [],
    },
    {
      name: 'keys without a kid, reordered: matched by RFC 7638 thumbprint',
      before: set(a, b),
      after: set(b, a),
      expected: [],
    },
    {
      name: 'a key without a kid gone: removed by its thumbprint',
      before: set(a, b),
      after: set(a),
      expected: [['diff-key-removed', 'error', `/keys[thumbprint=${thumb(b)}]`]],
    },
    {
      name: 'a kid moved to other key material: changed, breaking',
      before: set({ ...a, kid: 'k' }),
      after: set({ ...c, kid: 'k' }),
      expected: [['diff-key-changed', 'error', '/keys[kid=k]/x']],
    },
    {
      name: 'alg changed: breaking; key_ops added: structural',
      before: set({ ...a, kid: 'k', alg: 'EdDSA' }),
      after: set({ ...a, kid: 'k', alg: 'Ed25519', key_ops: ['verify'] }),
      expected: [
        ['diff-key-changed', 'error', '/keys[kid=k]/alg'],
        ['diff-structural', 'warning', '/keys[kid=k]/key_ops'],
      ],
    },
    {
      name: 'what is not a key: matched by position',
      before: set('not a key'),
      after: set(7),
      expected: [['diff-key-changed', 'error', '/keys/0']],
    },
    {
      name: 'a served document that is not a key set: every reviewed key removed',
      before: set({ ...a, kid: 'a' }),
      after: ['x'],
      expected: [['diff-key-removed', 'error', '/keys[kid=a]']],
    },
    {
      name: 'a member of the set besides its keys: structural',
      before: set(),
      after: { keys: [], note: 'rotated' },
      expected: [['diff-structural', 'warning', '/note']],
    },
  ])('$name', ({ before, after, expected }) => {
    expect(classifyKeySetChanges(before, after).map((f) => [f.rule, f.severity, f.path])).toEqual(expected);
  });

  it('a kid given twice: the second is matched by thumbprint, so its loss is still seen', () => {
    const found = classifyKeySetChanges(
      {
        keys: [
          { ...a, kid: 'k' },
          { ...b, kid: 'k' },
        ],
      },
      { keys: [{ ...a, kid: 'k' }] },
    );
    expect(found.map((f) => [f.rule, f.path])).toEqual([['diff-key-removed', `/keys[thumbprint=${thumb(b)}]`]]);
  });

  it('keySetGone counts the reviewed keys', () => {
    expect(keySetGone({ keys: [a] }, 'status 500')).toMatchObject({
      rule: 'diff-key-removed',
      severity: 'error',
      message: '/: the host serves no JWK Set (status 500); the reviewed one holds 1 key.',
    });
  });
});
