// The AI Catalog's Signature object under did-web-v1, both ways: a catalog this package signs
// verifies under a verifier written here from the specification text alone (jose and the
// `canonicalize` package, nothing of this package's signer or verifier), and every forgery the
// specification names fails under both verifiers. The specification's examples and a proposed
// conformance case (fixtures/ai-catalog/README.md) are checked too.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { CompactSign, compactVerify, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { validateAiCatalog } from '../catalog';
import {
  DidWebResolver,
  TRUST_MANIFEST_JWS_TYP,
  coverageProblem,
  didWebDocumentUrl,
  verifyDidWebSignature,
} from './catalog-did-web';
import { aiCatalogDidDocument, prepareAiCatalogDidWebSigner, sha256Digest, verifyAiCatalog } from './catalog-signing';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/ai-catalog/${name}`, import.meta.url), 'utf8'));

// ---------------------------------------------------------------------------------------------
// A verifier from the specification text (§"Signature Object", §"Signed Payload and JWS
// Construction", §"The did:web Signer Profile", §"The did:web Catalog Profile", §"Entry Release
// Coverage", §"Verifying Artifact Integrity").
type Doc = Record<string, any>;
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');

async function specSignature(container: Doc, typ: string, dids: Record<string, Doc>, now: number): Promise<string> {
  const sig = container.signature;
  if (typeof sig !== 'object' || sig === null) return 'signature-not-object';
  for (const m of ['signer', 'profile', 'issuedAt', 'jws']) if (typeof sig[m] !== 'string') return `missing-${m}`;
  if (sig.profile !== 'did-web-v1') return 'unsupported-profile';
  if (!/^did:web:[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(sig.signer)) return 'signer-not-root-did-web';
  const issued = Date.parse(sig.issuedAt);
  if (now < issued) return 'not-yet-valid';
  if (sig.expiresAt !== undefined && now >= Date.parse(sig.expiresAt)) return 'expired';
  const [h, p, s] = sig.jws.split('.');
  if (p !== '' || !h || !s) return 'not-detached';
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  if (header.alg !== 'ES256') return 'alg-not-es256';
  if (header.typ !== typ) return 'typ-mismatch';
  if ('b64' in header) return 'b64-present';
  for (const name of ['jku', 'jwk', 'x5u', 'x5c']) if (name in header) return 'key-source-header';
  const kid = header.kid;
  if (typeof kid !== 'string' || !kid.startsWith(`${sig.signer}#`) || kid.length === sig.signer.length + 1)
    return 'kid-not-under-signer';
  const doc = dids[sig.signer];
  if (doc === undefined || doc.id !== sig.signer) return 'did-resolution-failed';
  const abs = (id: string) => (id.startsWith('#') ? sig.signer + id : id);
  const methods = (doc.assertionMethod ?? []).map((a: unknown) =>
    typeof a === 'string' ? (doc.verificationMethod ?? []).find((vm: Doc) => abs(vm.id) === abs(a)) : a,
  );
  const selected = methods.filter((vm: Doc | undefined) => vm !== undefined && abs(vm.id) === kid);
  if (selected.length !== 1) return 'key-not-in-assertionMethod';
  const vm = selected[0];
  if (vm.controller !== sig.signer) return 'controller-mismatch';
  const jwk = vm.publicKeyJwk;
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) return 'jwk-not-p256';
  const { jws: _jws, ...meta } = sig;
  const { additionalSignatures: _a, ...payload } = { ...container, signature: meta } as Doc;
  const text = canonicalize(payload)!;
  try {
    await compactVerify(`${h}.${b64(text)}.${s}`, await importJWK(jwk as JWK, 'ES256'), { algorithms: ['ES256'] });
  } catch {
    return 'signature-invalid';
  }
  return 'ok';
}

