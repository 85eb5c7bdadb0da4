import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentCardSchema } from '../model';
import { validateAgentCard, type ValidationResult } from './validate';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/fixtures/spec/examples/${name}`, import.meta.url), 'utf8');
const SAMPLE_TEXT = fixture('spec-8.5-sample-agent-card.main-16ba5269.json');
const sample = () => JSON.parse(SAMPLE_TEXT) as Record<string, any>;

const STRUCTURE_RULES = new Set([
  'card-json-parse',
  'card-root-object',
  'required-fields',
  'field-types',
  'required-arrays-non-empty',
  'skills-non-empty',
  'interface-required-fields',
  'skill-required-fields',
  'skill-tags-required',
  'provider-required-fields',
  'security-scheme-shape',
  'oauth-flow-shape',
  'security-requirement-shape',
  'signature-format',
  'extension-uri-required',
  'json-camelcase',
  'unknown-field',
  'legacy-fields-present',
  'legacy-security-shape',
]);
const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** The documented result shape, checked on every output of the property tests. */
function assertWellFormed(result: ValidationResult): void {
  expect(typeof result.valid).toBe('boolean');
  expect(['v1.0', 'v0.3', 'v0.2', 'mixed', 'unknown']).toContain(result.shape);
  expect(Array.isArray(result.findings)).toBe(true);
  for (const f of result.findings) {
    expect(Object.keys(f).sort()).toEqual(['hint', 'message', 'path', 'rule', 'severity']);
    expect(f.rule).toMatch(/^[a-z0-9-]+$/);
    expect(['error', 'warning', 'info']).toContain(f.severity);
    expect(f.path === '' || f.path.startsWith('/')).toBe(true);
    expect(typeof f.message).toBe('string');
    expect(f.message.length).toBeGreaterThan(0);
    expect(typeof f.hint).toBe('string');
  }
  const severities = result.findings.map((f) => ORDER[f.severity]);
  expect(severities).toEqual([...severities].sort((a, b) => a - b));
  expect(result.valid).toBe(!result.findings.some((f) => f.severity === 'error'));
  if (result.card) expect(result.valid).toBe(true);
  expect(result.findings.some((f) => f.rule === 'internal-error')).toBe(false);
}

describe('input decoding (rules 1 and 2)', () => {
  it.each([
    ['invalid JSON', '{"name": "x",}', 'card-json-parse', 'error', 'card: not valid JSON at line 1, column'],
    ['empty text', '', 'card-json-parse', 'error', 'card: not valid JSON'],
    ['an HTML page', '<!doctype html><title>Login</title>', 'card-json-parse', 'error', 'not valid JSON'],
    ['a JSON array', '[]', 'card-root-object', 'error', 'card: expected a JSON object, got array'],
    ['JSON null', 'null', 'card-root-object', 'error', 'got null'],
    ['a JSON string', '"card"', 'card-root-object', 'error', 'got string ("card")'],
  ] as const)('%s', (_what, text, rule, severity, message) => {
    const result = validateAgentCard(text);
    expect(result.valid).toBe(false);
    expect(result.findings[0]).toMatchObject({ rule, severity, path: '' });
    expect(result.findings[0]!.message).toContain(message);
  });

  it.each([
    ['a number', 42, 'got number (42)'],
    ['undefined', undefined, 'got undefined'],
    ['an array', [sample()], 'got array'],
    ['null', null, 'got null'],
  ])('rejects %s passed programmatically', (_what, value, message) => {
    const result = validateAgentCard(value);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ rule: 'card-root-object', severity: 'error' });
    expect(result.findings[0]!.message).toContain(message);
  });

  it('parses JSON text, UTF-8 bytes and Buffers the same way as the object', () => {
    const fromObject = validateAgentCard(sample(), { profile: 'production' });
    for (const input of [SAMPLE_TEXT, Buffer.from(SAMPLE_TEXT), new TextEncoder().encode(SAMPLE_TEXT)]) {
      expect(validateAgentCard(input, { profile: 'production' })).toEqual(fromObject);
    }
    expect(fromObject.valid).toBe(true);
    expect(fromObject.card?.name).toBe('GeoSpatial Route Planner Agent');
  });

  it('warns about a BOM and goes on validating', () => {
    const result = validateAgentCard(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE_TEXT)]));
    expect(result.findings.find((f) => f.rule === 'card-json-parse')).toMatchObject({ severity: 'warning', path: '' });
    expect(result.valid).toBe(true);
    expect(validateAgentCard(`\uFEFF${SAMPLE_TEXT}`).findings.filter((f) => f.rule === 'card-json-parse')).toHaveLength(
      1,
    );
  });

  it('refuses a member named twice: readers disagree about which value the card has', () => {
    // JSON.parse keeps the second URL; a parser that keeps the first sends requests elsewhere.
    const text = SAMPLE_TEXT.replace('"url": "', '"url": "https://attacker.example.net/a2a", "url": "');
    expect(text).not.toBe(SAMPLE_TEXT);
    const result = validateAgentCard(text, { profile: 'development' });
    expect(result.valid).toBe(false);
    expect(result.findings.filter((f) => f.rule === 'card-json-duplicate-member')).toEqual([
      {
        rule: 'card-json-duplicate-member',
        severity: 'error',
        path: '/supportedInterfaces/0/url',
        message:
          'supportedInterfaces[0].url: named twice in one object; JSON parsers disagree about which value applies.',
        hint: 'Keep one "url" member. Parsers that keep the first value and parsers that keep the last read two different cards, so a signature can cover one while a client reads the other.',
      },
    ]);
    expect(validateAgentCard(Buffer.from(text)).findings.map((f) => f.rule)).toContain('card-json-duplicate-member');
  });

  it('rejects invalid UTF-8', () => {
    const result = validateAgentCard(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(result.findings).toEqual([
      expect.objectContaining({ rule: 'card-json-parse', severity: 'error', message: 'card: not valid UTF-8.' }),
    ]);
  });

  it('does not report a plain sample as a parse problem', () => {
    expect(
      validateAgentCard(SAMPLE_TEXT).findings.filter(
        (f) => f.rule === 'card-json-parse' || f.rule === 'card-root-object',
      ),
    ).toEqual([]);
  });
});

describe('result', () => {
  it('returns the typed card only when there is no error and the card matches the model', () => {
    expect(validateAgentCard(sample()).card).toEqual(sample());
    expect(validateAgentCard({ ...sample(), name: '' }).card).toBeUndefined();
    const withUnknown = validateAgentCard({ ...sample(), extra: 1 });
    expect(withUnknown.valid).toBe(true);
    expect(withUnknown.card).toBeUndefined();
  });

  it('sorts errors, then warnings, then infos, each in document order', () => {
    const card = sample();
    card.zzz = 1;
    card.skills[1].tags = [];
    card.aaa = 1;
    delete card.name;
    const { findings } = validateAgentCard(card);
    const mine = findings.filter((f) => STRUCTURE_RULES.has(f.rule)).map((f) => `${f.severity} ${f.path}`);
    expect(mine).toEqual(['error /name', 'error /skills/1/tags', 'warning /zzz', 'warning /aaa']);
  });

  it('never mutates its input', () => {
    const card = sample();
    card.security = [{ google: ['openid'] }];
    const before = JSON.stringify(card);
    validateAgentCard(card);
    expect(JSON.stringify(card)).toBe(before);
  });
});

describe('profiles', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each([
    ['production', 'production'],
    ['test', 'development'],
    ['', 'development'],
  ])('NODE_ENV=%s defaults to %s', (env, profile) => {
    vi.stubEnv('NODE_ENV', env);
    const card = sample();
    card.supportedInterfaces[0].url = 'http://localhost:3000/a2a';
    const result = validateAgentCard(card);
    // Loopback URLs are errors only in production (publishing rules), so the default shows.
    expect(result.findings.some((f) => f.severity === 'error')).toBe(profile === 'production');
  });

  it('an explicit profile wins over NODE_ENV', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const card = sample();
    card.extra = true;
    expect(
      validateAgentCard(card, { profile: 'strict' }).findings.find((f) => f.rule === 'unknown-field')?.severity,
    ).toBe('error');
    expect(
      validateAgentCard(card, { profile: 'development' }).findings.find((f) => f.rule === 'unknown-field')?.severity,
    ).toBe('warning');
  });
});

describe('hostile input', () => {
  it('survives 100 000 levels of nesting, as text and as objects', () => {
    const depth = 100_000;
    const text = `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const fromText = validateAgentCard(text);
    assertWellFormed(fromText);
    expect(fromText.findings.find((f) => f.rule === 'card-json-parse')?.message).toContain(
      'nested deeper than 64 levels',
    );

    let nested: unknown = {};
    for (let i = 0; i < depth; i++) nested = { a: nested };
    const fromObject = validateAgentCard({
      ...sample(),
      capabilities: { extensions: [{ uri: 'urn:x', params: nested }] },
    });
    assertWellFormed(fromObject);
    expect(fromObject.valid).toBe(false);
  });

  it('reports cycles, throwing getters, bigint and NaN as findings', () => {
    const card: Record<string, any> = sample();
    card.self = card;
    card.skills[0].loop = card.skills;
    Object.defineProperty(card, 'version', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    card.provider.size = 10n;
    card.capabilities.ratio = Number.NaN;
    const result = validateAgentCard(card);
    assertWellFormed(result);
    const parse = result.findings.filter((f) => f.rule === 'card-json-parse').map((f) => `${f.path} ${f.message}`);
    expect(parse).toEqual(
      expect.arrayContaining([
        '/self self: circular reference (the value contains itself).',
        '/version version: reading the value threw (boom).',
        '/provider/size provider.size: not representable in JSON (bigint 10).',
        expect.stringContaining('/capabilities/ratio'),
      ]),
    );
  });

  it('survives proxies whose traps throw', () => {
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys');
        },
      },
    );
    const result = validateAgentCard({ ...sample(), provider: trap });
    assertWellFormed(result);
    expect(result.findings.find((f) => f.path === '/provider' && f.rule === 'card-json-parse')?.message).toContain(
      'no keys',
    );
    assertWellFormed(
      validateAgentCard(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x');
            },
          },
        ),
      ),
    );
  });

  it('treats __proto__ and constructor keys as plain data and pollutes nothing', () => {
    const text =
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}, "securitySchemes": {"__proto__": {"type": "apiKey"}, "constructor": {}}, "securityRequirements": [{"schemes": {"constructor": {"list": []}}}]}';
    const result = validateAgentCard(text);
    assertWellFormed(result);
    expect(({} as any).polluted).toBeUndefined();
    expect(result.findings.find((f) => f.path === '/__proto__')?.rule).toBe('unknown-field');
    expect(result.findings.find((f) => f.path === '/constructor')?.rule).toBe('unknown-field');
    expect(result.findings.find((f) => f.path === '/securitySchemes/constructor')?.rule).toBe('security-scheme-shape');
  });

  it('handles a 5 MB string value', () => {
    const result = validateAgentCard({ ...sample(), description: 'x'.repeat(5_000_000) });
    assertWellFormed(result);
    for (const f of result.findings) expect(f.message.length).toBeLessThan(1000);
  });
});

