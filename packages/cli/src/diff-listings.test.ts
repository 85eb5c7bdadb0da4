import { describe, expect, it } from 'vitest';
import { classifyListingChanges, listingGone, listingUnreviewed } from './diff-listings';

const card = {
  name: 'Orders',
  version: '1.0.0',
  skills: [
    { id: 'status', name: 'Status', description: 'Where an order is.' },
    { id: 'refund', name: 'Refund', description: 'Refunds an order.' },
  ],
};

const catalog = {
  specVersion: '1.0',
  host: { displayName: 'Acme' },
  entries: [
    {
      identifier: 'urn:air:acme.example:agents:orders',
      type: 'application/a2a-agent-card+json',
      url: 'https://acme.example/agents/orders/.well-known/agent-card.json',
      digest: 'sha256:aaaa',
    },
    {
      identifier: 'urn:air:acme.example:agents:refunds',
      type: 'application/a2a-agent-card+json',
      data: card,
    },
  ],
};

const ard = {
  entries: [
    {
      identifier: 'urn:air:acme.example:agents:orders',
      displayName: 'Orders',
      type: 'application/a2a-agent-card+json',
      url: 'https://acme.example/agents/orders/.well-known/agent-card.json',
      description: 'Answers questions about orders.',
      representativeQueries: ['where is my order', 'track order 42'],
    },
  ],
};

const entries = catalog.entries;
const judged = (before: unknown, after: unknown) =>
  classifyListingChanges(before, after).map((f) => [f.rule, f.impact, f.severity, f.path]);

describe('classifyListingChanges', () => {
  it.each([
    ['identical documents', catalog, catalog, []],
    [
      'an entry removed: breaking',
      catalog,
      { ...catalog, entries: [entries[1]] },
      [['diff-entry-removed', 'breaking', 'error', '/entries[identifier=urn:air:acme.example:agents:orders]']],
    ],
    [
      'an entry added: structural',
      { ...catalog, entries: [entries[1]] },
      catalog,
      [['diff-structural', 'structural', 'warning', '/entries[identifier=urn:air:acme.example:agents:orders]']],
    ],
    [
      'entries reordered: no change (matched by identifier)',
      catalog,
      { ...catalog, entries: [entries[1], entries[0]] },
      [],
    ],
    [
      "an entry's url changed: breaking",
      catalog,
      { ...catalog, entries: [{ ...entries[0], url: 'https://acme.example/orders.json' }, entries[1]] },
      [['diff-entry-url-changed', 'breaking', 'error', '/entries[identifier=urn:air:acme.example:agents:orders]/url']],
    ],
    [
      "an entry's media type changed: breaking",
      catalog,
      { ...catalog, entries: [{ ...entries[0], type: 'application/json' }, entries[1]] },
      [['diff-entry-url-changed', 'breaking', 'error', '/entries[identifier=urn:air:acme.example:agents:orders]/type']],
    ],
    [
      "the host's name changed: descriptive",
      catalog,
      { ...catalog, host: { displayName: 'Acme Corp' } },
      [['diff-descriptive', 'descriptive', 'info', '/host/displayName']],
    ],
    [
      'a signature added: descriptive, reported',
      catalog,
      { ...catalog, signature: 'eyJhbGciOiJFUzI1NiJ9..c2ln' },
      [['diff-descriptive', 'descriptive', 'info', '/signature']],
    ],
    [
      "a listed card's digest changed: descriptive (the card's own comparison says how)",
      catalog,
      { ...catalog, entries: [{ ...entries[0], digest: 'sha256:bbbb' }, entries[1]] },
      [['diff-descriptive', 'descriptive', 'info', '/entries[identifier=urn:air:acme.example:agents:orders]/digest']],
    ],
    [
      'specVersion changed: structural',
      catalog,
      { ...catalog, specVersion: '1.1' },
      [['diff-structural', 'structural', 'warning', '/specVersion']],
    ],
    [
      'an ARD description changed: descriptive',
      ard,
      { entries: [{ ...ard.entries[0], description: 'Answers questions about orders and refunds.' }] },
      [
        [
          'diff-descriptive',
          'descriptive',
          'info',
          '/entries[identifier=urn:air:acme.example:agents:orders]/description',
        ],
      ],
    ],
    [
      'ARD representative queries changed: descriptive',
      ard,
      { entries: [{ ...ard.entries[0], representativeQueries: ['where is my order'] }] },
      [
        [
          'diff-descriptive',
          'descriptive',
          'info',
          '/entries[identifier=urn:air:acme.example:agents:orders]/representativeQueries/1',
        ],
      ],
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(judged(before, after)).toEqual(expected);
  });

  it('judges a card carried inline (data) as diff judges a card: a skill removed is breaking', () => {
    const after = {
      ...catalog,
      entries: [entries[0], { ...entries[1], data: { ...card, skills: [card.skills[0]] } }],
    };
    const found = classifyListingChanges(catalog, after);
    expect(found.map((f) => [f.rule, f.impact, f.path])).toEqual([
      [
        'diff-skill-removed',
        'breaking',
        '/entries[identifier=urn:air:acme.example:agents:refunds]/data/skills[id=refund]',
      ],
    ]);
    expect(found[0]?.message).toBe(
      '/entries[identifier=urn:air:acme.example:agents:refunds]/data/skills[id=refund]: skill removed (was {"id":"refund","name":"Refund","description":"Refunds an order."}).',
    );
  });

  it('matches entries by index when identifiers are missing or repeated, an identifier change being breaking', () => {
    const before = { entries: [{ identifier: 'a', url: 'https://x/a' }, { identifier: 'a' }] };
    const after = { entries: [{ identifier: 'b', url: 'https://x/a' }, { identifier: 'a' }] };
    expect(judged(before, after)).toEqual([['diff-entry-url-changed', 'breaking', 'error', '/entries/0/identifier']]);
  });

  it('says what a whole document gone or unreviewed means', () => {
    expect(listingGone('ai-catalog', catalog, '404')).toMatchObject({
      rule: 'diff-entry-removed',
      impact: 'breaking',
      message: '/: the host serves no AI Catalog (404); the reviewed one lists 2 entries.',
    });
    expect(listingUnreviewed('ard')).toMatchObject({
      rule: 'diff-structural',
      impact: 'structural',
      message: '/: the host serves an ARD manifest that the reviewed site does not have.',
    });
  });
});
