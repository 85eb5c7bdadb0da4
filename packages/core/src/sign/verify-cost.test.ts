// The card and the key set a checked host serves choose how much work a verification does: a
// card full of signatures under one kid, against a key set full of keys under that kid, must not
// turn into signatures × keys × forms public-key operations, nor import a key more than once.
import type * as crypto from 'node:crypto';
import { generateKeyPairSync } from 'node:crypto';
import type * as Jose from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../model';
import { signAgentCard } from './sign';
import { verifyAgentCard } from './verify';
import type * as NodeCryptoModule from './node-crypto';

const counts = { imports: 0, checks: 0, canonicalized: 0, joseBytes: 0 };

vi.mock('./jcs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./jcs')>();
  return {
    ...actual,
    jcs: (value: unknown) => {
      counts.canonicalized += 1;
      return actual.jcs(value);
    },
    jcsOfOrdered: (value: unknown, ordered: boolean) => {
      counts.canonicalized += 1;
      return actual.jcsOfOrdered(value, ordered);
    },
  };
});

// node:crypto is reached at run time through `nodeCrypto`, so the count is taken there.
vi.mock('./node-crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCryptoModule>();
  return {
    ...actual,
    nodeCrypto: (where: string): typeof crypto => {
      const real = actual.nodeCrypto(where);
      return {
        ...real,
        createPublicKey: (...args: Parameters<typeof real.createPublicKey>) => {
          counts.imports += 1;
          return real.createPublicKey(...args);
        },
      };
    },
  };
});
vi.mock('jose', async (importOriginal) => {
  const actual = await importOriginal<typeof Jose>();
  return {
    ...actual,
    flattenedVerify: (...args: Parameters<typeof actual.flattenedVerify>) => {
      counts.checks += 1;
      counts.joseBytes += String(args[0].payload).length;
      return actual.flattenedVerify(...args);
    },
  };
});

afterEach(() => {
  counts.imports = 0;
  counts.checks = 0;
  counts.canonicalized = 0;
  counts.joseBytes = 0;
});

