// verifyAiCatalog against what an attacker who can write the catalog (or the card host) tries.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { AgentCardError } from '../errors';
import { encodeBase64url } from './base64url';
import { canonicalizeAiCatalog, sha256Digest, signAiCatalog, verifyAiCatalog } from './catalog-signing';

const owner = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const attacker = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keys = { 'catalog-key': owner.publicKey };

const cardBytes = new TextEncoder().encode('{"name":"Billing","version":"1.0.0"}');
const CARD_URL = 'https://agents.acme.example/agents/billing/.well-known/agent-card.json';
const unsigned = {
  specVersion: '1.0',
  host: { displayName: 'Acme' },
  entries: [
    {
      identifier: 'urn:air:acme.com:agent:billing',
      type: 'application/a2a-agent-card+json',
      url: CARD_URL,
      digest: sha256Digest(cardBytes),
    },
  ],
};
const signed = signAiCatalog(unsigned, { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' });
const given = { artifacts: { [CARD_URL]: cardBytes }, fetchArtifacts: false };

describe('verifyAiCatalog', () => {
  it('accepts the catalog as signed, its digest matching the card bytes', async () => {
    const result = await verifyAiCatalog(JSON.stringify(signed), { keys, ...given });
    expect(result).toEqual({
      valid: true,
      signature: { valid: true, form: 'detached-jws', kid: 'catalog-key', alg: 'ES256', key: 'keys["catalog-key"]' },
      digests: [
        {
          index: 0,
          identifier: unsigned.entries[0]!.identifier,
          url: CARD_URL,
          digest: unsigned.entries[0]!.digest,
          valid: true,
        },
      ],
      manifests: [],
      notes: [
        'signature is a detached JWS string, the form of an earlier AI Catalog draft; the current specification carries a Signature object { signer, profile: "did-web-v1", issuedAt, jws } verified through the signer\'s did:web DID document',
      ],
    });
  });

  it('signs the RFC 8785 form without signature, detached', () => {
    const [header, payload, signature] = signed.signature.split('.');
    expect([header!.length > 0, payload, signature!.length > 0]).toEqual([true, '', true]);
    expect(canonicalizeAiCatalog(signed)).toBe(canonicalizeAiCatalog(unsigned));
  });

  it('refuses a tampered entry (its url pointed elsewhere after signing)', async () => {
    const tampered = structuredClone(signed);
    tampered.entries[0]!.url = 'https://evil.example/card.json';
    const result = await verifyAiCatalog(tampered, { keys, fetchArtifacts: false });
    expect(result.valid).toBe(false);
    expect(result.reason).toBe(
      'the catalog signature did not verify: keys["catalog-key"]: the signature does not match the catalog: it changed after signing, or another key signed it',
    );
  });

  it('refuses an added entry', async () => {
    const tampered = structuredClone(signed);
    tampered.entries.push({ ...tampered.entries[0]!, identifier: 'urn:air:acme.com:agent:evil' });
    expect((await verifyAiCatalog(tampered, { keys, ...given })).signature.valid).toBe(false);
  });

  it('refuses card bytes that differ from the signed digest', async () => {
    const swapped = new TextEncoder().encode('{"name":"Billing","version":"1.0.0","url":"https://evil.example"}');
    const result = await verifyAiCatalog(signed, { keys, artifacts: { [CARD_URL]: swapped }, fetchArtifacts: false });
    expect(result.signature.valid).toBe(true);
    expect(result.valid).toBe(false);
    expect(result.reason).toBe(
      `entries[0] digest did not verify: the bytes do not match the digest (they hash to sha256:${createHash('sha256').update(swapped).digest('hex')})`,
    );
  });

  it('never trusts a key by its jku alone: a catalog re-signed by the attacker, jku to their key set', async () => {
    const forged = signAiCatalog(
      { ...unsigned, entries: [{ ...unsigned.entries[0]!, url: 'https://evil.example/card.json' }] },
      { privateKey: attacker.privateKey, alg: 'ES256', kid: 'attacker', jku: 'https://evil.example/jwks.json' },
    );
    const fetch = vi.fn(async () => new Response('{"keys":[]}'));
    const result = await verifyAiCatalog(forged, { jwks: { keys: [] }, keys, fetch, fetchArtifacts: false });
    expect(fetch).not.toHaveBeenCalled();
    expect(result.valid).toBe(false);
    expect(result.signature).toMatchObject({ valid: false, kid: 'attacker', jku: 'https://evil.example/jwks.json' });
    expect(result.signature.reason).toMatch(/^unknown kid "attacker": no trusted key has this kid/);
  });

  it('refuses the attacker key under the owner kid', async () => {
    const forged = signAiCatalog(unsigned, { privateKey: attacker.privateKey, alg: 'ES256', kid: 'catalog-key' });
    expect((await verifyAiCatalog(forged, { keys, ...given })).signature.reason).toContain(
      'does not match the catalog',
    );
  });

  it.each([
    ['none', { alg: 'none', kid: 'catalog-key' }],
    ['HS256', { alg: 'HS256', kid: 'catalog-key' }],
    ['ES512 (outside the draft list)', { alg: 'ES512', kid: 'catalog-key' }],
  ])('refuses alg %s', async (_name, header) => {
    const jws = `${encodeBase64url(JSON.stringify(header))}..${encodeBase64url('x')}`;
    const result = await verifyAiCatalog({ ...unsigned, signature: jws }, { keys, fetchArtifacts: false });
    expect(result.signature.reason).toMatch(/^alg "[A-Z0-9a-z]+" is not allowed for a catalog signature/);
  });

  it('refuses an oversized catalog before parsing it', async () => {
    const huge = `{"specVersion":"1.0","entries":[],"x":"${'a'.repeat(4 * 1024 * 1024)}"}`;
    const started = performance.now();
    const result = await verifyAiCatalog(huge, { keys });
    expect(result.reason).toBe(`the catalog is larger than 4194304 bytes (${huge.length})`);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('stops reading an oversized artifact at maxArtifactBytes, and follows no redirect', async () => {
    const big = new Uint8Array(2 * 1024 * 1024);
    const fetch = vi.fn(async (url: URL | string | Request) =>
      String(url).includes('redirect')
        ? new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } })
        : new Response(big),
    );
    const catalog = signAiCatalog(
      {
        ...unsigned,
        entries: [
          unsigned.entries[0]!,
          { ...unsigned.entries[0]!, identifier: 'urn:air:acme.com:agent:r', url: 'https://acme.example/redirect' },
        ],
      },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const result = await verifyAiCatalog(catalog, { keys, fetch });
    expect(result.digests.map((d) => d.reason)).toEqual([
      `${CARD_URL} is larger than 1048576 bytes`,
      'https://acme.example/redirect answered HTTP 302 (a redirect, not followed)',
    ]);
    expect(result.valid).toBe(false);
  });

  it('fetches only https artifact URLs', async () => {
    const fetch = vi.fn();
    const catalog = signAiCatalog(
      { ...unsigned, entries: [{ ...unsigned.entries[0]!, url: 'http://10.0.0.1/card.json' }] },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const result = await verifyAiCatalog(catalog, { keys, fetch });
    expect(fetch).not.toHaveBeenCalled();
    expect(result.digests[0]?.reason).toBe('url is not https ("http://10.0.0.1/card.json"); it was not fetched');
  });

  it('throws for options verifyAgentCard refuses, naming itself', async () => {
    await expect(verifyAiCatalog(signed, {} as never)).rejects.toThrow(
      new AgentCardError(
        'ERR_AGENT_CARD_SIGNATURE',
        'verifyAiCatalog: no trusted key source. Pass keys (by kid), jwks, jwksUrl, or allowJkuHosts.',
      ),
    );
  });
});
