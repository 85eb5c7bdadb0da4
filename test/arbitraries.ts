/**
 * fast-check arbitraries for A2A v1.0 cards, derived from the zod model itself: every object,
 * optional field, array bound, enum and `oneof` in `AgentCardSchema` becomes a generator, so a
 * change to the model changes what is generated.
 */
import fc from 'fast-check';
import { AgentCardSchema, type AgentCard } from '@agent-card/core';

/** The part of a zod 4 schema's internals the walker reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  innerType?: { _zod: { def: SchemaDef } };
  element?: { _zod: { def: SchemaDef } };
  valueType?: { _zod: { def: SchemaDef } };
  entries?: Record<string, string>;
  checks?: Array<{ _zod: { def: { check: string; minimum?: number } } }>;
}

const defOf = (schema: unknown): SchemaDef => (schema as { _zod: { def: SchemaDef } })._zod.def;

const minLength = (def: SchemaDef): number =>
  def.checks?.map((c) => c._zod.def).find((c) => c.check === 'min_length')?.minimum ?? 0;

/** Short strings, sometimes with any code point (lone surrogates included). */
const text = (min: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: 6, unit: 'binary' }) },
  );

/** A generator for any value the zod schema accepts. */
export function arbitraryFromSchema(schema: unknown): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return text(minLength(def));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'optional':
      return arbitraryFromSchema(def.innerType);
    case 'array': {
      const min = minLength(def);
      return fc.array(arbitraryFromSchema(def.element), { minLength: min, maxLength: min + 2 });
    }
    case 'record':
      // `__proto__` is an ordinary key in JSON and a special one in JavaScript: keep it in play.
      return fc.dictionary(
        fc.oneof(
          { weight: 9, arbitrary: fc.string({ maxLength: 8 }) },
          { weight: 1, arbitrary: fc.constant('__proto__') },
        ),
        arbitraryFromSchema(def.valueType),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      // The only refinement in the model is "exactly one member" (proto oneof messages).
      if (def.checks?.some((c) => c._zod.def.check === 'custom')) {
        return fc.oneof(...keys.map((key) => fc.record({ [key]: arbitraryFromSchema(defOf(shape[key]).innerType) })));
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of keys) model[key] = arbitraryFromSchema(shape[key]);
      return fc.record(model, { requiredKeys: keys.filter((key) => defOf(shape[key]).type !== 'optional') });
    }
    default:
      throw new Error(`arbitraryFromSchema: no generator for zod type ${def.type}.`);
  }
}

/** Structurally valid v1.0 cards, each optional part sometimes present, as plain JSON. */
export const agentCardArbitrary: fc.Arbitrary<AgentCard> = arbitraryFromSchema(AgentCardSchema).map(
  // A JSON round trip gives what a parser would see: own `__proto__` keys, plain prototypes.
  (card) => JSON.parse(JSON.stringify(card)) as AgentCard,
);

type Json = Record<string, unknown>;
type Mutation = readonly [what: string, apply: (card: Json) => unknown];
/** A mutation that edits the card in place. */
const edit = (what: string, change: (card: Json) => void): Mutation => [what, (card) => (change(card), card)];

const SCHEMES = {
  apiKeySecurityScheme: { location: 'header', name: 'X-Api-Key' },
  httpAuthSecurityScheme: { scheme: 'Bearer' },
  mtlsSecurityScheme: {},
};
const FLOWS = {
  clientCredentials: { tokenUrl: 'https://auth.acme-corp.io/token', scopes: {} },
  deviceCode: {
    deviceAuthorizationUrl: 'https://auth.acme-corp.io/device',
    tokenUrl: 'https://auth.acme-corp.io/token',
    scopes: {},
  },
};
const first = (card: Json, key: string) => (card[key] as Json[])[0]!;

/**
 * Ways to break a structurally valid card, each of which the derived oracle must reject:
 * a missing REQUIRED field, an empty REQUIRED array, two `oneof` members, an unknown or
 * snake_case key, a wrong type.
 */