async function specCatalog(
  catalog: Doc,
  dids: Record<string, Doc>,
  bytes: Record<string, Uint8Array | string>,
  now: number,
): Promise<string> {
  const root = await specSignature(catalog, 'ai-catalog+jws', dids, now);
  if (root !== 'ok') return `catalog: ${root}`;
  if (catalog.host?.identifier !== catalog.signature.signer) return 'catalog: host-not-signer';
  for (const [i, entry] of catalog.entries.entries()) {
    if (entry.digest !== undefined) {
      const [alg, hex] = entry.digest.split(':');
      const content = 'data' in entry ? canonicalize(entry.data)! : bytes[entry.url];
      if (content === undefined || createHash(alg).update(content).digest('hex') !== hex)
        return `entries[${i}]: digest`;
    }
    for (const [j, m] of (entry.trustManifests ?? []).entries()) {
      if (m.signature === undefined) continue;
      const r = await specSignature(m, 'ai-catalog-trust-manifest+jws', dids, now);
      if (r !== 'ok') return `entries[${i}].trustManifests[${j}]: ${r}`;
      if (m.signature.signer !== m.contributor) return `entries[${i}].trustManifests[${j}]: contributor`;
      const sub = m.subject ?? {};
      const same = (k: string) => k in sub === k in entry && sub[k] === entry[k];
      if (sub.identifier !== entry.identifier || sub.type !== entry.type || !same('version') || !same('digest'))
        return `entries[${i}].trustManifests[${j}]: coverage`;
      if ('url' in sub && sub.url !== entry.url) return `entries[${i}].trustManifests[${j}]: url`;
    }
  }
  return 'ok';
}
// ---------------------------------------------------------------------------------------------

