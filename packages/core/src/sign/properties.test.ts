import { generateKeyPairSync } from 'node:crypto';
import { canonicalizeAgentCard as sdkCanonicalize } from '@a2a-js/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../model';
import { canonicalizeAgentCard } from './canonicalize';
import { signAgentCard } from './sign';
import { verifyAgentCard } from './verify';

// Strings of every kind the wire can carry: empty, ASCII, any code point (astral included).
const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
const texts = fc.array(text, { maxLength: 3 });
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) => fc.record(model, { requiredKeys: [] });
const map = <T>(value: fc.Arbitrary<T>) => fc.dictionary(text, value, { maxKeys: 3 });
const params = fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const scopes = map(text);

const flows = fc.oneof(
  partial({
    authorizationCode: partial({
      authorizationUrl: text,
      tokenUrl: text,
      refreshUrl: text,
      scopes,
      pkceRequired: fc.boolean(),
    }),
  }),
  partial({ clientCredentials: partial({ tokenUrl: text, refreshUrl: text, scopes }) }),
  partial({ implicit: partial({ authorizationUrl: text, refreshUrl: text, scopes }) }),
  partial({ password: partial({ tokenUrl: text, refreshUrl: text, scopes }) }),
  partial({ deviceCode: partial({ deviceAuthorizationUrl: text, tokenUrl: text, refreshUrl: text, scopes }) }),
);
const scheme = fc.oneof(
  fc.record({ apiKeySecurityScheme: partial({ description: text, location: text, name: text }) }),
  fc.record({ httpAuthSecurityScheme: partial({ description: text, scheme: text, bearerFormat: text }) }),
  fc.record({ oauth2SecurityScheme: partial({ description: text, flows, oauth2MetadataUrl: text }) }),
  fc.record({ openIdConnectSecurityScheme: partial({ description: text, openIdConnectUrl: text }) }),
  fc.record({ mtlsSecurityScheme: partial({ description: text }) }),
);
const requirement = partial({ schemes: map(partial({ list: texts })) });
const requirements = fc.array(requirement, { maxLength: 2 });

/** Cards shaped like the v1.0 model, with empty strings, arrays and objects, false and 0 anywhere. */
const card = partial({
  name: text,
  description: text,
  supportedInterfaces: fc.array(partial({ url: text, protocolBinding: text, protocolVersion: text, tenant: text }), {
    maxLength: 2,
  }),
  provider: partial({ organization: text, url: text }),
  version: text,
  documentationUrl: text,
  iconUrl: text,
  capabilities: partial({
    streaming: fc.boolean(),
    pushNotifications: fc.boolean(),
    extendedAgentCard: fc.boolean(),
    extensions: fc.array(partial({ uri: text, description: text, required: fc.boolean(), params }), { maxLength: 2 }),
  }),
  securitySchemes: map(scheme),
  securityRequirements: requirements,
  defaultInputModes: texts,
  defaultOutputModes: texts,
  skills: fc.array(
    partial({
      id: text,
      name: text,
      description: text,
      tags: texts,
      examples: texts,
      inputModes: texts,
      outputModes: texts,
      securityRequirements: requirements,
    }),
    { maxLength: 2 },
  ),
}) as fc.Arbitrary<AgentCard>;