describe('never throws (property)', () => {
  const options = fc.constantFrom<undefined | Parameters<typeof validateAgentCard>[1]>(
    undefined,
    { profile: 'development' },
    { profile: 'production' },
    { profile: 'strict' },
    { skillsNonEmpty: 'warning' },
  );

  it('for any value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
          withSparseArray: true,
        }),
        options,
        (value, opts) => {
          assertWellFormed(validateAgentCard(value, opts));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for any JSON text and any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), fc.string({ unit: 'binary' })), options, (text, opts) => {
        assertWellFormed(validateAgentCard(text, opts));
      }),
      { numRuns: 300 },
    );
  });

  it('for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        assertWellFormed(validateAgentCard(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it('for objects made of prototype keys', () => {
    const key = fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'name',
      'skills',
      'securitySchemes',
      'schemes',
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.dictionary(key, tie('node'), { maxKeys: 5 }),
        fc.array(tie('node'), { maxLength: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 8 }), (value) => {
        assertWellFormed(validateAgentCard(JSON.parse(JSON.stringify(value))));
        assertWellFormed(validateAgentCard(JSON.stringify(value)));
        expect(({} as any).polluted).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('for deeply nested values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"a":'), (depth, open) => {
        const close = open === '[' ? ']' : '}';
        assertWellFormed(validateAgentCard(`{"skills":${open.repeat(depth)}1${close.repeat(depth)}}`));
      }),
      { numRuns: 50 },
    );
  });

  it('for mutations of the spec sample, and its structure verdict agrees with the zod model', () => {
    const pathInto = (root: unknown): fc.Arbitrary<(string | number)[]> => {
      const paths: (string | number)[][] = [];
      const walk = (node: unknown, path: (string | number)[]) => {
        paths.push(path);
        if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
        else if (node && typeof node === 'object')
          for (const k of Object.keys(node)) walk((node as any)[k], [...path, k]);
      };
      walk(root, []);
      return fc.constantFrom(...paths.filter((p) => p.length > 0));
    };
    const mutation = fc.record({
      path: pathInto(sample()),
      op: fc.constantFrom('delete', 'replace', 'empty', 'blank', 'rename'),
      value: fc.jsonValue({ maxDepth: 2 }),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const card = sample();
        for (const { path, op, value } of mutations) {
          let parent: any = card;
          for (const seg of path.slice(0, -1)) parent = parent?.[seg];
          if (!parent || typeof parent !== 'object') continue;
          const last = path[path.length - 1]!;
          if (op === 'delete') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
          else if (op === 'replace') parent[last] = value;
          else if (op === 'empty') parent[last] = Array.isArray(parent[last]) ? [] : {};
          else if (op === 'blank') parent[last] = ' ';
          else if (!Array.isArray(parent)) {
            parent[`${String(last)}_x`] = parent[last];
            delete parent[last];
          }
        }
        const result = validateAgentCard(card, { profile: 'strict' });
        assertWellFormed(result);
        // Strict makes unknown and snake_case keys errors, so "no structure error" must mean the
        // strict zod model accepts the card, and the reverse for anything zod accepts.
        const structureErrors = result.findings.filter((f) => f.severity === 'error' && STRUCTURE_RULES.has(f.rule));
        // The validator reads the card as JSON (a key holding `undefined` is absent), so zod gets the
        // same JSON document: a rename of an already deleted key leaves `{ key_x: undefined }`.
        const zod = AgentCardSchema.safeParse(JSON.parse(JSON.stringify(card))).success;
        if (structureErrors.length === 0) expect(zod, JSON.stringify(card)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('cardUrl (rule 38, interface-origin-mismatch)', () => {
  const card = () =>
    JSON.parse(readFileSync(new URL('../../../../examples/cards/support.json', import.meta.url), 'utf8'));
  const origin = (result: ValidationResult) => result.findings.filter((f) => f.rule === 'interface-origin-mismatch');

  it('is not checked without the URL the card came from', () => {
    expect(origin(validateAgentCard(card(), { profile: 'production' }))).toEqual([]);
  });

  it('reports interfaces on another domain than the one that served the card', () => {
    const found = origin(
      validateAgentCard(card(), {
        profile: 'production',
        cardUrl: 'https://cards.other-host.net/.well-known/agent-card.json',
      }),
    );
    expect(found.map((f) => [f.severity, f.path])).toEqual([
      ['info', '/supportedInterfaces/0/url'],
      ['info', '/supportedInterfaces/1/url'],
    ]);
    expect(found[0]!.message).toContain('cards.other-host.net');
  });

  it("is quiet when the card is served from the interfaces' host", () => {
    const result = validateAgentCard(card(), {
      profile: 'production',
      cardUrl: 'https://support-agent.larkspur-telecom.com/.well-known/agent-card.json',
    });
    expect(origin(result)).toEqual([]);
  });
});
