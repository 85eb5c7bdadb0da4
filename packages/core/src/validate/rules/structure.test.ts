import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Severity, ValidationProfile } from '../../findings';
import { validateAgentCard } from '../validate';

type Card = Record<string, any>;
const sample = (): Card =>
  JSON.parse(
    readFileSync(
      new URL(
        '../../../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json',
        import.meta.url,
      ),
      'utf8',
    ),
  );
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const STRUCTURE_RULES = new Set([
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
]);

function run(edit: (c: Card) => void, profile: ValidationProfile = 'development') {
  const card = sample();
  edit(card);
  return validateAgentCard(card, { profile });
}

describe('structure rules on the spec §8.5 sample', () => {
  it('reports no structure finding on the proto-conformant sample', () => {
    const result = validateAgentCard(sample(), { profile: 'strict' });
    expect(result.findings.filter((f) => STRUCTURE_RULES.has(f.rule))).toEqual([]);
  });
});

type Row = [name: string, edit: (c: Card) => void, rule: string, severity: Severity, path: string, message: string];

const triggers: Row[] = [
  ['missing name', (c) => delete c.name, 'required-fields', 'error', '/name', 'name: missing (required).'],
  [
    'null version',
    (c) => (c.version = null),
    'required-fields',
    'error',
    '/version',
    'version: missing (required) (null).',
  ],
  [
    'missing skills',
    (c) => delete c.skills,
    'required-fields',
    'error',
    '/skills',
    'skills: missing (required, at least one skill).',
  ],
  [
    'missing supportedInterfaces',
    (c) => delete c.supportedInterfaces,
    'required-fields',
    'error',
    '/supportedInterfaces',
    'supportedInterfaces: missing',
  ],
  [
    'snake_case instead of camelCase',
    (c) => {
      c.default_input_modes = c.defaultInputModes;
      delete c.defaultInputModes;
    },
    'required-fields',
    'error',
    '/defaultInputModes',
    'found snake_case "default_input_modes"',
  ],
  [
    'name is a number',
    (c) => (c.name = 42),
    'field-types',
    'error',
    '/name',
    'name: expected a string, got number (42).',
  ],
  ['blank description', (c) => (c.description = '   '), 'field-types', 'error', '/description', 'description: blank'],
  [
    'capability flag as string',
    (c) => (c.capabilities.streaming = 'yes'),
    'field-types',
    'error',
    '/capabilities/streaming',
    'expected a boolean',
  ],
  [
    'capabilities is an array',
    (c) => (c.capabilities = []),
    'field-types',
    'error',
    '/capabilities',
    'expected an object, got array',
  ],
  [
    'input modes not an array',
    (c) => (c.defaultInputModes = 'text/plain'),
    'field-types',
    'error',
    '/defaultInputModes',
    'expected an array',
  ],
  [
    'skill example not a string',
    (c) => (c.skills[0].examples = [1]),
    'field-types',
    'error',
    '/skills/0/examples/0',
    'expected a string',
  ],
  [
    'empty interfaces',
    (c) => (c.supportedInterfaces = []),
    'required-arrays-non-empty',
    'error',
    '/supportedInterfaces',
    'supportedInterfaces: empty (required, at least one interface).',
  ],
  [
    'empty output modes',
    (c) => (c.defaultOutputModes = []),
    'required-arrays-non-empty',
    'error',
    '/defaultOutputModes',
    'at least one media type',
  ],
  [
    'empty skills',
    (c) => (c.skills = []),
    'skills-non-empty',
    'error',
    '/skills',
    'skills: empty (required, at least one skill).',
  ],
  [
    'interface without url',
    (c) => delete c.supportedInterfaces[1].url,
    'interface-required-fields',
    'error',
    '/supportedInterfaces/1/url',
    'supportedInterfaces[1].url: missing (required).',
  ],
  [
    'interface with blank binding',
    (c) => (c.supportedInterfaces[0].protocolBinding = ''),
    'interface-required-fields',
    'error',
    '/supportedInterfaces/0/protocolBinding',
    'blank',
  ],
  [
    'interface without protocolVersion',
    (c) => delete c.supportedInterfaces[2].protocolVersion,
    'interface-required-fields',
    'error',
    '/supportedInterfaces/2/protocolVersion',
    'missing',
  ],
  [
    'tenant not a string',
    (c) => (c.supportedInterfaces[0].tenant = 7),
    'interface-required-fields',
    'error',
    '/supportedInterfaces/0/tenant',
    'expected a string',
  ],
  [
    'skill without id',
    (c) => delete c.skills[1].id,
    'skill-required-fields',
    'error',
    '/skills/1/id',
    'skills[1].id: missing (required).',
  ],
  [
    'skill with blank name',
    (c) => (c.skills[0].name = ' '),
    'skill-required-fields',
    'error',
    '/skills/0/name',
    'blank',
  ],
  [
    'skill description is a number',
    (c) => (c.skills[0].description = 3),
    'skill-required-fields',
    'error',
    '/skills/0/description',
    'expected a string',
  ],
  [
    'skill without tags',
    (c) => delete c.skills[1].tags,
    'skill-tags-required',
    'error',
    '/skills/1/tags',
    'skills[1].tags: missing (required, at least one tag).',
  ],
  [
    'skill with no tags',
    (c) => (c.skills[0].tags = []),
    'skill-tags-required',
    'error',
    '/skills/0/tags',
    'skills[0].tags: empty (required, at least one tag).',
  ],
  [
    'skill with a blank tag',
    (c) => (c.skills[0].tags = ['maps', '']),
    'skill-tags-required',
    'error',
    '/skills/0/tags/1',
    'blank tag',
  ],
  [
    'provider without organization',
    (c) => delete c.provider.organization,
    'provider-required-fields',
    'error',
    '/provider/organization',
    'provider.organization: missing (required).',
  ],
  [
    'provider with blank url',
    (c) => (c.provider.url = ''),
    'provider-required-fields',
    'error',
    '/provider/url',
    'blank',
  ],
  [
    'provider is a string',
    (c) => (c.provider = 'ACME'),
    'provider-required-fields',
    'error',
    '/provider',
    'expected an object',
  ],
  [
    'scheme without wrapper',
    (c) => (c.securitySchemes.google = {}),
    'security-scheme-shape',
    'error',
    '/securitySchemes/google',
    'no security scheme',
  ],
  [
    'scheme with two wrappers',
    (c) => (c.securitySchemes.google.mtlsSecurityScheme = {}),
    'security-scheme-shape',
    'error',
    '/securitySchemes/google',
    '2 schemes in one entry (openIdConnectSecurityScheme, mtlsSecurityScheme)',
  ],
  [
    'apiKey in body',
    (c) => (c.securitySchemes.key = { apiKeySecurityScheme: { location: 'body', name: 'k' } }),
    'security-scheme-shape',
    'error',
    '/securitySchemes/key/apiKeySecurityScheme/location',
    'must be query, header, cookie ("body")',
  ],
  [
    'apiKey without name',
    (c) => (c.securitySchemes.key = { apiKeySecurityScheme: { location: 'header' } }),
    'security-scheme-shape',
    'error',
    '/securitySchemes/key/apiKeySecurityScheme/name',
    'missing (required)',
  ],
  [
    'OIDC without url',
    (c) => (c.securitySchemes.google.openIdConnectSecurityScheme = {}),
    'security-scheme-shape',
    'error',
    '/securitySchemes/google/openIdConnectSecurityScheme/openIdConnectUrl',
    'missing',
  ],
  [
    'OAuth with two flows',
    (c) =>
      (c.securitySchemes.oauth = {
        oauth2SecurityScheme: {
          flows: {
            clientCredentials: { tokenUrl: 'https://a.b/t', scopes: {} },
            deviceCode: { deviceAuthorizationUrl: 'https://a.b/d', tokenUrl: 'https://a.b/t', scopes: {} },
          },
        },
      }),
    'oauth-flow-shape',
    'error',
    '/securitySchemes/oauth/oauth2SecurityScheme/flows',
    '2 flows in one scheme (clientCredentials, deviceCode)',
  ],
  [
    'OAuth with no flow',
    (c) => (c.securitySchemes.oauth = { oauth2SecurityScheme: { flows: {} } }),
    'oauth-flow-shape',
    'error',
    '/securitySchemes/oauth/oauth2SecurityScheme/flows',
    'no OAuth flow',
  ],
  [
    'client credentials without tokenUrl',
    (c) => (c.securitySchemes.oauth = { oauth2SecurityScheme: { flows: { clientCredentials: { scopes: {} } } } }),
    'oauth-flow-shape',
    'error',
    '/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/tokenUrl',
    'missing (required)',
  ],
  [
    'deprecated implicit flow',
    (c) =>
      (c.securitySchemes.oauth = {
        oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: 'https://a.b/a', scopes: {} } } },
      }),
    'oauth-flow-shape',
    'warning',
    '/securitySchemes/oauth/oauth2SecurityScheme/flows/implicit',
    'deprecated OAuth flow',
  ],
  [
    'v0.3 requirement inside securityRequirements',
    (c) => (c.securityRequirements = [{ google: ['openid'] }]),
    'security-requirement-shape',
    'error',
    '/securityRequirements/0',
    'v0.3 requirement shape',
  ],
  [
    'scopes not wrapped in list',
    (c) => (c.securityRequirements[0].schemes.google = ['openid']),
    'security-requirement-shape',
    'error',
    '/securityRequirements/0/schemes/google',
    'expected an object, got array',
  ],
  [
    'skill requirement list not an array',
    (c) => (c.skills[0].securityRequirements = [{ schemes: { google: { list: 'openid' } } }]),
    'security-requirement-shape',
    'error',
    '/skills/0/securityRequirements/0/schemes/google/list',
    'expected an array',
  ],
  [
    'signature not base64url',
    (c) => (c.signatures[0].signature = 'abc+/='),
    'signature-format',
    'error',
    '/signatures/0/signature',
    'not base64url',
  ],
  [
    'signature header without kid',
    (c) => (c.signatures[0].protected = b64({ alg: 'ES256', typ: 'JOSE' })),
    'signature-format',
    'error',
    '/signatures/0/protected',
    'header has no "kid"',
  ],
  [
    'signature header not JSON',
    (c) => (c.signatures[0].protected = Buffer.from('nope').toString('base64url')),
    'signature-format',
    'error',
    '/signatures/0/protected',
    'does not decode to a JSON object',
  ],
  [
    'signature header with typ JWT',
    (c) => (c.signatures[0].protected = b64({ alg: 'ES256', typ: 'JWT', kid: 'k' })),
    'signature-format',
    'warning',
    '/signatures/0/protected',
    'header "typ" should be "JOSE" ("JWT")',
  ],
  [
    'signature jku over http',
    (c) =>
      (c.signatures[0].protected = b64({ alg: 'ES256', typ: 'JOSE', kid: 'k', jku: 'http://keys.acme.com/jwks.json' })),
    'signature-format',
    'error',
    '/signatures/0/protected',
    'header "jku" is not an https URL',
  ],
  [
    'signature without signature',
    (c) => delete c.signatures[0].signature,
    'signature-format',
    'error',
    '/signatures/0/signature',
    'missing (required)',
  ],
  [
    'extension without uri',
    (c) => (c.capabilities.extensions = [{ description: 'x' }]),
    'extension-uri-required',
    'error',
    '/capabilities/extensions/0/uri',
    'capabilities.extensions[0].uri: missing',
  ],
  [
    'extension with relative uri',
    (c) => (c.capabilities.extensions = [{ uri: '/ext/v1' }]),
    'extension-uri-required',
    'error',
    '/capabilities/extensions/0/uri',
    'not an absolute URI ("/ext/v1")',
  ],
  [
    'extension required as string',
    (c) => (c.capabilities.extensions = [{ uri: 'https://acme.com/ext/v1', required: 'true' }]),
    'extension-uri-required',
    'error',
    '/capabilities/extensions/0/required',
    'expected a boolean',
  ],
  [
    'extension params as array',
    (c) => (c.capabilities.extensions = [{ uri: 'https://acme.com/ext/v1', params: [] }]),
    'extension-uri-required',
    'error',
    '/capabilities/extensions/0/params',
    'expected an object',
  ],
  [
    'snake_case top-level key',
    (c) => {
      c.icon_url = c.iconUrl;
      delete c.iconUrl;
    },
    'json-camelcase',
    'warning',
    '/icon_url',
    'icon_url: snake_case key',
  ],
  [
    'snake_case nested key',
    (c) => {
      c.supportedInterfaces[0].protocol_binding = 'JSONRPC';
    },
    'json-camelcase',
    'warning',
    '/supportedInterfaces/0/protocol_binding',
    'and "protocolBinding" is also present',
  ],
  [
    'unknown top-level field',
    (c) => (c.homepage = 'https://acme.com'),
    'unknown-field',
    'warning',
    '/homepage',
    'homepage: unknown field ("https://acme.com").',
  ],
  [
    'unknown nested field',
    (c) => (c.skills[1].priority = 1),
    'unknown-field',
    'warning',
    '/skills/1/priority',
    'skills[1].priority: unknown field (1).',
  ],
  [
    'unknown field deep in a flow',
    (c) =>
      (c.securitySchemes.oauth = {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://a.b/t', scopes: {}, audience: 'x' } },
        },
      }),
    'unknown-field',
    'warning',
    '/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/audience',
    'unknown field',
  ],
  [
    'removed capability',
    (c) => (c.capabilities.stateTransitionHistory = false),
    'unknown-field',
    'warning',
    '/capabilities/stateTransitionHistory',
    'removed in A2A v1.0 (false).',
  ],
  [
    '__proto__ key',
    (c) => Object.defineProperty(c, '__proto__', { value: { polluted: true }, enumerable: true }),
    'unknown-field',
    'warning',
    '/__proto__',
    '__proto__: unknown field (object with "polluted")',
  ],
];