const card: AgentCard = {
  name: 'Recipe Agent',
  description: 'Finds recipes.',
  supportedInterfaces: [{ url: 'https://recipes.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'find', name: 'Find', description: 'Finds a recipe.', tags: ['cooking'] }],
};
const kid = 'card-key';

/** `count` keys under one kid, none of which signed anything. */
function strangers(count: number): crypto.JsonWebKey[] {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  return Array.from({ length: count }, () => ({ ...jwk, kid, alg: 'ES256' }));
}

/** `count` valid-looking signatures under `kid`, made by keys the verifier does not hold. */
async function forgedSignatures(count: number) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = await signAgentCard(card, { privateKey, kid, alg: 'ES256' });
  const one = signed.signatures?.[0];
  return Array.from({ length: count }, () => one);
}

describe('verifyAgentCard: the cost of one verification is bounded', () => {
  it('checks at most 8 signatures, 3 keys per kid, 8 public-key checks, and says so', async () => {
    const signatures = await forgedSignatures(200);
    const jwks = { keys: strangers(100) } as never;
    counts.imports = 0;
    counts.checks = 0;
    const result = await verifyAgentCard({ ...card, signatures } as AgentCard, { jwks });
    expect(result.valid).toBe(false);
    expect(result.signatures).toHaveLength(200);
    expect(result.limits).toEqual([
      'only the first 8 of 200 signatures were checked (at most 8 per card)',
      'kid "card-key" names 100 keys; only the first 3 were tried (at most 3 per kid)',
      'the card used up the 8 public-key checks of one verification; 6 signatures were not checked',
    ]);
    expect(result.signatures[0]?.reason).toMatch(/does not match the card/);
    expect(result.signatures[7]?.reason).toMatch(/^not checked: the 8 public-key checks/);
    expect(result.signatures[8]?.reason).toBe('not checked: only the first 8 signatures of a card are checked');
    // Each key imported once, whatever the number of signatures naming its kid.
    expect(counts.imports).toBeLessThanOrEqual(3);
    expect(counts.checks).toBe(8);
  });

  it('still finds the one good signature among few, with the right key among few', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(card, { privateKey, kid, alg: 'ES256' });
    const jwks = { keys: [...strangers(2), { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256' }] } as never;
    const signatures = [...(await forgedSignatures(1)), ...(signed.signatures ?? [])];
    counts.imports = 0;
    const result = await verifyAgentCard({ ...card, signatures } as AgentCard, { jwks });
    expect(result.valid).toBe(true);
    expect(result.signatures[1]).toMatchObject({ valid: true, key: 'jwks["card-key"]' });
    expect(result.limits).toBeUndefined();
    expect(counts.imports).toBe(3);
  });

  it('starts no public-key check after maxCheckTimeMs, and says so', async () => {
    const signatures = await forgedSignatures(3);
    const jwks = { keys: strangers(1) } as never;
    counts.checks = 0;
    const result = await verifyAgentCard({ ...card, signatures } as AgentCard, { jwks, maxCheckTimeMs: 0 });
    expect(result.valid).toBe(false);
    expect(counts.checks).toBe(0);
    expect(result.signatures[0]?.reason).toMatch(/^not checked: the time allowed for this verification ran out/);
    expect(result.limits).toEqual(['the time allowed for this verification ran out; 3 signatures were not checked']);
  });

  it.each([-1, Number.NaN, '5'])('refuses maxCheckTimeMs %j at the call', async (value) => {
    await expect(verifyAgentCard(card, { jwks: { keys: [] }, maxCheckTimeMs: value as number })).rejects.toThrow(
      /^verifyAgentCard: maxCheckTimeMs must be a number of milliseconds ≥ 0 \(.*\)\. Leave it out for no limit\.$/,
    );
  });
});

/** The card padded with ordinary skills to about 256 KiB. */
function largeCard(): AgentCard {
  const skills = Array.from({ length: 2500 }, (_, i) => ({
    id: `s${i}`,
    name: `Skill ${i}`,
    description: `Handles request type ${i}, start to finish.`,
    tags: ['t'],
  }));
  // A default-valued member, so the two canonical forms differ.
  return { ...card, securityRequirements: [{ schemes: { apiKey: { list: [] } } }], skills };
}

describe('verifyAgentCard: a large card is read once per form', () => {
  it('canonicalizes only the form a signature names, and hands jose the card only to confirm a match', async () => {
    const big = largeCard();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(big, { privateKey, kid, alg: 'ES256' });
    const honest = { ...big, signatures: signed.signatures?.slice(0, 1) } as AgentCard;
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256' };
    counts.canonicalized = 0;
    const result = await verifyAgentCard(honest, { jwks: { keys: [jwk] } as never });
    expect(result.signatures[0]).toMatchObject({ valid: true, form: 'pruned', uncovered: ['/securityRequirements'] });
    expect(counts.canonicalized).toBe(1);

    // Signatures over the served form, all under the kid of keys that did not make them.
    const forged = { ...big, signatures: Array.from({ length: 20 }, () => signed.signatures?.at(-1)) } as AgentCard;
    counts.canonicalized = 0;
    counts.checks = 0;
    counts.joseBytes = 0;
    const attack = await verifyAgentCard(forged, { jwks: { keys: strangers(10) } as never });
    expect(attack.valid).toBe(false);
    expect(attack.signatures[0]?.reason).toMatch(/does not match the card/);
    expect(attack.limits).toHaveLength(3);
    expect(counts.checks).toBe(8);
    // The served form, and the model reading for the diagnoses; the pruned form is never needed.
    expect(counts.canonicalized).toBe(2);
    // No check that fails copies the card again.
    expect(counts.joseBytes).toBeLessThan(8 * 1024);
  });

  it("gives jose's own reason for a header it refuses, on a large card as on a small one", async () => {
    const big = largeCard();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256' };
    const reasons: (string | undefined)[] = [];
    for (const subject of [card, big]) {
      const signed = await signAgentCard(subject, { privateKey, kid, alg: 'ES256' });
      const entry = signed.signatures?.[0] as { protected: string; signature: string };
      // A critical extension nobody knows: RFC 7515 §4.1.11 says the signature must be refused.
      const header = JSON.parse(Buffer.from(entry.protected, 'base64url').toString());
      const forged = {
        ...entry,
        protected: Buffer.from(JSON.stringify({ ...header, crit: ['x-unknown'], 'x-unknown': 1 })).toString(
          'base64url',
        ),
      };
      const result = await verifyAgentCard({ ...subject, signatures: [forged] } as AgentCard, {
        jwks: { keys: [jwk] } as never,
      });
      expect(result.valid).toBe(false);
      reasons.push(result.signatures[0]?.reason);
    }
    expect(reasons[0]).toMatch(/x-unknown/);
    expect(reasons[1]).toBe(reasons[0]);
  });

  it('makes one public-key check, not two, for a signature that does not match a large card', async () => {
    const big = largeCard();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(big, { privateKey, kid, alg: 'ES256' });
    const forged = { ...big, signatures: Array.from({ length: 20 }, () => signed.signatures?.at(-1)) } as AgentCard;
    // What jose hands WebCrypto: after node:crypto's check has failed, no signature to check again.
    const subtle = vi.spyOn(globalThis.crypto.subtle, 'verify');
    try {
      const attack = await verifyAgentCard(forged, { jwks: { keys: strangers(10) } as never });
      expect(attack.signatures[0]?.reason).toMatch(/does not match the card/);
      const checkedAgain = subtle.mock.calls.filter(([, , signature]) => (signature as ArrayBufferView).byteLength > 0);
      expect(checkedAgain).toHaveLength(0);
    } finally {
      subtle.mockRestore();
    }
  });
});

describe('verifyAgentCard: a key chosen to be slow', () => {
  it('refuses an RSA key whose public exponent is as long as its modulus', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
    const signed = await signAgentCard(card, { privateKey, kid, alg: 'RS256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const e = Buffer.alloc(383, 0xff);
    e[0] = 0x7f;
    const result = await verifyAgentCard(signed, { jwks: { keys: [{ ...jwk, e: e.toString('base64url'), kid }] } });
    expect(result.valid).toBe(false);
    expect(result.signatures[0]?.reason).toMatch(/public exponent is larger than 2\^31 - 1/);
  });
});
