import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAiCatalog } from './validate';

const dir = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');
const errors = (text: string) =>
  validateAiCatalog(text)
    .findings.filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.path}`);

describe('validateAiCatalog, current draft (0379c868)', () => {
  it.each(readdirSync(dir).filter((f) => f.startsWith('valid-')))('accepts the draft example %s', (name) => {
    const result = validateAiCatalog(fixture(name));
    expect(result.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect([result.valid, result.draft]).toEqual([true, '0379c868']);
  });

  it.each<[string, string[]]>([
    ['invalid-entry-without-type.json', ['catalog-required-fields /entries/1/type']],
    // The draft's own Extensions example lists an entry with neither url nor data.
    ['draft-extensions-without-content.json', ['catalog-entry-content /entries/0']],
    ['invalid-repeated-identifier-and-version.json', ['catalog-identifier-unique /entries/1/identifier']],
    ['invalid-extension-key.json', ['catalog-extension-key /entries/0/extensions/location']],
    ['invalid-trust-identity-domain.json', ['catalog-trust-identity /entries/0/trustManifest/identity']],
    ['invalid-digest-algorithm.json', ['catalog-digest-format /entries/2/digest']],
  ])('refuses %s', (name, expected) => {
    expect(errors(fixture(name))).toEqual(expected);
  });

  it('tells the old spelling of a member in a current-draft catalog by its new name', () => {
    const [finding] = validateAiCatalog(fixture('invalid-entry-without-type.json')).findings.filter(
      (f) => f.rule === 'catalog-unknown-field',
    );
    expect(finding).toMatchObject({
      path: '/entries/1/mediaType',
      hint: 'Rename mediaType to type: that is its name in the draft this catalog follows (0379c868).',
    });
  });

  it('says when an entry restates what the A2A card carries', () => {
    const found = validateAiCatalog(fixture('valid-hierarchical.json')).findings.find(
      (f) => f.rule === 'catalog-entry-restates-artifact',
    );
    expect(found).toMatchObject({ severity: 'info', path: '/entries/0/description' });
  });

  it('refuses a catalog signature that is not a detached compact JWS', () => {
    const doc = { ...JSON.parse(fixture('valid-minimal.json')), signature: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' };
    expect(errors(JSON.stringify(doc))).toEqual(['catalog-signature-format /signature']);
  });
});

describe('validateAiCatalog and the trust model of the current specification (be6803f6)', () => {
  const minimal = () => JSON.parse(fixture('valid-minimal.json'));
  const entry = {
    identifier: 'urn:air:acme.com:agent:finance',
    type: 'application/a2a-agent-card+json',
    url: 'https://acme.com/finance.json',
    digest: `sha256:${'a'.repeat(64)}`,
  };
  const signature = {
    signer: 'did:web:acme.com',
    profile: 'did-web-v1',
    issuedAt: '2026-09-12T10:00:00Z',
    jws: 'eyJ9..c2ln',
  };
  const rules = (doc: unknown) => validateAiCatalog(doc).findings.map((f) => `${f.severity} ${f.rule} ${f.path}`);

  it('reads a Signature object, and names the current form for a detached JWS string', () => {
    expect(rules({ ...minimal(), signature })).toEqual([]);
    expect(rules({ ...minimal(), signature: 'eyJhbGciOiJFUzI1NiJ9..c2ln' })).toEqual([
      'warning catalog-signature-previous-form /signature',
    ]);
    expect(rules({ ...minimal(), signature: { ...signature, jws: 'eyJ9.e30.c2ln' } })).toEqual([
      'error catalog-signature-format /signature',
    ]);
  });

  it('refuses a signed Trust Manifest whose subject or signer does not bind its entry', () => {
    const manifest = {
      contributor: 'did:web:acme.com',
      subject: { identifier: entry.identifier, type: entry.type, digest: entry.digest },
      signature,
    };
    const doc = (m: unknown) => ({ specVersion: '1.0', entries: [{ ...entry, trustManifests: [m] }] });
    expect(rules(doc(manifest))).toEqual([]);
    expect(rules(doc({ ...manifest, subject: { ...manifest.subject, digest: `sha256:${'b'.repeat(64)}` } }))).toEqual([
      'error catalog-trust-manifest-subject /entries/0/trustManifests/0/subject',
    ]);
    expect(rules(doc({ ...manifest, contributor: 'did:web:assessor.example' }))).toEqual([
      'error catalog-trust-manifest-subject /entries/0/trustManifests/0/signature/signer',
    ]);
    expect(rules(doc({ contributor: 'did:web:acme.com' }))).toEqual([
      'warning catalog-trust-manifest-empty /entries/0/trustManifests/0',
    ]);
  });

  it('refuses a catalog that is not valid JCS input, signed or not', () => {
    expect(rules('{"specVersion":"1.0","entries":[],"extensions":{"com.acme.id":12345678901234567890}}')).toEqual([
      'error catalog-jcs-input /extensions/com.acme.id',
    ]);
    expect(rules('{"specVersion":"1.0","entries":[],"extensions":{"com.acme.note":"\\ud800"}}')).toEqual([
      'error catalog-jcs-input /extensions/com.acme.note',
    ]);
    expect(rules('{"specVersion":"1.0","entries":[],"extensions":{"com.acme.n":[1.0,0.1,1e3]}}')).toEqual([]);
    // Any depth: the walk keeps its own stack.
    const deep = `{"specVersion":"1.0","entries":[],"extensions":{"com.acme.deep":${'['.repeat(20_000)}"\\udc00"${']'.repeat(20_000)}}}`;
    expect(rules(deep)).toContain(`error catalog-jcs-input /extensions/com.acme.deep${'/0'.repeat(20_000)}`);
  });
});

describe('validateAiCatalog reads the previous draft (634a09d9) and says how it differs', () => {
  const old = {
    specVersion: '1.0',
    metadata: { region: 'eu' },
    entries: [
      {
        identifier: 'urn:agent-card:staging.acme.example:billing',
        displayName: 'Billing',
        mediaType: 'application/a2a-agent-card+json',
        url: 'https://staging.acme.example/agents/billing/.well-known/agent-card.json',
        version: '1.0.0',
      },
    ],
  };

  it('checks it against that draft, valid, and names the draft', () => {
    const result = validateAiCatalog(old);
    expect([result.valid, result.draft]).toEqual([true, '634a09d9']);
  });

  it('reports each difference from the current draft with its fix', () => {
    const found = validateAiCatalog(old)
      .findings.filter((f) => f.rule === 'catalog-previous-draft')
      .map((f) => [f.severity, f.message, f.hint]);
    expect(found).toEqual([
      [
        'info',
        'catalog: follows the previous AI Catalog draft (634a09d9); the current draft is 0379c868, with 5 differences below.',
        'Apply the fixes of the catalog-previous-draft findings to follow the current draft.',
      ],
      [
        'info',
        'catalog.metadata: is replaced by extensions in the current draft.',
        'Rename metadata to extensions and key each value by a URL or a reverse-DNS name (com.example.region).',
      ],
      [
        'info',
        'catalog.entries[0].mediaType: is named type in the current draft (ADR-0014).',
        'Rename mediaType to type.',
      ],
      [
        'info',
        'catalog.entries[0].displayName: restates what the artifact carries; the current draft says to leave it out.',
        "Remove displayName: readers take it from the artifact (set it only to override the artifact's own).",
      ],
      [
        'info',
        'catalog.entries[0].version: restates what the artifact carries; the current draft says to leave it out.',
        "Remove version: readers take it from the artifact (set it only to override the artifact's own).",
      ],
      [
        'info',
        'catalog.entries[0].identifier: is not a urn:air identifier ("urn:agent-card:staging.acme.example:billing").',
        'Use urn:air:{your domain}:{namespace}:{name}, which stays the same when the URL changes.',
      ],
    ]);
  });

  it('holds a document to the draft it is asked to', () => {
    expect(validateAiCatalog(old, { draft: '0379c868' }).findings.map((f) => `${f.rule} ${f.path}`)).toEqual([
      'catalog-unknown-field /metadata',
      'catalog-unknown-field /entries/0/mediaType',
      'catalog-required-fields /entries/0/type',
    ]);
  });
});
