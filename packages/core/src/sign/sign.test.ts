import { type KeyObject, generateKeyPairSync, createSecretKey, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, FlattenedSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { toPublicJwk } from './public-jwk';
import { prepareSigner, signAgentCard, type SignAgentCardOptions } from './sign';
import { canonicalizeAgentCard } from './canonicalize';
import { verifyAgentCard } from './verify';

const { signatures: specSignatures, ...sample }: AgentCard = JSON.parse(
  readFileSync(
    new URL('../../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json', import.meta.url),
    'utf8',
  ),
);

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');

const pem = (key: KeyObject) =>
  key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }) as string;
const jwk = (key: KeyObject) => key.export({ format: 'jwk' });

async function refusal(options: Partial<SignAgentCardOptions>, card: unknown = sample): Promise<AgentCardError> {
  try {
    await signAgentCard(card as AgentCard, options as SignAgentCardOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentCardError);
    expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_SIGNATURE');
    return error as AgentCardError;
  }
  throw new Error('signAgentCard did not refuse');
}

describe('signAgentCard', () => {
  it.each([
    ['ES256', ec],
    ['ES384', ec384],
    ['RS256', rsa],
    ['PS256', rsa],
    ['EdDSA', ed],
    ['Ed25519', ed],
  ] as const)('signs with %s: detached JWS, protected header {alg, typ: JOSE, kid}, verifiable', async (alg, pair) => {
    const signed = await signAgentCard(sample, { privateKey: pair.privateKey, kid: 'k1', alg });
    expect(signed.signatures).toHaveLength(1);
    const entry = signed.signatures![0]!;
    expect(Object.keys(entry).sort()).toEqual(['protected', 'signature']);
    expect(JSON.parse(new TextDecoder().decode(base64url.decode(entry.protected)))).toEqual({
      alg,
      typ: 'JOSE',
      kid: 'k1',
    });
    const result = await verifyAgentCard(signed, { keys: { k1: pair.publicKey } });
    expect(result).toEqual({
      valid: true,
      signatures: [{ index: 0, kid: 'k1', alg, valid: true, key: 'keys["k1"]', form: 'pruned' }],
    });
  });

  it.each([
    ['a PKCS#8 PEM string', () => pem(ec.privateKey)],
    ['a SEC1 EC PEM string', () => ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string],
    ['a private JWK', () => jwk(ec.privateKey)],
    ['a KeyObject', () => ec.privateKey],
    [
      'a CryptoKey',
      () =>
        webcrypto.subtle.importKey('jwk', jwk(ec.privateKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']),
    ],
  ])('accepts the private key as %s', async (_, key) => {
    const signed = await signAgentCard(sample, { privateKey: (await key()) as never, kid: 'k', alg: 'ES256' });
    expect((await verifyAgentCard(signed, { keys: { k: ec.publicKey } })).valid).toBe(true);
  });

  it('puts an https jku in the protected header', async () => {
    const signed = await signAgentCard(sample, {
      privateKey: ed.privateKey,
      kid: 'k',
      alg: 'EdDSA',
      jku: 'https://agent.example.com/.well-known/jwks.json',
    });
    expect(decodeProtectedHeader(signed.signatures![0]!)).toEqual({
      alg: 'EdDSA',
      typ: 'JOSE',
      kid: 'k',
      jku: 'https://agent.example.com/.well-known/jwks.json',
    });
  });

  it("keeps a signature it cannot check (the spec sample's) and adds its own after it", async () => {
    expect(specSignatures).toHaveLength(1);
    const signed = await signAgentCard(
      { ...sample, signatures: specSignatures },
      { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
    );
    expect(signed.signatures![0]).toEqual(specSignatures![0]);
    const result = await verifyAgentCard(signed, { keys: { k: ed.publicKey } });
    expect(result.valid).toBe(true);
    expect(result.signatures[0]).toEqual({
      index: 0,
      kid: 'key-1',
      alg: 'ES256',
      jku: 'https://example.com/agent/jwks.json',
      valid: false,
      reason: 'unknown kid "key-1": no trusted key has this kid',
    });
    expect(result.signatures[1]).toMatchObject({ index: 1, valid: true, key: 'keys["k"]' });
  });

  it('appends to existing signatures, never changes its input, and returns a copy', async () => {
    const once = await signAgentCard(sample, { privateKey: ed.privateKey, kid: 'old', alg: 'EdDSA' });
    const frozen = structuredClone(once);
    const twice = await signAgentCard(once, { privateKey: ec.privateKey, kid: 'new', alg: 'ES256' });
    expect(once).toEqual(frozen);
    expect(twice.signatures!.map((s) => decodeProtectedHeader(s).kid)).toEqual(['old', 'new']);
    expect(twice.signatures![0]).toEqual(once.signatures![0]);
    expect(twice.skills).not.toBe(once.skills);
    const result = await verifyAgentCard(twice, { keys: { old: ed.publicKey, new: ec.publicKey } });
    expect(result.signatures.map((s) => s.valid)).toEqual([true, true]);
  });

  it.each(['EdDSA', 'RS256'] as const)('is deterministic with %s', async (alg) => {
    const privateKey = alg === 'EdDSA' ? ed.privateKey : rsa.privateKey;
    const a = await signAgentCard(sample, { privateKey, kid: 'k', alg });
    const b = await signAgentCard(structuredClone(sample), { privateKey, kid: 'k', alg });
    expect(a).toEqual(b);
  });

  it('signs the pruned form first, the same whatever default values the card carries, and the served form next', async () => {
    const a = await signAgentCard(sample, { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' });
    const b = await signAgentCard(
      {
        ...sample,
        capabilities: { ...sample.capabilities, extensions: [] },
        securityRequirements: [...sample.securityRequirements!, { schemes: {} }],
        skills: sample.skills.map((skill) => ({
          ...skill,
          securityRequirements: [],
          examples: [...(skill.examples ?? []), ''],
        })),
      },
      { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
    );
    expect(a.signatures).toHaveLength(1);
    expect(b.signatures).toHaveLength(2);
    // b's pruned-form signature covers the bytes a's one signature covers, but it names its form:
    // it must not pass for a signature over the card as served once the defaults are removed.
    expect(decodeProtectedHeader(a.signatures![0]!).agentCardForm).toBeUndefined();
    expect(b.signatures!.map((s) => decodeProtectedHeader(s).agentCardForm)).toEqual(['pruned', 'served-as-is']);
    expect(
      await verifyAgentCard({ ...a, signatures: [b.signatures![0]!] }, { keys: { k: ed.publicKey } }),
    ).toMatchObject({ valid: true, signatures: [{ form: 'pruned' }] });
    expect(b.signatures![1]).not.toEqual(a.signatures![0]);
  });

  it.each<[string, Partial<SignAgentCardOptions>, RegExp]>([
    [
      'alg none',
      { alg: 'none' as never },
      /^signAgentCard: alg "none" means an unsigned card and is never accepted\. Use one of ES256, /,
    ],
    ['HMAC', { alg: 'HS256' as never }, /^signAgentCard: alg "HS256" is HMAC, .*key\/alg confusion\)\. Use one of /],
    [
      'an unknown alg',
      { alg: 'ES999' as never },
      /^signAgentCard: alg "ES999" is not an allowed Agent Card signing algorithm\. Use one of /,
    ],
    ['a missing alg', { alg: undefined }, /^signAgentCard: alg is missing \(undefined\)\. /],
    ['an empty kid', { kid: ' ' }, /^signAgentCard: kid is empty or not a string \(" "\)\. Pass the key id/],
    ['a kid that is not a string', { kid: 7 as never }, /^signAgentCard: kid is empty or not a string \(7\)\. /],
    [
      'an http jku',
      { jku: 'http://agent.example.com/jwks.json' },
      /^signAgentCard: jku is not https \(http:\/\/agent\.example\.com\/jwks\.json\)\. Publish the JWKS at an https:\/\/ URL\.$/,
    ],
    ['a relative jku', { jku: '/jwks.json' }, /^signAgentCard: jku is not an absolute URL \("\/jwks\.json"\)\. /],
    [
      'a public key PEM',
      { privateKey: pem(ec.publicKey) },
      /^signAgentCard: privateKey: the PEM holds a public key or certificate, which cannot sign\. Pass the private key/,
    ],
    [
      'a public KeyObject',
      { privateKey: ec.publicKey },
      /^signAgentCard: privateKey: a public ec prime256v1 key cannot sign an Agent Card\. Pass the private key/,
    ],
    [
      'a secret KeyObject',
      { privateKey: createSecretKey(Buffer.alloc(32, 1)) },
      /^signAgentCard: privateKey: a secret \(symmetric\) key cannot sign an Agent Card\. Agent Card signatures use asymmetric keys \(HMAC is refused\)/,
    ],
    [
      'an oct JWK',
      { privateKey: { kty: 'oct', k: 'AAAA' } },
      /^signAgentCard: privateKey: the JWK is a symmetric "oct" key\. /,
    ],
    [
      'a public JWK',
      { privateKey: jwk(ec.publicKey) },
      /^signAgentCard: privateKey: the JWK \(kty "EC"\) has no "d" member, so it is a public key\. Pass the private JWK/,
    ],
    [
      'a file path instead of PEM',
      { privateKey: './key.pem' },
      /^signAgentCard: privateKey: a string key must be a PEM document and this one has no "-----BEGIN" line\. Pass the PKCS#8 PEM text \(not a file path\)/,
    ],
    [
      'a broken PEM',
      { privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      /^signAgentCard: privateKey: the PEM could not be read \(.+\)\. Pass an unencrypted PKCS#8 PEM/,
    ],
    [
      'an EC key for RS256',
      { alg: 'RS256' },
      /^signAgentCard: privateKey: alg "RS256" needs an RSA key, got a private ec prime256v1 key\. Pass a key of the right type or change alg\.$/,
    ],
    [
      'a P-384 key for ES256',
      { privateKey: ec384.privateKey },
      /^signAgentCard: privateKey: alg "ES256" needs an EC P-256 key, got a private ec secp384r1 key\. /,
    ],
    [
      'an RSA key under 2048 bits',
      { alg: 'RS256', privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey },
      /^signAgentCard: privateKey: alg "RS256" needs an RSA key of 2048 bits or more, got a private rsa 1024-bit key\. Generate a 2048-, 3072- or 4096-bit RSA key\.$/,
    ],
    [
      'no key at all',
      { privateKey: undefined },
      /^signAgentCard: privateKey: expected a KeyObject, CryptoKey, JWK object or PEM string, got undefined\. /,
    ],
  ])('refuses %s with a clear message', async (_, override, message) => {
    const error = await refusal({ privateKey: ec.privateKey, kid: 'k', alg: 'ES256', ...override });
    expect(error.message).toMatch(message);
  });

  it('refuses a public CryptoKey', async () => {
    const publicKey = await webcrypto.subtle.importKey(
      'jwk',
      jwk(ec.publicKey),
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['verify'],
    );
    const error = await refusal({ privateKey: publicKey as never, kid: 'k', alg: 'ES256' });
    expect(error.message).toMatch(
      /^signAgentCard: privateKey: a public CryptoKey \(ECDSA\) cannot sign an Agent Card\. /,
    );
  });

  it('refuses a card RFC 8785 cannot serialize', async () => {
    const error = await refusal(
      { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
      { ...sample, name: 'bad \uDC00' },
    );
    expect(error.message).toMatch(/^canonicalizeAgentCard: the card cannot be serialized with RFC 8785/);
  });

  describe('the synchronous signer (used by the responder at start-up)', () => {
    it.each(['EdDSA', 'Ed25519', 'RS256', 'RS512'] as const)(
      'gives byte-identical signatures to jose with %s',
      async (alg) => {
        const privateKey = alg.startsWith('RS') ? rsa.privateKey : ed.privateKey;
        const signer = prepareSigner({ privateKey, kid: 'k', alg, jku: 'https://agent.example.com/jwks.json' });
        const jws = await new FlattenedSign(new TextEncoder().encode(canonicalizeAgentCard(sample)))
          .setProtectedHeader(signer.headers[0]!)
          .sign(privateKey);
        expect(signer.signSync(sample)).toEqual([{ protected: jws.protected, signature: jws.signature }]);
      },
    );

    it.each([
      ['ES256', ec],
      ['ES384', ec384],
      ['PS256', rsa],
      ['PS512', rsa],
    ] as const)('makes %s signatures that verify', async (alg, pair) => {
      const [signature] = prepareSigner({ privateKey: pair.privateKey, kid: 'k', alg }).signSync(sample);
      const result = await verifyAgentCard({ ...sample, signatures: [signature!] }, { keys: { k: pair.publicKey } });
      expect(result.signatures[0]).toMatchObject({ alg, valid: true });
    });

    it('signs with a CryptoKey too', async () => {
      const privateKey = await webcrypto.subtle.importKey(
        'jwk',
        jwk(ec.privateKey),
        { name: 'ECDSA', namedCurve: 'P-256' },
        false,
        ['sign'],
      );
      const [signature] = prepareSigner({ privateKey: privateKey as never, kid: 'k', alg: 'ES256' }).signSync(sample);
      expect(
        (await verifyAgentCard({ ...sample, signatures: [signature!] }, { keys: { k: ec.publicKey } })).valid,
      ).toBe(true);
    });
  });
});

describe('keys: thumbprint kids, rotation, deterministic ECDSA', () => {
  it('uses the RFC 7638 thumbprint of the public key as kid when none is given', async () => {
    const signer = prepareSigner({ privateKey: ec.privateKey, alg: 'ES256' });
    const expected = await calculateJwkThumbprint(ec.publicKey.export({ format: 'jwk' }) as never, 'sha256');
    expect(signer.headers[0]!.kid).toBe(expected);
    expect(signer.publicJwks[0]).toMatchObject({ kid: expected, alg: 'ES256', use: 'sig', kty: 'EC', crv: 'P-256' });
    const rsaKid = prepareSigner({ privateKey: rsa.privateKey, alg: 'RS256' }).headers[0]!.kid;
    expect(rsaKid).toBe(await calculateJwkThumbprint(rsa.publicKey.export({ format: 'jwk' }) as never, 'sha256'));
  });

  it.each([
    ['ES256', () => ec],
    ['ES384', () => ec384],
    ['ES512', () => generateKeyPairSync('ec', { namedCurve: 'P-521' })],
  ] as const)(
    'signs %s deterministically (RFC 6979): two signers, the same bytes, and they verify',
    async (alg, pair) => {
      const { privateKey, publicKey } = pair();
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      const a = prepareSigner({ privateKey: pem, kid: 'k', alg }).signSync(sample);
      const b = prepareSigner({ privateKey: privateKey, kid: 'k', alg }).signSync(sample);
      expect(a).toEqual(b);
      expect(prepareSigner({ privateKey, kid: 'k', alg }).randomized).toEqual([]);
      expect((await verifyAgentCard({ ...sample, signatures: a }, { keys: { k: publicKey } })).valid).toBe(true);
    },
  );

  it('says which keys sign randomized bytes (PS*)', () => {
    expect(prepareSigner({ privateKey: rsa.privateKey, kid: 'k', alg: 'PS256' }).randomized).toEqual(['PS256']);
  });

  it('signs with every key of a list (rotation), and a verifier with only one of them accepts', async () => {
    const signed = await signAgentCard(sample, [
      { privateKey: ec.privateKey, kid: 'old', alg: 'ES256' },
      { privateKey: ed.privateKey, kid: 'new', alg: 'EdDSA' },
    ]);
    expect(signed.signatures!.map((s) => decodeProtectedHeader(s).kid)).toEqual(['old', 'new']);
    expect((await verifyAgentCard(signed, { keys: { old: ec.publicKey } })).valid).toBe(true);
    expect((await verifyAgentCard(signed, { keys: { new: ed.publicKey } })).valid).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    [
      'two keys with one kid',
      [
        { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' },
        { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
      ],
      /^signAgentCard\[1\]: kid "k" is also the kid of signAgentCard\[0\]\. Give each key its own kid/,
    ],
    [
      'the same key twice (same thumbprint)',
      [
        { privateKey: ec.privateKey, alg: 'ES256' },
        { privateKey: ec.privateKey, alg: 'ES256' },
      ],
      /^signAgentCard\[1\]: kid ".+" is also the kid of signAgentCard\[0\]/,
    ],
    ['an empty list', [], /^signAgentCard: the list of signing keys is empty\./],
    [
      'every problem of a list at once',
      [
        { privateKey: ec.publicKey, alg: 'ES256' },
        { privateKey: ed.privateKey, alg: 'ES256' },
      ],
      /^signAgentCard: 2 problems:\n- signAgentCard\[0\]: privateKey: a public ec .*\n- signAgentCard\[1\]: privateKey: alg "ES256" needs an EC P-256 key, got a private ed25519 key/,
    ],
    [
      'an RSA key under 2048 bits',
      { privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, alg: 'RS256' },
      /^signAgentCard: privateKey: alg "RS256" needs an RSA key of 2048 bits or more, got a private rsa 1024-bit key\. Generate a 2048-, 3072- or 4096-bit RSA key\./,
    ],
  ])('refuses %s with every problem named', (_, options, message) => {
    expect(() => prepareSigner(options as never)).toThrow(message);
  });
});

describe('toPublicJwk', () => {
  it.each([
    ['a private PEM', () => ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string],
    ['a private JWK', () => ec.privateKey.export({ format: 'jwk' })],
    ['a private KeyObject', () => ec.privateKey],
    ['a public PEM', () => ec.publicKey.export({ type: 'spki', format: 'pem' }) as string],
  ])('publishes only public members of %s, with the thumbprint as kid', async (_, key) => {
    const jwk = toPublicJwk(key() as never, { alg: 'ES256' });
    expect(Object.keys(jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(jwk.kid).toBe(await calculateJwkThumbprint(ec.publicKey.export({ format: 'jwk' }) as never, 'sha256'));
  });

  it('never carries a private RSA member (d, p, q, dp, dq, qi)', () => {
    const jwk = toPublicJwk(rsa.privateKey.export({ format: 'jwk' }) as never, { kid: 'r' });
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(jwk).not.toHaveProperty(member);
    expect(jwk).toMatchObject({ kty: 'RSA', kid: 'r', use: 'sig' });
  });

  it('refuses a secret key', () => {
    expect(() => toPublicJwk(createSecretKey(Buffer.alloc(32)))).toThrow(/secret \(symmetric\) key cannot verify/);
  });
});