export const MUTATIONS: readonly Mutation[] = [
  ...[
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ].map((key) => edit(`drop ${key}`, (card) => void delete card[key])),
  edit('drop skills[0].tags', (card) => void delete first(card, 'skills').tags),
  edit('drop skills[0].id', (card) => void delete first(card, 'skills').id),
  edit(
    'drop supportedInterfaces[0].protocolVersion',
    (card) => void delete first(card, 'supportedInterfaces').protocolVersion,
  ),
  edit('drop provider.organization', (card) => void (card.provider = { url: 'https://acme-corp.io' })),
  ...['supportedInterfaces', 'defaultInputModes', 'defaultOutputModes', 'skills'].map((key) =>
    edit(`empty ${key}`, (card) => void (card[key] = [])),
  ),
  edit('empty skills[0].tags', (card) => void (first(card, 'skills').tags = [])),
  edit('empty name', (card) => void (card.name = '')),
  edit('empty supportedInterfaces[0].url', (card) => void (first(card, 'supportedInterfaces').url = '')),
  edit('two scheme wrappers', (card) => void (card.securitySchemes = { s: { ...SCHEMES } })),
  edit('no scheme wrapper', (card) => void (card.securitySchemes = { s: {} })),
  edit('two flows', (card) => void (card.securitySchemes = { s: { oauth2SecurityScheme: { flows: { ...FLOWS } } } })),
  edit('no flow', (card) => void (card.securitySchemes = { s: { oauth2SecurityScheme: { flows: {} } } })),
  edit(
    'apiKey location outside the enum',
    (card) => void (card.securitySchemes = { s: { apiKeySecurityScheme: { location: 'body', name: 'k' } } }),
  ),
  edit('unknown root key', (card) => void (card.stateTransitionHistory = true)),
  edit('unknown capability', (card) => void ((card.capabilities as Json).stateTransitionHistory = true)),
  edit('unknown skill key', (card) => void (first(card, 'skills').owner = 'team-a')),
  edit('legacy url key', (card) => void (card.url = 'https://agents.acme-corp.io/a2a')),
  edit('__proto__ key', (card) => void Object.defineProperty(card, '__proto__', { value: {}, enumerable: true })),
  edit(
    'snake_case default_input_modes',
    (card) => void ((card.default_input_modes = card.defaultInputModes), delete card.defaultInputModes),
  ),
  edit('snake_case protocol_binding', (card) => {
    const iface = first(card, 'supportedInterfaces');
    iface.protocol_binding = iface.protocolBinding;
    delete iface.protocolBinding;
  }),
  edit('version as a number', (card) => void (card.version = 1)),
  edit('streaming as a string', (card) => void ((card.capabilities as Json).streaming = 'yes')),
  edit('skills as an object', (card) => void (card.skills = { a: first(card, 'skills') })),
  edit('tags as a string', (card) => void (first(card, 'skills').tags = 'billing')),
  edit('capabilities as an array', (card) => void (card.capabilities = [])),
  edit('extension params as an array', (card) => void ((card.capabilities as Json).extensions = [{ params: [] }])),
  edit(
    'signature header as null',
    (card) => void (card.signatures = [{ protected: 'e30', signature: 'c2ln', header: null }]),
  ),
  edit(
    'scopes value as a number',
    (card) =>
      void (card.securitySchemes = {
        s: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 't', scopes: { read: 1 } } } } },
      }),
  ),
  ['card as an array', (card) => [card]],
];

/** A structurally valid card broken in one of the {@link MUTATIONS} ways. */
export const invalidCardArbitrary: fc.Arbitrary<{ what: string; card: unknown }> = fc
  .tuple(agentCardArbitrary, fc.nat(MUTATIONS.length - 1))
  .map(([valid, index]) => {
    const [what, apply] = MUTATIONS[index]!;
    return { what, card: apply(JSON.parse(JSON.stringify(valid)) as Json) };
  });