/** What arrives from the wire besides: snake_case twins, legacy and vendor fields, two oneof members. */
const messyCard = fc
  .tuple(
    card,
    partial({
      url: text,
      protocolVersion: text,
      preferredTransport: text,
      default_input_modes: texts,
      icon_url: text,
      'x-vendor': fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.option(fc.tuple(scheme, scheme), { nil: undefined }),
  )
  .map(([base, extra, twoSchemes]) => {
    const result: Record<string, unknown> = { ...extra, ...base };
    if (twoSchemes) result.securitySchemes = { both: { ...twoSchemes[1], ...twoSchemes[0] } };
    return result as AgentCard;
  });

describe('canonicalizeAgentCard properties', () => {
  it('gives the same bytes as @a2a-js/sdk 1.3.0 for arbitrary cards of v1.0 members', () => {
    fc.assert(
      fc.property(card, (input) => {
        expect(canonicalizeAgentCard(input)).toBe(sdkCanonicalize(input as never));
      }),
      { numRuns: 1000 },
    );
  });

  it('covers every member of any card: the served form is the card, and the pruned form keeps every non-default value', () => {
    const isDefault = (v: unknown): boolean =>
      v === '' ||
      v === null ||
      (Array.isArray(v) && v.every(isDefault)) ||
      (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isDefault));
    fc.assert(
      fc.property(fc.oneof(card, messyCard), (input) => {
        const { signatures: _, ...content } = input as AgentCard & { signatures?: unknown };
        expect(JSON.parse(canonicalizeAgentCard(input, { form: 'served-as-is' }))).toEqual(
          JSON.parse(JSON.stringify(content)),
        );
        const pruned = JSON.parse(canonicalizeAgentCard(input));
        for (const [key, value] of Object.entries(content)) {
          if (!isDefault(value) && value !== undefined) expect(pruned).toHaveProperty([key]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never depends on signatures already present', () => {
    fc.assert(
      fc.property(
        card,
        fc.array(fc.record({ protected: text, signature: text }), { maxLength: 2 }),
        (input, signatures) => {
          expect(canonicalizeAgentCard({ ...input, signatures })).toBe(canonicalizeAgentCard(input));
        },
      ),
    );
  });
});

type Path = readonly (string | number)[];

function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  }
  return [path];
}

function changed(value: unknown): unknown {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0 ? 1 : -value;
  return 'x';
}

function mutate<T>(root: T, path: Path): T {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  node[last] = changed(node[last]);
  return copy as T;
}

describe('verifyAgentCard properties', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keys = { k: publicKey };

  it('fails when any value the signature covers is changed', async () => {
    await fc.assert(
      fc.asyncProperty(card, fc.nat(), async (input, pick) => {
        const signed = await signAgentCard(input, { privateKey, kid: 'k', alg: 'EdDSA' });
        expect((await verifyAgentCard(signed, { keys })).valid).toBe(true);
        const { signatures: _, ...covered } = signed;
        const paths = leaves(covered);
        fc.pre(paths.length > 0 && paths[0]!.length > 0);
        const path = paths[pick % paths.length]!;
        const tampered = mutate(signed, path);
        // Every leaf of a model-shaped card is covered: changing one always changes the payload.
        expect(canonicalizeAgentCard(tampered)).not.toBe(canonicalizeAgentCard(signed));
        const result = await verifyAgentCard(tampered, { keys });
        expect(result.valid).toBe(false);
        expect(result.signatures[0]!.reason).toMatch(/signature does not match the card/);
      }),
      { numRuns: 300 },
    );
  });

  it('fails when any character of the protected header or the signature is changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        card,
        fc.constantFrom('protected', 'signature'),
        fc.nat(),
        fc.nat(),
        async (input, part, at, by) => {
          const signed = await signAgentCard(input, { privateKey, kid: 'k', alg: 'EdDSA' });
          const entry = signed.signatures![0]!;
          const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
          const original = entry[part];
          // The last character also carries padding bits a decoder ignores, so it is left alone.
          const i = at % (original.length - 1);
          const c = alphabet[(alphabet.indexOf(original[i]!) + 1 + (by % 63)) % 64]!;
          const tampered = {
            ...signed,
            signatures: [{ ...entry, [part]: original.slice(0, i) + c + original.slice(i + 1) }],
          };
          const result = await verifyAgentCard(tampered, { keys });
          expect(result.valid).toBe(false);
          expect(result.signatures[0]!.reason).toBeTruthy();
        },
      ),
      { numRuns: 300 },
    );
  });
});
