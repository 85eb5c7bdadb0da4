import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Severity, ValidationProfile } from '../../findings';
import { baseCard, cardWith, runCheck, specSampleCard } from '../test-cards';
import { validateAgentCard } from '../validate';
import { bindingInfo, checkSemantics } from './semantics';

type Edit = (card: any) => void;
type Trigger = [title: string, edit: Edit, rule: string, severity: Severity, path: string, message: string];
type Clean = [title: string, edit: Edit, rule: string];

const apiKeyScheme = { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } };
const noSecurity: Edit = (c) => {
  delete c.securitySchemes;
  delete c.securityRequirements;
  delete c.skills[1].securityRequirements;
};

describe('checkSemantics', () => {
  it('reports nothing for a clean card', () => {
    expect(runCheck(checkSemantics, baseCard())).toEqual([]);
  });

  it('reports only the preferred interface for the spec §8.5 sample', () => {
    expect(runCheck(checkSemantics, specSampleCard()).map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['interface-preference', 'info', '/supportedInterfaces/0'],
    ]);
  });

  const triggers: Trigger[] = [
    // 19 skill-id-unique
    [
      'exact duplicate skill id',
      (c) => (c.skills[1].id = 'order-status'),
      'skill-id-unique',
      'error',
      '/skills/1/id',
      'skills[1].id: duplicates skills[0].id ("order-status").',
    ],
    [
      'skill ids that differ only in case',
      (c) => (c.skills[1].id = 'Order-Status'),
      'skill-id-unique',
      'warning',
      '/skills/1/id',
      'only in letter case ("Order-Status")',
    ],
    // 20 security-scheme-reference
    [
      'card requirement naming an undefined scheme',
      (c) => (c.securityRequirements[0].schemes = { bearer: { list: [] } }),
      'security-scheme-reference',
      'error',
      '/securityRequirements/0/schemes/bearer',
      'securityRequirements[0].schemes.bearer: names a scheme that securitySchemes does not define ("bearer").',
    ],
    [
      'skill requirement naming an undefined scheme',
      (c) => (c.skills[1].securityRequirements[0].schemes = { apiKey: { list: [] } }),
      'security-scheme-reference',
      'error',
      '/skills/1/securityRequirements/0/schemes/apiKey',
      'does not define ("apiKey")',
    ],
    [
      'scheme defined but never required',
      (c) => (c.securitySchemes.mtls = { mtlsSecurityScheme: {} }),
      'security-scheme-reference',
      'info',
      '/securitySchemes/mtls',
      'securitySchemes.mtls: is defined but no securityRequirements entry uses it',
    ],
    // 21 security-scope-declared
    [
      'OAuth scope missing from the flow',
      (c) => c.securityRequirements[0].schemes.oauth.list.push('admin'),
      'security-scope-declared',
      'warning',
      '/securityRequirements/0/schemes/oauth/list/1',
      'scope "admin" is not declared in the "oauth" scheme\'s flow scopes',
    ],
    [
      'roles listed for an API key scheme',
      (c) => {
        c.securitySchemes.key = apiKeyScheme;
        c.securityRequirements.push({ schemes: { key: { list: ['admin'] } } });
      },
      'security-scope-declared',
      'info',
      '/securityRequirements/1/schemes/key/list',
      'lists roles for the non-OAuth scheme "key" (apiKeySecurityScheme)',
    ],
    // 22 security-empty
    [
      'a skill that opts out of the authentication the card requires',
      (c) => (c.skills[0].securityRequirements = [{ schemes: {} }]),
      'security-empty',
      'warning',
      '/skills/0/securityRequirements/0',
      'skills[0].securityRequirements[0]: names no scheme ({}), which makes authentication optional.',
    ],
    [
      'requirement with an empty schemes map',
      (c) => c.securityRequirements.push({ schemes: {} }),
      'security-empty',
      'warning',
      '/securityRequirements/1',
      'makes authentication optional',
    ],
    [
      'requirement with no schemes key',
      (c) => c.securityRequirements.push({}),
      'security-empty',
      'warning',
      '/securityRequirements/1',
      'names no scheme ({})',
    ],
    [
      'requirements but no schemes',
      (c) => delete c.securitySchemes,
      'security-empty',
      'warning',
      '/securityRequirements',
      'securityRequirements: requires security, but the card defines no securitySchemes.',
    ],
    // 23 extended-card-requires-security
    [
      'extended card without security',
      noSecurity,
      'extended-card-requires-security',
      'error',
      '/capabilities/extendedAgentCard',
      'capabilities.extendedAgentCard: is true but the card declares no securitySchemes',
    ],
    // 24 mode-media-type
    [
      'legacy "text" mode',
      (c) => (c.defaultInputModes[0] = 'text'),
      'mode-media-type',
      'warning',
      '/defaultInputModes/0',
      'defaultInputModes[0]: is a legacy mode token, not a media type ("text").',
    ],
    [
      'legacy "file" mode on a skill',
      (c) => (c.skills[0].outputModes = ['file']),
      'mode-media-type',
      'warning',
      '/skills/0/outputModes/0',
      'legacy mode token',
    ],
    [
      'malformed media type',
      (c) => (c.defaultOutputModes[0] = 'text plain'),
      'mode-media-type',
      'warning',
      '/defaultOutputModes/0',
      'is not a media type of the form type/subtype ("text plain")',
    ],
    [
      'duplicate media type',
      (c) => (c.defaultInputModes = ['text/plain', 'TEXT/plain']),
      'mode-media-type',
      'info',
      '/defaultInputModes/1',
      'defaultInputModes[1]: repeats defaultInputModes[0]',
    ],
    // 25 interface-binding-known
    [
      'lower-case binding',
      (c) => (c.supportedInterfaces[0].protocolBinding = 'jsonrpc'),
      'interface-binding-known',
      'error',
      '/supportedInterfaces/0/protocolBinding',
      'is not the exact spec spelling ("jsonrpc")',
    ],
    [
      'unknown binding',
      (c) => (c.supportedInterfaces[0].protocolBinding = 'MQTT'),
      'interface-binding-known',
      'error',
      '/supportedInterfaces/0/protocolBinding',
      'is neither JSONRPC, GRPC, HTTP+JSON nor an absolute URI ("MQTT")',
    ],
    // 26 interface-protocol-version
    [
      'patch number in protocolVersion',
      (c) => (c.supportedInterfaces[0].protocolVersion = '1.0.0'),
      'interface-protocol-version',
      'warning',
      '/supportedInterfaces/0/protocolVersion',
      'includes a patch number',
    ],
    [
      'protocolVersion not MAJOR.MINOR',
      (c) => (c.supportedInterfaces[0].protocolVersion = 'v1'),
      'interface-protocol-version',
      'warning',
      '/supportedInterfaces/0/protocolVersion',
      'is not of the form MAJOR.MINOR ("v1")',
    ],
    [
      'unreleased protocolVersion',
      (c) => (c.supportedInterfaces[0].protocolVersion = '2.1'),
      'interface-protocol-version',
      'info',
      '/supportedInterfaces/0/protocolVersion',
      'is not a released A2A protocol version ("2.1")',
    ],
    // 27 interface-url-format
    [
      'URL without scheme',
      (c) => (c.supportedInterfaces[0].url = 'api.acme.io/a2a'),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'supportedInterfaces[0].url: is not an absolute URL ("api.acme.io/a2a").',
    ],
    [
      'relative URL',
      (c) => (c.supportedInterfaces[0].url = '/a2a'),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'is not an absolute URL ("/a2a")',
    ],
    [
      'non-http scheme on JSONRPC',
      (c) => (c.supportedInterfaces[0].url = 'ftp://api.acme.io/a2a'),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'uses the ftp scheme, but JSONRPC needs http(s)',
    ],
    [
      'credentials in userinfo',
      (c) => (c.supportedInterfaces[0].url = 'https://bob:s3cret@api.acme.io/a2a'),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'carries credentials in the URL userinfo ("https://bob:***@api.acme.io/a2a")',
    ],
    [
      'fragment',
      (c) => (c.supportedInterfaces[0].url = 'https://api.acme.io/a2a#v1'),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'has a fragment',
    ],
    [
      'gRPC host without port',
      (c) => (c.supportedInterfaces[0] = { url: 'grpc.acme.io', protocolBinding: 'GRPC', protocolVersion: '1.0' }),
      'interface-url-format',
      'error',
      '/supportedInterfaces/0/url',
      'is not an absolute URL ("grpc.acme.io")',
    ],
    // 28 interface-duplicate
    [
      'duplicate interface',
      (c) => c.supportedInterfaces.push({ ...c.supportedInterfaces[0] }),
      'interface-duplicate',
      'warning',
      '/supportedInterfaces/1',
      'supportedInterfaces[1]: repeats supportedInterfaces[0] (JSONRPC 1.0 at "https://api.acme.io/a2a").',
    ],
    // 29 interface-preference
    [
      'several interfaces',
      (c) =>
        c.supportedInterfaces.push({
          url: 'https://api.acme.io/rest',
          protocolBinding: 'HTTP+JSON',
          protocolVersion: '1.0',
        }),
      'interface-preference',
      'info',
      '/supportedInterfaces/0',
      'is the interface clients try first (JSONRPC 1.0 at "https://api.acme.io/a2a")',
    ],
    [
      'http listed before https',
      (c) =>
        c.supportedInterfaces.unshift({
          url: 'http://api.acme.io/a2a',
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        }),
      'interface-preference',
      'warning',
      '/supportedInterfaces/0',
      'uses http:// while a later entry uses https://',
    ],
    [
      '0.3 listed before 1.0',
      (c) =>
        c.supportedInterfaces.unshift({
          url: 'https://api.acme.io/v03',
          protocolBinding: 'JSONRPC',
          protocolVersion: '0.3',
        }),
      'interface-preference',
      'warning',
      '/supportedInterfaces/0',
      'speaks an older protocol version than a later entry',
    ],
    // 30 version-format
    [
      'MAJOR.MINOR agent version',
      (c) => (c.version = '1.0'),
      'version-format',
      'info',
      '/version',
      'version: is not a SemVer version ("1.0").',
    ],
    ['v-prefixed agent version', (c) => (c.version = 'v2.3.1'), 'version-format', 'info', '/version', '("v2.3.1")'],
  ];
  it.each(triggers.map(([title, ...rest]): Trigger => [`${title} → ${rest[1]}`, ...rest]))(
    '%s',
    (_title, edit, rule, severity, path, message) => {
      const findings = runCheck(checkSemantics, cardWith(edit));
      const finding = findings.find((f) => f.rule === rule && f.path === path && f.severity === severity);
      expect(finding, JSON.stringify(findings, null, 2)).toBeDefined();
      expect(finding?.severity).toBe(severity);
      expect(finding?.message).toContain(message);
      expect(finding?.hint).toMatch(/^[A-Z].{6,}\.$/);
    },
  );

  const clean: Clean[] = [
    ['distinct skill ids', () => {}, 'skill-id-unique'],
    [
      'a scheme used only at skill level',
      (c) => (c.securityRequirements[0].schemes = { oauth: { list: [] } }),
      'security-scheme-reference',
    ],
    [
      'a scheme referenced by a legacy security list',
      (c) => {
        c.securitySchemes.key = apiKeyScheme;
        c.security = [{ key: [] }];
      },
      'security-scheme-reference',
    ],
    ['declared OAuth scopes', () => {}, 'security-scope-declared'],
    [
      'OIDC scopes (not declared in the card)',
      (c) => {
        c.securitySchemes = {
          google: {
            openIdConnectSecurityScheme: {
              openIdConnectUrl: 'https://accounts.google.com/.well-known/openid-configuration',
            },
          },
        };
        c.securityRequirements = [{ schemes: { google: { list: ['openid', 'email'] } } }];
        delete c.skills[1].securityRequirements;
      },
      'security-scope-declared',
    ],
    [
      'an API key requirement with an empty list',
      (c) => {
        c.securitySchemes.key = apiKeyScheme;
        c.securityRequirements.push({ schemes: { key: { list: [] } } });
      },
      'security-scope-declared',
    ],
    [
      // What the official SDK writes for a public agent: empty defaults, nothing made optional.
      'the empty defaults of a public agent: {} schemes and one empty requirement',
      (c) => {
        noSecurity(c);
        c.securitySchemes = {};
        c.securityRequirements = [{}];
        c.capabilities.extendedAgentCard = false;
      },
      'security-empty',
    ],
    [
      'no security at all',
      (c) => {
        noSecurity(c);
        c.capabilities.extendedAgentCard = false;
      },
      'security-empty',
    ],
    ['extended card with security', () => {}, 'extended-card-requires-security'],
    [
      'no extended card and no security',
      (c) => {
        noSecurity(c);
        delete c.capabilities.extendedAgentCard;
      },
      'extended-card-requires-security',
    ],
    [
      'media types with parameters and vendor trees',
      (c) =>
        (c.defaultInputModes = [
          'text/plain; charset=utf-8',
          'application/vnd.geo+json',
          'image/*',
          'text/markdown;variant="CommonMark"',
        ]),
      'mode-media-type',
    ],
    [
      'a custom URI binding',
      (c) =>
        (c.supportedInterfaces[0] = {
          url: 'mqtts://broker.acme.io/agents',
          protocolBinding: 'https://acme.io/bindings/mqtt',
          protocolVersion: '1.0',
        }),
      'interface-binding-known',
    ],
    ['protocolVersion 0.3', (c) => (c.supportedInterfaces[0].protocolVersion = '0.3'), 'interface-protocol-version'],
    [
      'gRPC host:port',
      (c) => (c.supportedInterfaces[0] = { url: 'grpc.acme.io:443', protocolBinding: 'GRPC', protocolVersion: '1.0' }),
      'interface-url-format',
    ],
    [
      'gRPC absolute URL',
      (c) =>
        (c.supportedInterfaces[0] = { url: 'https://grpc.acme.io', protocolBinding: 'GRPC', protocolVersion: '1.0' }),
      'interface-url-format',
    ],
    [
      'a URN binding with its own URL scheme',
      (c) =>
        (c.supportedInterfaces[0] = {
          url: 'amqp://mq.acme.io/agents',
          protocolBinding: 'urn:acme:amqp',
          protocolVersion: '1.0',
        }),
      'interface-url-format',
    ],
    [
      'same URL under two tenants',
      (c) => {
        c.supportedInterfaces[0].tenant = 'eu';
        c.supportedInterfaces.push({ ...c.supportedInterfaces[0], tenant: 'us' });
      },
      'interface-duplicate',
    ],
    ['a single interface', () => {}, 'interface-preference'],
    ['SemVer with pre-release and build', (c) => (c.version = '2.0.0-rc.1+build.5'), 'version-format'],
  ];
  it.each(clean.map(([title, edit, rule]): Clean => [`${title} → no ${rule}`, edit, rule]))(
    '%s',
    (_title, edit, rule) => {
      const findings = runCheck(checkSemantics, cardWith(edit));
      expect(findings.filter((f) => f.rule === rule)).toEqual([]);
    },
  );

  it('hints name the exact value to use', () => {
    const hint = (edit: Edit, rule: string) =>
      runCheck(checkSemantics, cardWith(edit)).find((f) => f.rule === rule)?.hint;
    expect(hint((c) => (c.supportedInterfaces[0].protocolBinding = 'http+json'), 'interface-binding-known')).toContain(
      'Use "HTTP+JSON"',
    );
    expect(hint((c) => (c.supportedInterfaces[0].protocolVersion = '0.3.0'), 'interface-protocol-version')).toBe(
      'Use "0.3".',
    );
    expect(hint((c) => (c.supportedInterfaces[0].url = 'api.acme.io/a2a'), 'interface-url-format')).toBe(
      'Use https://api.acme.io/a2a.',
    );
    expect(hint((c) => (c.defaultInputModes[0] = 'data'), 'mode-media-type')).toBe('Use application/json.');
    expect(hint((c) => (c.version = 'v2.3'), 'version-format')).toContain('"2.3.0"');
    expect(hint((c) => (c.securityRequirements[0].schemes = { Oauth: {} }), 'security-scheme-reference')).toBe(
      'Add securitySchemes.Oauth, or use one of: "oauth".',
    );
  });

  it('never echoes a URL password', () => {
    const findings = runCheck(
      checkSemantics,
      cardWith((c) => (c.supportedInterfaces[0].url = 'https://bob:s3cret@api.acme.io/a2a#x')),
    );
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) expect(`${f.message} ${f.hint}`).not.toContain('s3cret');
  });

  it('does not resolve scheme names through the prototype chain', () => {
    const card = JSON.parse(
      '{"securitySchemes":{"oauth":{"mtlsSecurityScheme":{}}},"securityRequirements":[{"schemes":{"__proto__":{"list":[]},"toString":{"list":[]},"oauth":{}}}]}',
    );
    const errors = runCheck(checkSemantics, card).filter(
      (f) => f.rule === 'security-scheme-reference' && f.severity === 'error',
    );
    expect(errors.map((f) => f.path)).toEqual([
      '/securityRequirements/0/schemes/__proto__',
      '/securityRequirements/0/schemes/toString',
    ]);
  });

  it('skips structurally broken parts without throwing', () => {
    const card = {
      skills: [
        null,
        1,
        'x',
        { id: 7 },
        { id: '' },
        { id: 'a', securityRequirements: 'nope', inputModes: [1, null, {}] },
      ],
      securitySchemes: [],
      securityRequirements: [null, 1, { schemes: 'x' }, { schemes: { a: { list: 'x' } } }],
      supportedInterfaces: [null, [], { url: 5, protocolBinding: ['JSONRPC'] }, { url: 'x', protocolBinding: 'GRPC' }],
      defaultInputModes: 'text/plain',
      capabilities: [],
      version: 12,
    };
    expect(() => runCheck(checkSemantics, card)).not.toThrow();
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ withNullPrototype: true, withObjectString: true }),
          fc.json().map((s) => JSON.parse(s)),
        ),
        (value) => {
          runCheck(checkSemantics, value as never);
          runCheck(checkSemantics, {
            supportedInterfaces: [value],
            skills: [value],
            securitySchemes: value,
            securityRequirements: [value],
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('bindingInfo', () => {
  it.each([
    ['JSONRPC', { known: 'JSONRPC', exact: true, uri: false }],
    ['HTTP+JSON', { known: 'HTTP+JSON', exact: true, uri: false }],
    ['grpc', { known: 'GRPC', exact: false, uri: false }],
    ['REST', { known: 'HTTP+JSON', exact: false, uri: false }],
    ['https://acme.io/bindings/mqtt', { exact: false, uri: true }],
    ['__proto__', { exact: false, uri: false }],
  ])('%s', (value, expected) => {
    expect(bindingInfo(value)).toEqual(expected);
  });
});

describe('cross-field rules through validateAgentCard', () => {
  it.each<[string, Edit, string, string]>([
    ['a duplicate skill id', (c) => (c.skills[1].id = 'order-status'), 'skill-id-unique', '/skills/1/id'],
    [
      'an undefined scheme reference',
      (c) => (c.securityRequirements[0].schemes = { bearer: { list: [] } }),
      'security-scheme-reference',
      '/securityRequirements/0/schemes/bearer',
    ],
    [
      'an extended card without security',
      noSecurity,
      'extended-card-requires-security',
      '/capabilities/extendedAgentCard',
    ],
    [
      'a relative interface URL',
      (c) => (c.supportedInterfaces[0].url = '/a2a'),
      'interface-url-format',
      '/supportedInterfaces/0/url',
    ],
  ])('makes a card with %s invalid', (_title, edit, rule, path) => {
    const result = validateAgentCard(JSON.stringify(cardWith(edit)), { profile: 'development' });
    expect(result.valid).toBe(false);
    expect(result.findings).toContainEqual(expect.objectContaining({ rule, path, severity: 'error' }));
  });

  it('reports warnings without making the card invalid', () => {
    const result = validateAgentCard(
      cardWith((c) => (c.defaultInputModes = ['text'])),
      { profile: 'production' },
    );
    expect(result.valid).toBe(true);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ rule: 'mode-media-type', severity: 'warning', path: '/defaultInputModes/0' }),
    );
  });
});

describe('interface-binding-known (rule 25) by profile', () => {
  it.each<[ValidationProfile, string]>([
    ['development', 'warning'],
    ['production', 'error'],
    ['strict', 'error'],
  ])('binding "JSON-RPC" under %s is a %s', (profile, severity) => {
    const card = cardWith((c) => (c.supportedInterfaces[0].protocolBinding = 'JSON-RPC'));
    const findings = runCheck(checkSemantics, card, profile).filter((f) => f.rule === 'interface-binding-known');
    expect(findings.map((f) => [f.severity, f.path, f.message, f.hint])).toEqual([
      [
        severity,
        '/supportedInterfaces/0/protocolBinding',
        'supportedInterfaces[0].protocolBinding: is not the exact spec spelling ("JSON-RPC").',
        'Use "JSONRPC" (values are case-sensitive).',
      ],
    ]);
  });
});
