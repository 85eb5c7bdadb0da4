import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrateAgentCard } from './migrate';
import { AgentCardSchema } from './model';
import { validateAgentCard } from './validate/validate';

type Card = Record<string, any>;
const fixture = (name: string): Card =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/spec/examples/${name}`, import.meta.url), 'utf8'));
const main = () => fixture('spec-8.5-sample-agent-card.main-16ba5269.json');
const migrate = (value: unknown) => {
  const result = migrateAgentCard(value);
  return { card: result.card as Card, changes: result.changes };
};
const errors = (card: unknown) =>
  validateAgentCard(card, { profile: 'development' }).findings.filter((f) => f.severity === 'error');

describe('migrateAgentCard', () => {
  it('turns the v0.3 spec sample into a v1.0 card with no errors', () => {
    const { card, changes } = migrate(fixture('legacy-v0.3.0-spec-5.7-sample-agent-card.json'));
    expect(errors(card)).toEqual([]);
    expect(AgentCardSchema.safeParse(card).success).toBe(true);
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://georoute-agent.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '0.2' },
      { url: 'https://georoute-agent.example.com/a2a/grpc', protocolBinding: 'GRPC', protocolVersion: '0.2' },
      { url: 'https://georoute-agent.example.com/a2a/json', protocolBinding: 'HTTP+JSON', protocolVersion: '0.2' },
    ]);
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    expect(card.securitySchemes).toEqual(main().securitySchemes);
    expect(card.securityRequirements).toEqual(main().securityRequirements);
    for (const key of [
      'url',
      'preferredTransport',
      'additionalInterfaces',
      'protocolVersion',
      'security',
      'supportsAuthenticatedExtendedCard',
    ]) {
      expect(card).not.toHaveProperty(key);
    }
    expect(changes.map((c) => c.path)).toEqual(
      expect.arrayContaining([
        '/url',
        '/preferredTransport',
        '/additionalInterfaces',
        '/protocolVersion',
        '/security',
        '/supportsAuthenticatedExtendedCard',
        '/securitySchemes/google',
        '/capabilities/stateTransitionHistory',
      ]),
    );
    // Apart from the interfaces' declared version, the result is the current spec sample.
    card.supportedInterfaces.forEach((i: Card) => (i.protocolVersion = '1.0'));
    expect(card).toEqual(main());
  });

  it.each(['spec-8.5-sample-agent-card.v1.0.0.json', 'spec-8.5-sample-agent-card.v1.0.1.json'])(
    'fixes the %s sample: security → securityRequirements, stateTransitionHistory dropped',
    (file) => {
      const { card, changes } = migrate(fixture(file));
      expect(card).toEqual(main());
      expect(JSON.stringify(card)).not.toContain('stateTransitionHistory');
      expect(changes.find((c) => c.path === '/security')).toMatchObject({ target: '/securityRequirements' });
      expect(errors(card)).toEqual([]);
    },
  );

  it('leaves a plain v1.0 card unchanged, with its keys in model order', () => {
    const { card, changes } = migrate(main());
    expect(changes).toEqual([]);
    expect(card).toEqual(main());
    expect(Object.keys(card)).toEqual(Object.keys(AgentCardSchema.shape).filter((k) => k in main()));
    expect(Object.keys(card.provider)).toEqual(['url', 'organization']);
  });

  it.each([
    [
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'key' },
      { apiKeySecurityScheme: { description: 'key', location: 'header', name: 'X-API-Key' } },
    ],
    [
      { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
      { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    ],
    [{ type: 'mutualTLS' }, { mtlsSecurityScheme: {} }],
    [
      { type: 'openIdConnect', openIdConnectUrl: 'https://id.acme.com/.well-known/openid-configuration' },
      { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.acme.com/.well-known/openid-configuration' } },
    ],
    [
      {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: 'https://id.acme.com/token', scopes: { read: 'Read' } } },
        oauth2MetadataUrl: 'https://id.acme.com/.well-known/oauth-authorization-server',
      },
      {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://id.acme.com/token', scopes: { read: 'Read' } } },
          oauth2MetadataUrl: 'https://id.acme.com/.well-known/oauth-authorization-server',
        },
      },
    ],
  ])('converts the v0.3 scheme %j', (legacy, v1) => {
    const { card } = migrate({
      ...main(),
      securitySchemes: { s: legacy },
      securityRequirements: [{ schemes: { s: { list: [] } } }],
    });
    expect(card.securitySchemes).toEqual({ s: v1 });
    expect(JSON.stringify(card.securitySchemes)).toBe(JSON.stringify({ s: v1 }));
  });

  it('splits an OAuth scheme with two flows and offers both as alternatives', () => {
    const flows = {
      authorizationCode: {
        authorizationUrl: 'https://id.acme.com/authorize',
        tokenUrl: 'https://id.acme.com/token',
        scopes: { read: 'Read' },
      },
      clientCredentials: { tokenUrl: 'https://id.acme.com/token', scopes: { read: 'Read' } },
    };
    const input = { ...main(), securitySchemes: { oauth: { type: 'oauth2', flows } } };
    delete (input as Card).securityRequirements;
    (input as Card).security = [{ oauth: ['read'] }];
    const { card, changes } = migrate(input);
    expect(changes.at(-1)?.change).not.toContain('migration stopped');
    expect(Object.keys(card.securitySchemes)).toEqual(['oauth', 'oauth-clientCredentials']);
    expect(card.securityRequirements).toEqual([
      { schemes: { oauth: { list: ['read'] } } },
      { schemes: { 'oauth-clientCredentials': { list: ['read'] } } },
    ]);
    expect(changes.find((c) => c.path === '/securitySchemes/oauth')?.change).toContain('one OAuth flow per scheme');
    expect(errors(card)).toEqual([]);
  });

  it('converts a v0.2 card (url only, authentication) and renames snake_case keys', () => {
    const legacy = {
      name: 'Old agent',
      description: 'An agent from the v0.2 days that answers billing questions.',
      url: 'https://old.acme.com/a2a',
      version: '2.0.0',
      capabilities: { streaming: false, state_transition_history: false },
      authentication: { schemes: ['Bearer', 'OAuth2'] },
      default_input_modes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        {
          id: 'billing',
          name: 'Billing',
          description: 'Answers billing questions.',
          tags: ['billing'],
          input_modes: ['text/plain'],
        },
      ],
    };
    const { card, changes } = migrate(legacy);
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://old.acme.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.skills[0].inputModes).toEqual(['text/plain']);
    expect(changes.find((c) => c.path === '/authentication')?.change).toContain(
      '"OAuth2" cannot be converted automatically',
    );
    expect(changes.find((c) => c.path === '/default_input_modes')).toMatchObject({ target: '/defaultInputModes' });
    expect(Object.keys(card)).toEqual([
      'name',
      'description',
      'supportedInterfaces',
      'version',
      'capabilities',
      'securitySchemes',
      'securityRequirements',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ]);
    // The snake_case capability stays as an unknown field: it has no v1.0 counterpart.
    expect(errors(card)).toEqual([]);
  });

  it("keeps a mixed card's interfaces and adds the legacy endpoint only when it is missing", () => {
    const known = migrate({
      ...main(),
      url: 'https://georoute-agent.example.com/a2a/v1',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
    });
    expect(known.card.supportedInterfaces).toEqual(main().supportedInterfaces);
    const missing = migrate({ ...main(), url: 'https://legacy.acme.com/a2a', protocolVersion: '0.3.0' });
    expect(missing.card.supportedInterfaces.at(-1)).toEqual({
      url: 'https://legacy.acme.com/a2a',
      protocolBinding: 'JSONRPC',
      protocolVersion: '0.3',
    });
  });

  it('is deterministic and does not touch its input', () => {
    const input = fixture('legacy-v0.3.0-spec-5.7-sample-agent-card.json');
    const before = JSON.stringify(input);
    const a = migrate(input);
    const b = migrate(JSON.parse(before));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(input)).toBe(before);
  });

  it('the validator hints carry the JSON the migration produces', () => {
    const input = fixture('legacy-v0.3.0-spec-5.7-sample-agent-card.json');
    const { card } = migrate(input);
    const hint = validateAgentCard(input).findings.find((f) => f.path === '/url')!.hint;
    expect(hint).toContain(`"supportedInterfaces": ${JSON.stringify(card.supportedInterfaces)}`);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: true }), (value) => {
        const result = migrateAgentCard(value);
        expect(typeof result.card).toBe('object');
        expect(Array.isArray(result.changes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('migrateAgentCard on hostile depth', () => {
  it('cuts a value nested 100,000 levels at 64 and lists the cut as a change', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const { card, changes } = migrate({ ...main(), extra: deep });
    expect(changes).toContainEqual({
      path: `/extra${'/0'.repeat(63)}`,
      change: 'replaced by null: nested deeper than 64 levels.',
    });
    expect(() => JSON.stringify(card)).not.toThrow();
  });
});