describe.each(triggers)('%s', (_name, edit, rule, severity, path, message) => {
  it(`reports ${rule}`, () => {
    const { findings } = run(edit);
    const hit = findings.find((f) => f.rule === rule && f.path === path);
    expect(
      hit,
      JSON.stringify(
        findings.filter((f) => f.rule === rule),
        null,
        1,
      ),
    ).toBeDefined();
    expect(hit!.severity).toBe(severity);
    expect(hit!.message).toContain(message);
    expect(hit!.hint.length).toBeGreaterThan(10);
  });
});

const passes: [name: string, edit: (c: Card) => void, rule: string][] = [
  ['all v1.0 required fields present', () => {}, 'required-fields'],
  [
    'optional fields absent',
    (c) => {
      delete c.provider;
      delete c.iconUrl;
      delete c.documentationUrl;
      delete c.signatures;
    },
    'required-fields',
  ],
  [
    'types as in the proto',
    (c) => (c.capabilities = { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] }),
    'field-types',
  ],
  [
    'one element per required array',
    (c) => {
      c.defaultInputModes = ['text/plain'];
      c.supportedInterfaces = c.supportedInterfaces.slice(0, 1);
    },
    'required-arrays-non-empty',
  ],
  ['one skill', (c) => (c.skills = c.skills.slice(0, 1)), 'skills-non-empty'],
  ['interface with tenant', (c) => (c.supportedInterfaces[0].tenant = 'acme'), 'interface-required-fields'],
  ['skills with every field', () => {}, 'skill-required-fields'],
  ['one tag', (c) => (c.skills[0].tags = ['maps']), 'skill-tags-required'],
  ['provider with both fields', () => {}, 'provider-required-fields'],
  [
    'each wrapper once',
    (c) =>
      (c.securitySchemes = {
        k: { apiKeySecurityScheme: { location: 'cookie', name: 'sid' } },
        b: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
        m: { mtlsSecurityScheme: {} },
      }),
    'security-scheme-shape',
  ],
  [
    'one flow',
    (c) =>
      (c.securitySchemes.oauth = {
        oauth2SecurityScheme: {
          flows: { deviceCode: { deviceAuthorizationUrl: 'https://a.b/d', tokenUrl: 'https://a.b/t', scopes: {} } },
        },
      }),
    'oauth-flow-shape',
  ],
  [
    'empty scope list and ProtoJSON {}',
    (c) => (c.securityRequirements = [{ schemes: { google: {} } }, { schemes: { google: { list: [] } } }]),
    'security-requirement-shape',
  ],
  [
    'well-formed signature header',
    (c) =>
      (c.signatures[0].protected = b64({
        alg: 'ES256',
        typ: 'JOSE',
        kid: 'k',
        jku: 'https://keys.acme.com/jwks.json',
      })),
    'signature-format',
  ],
  [
    'extension with URN',
    (c) => (c.capabilities.extensions = [{ uri: 'urn:acme:ext:audit:v1', required: true, params: { a: 1 } }]),
    'extension-uri-required',
  ],
  ['camelCase keys only', () => {}, 'json-camelcase'],
  ['known keys only', () => {}, 'unknown-field'],
];

