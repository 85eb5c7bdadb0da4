// Interoperability of Agent Card signatures with the official JS SDK (@a2a-js/sdk 1.3.0): what
// we sign, its verifier accepts; what it signs, ours accepts; and both refuse a changed card.
import { type KeyObject, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  canonicalizeAgentCard as sdkCanonicalize,
  generateAgentCardSignature,
  verifyAgentCardSignature,
} from '@a2a-js/sdk';
import {
  type AgentCard,
  type AgentCardSigningAlgorithm,
  canonicalizeAgentCard,
  signAgentCard,
  verifyAgentCard,
} from '@agent-card/core';
import jcs from 'canonicalize';
import { base64url, flattenedVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';

const example = (name: string): AgentCard =>
  JSON.parse(readFileSync(new URL(`./fixtures/spec/examples/${name}`, import.meta.url), 'utf8'));
const withoutSignatures = ({ signatures: _, ...card }: AgentCard): AgentCard => card as AgentCard;

const cards: Record<string, AgentCard> = {
  'the spec §8.5 sample': withoutSignatures(example('spec-8.5-sample-agent-card.main-16ba5269.json')),
  // Still carries the legacy `security` field: covered by our forms, dropped by the SDK's model.
  'the v1.0.1 sample with a legacy field': withoutSignatures(example('spec-8.5-sample-agent-card.v1.0.1.json')),
  // Empty REQUIRED values, which both sides drop from the payload.
  'the §8.4.1 fragment with empties': example('spec-8.4.1-canonicalization-input.json'),
  'a card with unicode, false, 0 and empties': {
    name: 'Café ☕ Agent \u{1F916}',
    description: 'Réservations — 予約',
    supportedInterfaces: [
      { url: 'https://café.example.com/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ],
    version: '2.0.0',
    capabilities: {
      streaming: false,
      pushNotifications: true,
      extensions: [{ uri: 'urn:x', required: false, params: { limit: 0, strict: false, empty: '', list: [] } }],
    },
    securitySchemes: { mtls: { mtlsSecurityScheme: {} }, bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [{ id: 'book', name: 'Book', description: 'Books a table.', tags: ['booking'], examples: [] }],
  },
};

const pairs: Record<
  'ES256' | 'RS256' | 'EdDSA' | 'Ed25519' | 'PS256',
  { privateKey: KeyObject; publicKey: KeyObject }
> = {
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  RS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  PS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  EdDSA: generateKeyPairSync('ed25519'),
  Ed25519: generateKeyPairSync('ed25519'),
};
const algorithms = Object.keys(pairs) as (keyof typeof pairs & AgentCardSigningAlgorithm)[];

/** The SDK's verifier throws when no signature verifies; this turns that into a boolean. */
async function sdkAccepts(card: AgentCard, publicKey: KeyObject, kid: string): Promise<boolean> {
  const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
  try {
    await verifyAgentCardSignature(async (requested) => {
      if (requested !== kid) throw new Error(`unknown kid ${requested}`);
      return publicKey;
    })(card as never);
    return true;
  } catch {
    return false;
  } finally {
    debug.mockRestore();
  }
}

const LEGACY = 'the v1.0.1 sample with a legacy field';
const v1Cards = Object.entries(cards).filter(([name]) => name !== LEGACY);

describe('canonical bytes', () => {
  it.each(v1Cards)('the pruned form equals the SDK for %s', (_, card) => {
    expect(canonicalizeAgentCard(card)).toBe(sdkCanonicalize(card as never));
  });

  it('a member outside v1.0 stays in our forms, while the SDK drops it', () => {
    const card = cards[LEGACY]!;
    expect(canonicalizeAgentCard(card)).toContain('"security":');
    expect(canonicalizeAgentCard(card, { form: 'served-as-is' })).toContain('"security":');
    expect(sdkCanonicalize(card as never)).not.toContain('"security":');
  });
});

describe.each(algorithms)('%s', (alg) => {
  const { privateKey, publicKey } = pairs[alg];

  it.each(v1Cards)('our signature over %s verifies with @a2a-js/sdk', async (_, card) => {
    const signed = await signAgentCard(card, { privateKey, kid: 'ours', alg });
    expect(await sdkAccepts(signed, publicKey, 'ours')).toBe(true);
    expect(await sdkAccepts({ ...signed, name: `${signed.name}!` }, publicKey, 'ours')).toBe(false);
  });

  it.each(v1Cards)('an @a2a-js/sdk signature over %s verifies with ours', async (_, card) => {
    const signed = (await generateAgentCardSignature(privateKey, { alg, typ: 'JOSE', kid: 'theirs' })(
      card as never,
    )) as unknown as AgentCard;
    const result = await verifyAgentCard(signed, { keys: { theirs: publicKey } });
    // Over a card with default-valued members, the result also names those the pruned form leaves out.
    const { uncovered, ...check } = result.signatures[0] ?? { index: -1, valid: false };
    expect({ ...result, signatures: [check] }).toEqual({
      valid: true,
      signatures: [{ index: 0, kid: 'theirs', alg, valid: true, key: 'keys["theirs"]', form: 'pruned' }],
    });
    const formsDiffer = canonicalizeAgentCard(card) !== canonicalizeAgentCard(card, { form: 'served-as-is' });
    expect(uncovered).toEqual(formsDiffer ? expect.arrayContaining([expect.stringMatching(/^\//)]) : undefined);
    const tampered = await verifyAgentCard(
      { ...signed, version: `${signed.version}.1` },
      { keys: { theirs: publicKey } },
    );
    expect(tampered.valid).toBe(false);
    expect(tampered.signatures[0]!.reason).toMatch(/signature does not match the card/);
  });

  it('an @a2a-js/sdk signature over a card with a member outside v1.0 is refused, naming the member', async () => {
    const signed = (await generateAgentCardSignature(privateKey, { alg, typ: 'JOSE', kid: 'theirs' })(
      cards[LEGACY] as never,
    )) as unknown as AgentCard;
    const result = await verifyAgentCard(signed, { keys: { theirs: publicKey } });
    expect(result.valid).toBe(false);
    expect(result.signatures[0]?.uncovered).toEqual(['/security']);
    // Ours covers the member, so the SDK, which reads the card without it, cannot verify ours.
    const ours = await signAgentCard(cards[LEGACY]!, { privateKey, kid: 'ours', alg });
    expect(await sdkAccepts(ours, publicKey, 'ours')).toBe(false);
    expect((await verifyAgentCard(ours, { keys: { ours: publicKey } })).valid).toBe(true);
  });

  it('our second signature verifies over RFC 8785 of the raw JSON, computed independently (the served-as-is reading)', async () => {
    const card = cards['a card with unicode, false, 0 and empties']!;
    const signed = await signAgentCard(card, { privateKey, kid: 'ours', alg });
    expect(signed.signatures).toHaveLength(2);
    const served = JSON.parse(JSON.stringify(signed));
    delete served.signatures;
    const payload = base64url.encode(new TextEncoder().encode(jcs(served) as string));
    const [pruned, asIs] = signed.signatures!;
    await expect(flattenedVerify({ payload, ...asIs! }, publicKey)).resolves.toBeDefined();
    await expect(flattenedVerify({ payload, ...pruned! }, publicKey)).rejects.toThrow();
    // And the SDK, which reads the pruned form, accepts the same card.
    expect(await sdkAccepts(signed, publicKey, 'ours')).toBe(true);
  });

  it('the SDK verifier accepts our signature when the key is given as a JWK, and ours accepts its JWK-keyed one', async () => {
    const card = cards['the spec §8.5 sample']!;
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k' };
    const ours = await signAgentCard(card, { privateKey: privateKey.export({ format: 'jwk' }), kid: 'k', alg });
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    await expect(verifyAgentCardSignature(async () => jwk)(ours as never)).resolves.toBeUndefined();
    debug.mockRestore();
    const theirs = (await generateAgentCardSignature(privateKey.export({ format: 'jwk' }), {
      alg,
      typ: 'JOSE',
      kid: 'k',
    })(card as never)) as unknown as AgentCard;
    expect((await verifyAgentCard(theirs, { jwks: { keys: [jwk] } })).valid).toBe(true);
  });
});

describe('mixed signatures', () => {
  it('a card signed by the SDK and then by us carries both, and each side verifies both', async () => {
    const card = cards['the spec §8.5 sample']!;
    const sdkSigned = (await generateAgentCardSignature(pairs.ES256.privateKey, {
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'sdk',
    })(card as never)) as unknown as AgentCard;
    const both = await signAgentCard(sdkSigned, { privateKey: pairs.EdDSA.privateKey, kid: 'ours', alg: 'EdDSA' });
    const result = await verifyAgentCard(both, { keys: { sdk: pairs.ES256.publicKey, ours: pairs.EdDSA.publicKey } });
    expect(result.signatures.map((s) => [s.kid, s.valid])).toEqual([
      ['sdk', true],
      ['ours', true],
    ]);
    expect(await sdkAccepts(both, pairs.EdDSA.publicKey, 'ours')).toBe(true);
    expect(await sdkAccepts(both, pairs.ES256.publicKey, 'sdk')).toBe(true);
  });

  it('neither side accepts a signature whose protected header lacks typ', async () => {
    const card = cards['the spec §8.5 sample']!;
    const signed = (await generateAgentCardSignature(pairs.ES256.privateKey, { alg: 'ES256', kid: 'k' })(
      card as never,
    )) as unknown as AgentCard;
    expect(await sdkAccepts(signed, pairs.ES256.publicKey, 'k')).toBe(false);
    const result = await verifyAgentCard(signed, { keys: { k: pairs.ES256.publicKey } });
    expect(result.signatures[0]!.reason).toBe('the protected header has no "typ" (spec §8.4.2: "JOSE")');
  });
});
