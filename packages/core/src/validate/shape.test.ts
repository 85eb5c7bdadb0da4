import { describe, expect, it } from 'vitest';
import { validateAgentCard } from './validate';
import { AgentCardSchema } from '../model';
import {
  describePath,
  detectCardShape,
  fieldsOf,
  itemOf,
  requiresNonEmpty,
  toJsonTree,
  unwrap,
  type ModelSchema,
} from './shape';

describe('detectCardShape (rule 3)', () => {
  it.each([
    ['v1.0', { supportedInterfaces: [] }],
    ['mixed', { supportedInterfaces: [], url: 'https://a.com' }],
    ['mixed', { supportedInterfaces: [], security: [] }],
    ['v0.3', { url: 'https://a.com', protocolVersion: '0.3.0' }],
    ['v0.3', { url: 'https://a.com', preferredTransport: 'JSONRPC' }],
    ['v0.3', { additionalInterfaces: [] }],
    ['v0.2', { url: 'https://a.com', authentication: { schemes: ['Bearer'] } }],
    ['v0.2', { url: 'https://a.com' }],
    ['unknown', { name: 'x' }],
    ['unknown', {}],
  ] as const)('%s: %j', (shape, card) => {
    expect(detectCardShape(card as Record<string, unknown>)).toBe(shape);
  });

  it.each([
    [{ supportedInterfaces: [] }, 'v1.0', 'card: looks like an A2A v1.0 card'],
    [{ supportedInterfaces: [], url: 'x' }, 'mixed', 'also carries v0.3 fields (a "superset" card) (v0.3 keys: url)'],
    [{ url: 'https://a.com', protocolVersion: '0.3.0' }, 'v0.3', 'an A2A v0.3 card'],
    [{ url: 'https://a.com' }, 'v0.2', 'v0.2 or older'],
    [{ name: 'x' }, 'unknown', 'neither a v1.0 nor a v0.3 card'],
  ])('reports card-shape-detected as info for %j', (card, shape, message) => {
    const result = validateAgentCard(card);
    expect(result.shape).toBe(shape);
    const hit = result.findings.filter((f) => f.rule === 'card-shape-detected');
    expect(hit).toHaveLength(1);
    expect(hit[0]).toMatchObject({ severity: 'info', path: '' });
    expect(hit[0]!.message).toContain(message);
  });

  it('is not reported when the input is not an object', () => {
    expect(validateAgentCard('[]').findings.some((f) => f.rule === 'card-shape-detected')).toBe(false);
  });
});

describe('helpers', () => {
  it.each([
    [[], 'card'],
    [['skills', 2, 'tags'], 'skills[2].tags'],
    [['securitySchemes', 'my scheme'], 'securitySchemes["my scheme"]'],
    [['__proto__'], '__proto__'],
  ] as const)('describePath(%j) is %s', (path, text) => {
    expect(describePath(path)).toBe(text);
  });

  it('copies values the way JSON.stringify sees them', () => {
    const date = new Date(0);
    const { tree, problems } = toJsonTree({ a: undefined, b: () => 1, c: [undefined, 1], d: date });
    expect(JSON.stringify(tree)).toBe(JSON.stringify({ c: [null, 1], d: date }));
    expect(problems).toEqual([]);
  });

  it('copies own enumerable members only, in their order, as Object.keys lists them', () => {
    const inherited = Object.create(
      { polluted: 'yes' },
      {
        hidden: { value: 'no', enumerable: false },
        b: { value: 2, enumerable: true },
      },
    );
    inherited[1] = 'one';
    inherited.a = 1;
    const { tree, problems } = toJsonTree({ card: inherited });
    expect(JSON.stringify(tree)).toBe('{"card":{"1":"one","b":2,"a":1}}');
    expect(problems).toEqual([]);
  });

  it('reports a proxy whose keys cannot be listed, and keeps its siblings', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    const { tree, problems } = toJsonTree({ name: 'A', skills: [hostile] });
    expect(tree).toEqual({ name: 'A', skills: [null] });
    expect(problems).toEqual([
      {
        path: ['skills', 0],
        message: 'skills[0]: its keys cannot be listed (no keys for you).',
        hint: 'Pass plain JSON data, not a proxy.',
      },
    ]);
  });

  it('reports a getter that throws under a member, not the member listing', () => {
    const { tree, problems } = toJsonTree({
      outer: {
        get inner() {
          throw new Error('boom');
        },
        kept: 1,
      },
    });
    expect(tree).toEqual({ outer: { kept: 1 } });
    expect(problems.map((p) => p.message)).toEqual(['outer.inner: reading the value threw (boom).']);
  });
});

describe('requiresNonEmpty', () => {
  /** Every schema reachable from the card, each once. */
  function allSchemas(): ModelSchema[] {
    const seen = new Set<ModelSchema>();
    const visit = (schema: ModelSchema) => {
      if (seen.has(schema)) return;
      seen.add(schema);
      const { schema: inner } = unwrap(schema);
      seen.add(inner);
      for (const child of Object.values(fieldsOf(inner))) visit(child);
      const item = itemOf(inner);
      if (item) visit(item);
    };
    visit(AgentCardSchema as unknown as ModelSchema);
    return [...seen];
  }

  it('answers, for every schema of the model, what parsing an empty string or list answers', () => {
    const schemas = allSchemas();
    expect(schemas.length).toBeGreaterThan(40);
    let required = 0;
    for (const schema of schemas) {
      const inner = unwrap(schema).schema;
      const kind = inner._zod.def.type;
      const parsed =
        kind === 'string' ? !inner.safeParse('').success : kind === 'array' ? !inner.safeParse([]).success : false;
      expect(requiresNonEmpty(schema), `${kind} schema`).toBe(parsed);
      if (parsed) required++;
    }
    // name, description, version, interface fields, skill fields, tags, required lists, ...
    expect(required).toBeGreaterThan(10);
  });
});