describe.each(passes)('%s', (_name, edit, rule) => {
  it(`does not report ${rule}`, () => {
    expect(run(edit, 'strict').findings.filter((f) => f.rule === rule)).toEqual([]);
  });
});

describe('profiles', () => {
  it.each([
    ['development', 'warning'],
    ['production', 'warning'],
    ['strict', 'error'],
  ] as const)('%s: unknown-field and json-camelcase are %s', (profile, severity) => {
    const { findings, valid } = run((c) => {
      c.homepage = 'https://acme.com';
      c.default_output_modes = ['text/plain'];
    }, profile);
    expect(findings.find((f) => f.rule === 'unknown-field')?.severity).toBe(severity);
    expect(findings.find((f) => f.rule === 'json-camelcase')?.severity).toBe(severity);
    if (profile === 'strict') expect(valid).toBe(false);
  });

  it('skills-non-empty can be lowered to a warning, except under strict', () => {
    const card = { ...sample(), skills: [] };
    const dev = validateAgentCard(card, { profile: 'development', skillsNonEmpty: 'warning' });
    expect(dev.findings.find((f) => f.rule === 'skills-non-empty')?.severity).toBe('warning');
    const strict = validateAgentCard(card, { profile: 'strict', skillsNonEmpty: 'warning' });
    expect(strict.findings.find((f) => f.rule === 'skills-non-empty')?.severity).toBe('error');
  });
});

