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