const SIGNER = 'did:web:agents.example.com';
const NOW = Date.parse('2026-12-06T12:00:00Z');
const owner = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const cards: Record<string, string> = {
  'https://agents.example.com/agents/billing/.well-known/agent-card.json': '{"name":"Billing","version":"1.0.0"}',
  'https://agents.example.com/agents/travel/.well-known/agent-card.json': '{"name":"Travel","version":"2.0.0"}',
};
const signer = prepareAiCatalogDidWebSigner(
  { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-1' },
  { signer: SIGNER, issuedAt: '2026-12-01T00:00:00Z', expiresAt: '2027-12-01T00:00:00Z' },
);
const didDocument = aiCatalogDidDocument([signer]);

function build() {
  const entries = Object.entries(cards).map(([url, text], i) => ({
    identifier: `urn:air:agents.example.com:agent:${i === 0 ? 'billing' : 'travel'}`,
    type: 'application/a2a-agent-card+json',
    url,
    digest: sha256Digest(text),
  }));
  const withManifest = entries.map((entry, i) =>
    i === 0
      ? {
          ...entry,
          trustManifests: [
            signer.signManifest(entry, {
              provenance: [{ relation: 'publishedFrom', sourceId: 'https://github.com/acme/billing' }],
            }),
          ],
        }
      : entry,
  );
  return signer.sign({ specVersion: '1.0', host: { displayName: 'Acme agents' }, entries: withManifest });
}

/** Our verifier, the DID document served at the URL did:web names. */
async function ours(catalog: unknown, doc: unknown = didDocument, bytes: Record<string, Uint8Array | string> = cards) {
  const served = new Map([['https://agents.example.com/.well-known/did.json', JSON.stringify(doc)]]);
  const fetch = async (url: URL | string | Request) => {
    const body = served.get(String(url));
    return body === undefined ? new Response('not found', { status: 404 }) : new Response(body);
  };
  return verifyAiCatalog(catalog, { fetch, artifacts: bytes, fetchArtifacts: false, now: new Date(NOW) });
}

/** The root signature made again over the catalog as it is, with the header and key given. */
async function resign(catalog: Doc, header: Record<string, unknown>, key: KeyObject) {
  const { jws: _jws, ...meta } = catalog.signature;
  const text = canonicalize({ ...catalog, signature: meta })!;
  const compact = await new CompactSign(new TextEncoder().encode(text)).setProtectedHeader(header as never).sign(key);
  const [h, , s] = compact.split('.');
  return { ...catalog, signature: { ...meta, jws: `${h}..${s}` } };
}

describe('a catalog signed with did-web-v1', () => {
  it('verifies under the verifier written from the specification, and under ours', async () => {
    const catalog = build();
    expect(catalog.signature).toMatchObject({
      signer: SIGNER,
      profile: 'did-web-v1',
      issuedAt: '2026-12-01T00:00:00Z',
    });
    expect(catalog.host).toEqual({ displayName: 'Acme agents', identifier: SIGNER });
    const header = JSON.parse(Buffer.from(catalog.signature.jws.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', kid: `${SIGNER}#catalog-1`, typ: 'ai-catalog+jws' });
    expect(await specCatalog(catalog, { [SIGNER]: didDocument }, cards, NOW)).toBe('ok');
    const result = await ours(catalog);
    expect(result).toMatchObject({
      valid: true,
      signature: { valid: true, form: 'signature-object', signer: SIGNER, kid: `${SIGNER}#catalog-1` },
      manifests: [{ entry: 0, index: 0, valid: true, publisher: true, signer: SIGNER }],
      digests: [{ valid: true }, { valid: true }],
    });
    expect(result.notes).toBeUndefined();
    expect(validateAiCatalog(catalog).findings).toEqual([]);
  });

  it('publishes its key in a DID document under assertionMethod only', () => {
    expect(didDocument).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: SIGNER,
      verificationMethod: [
        {
          id: `${SIGNER}#catalog-1`,
          type: 'JsonWebKey2020',
          controller: SIGNER,
          publicKeyJwk: { ...owner.publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' },
        },
      ],
      assertionMethod: [`${SIGNER}#catalog-1`],
    });
  });

  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const forgeries: [string, () => Promise<[Doc, Doc]>, RegExp, string][] = [
    [
      'a tampered entry',
      async () => {
        const c = structuredClone(build()) as Doc;
        c.entries[1].url = 'https://evil.example/card.json';
        return [c, didDocument];
      },
      /the signature does not match/,
      'catalog: signature-invalid',
    ],
    [
      'a replaced digest (with the bytes it names)',
      async () => {
        const c = structuredClone(build()) as Doc;
        c.entries[1].digest = sha256Digest('{"name":"Travel","url":"https://evil.example"}');
        return [c, didDocument];
      },
      /the signature does not match/,
      'catalog: signature-invalid',
    ],
    [
      "a kid outside the signer's DID",
      async () => [
        await resign(
          build(),
          { alg: 'ES256', kid: 'did:web:evil.example#catalog-1', typ: 'ai-catalog+jws' },
          owner.privateKey,
        ),
        didDocument,
      ],
      /^kid "did:web:evil\.example#catalog-1" is not did:web:agents\.example\.com#<fragment>$/,
      'catalog: kid-not-under-signer',
    ],
    [
      'a key removed from the DID document',
      async () => [build(), { ...didDocument, verificationMethod: [], assertionMethod: [] }],
      /is not a key of the DID document's assertionMethod/,
      'catalog: key-not-in-assertionMethod',
    ],
    [
      'a key moved from assertionMethod to authentication',
      async () => [build(), { ...didDocument, assertionMethod: [], authentication: didDocument.assertionMethod }],
      /is not a key of the DID document's assertionMethod/,
      'catalog: key-not-in-assertionMethod',
    ],
    [
      'jku in the protected header',
      async () => [
        await resign(
          build(),
          { alg: 'ES256', kid: `${SIGNER}#catalog-1`, typ: 'ai-catalog+jws', jku: 'https://evil.example/jwks.json' },
          owner.privateKey,
        ),
        didDocument,
      ],
      /names a key source \(jku\)/,
      'catalog: key-source-header',
    ],
    [
      'an algorithm other than ES256 (ES384, its key in the DID document)',
      async () => {
        const jwk = { ...p384.publicKey.export({ format: 'jwk' }), alg: 'ES384', use: 'sig' };
        const doc = {
          ...didDocument,
          verificationMethod: [{ id: `${SIGNER}#p384`, type: 'JsonWebKey2020', controller: SIGNER, publicKeyJwk: jwk }],
          assertionMethod: [`${SIGNER}#p384`],
        };
        return [
          await resign(build(), { alg: 'ES384', kid: `${SIGNER}#p384`, typ: 'ai-catalog+jws' }, p384.privateKey),
          doc,
        ];
      },
      /^alg "ES384" is not allowed: the did-web-v1 profile accepts ES256 only$/,
      'catalog: alg-not-es256',
    ],
    [
      'a catalog signature reused as a Trust Manifest typ',
      async () => [
        await resign(
          build(),
          { alg: 'ES256', kid: `${SIGNER}#catalog-1`, typ: TRUST_MANIFEST_JWS_TYP },
          owner.privateKey,
        ),
        didDocument,
      ],
      /the protected typ is "ai-catalog-trust-manifest\+jws"/,
      'catalog: typ-mismatch',
    ],
  ];

  it.each(forgeries)('refuses %s under both verifiers', async (_name, make, ourReason, specReason) => {
    const [catalog, doc] = await make();
    expect(await specCatalog(catalog, { [SIGNER]: doc }, cards, NOW)).toBe(specReason);
    const result = await ours(catalog, doc);
    expect(result.valid).toBe(false);
    expect(result.signature.valid).toBe(false);
    expect(result.signature.reason).toMatch(ourReason);
    expect(result.digests).toEqual([]);
  });

  it('refuses an edited Trust Manifest subject under both verifiers, the root signature made again over it', async () => {
    const c = structuredClone(build()) as Doc;
    c.entries[0].trustManifests[0].subject.digest = c.entries[1].digest;
    const forged = await resign(
      c,
      { alg: 'ES256', kid: `${SIGNER}#catalog-1`, typ: 'ai-catalog+jws' },
      owner.privateKey,
    );
    expect(await specCatalog(forged, { [SIGNER]: didDocument }, cards, NOW)).toBe(
      'entries[0].trustManifests[0]: signature-invalid',
    );
    const result = await ours(forged);
    expect(result.signature.valid).toBe(true);
    expect(result.manifests[0]).toMatchObject({ valid: false, reason: expect.stringMatching(/does not match/) });
    expect(result.valid).toBe(false);
  });

  it('refuses card bytes that differ from the signed digest under both verifiers', async () => {
    const swapped = { ...cards, [Object.keys(cards)[1]!]: '{"name":"Travel","url":"https://evil.example"}' };
    expect(await specCatalog(build(), { [SIGNER]: didDocument }, swapped, NOW)).toBe('entries[1]: digest');
    const result = await ours(build(), didDocument, swapped);
    expect(result.valid).toBe(false);
    expect(result.reason).toMatch(/^entries\[1\] digest did not verify: the bytes do not match the digest/);
  });

  it('refuses a host.identifier other than the signer (did:web catalog profile)', async () => {
    const c = structuredClone(build()) as Doc;
    c.host.identifier = 'did:web:other.example';
    const forged = await resign(
      c,
      { alg: 'ES256', kid: `${SIGNER}#catalog-1`, typ: 'ai-catalog+jws' },
      owner.privateKey,
    );
    expect(await specCatalog(forged, { [SIGNER]: didDocument }, cards, NOW)).toBe('catalog: host-not-signer');
    expect((await ours(forged)).signature.reason).toMatch(
      /^host\.identifier \("did:web:other\.example"\) is not the signer/,
    );
  });

  it('refuses a kid whose fragment is not a URI fragment, without echoing its control characters', async () => {
    const forged = await resign(
      build(),
      { alg: 'ES256', kid: `${SIGNER}#key\u001b[2J`, typ: 'ai-catalog+jws' },
      owner.privateKey,
    );
    const result = await ours(forged);
    expect(result.signature.reason).toBe(
      'kid "did:web:agents.example.com#key\\u001b[2J" is not did:web:agents.example.com#<fragment>',
    );
  });

  it('refuses an expired signature', async () => {
    const result = await verifyAiCatalog(build(), {
      didDocuments: { [SIGNER]: didDocument },
      now: new Date('2028-01-01T00:00:00Z'),
    });
    expect(result.signature.reason).toBe('the signature expired at 2027-12-01T00:00:00Z');
  });

  it('resolves did:web to the document URL the method defines', () => {
    expect(didWebDocumentUrl('did:web:agents.example.com')).toBe('https://agents.example.com/.well-known/did.json');
    expect(didWebDocumentUrl('did:web:example.com:user:alice')).toBe('https://example.com/user/alice/did.json');
    expect(didWebDocumentUrl('did:web:localhost%3A8443')).toBe('https://localhost:8443/.well-known/did.json');
    expect(didWebDocumentUrl('did:web:example.com:..:x')).toBeUndefined();
  });

  it('refuses to resolve a signer whose document is on a private address', async () => {
    const c = structuredClone(build()) as Doc;
    c.signature.signer = 'did:web:127.0.0.1';
    const result = await verifyAiCatalog(c, { now: new Date(NOW) });
    expect(result.signature.reason).toBe(
      'signer "did:web:127.0.0.1" names an IP address, which did:web does not allow',
    );
  });
});

describe('the specification text', () => {
  it('its examples are valid catalogs; their placeholder signature does not verify', async () => {
    const multi = fixture('spec-multi-artifact.json');
    expect(validateAiCatalog(multi).findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(validateAiCatalog(fixture('spec-independent-contributions.json')).findings).toEqual([]);
    const manifest = multi.entries[2].trustManifests[0];
    expect(coverageProblem(multi.entries[2], manifest)).toBeUndefined();
    const resolver = new DidWebResolver(
      { fetch: globalThis.fetch, deadline: 0, allowPrivateTargets: false, allowInsecureLoopback: false },
      { 'did:web:acme.com': { id: 'did:web:acme.com', assertionMethod: [] } },
    );
    const checked = await verifyDidWebSignature(manifest, TRUST_MANIFEST_JWS_TYP, {
      resolver,
      now: Date.parse('2026-04-01T00:00:00Z'),
      skewMs: 0,
    });
    expect(checked).toMatchObject({ valid: false, kid: 'did:web:acme.com#release-signing-key' });
  });

  it('a conformance case with real signatures verifies under both verifiers', async () => {
    const { catalog, didDocuments, verifyAt, resources } = fixture('trust-manifest-positive-control.json');
    const now = Date.parse(verifyAt);
    const resolver = new DidWebResolver(
      { fetch: globalThis.fetch, deadline: 0, allowPrivateTargets: false, allowInsecureLoopback: false },
      didDocuments,
    );
    const outcomes: string[] = [];
    for (const entry of catalog.entries)
      for (const manifest of entry.trustManifests) {
        const checked = await verifyDidWebSignature(manifest, TRUST_MANIFEST_JWS_TYP, { resolver, now, skewMs: 0 });
        const spec = await specSignature(manifest, TRUST_MANIFEST_JWS_TYP, didDocuments, now);
        outcomes.push(`${checked.valid && coverageProblem(entry, manifest) === undefined}/${spec}`);
      }
    expect(outcomes).toEqual(['true/ok', 'true/ok', 'true/ok']);
    expect(sha256Digest(canonicalize(catalog.entries[0].data)!)).toBe(catalog.entries[0].digest);
    expect(sha256Digest(resources['https://publisher.example/finance.json'])).toBe(catalog.entries[1].digest);
    // One byte of a signed manifest changed: neither verifier accepts it.
    const edited = structuredClone(catalog.entries[1].trustManifests[0]);
    edited.provenance[0].sourceId = 'https://github.com/evil/demo';
    expect((await verifyDidWebSignature(edited, TRUST_MANIFEST_JWS_TYP, { resolver, now, skewMs: 0 })).valid).toBe(
      false,
    );
    expect(await specSignature(edited, TRUST_MANIFEST_JWS_TYP, didDocuments, now)).toBe('signature-invalid');
  });
});