describe('reporting', () => {
  it('reports every problem, not the first', () => {
    const { findings } = run((c) => {
      delete c.name;
      c.skills[0].tags = [];
      delete c.skills[1].tags;
      c.supportedInterfaces[2].protocolVersion = '';
      c.foo = 1;
    });
    expect(findings.map((f) => `${f.rule} ${f.path}`)).toEqual(
      expect.arrayContaining([
        'required-fields /name',
        'skill-tags-required /skills/0/tags',
        'skill-tags-required /skills/1/tags',
        'interface-required-fields /supportedInterfaces/2/protocolVersion',
        'unknown-field /foo',
      ]),
    );
  });

  it('suggests the field an unknown key was meant to be', () => {
    const hit = run((c) => (c.skills[0].tag = ['x'])).findings.find((f) => f.rule === 'unknown-field');
    expect(hit?.hint).toContain('Did you mean "tags"?');
  });

  it('does not flag the snake_case alias as unknown too', () => {
    const { findings } = run((c) => (c.default_input_modes = ['text/plain']));
    expect(findings.filter((f) => f.path === '/default_input_modes').map((f) => f.rule)).toEqual(['json-camelcase']);
  });

  it('checks the v0.3 required set on v0.3 cards', () => {
    const { findings } = validateAgentCard({ url: 'https://acme.com/a2a', protocolVersion: '0.3.0', name: 'A' });
    const missing = findings.filter((f) => f.rule === 'required-fields').map((f) => f.path);
    expect(missing).toEqual([
      '/description',
      '/version',
      '/capabilities',
      '/defaultInputModes',
      '/defaultOutputModes',
      '/skills',
    ]);
  });
});
