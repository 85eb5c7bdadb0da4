import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AI_CATALOG_DRAFT, AI_CATALOG_PREVIOUS_DRAFT, AI_CATALOG_SPEC_VERSION } from './format';
import { validateAiCatalog } from './validate';

const entry = {
  identifier: 'urn:acme:agent:billing',
  displayName: 'Billing',
  mediaType: 'application/a2a-agent-card+json',
  url: 'https://acme.example/agents/billing/.well-known/agent-card.json',
};
const catalog = (entries: unknown[], extra: Record<string, unknown> = {}) => ({
  specVersion: '1.0',
  entries,
  ...extra,
});
// The cases below hold catalogs to the previous draft, which they are written to.
const previous = { draft: '634a09d9' } as const;
const rules = (value: unknown, options = {}) =>
  validateAiCatalog(value, { ...previous, ...options }).findings.map((f) => `${f.rule} ${f.severity} ${f.path}`);

describe('validateAiCatalog, previous draft', () => {
  it('pins the draft it implements', () => {
    expect(AI_CATALOG_SPEC_VERSION).toBe('1.0');
    expect(AI_CATALOG_PREVIOUS_DRAFT.commit).toBe('634a09d98b644153384cde4f1cb4cbb70ead0e04');
    expect(AI_CATALOG_DRAFT.commit).toBe('0379c868c8811f93e168caaa06dd42517449f6ac');
  });

  it('accepts a minimal catalog and an empty one', () => {
    expect(validateAiCatalog(catalog([entry]), previous)).toEqual({ valid: true, findings: [], draft: '634a09d9' });
    expect(validateAiCatalog('{"specVersion":"1.0","entries":[]}', previous)).toEqual({
      valid: true,
      findings: [],
      draft: '634a09d9',
    });
  });

  it.each<[string, unknown, string[]]>([
    ['not JSON', '{"specVersion":', ['catalog-json-parse error ']],
    [
      'an entry url named twice (a reader keeping the first follows another card)',
      `{"specVersion":"1.0","entries":[{"identifier":"urn:acme:agent:billing","displayName":"Billing","mediaType":"application/a2a-agent-card+json","url":"https://evil.example/card.json","url":"${entry.url}"}]}`,
      ['catalog-duplicate-member error /entries/0/url'],
    ],
    ['an array', [entry], ['catalog-root-object error ']],
    ['no specVersion', { entries: [] }, ['catalog-required-fields error /specVersion']],
    ['a bad specVersion', { specVersion: 'v1', entries: [] }, ['catalog-spec-version error /specVersion']],
    ['a future major', { specVersion: '2.0', entries: [] }, ['catalog-spec-version error /specVersion']],
    ['a newer minor', { specVersion: '1.7', entries: [] }, ['catalog-spec-version info /specVersion']],
    ['entries not an array', { specVersion: '1.0', entries: {} }, ['catalog-field-types error /entries']],
    ['url and data', catalog([{ ...entry, data: {} }]), ['catalog-entry-content error /entries/0']],
    ['neither url nor data', catalog([{ ...entry, url: undefined }]), ['catalog-entry-content error /entries/0']],
    [
      'a repeated identifier',
      catalog([entry, { ...entry, url: 'https://acme.example/b' }]),
      ['catalog-identifier-unique error /entries/1/identifier'],
    ],
    [
      'a non-URI identifier',
      catalog([{ ...entry, identifier: 'billing' }]),
      ['catalog-identifier-format warning /entries/0/identifier'],
    ],
    [
      'an http url',
      catalog([{ ...entry, url: 'http://acme.example/card.json' }]),
      ['catalog-url-format warning /entries/0/url'],
    ],
    ['a url that is not one', catalog([{ ...entry, url: 'http://[::1' }]), ['catalog-url-format error /entries/0/url']],
    ['an unknown member', catalog([{ ...entry, logo: 'x' }]), ['catalog-unknown-field warning /entries/0/logo']],
    [
      'a trust manifest for another identity',
      catalog([{ ...entry, trustManifest: { identity: 'urn:evil' } }]),
      ['catalog-trust-identity error /entries/0/trustManifest/identity'],
    ],
    [
      'a bad timestamp',
      catalog([{ ...entry, updatedAt: 'yesterday' }]),
      ['catalog-field-types error /entries/0/updatedAt'],
    ],
    [
      'a missing displayName',
      catalog([{ ...entry, displayName: undefined }]),
      ['catalog-required-fields error /entries/0/displayName'],
    ],
    ['a host without name', catalog([], { host: {} }), ['catalog-required-fields error /host/displayName']],
  ])('reports %s', (_name, value, expected) => {
    const clean = typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
    expect(rules(clean)).toEqual(expected);
  });

  // The URLs the middleware refuses in its own catalog at start-up, found in someone else's.
  it.each([
    [
      'https://user:s3cret@acme.example/agents/billing/.well-known/agent-card.json',
      'catalog.entries[0].url: url carries credentials in the URL userinfo ("https://user:***@acme.example/agents/billing/.well-known/agent-card.json").',
      'Remove "user:password@"; the catalog is public.',
    ],
    [
      'data:text/html,<script>alert(1)</script>',
      'catalog.entries[0].url: url uses the data scheme; catalog readers follow http(s) URLs only ("data:text/html,<script>alert(1)</script>").',
      'Use an https:// URL.',
    ],
    [
      'javascript:alert(1)',
      'catalog.entries[0].url: url uses the javascript scheme; catalog readers follow http(s) URLs only ("javascript:alert(1)").',
      'Use an https:// URL.',
    ],
    [
      'file:///etc/passwd',
      'catalog.entries[0].url: url uses the file scheme; catalog readers follow http(s) URLs only ("file:///etc/passwd").',
      'Use an https:// URL.',
    ],
    [
      'http://169.254.169.254/latest/meta-data',
      'catalog.entries[0].url: url host is a link-local address (169.254.0.0/16), which no client outside the machine\'s link reaches ("169.254.169.254").',
      'Use the public host name of the agent.',
    ],
    [
      'https://localhost/.well-known/agent-card.json',
      'catalog.entries[0].url: url host is a loopback host name, which other machines cannot reach ("localhost").',
      'Use the public host name of the agent.',
    ],
  ])('refuses %s in production and strict, as the middleware does at start-up', (url, message, hint) => {
    for (const profile of ['production', 'strict'] as const) {
      const result = validateAiCatalog(catalog([{ ...entry, url }]), { ...previous, profile });
      expect(result.valid, profile).toBe(false);
      expect(result.findings.filter((f) => f.severity === 'error')).toEqual([
        { rule: 'catalog-url-format', severity: 'error', path: '/entries/0/url', message, hint },
      ]);
    }
  });

  it('refuses credentials in development too, and lets development use data:, loopback and other schemes', () => {
    const dev = (url: string) =>
      validateAiCatalog(catalog([{ ...entry, url }]), { ...previous, profile: 'development' }).findings.filter(
        (f) => f.severity === 'error',
      );
    expect(dev('https://user:s3cret@acme.example/card.json').map((f) => f.rule)).toEqual(['catalog-url-format']);
    for (const url of ['data:application/json,{}', 'http://localhost:3000/card.json', 'file:///tmp/card.json'])
      expect(dev(url), url).toEqual([]);
  });

  it('accepts one identifier listed with distinct versions', () => {
    expect(
      rules(
        catalog([
          { ...entry, version: '1' },
          { ...entry, version: '2' },
        ]),
      ),
    ).toEqual([]);
  });

  it('checks inline nested catalogs and stops at the depth limit of 4', () => {
    let doc: unknown = catalog([entry]);
    for (let i = 0; i < 5; i++)
      doc = catalog([
        { identifier: `urn:n:${i}`, displayName: 'n', mediaType: 'application/ai-catalog+json', data: doc },
      ]);
    expect(rules(doc)).toEqual([
      'catalog-nesting-depth error /entries/0/data/entries/0/data/entries/0/data/entries/0/data',
    ]);
  });

  it('reads at most maxEntries entries of a hostile catalog and says so once', () => {
    const many = catalog(Array.from({ length: 5000 }, (_, i) => ({ ...entry, identifier: `urn:a:${i}` })));
    const started = performance.now();
    expect(rules(many, { maxEntries: 10 })).toEqual(['catalog-entries-limit error /entries']);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('shortens huge values in messages', () => {
    const [f] = validateAiCatalog(catalog([{ ...entry, identifier: 'x'.repeat(100_000) }]), previous).findings;
    expect(f?.message.length).toBeLessThan(200);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateAiCatalog(value);
        expect(typeof result.valid).toBe('boolean');
        validateAiCatalog({ specVersion: '1.0', entries: [value] });
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateAiCatalog: the spellings published catalogs use', () => {
  const current = (entries: unknown[]) => ({ specVersion: '1.0', host: { displayName: 'Acme' }, entries });
  const a2a = (extra: Record<string, unknown>) => ({
    identifier: 'urn:air:acme.com:agents:billing',
    type: 'application/a2a-agent-card+json',
    url: 'https://acme.com/agents/billing/.well-known/agent-card.json',
    ...extra,
  });
  const found = (value: unknown) =>
    validateAiCatalog(value, { draft: '0379c868' }).findings.map((f) => [f.rule, f.severity, f.path, f.message]);

  it('reads urn:ai: as urn:air: with a warning, and holds it unique as read', () => {
    expect(found(current([a2a({ identifier: 'urn:ai:acme.com:agents:billing' })]))).toEqual([
      [
        'catalog-identifier-urn-ai',
        'warning',
        '/entries/0/identifier',
        'catalog.entries[0].identifier: is spelled urn:ai:, read as "urn:air:acme.com:agents:billing" ("urn:ai:acme.com:agents:billing").',
      ],
    ]);
    const twice = found(current([a2a({}), a2a({ identifier: 'URN:AI:acme.com:agents:billing' })]));
    expect(twice.map(([rule, severity, path]) => `${rule} ${severity} ${path}`)).toEqual([
      'catalog-identifier-urn-ai warning /entries/1/identifier',
      'catalog-identifier-unique error /entries/1/identifier',
    ]);
  });

  it('reads a Trust Manifest against the urn:air: publisher a urn:ai: identifier names', () => {
    const manifest = { identity: 'did:web:evil.example', signature: 'x' };
    const rulesOf = (identifier: string) =>
      found(current([a2a({ identifier, trustManifests: [manifest] })])).map(([rule]) => rule);
    expect(rulesOf('urn:ai:acme.com:agents:billing')).toContain('catalog-trust-identity');
    expect(rulesOf('urn:air:acme.com:agents:billing')).toContain('catalog-trust-identity');
  });

  it.each([
    ['Application/A2A-Agent-Card+JSON', 'application/a2a-agent-card+json'],
    ['application/a2a-agent-card+json; charset=utf-8', 'application/a2a-agent-card+json'],
    [' application/mcp-server-card+json ', 'application/mcp-server-card+json'],
    ['application/a2a-agent-card', 'application/a2a-agent-card+json'],
    ['application/agent-skills', 'application/agent-skills+json'],
  ])('normalises the entry type %j to %s with an info', (type, registered) => {
    expect(found(current([a2a({ type })]))).toEqual([
      [
        'catalog-entry-type-spelling',
        'info',
        '/entries/0/type',
        `catalog.entries[0].type: is read as ${registered} (${JSON.stringify(type)}).`,
      ],
    ]);
  });

  it('leaves a registered type and a type it does not know as they are', () => {
    expect(found(current([a2a({})]))).toEqual([]);
    expect(found(current([a2a({ type: 'application/x-other+json' })])).map(([rule]) => rule)).not.toContain(
      'catalog-entry-type-spelling',
    );
  });

  it('reads an inline nested catalog whose type is another spelling as a catalog', () => {
    const nested = {
      identifier: 'urn:air:acme.com:catalogs:team',
      type: 'APPLICATION/AI-CATALOG+JSON',
      data: { specVersion: 'x', entries: [] },
    };
    expect(found(current([nested])).map(([rule, , path]) => `${rule} ${path}`)).toEqual([
      'catalog-entry-type-spelling /entries/0/type',
      'catalog-spec-version /entries/0/data/specVersion',
    ]);
  });
});
