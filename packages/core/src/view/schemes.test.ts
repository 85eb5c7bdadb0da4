import { describe, expect, it } from 'vitest';
import {
  describeAuthentication,
  describeCredential,
  describeSecurityScheme,
  descriptionText,
  renderAuthentication,
  renderDescriptionParts,
} from './schemes';

describe('describeSecurityScheme', () => {
  it.each([
    [
      'OAuth 2.0 client credentials',
      {
        oauth2SecurityScheme: {
          flows: {
            clientCredentials: {
              tokenUrl: 'https://auth.example.com/token',
              scopes: { 'agent:invoke': 'Call the agent', 'agent:read': '' },
            },
          },
        },
      },
      'OAuth 2.0',
      'OAuth 2.0 client credentials at https://auth.example.com/token; scopes: agent:invoke (Call the agent), agent:read',
    ],
    [
      'OAuth 2.0 authorization code with PKCE and metadata',
      {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://auth.example.com/authorize',
              tokenUrl: 'https://auth.example.com/token',
              refreshUrl: 'https://auth.example.com/refresh',
              scopes: {},
              pkceRequired: true,
            },
          },
          oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
        },
      },
      'OAuth 2.0',
      'OAuth 2.0 authorization code with PKCE, authorize at https://auth.example.com/authorize, token at https://auth.example.com/token; refresh at https://auth.example.com/refresh; no scopes listed. Authorization server metadata: https://auth.example.com/.well-known/oauth-authorization-server',
    ],
    [
      'OAuth 2.0 device code',
      {
        oauth2SecurityScheme: {
          flows: {
            deviceCode: {
              deviceAuthorizationUrl: 'https://auth.example.com/device',
              tokenUrl: 'https://auth.example.com/token',
              scopes: { read: 'Read' },
            },
          },
        },
      },
      'OAuth 2.0',
      'OAuth 2.0 device code, device authorization at https://auth.example.com/device, token at https://auth.example.com/token; scopes: read (Read)',
    ],
    [
      'OAuth 2.0 implicit',
      { oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: 'https://a.example/auth' } } } },
      'OAuth 2.0',
      'OAuth 2.0 implicit (deprecated), authorize at https://a.example/auth; no scopes listed',
    ],
    [
      'OAuth 2.0 password',
      { oauth2SecurityScheme: { flows: { password: { tokenUrl: 'https://a.example/token' } } } },
      'OAuth 2.0',
      'OAuth 2.0 resource owner password (deprecated), token at https://a.example/token; no scopes listed',
    ],
    ['OAuth 2.0 without flows', { oauth2SecurityScheme: {} }, 'OAuth 2.0', 'OAuth 2.0 with no flow declared'],
    [
      'API key in a header',
      { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      'API key',
      'API key in header X-API-Key',
    ],
    [
      'API key in a query parameter',
      { apiKeySecurityScheme: { location: 'query', name: 'api_key' } },
      'API key',
      'API key in query parameter api_key',
    ],
    [
      'API key in a cookie',
      { apiKeySecurityScheme: { location: 'cookie', name: 'session' } },
      'API key',
      'API key in cookie session',
    ],
    [
      'API key in a place A2A does not define',
      { apiKeySecurityScheme: { location: 'body', name: 'k' } },
      'API key',
      'API key named k, in an unknown place (body)',
    ],
    [
      'HTTP bearer',
      { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      'HTTP authentication',
      'HTTP bearer token (JWT) in the Authorization header',
    ],
    [
      'HTTP basic',
      { httpAuthSecurityScheme: { scheme: 'basic' } },
      'HTTP authentication',
      'HTTP Basic authentication (user name and password) in the Authorization header',
    ],
    [
      'HTTP with another scheme',
      { httpAuthSecurityScheme: { scheme: 'Digest' } },
      'HTTP authentication',
      'HTTP Digest authentication in the Authorization header',
    ],
    ['mutual TLS', { mtlsSecurityScheme: {} }, 'Mutual TLS', 'Mutual TLS: the caller presents a client certificate'],
    [
      'OpenID Connect',
      { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' } },
      'OpenID Connect',
      'OpenID Connect, discovery at https://id.example.com/.well-known/openid-configuration',
    ],
    [
      'an unknown wrapper',
      { samlSecurityScheme: {} },
      'Unknown',
      'A scheme of type "samlSecurityScheme", which A2A does not define',
    ],
    ['an empty scheme', {}, 'Unknown', 'An empty scheme: it names no way to authenticate'],
    ['a string', 'bearer', 'Unknown', 'An empty scheme: it names no way to authenticate'],
    [
      'two wrappers',
      { mtlsSecurityScheme: {}, apiKeySecurityScheme: { location: 'header', name: 'K' } },
      'Mutual TLS',
      'Mutual TLS: the caller presents a client certificate. The card also sets apiKeySecurityScheme, which is not allowed',
    ],
  ])('reads %s', (_, scheme, kind, sentence) => {
    const described = describeSecurityScheme(scheme);
    expect(described.kind).toBe(kind);
    expect(descriptionText(described)).toBe(sentence);
  });

  it("keeps the scheme's own description", () => {
    expect(
      describeSecurityScheme({ mtlsSecurityScheme: { description: 'Partner certificates only' } }).description,
    ).toBe('Partner certificates only');
  });

  it('links only safe URLs of a scheme', () => {
    const described = describeSecurityScheme({
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: 'javascript:alert(1)', scopes: { '<b>': '"><img src=x>' } } },
      },
    });
    const out = renderDescriptionParts(described.parts).value;
    expect(out).toBe(
      'OAuth 2.0 client credentials at <code class="nolink">javascript:alert(1)</code>; scopes: &lt;b&gt; (&quot;&gt;&lt;img src=x&gt;)',
    );
    expect(out).not.toContain('<a ');
  });
});

const SCHEMES = {
  oauth: {
    oauth2SecurityScheme: {
      flows: { clientCredentials: { tokenUrl: 'https://id.example/token', scopes: { read: '', write: '' } } },
    },
  },
  twoFlows: {
    oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'x' }, deviceCode: { tokenUrl: 'y' } } },
  },
  bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
  basic: { httpAuthSecurityScheme: { scheme: 'basic' } },
  digest: { httpAuthSecurityScheme: { scheme: 'Digest' } },
  apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
  queryKey: { apiKeySecurityScheme: { location: 'query', name: 'key' } },
  oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.example/.well-known/openid-configuration' } },
  mtls: { mtlsSecurityScheme: {} },
  odd: { kerberosSecurityScheme: {} },
};

describe('describeCredential', () => {
  it.each([
    ['oauth', ['read'], 'an OAuth 2.0 access token (client credentials) with scope read'],
    [
      'oauth',
      ['read', 'write', 'admin'],
      'an OAuth 2.0 access token (client credentials) with scopes read, write and admin',
    ],
    ['twoFlows', [], 'an OAuth 2.0 access token'],
    ['bearer', [], 'a bearer token (JWT)'],
    ['basic', [], 'a user name and password (HTTP Basic)'],
    ['digest', [], 'HTTP Digest credentials'],
    ['apiKey', [], 'an API key in the header X-API-Key'],
    ['queryKey', [], 'an API key in the query parameter key'],
    ['oidc', ['openid', 'profile'], 'an OpenID Connect token with scopes openid and profile'],
    ['mtls', [], 'a client certificate (mutual TLS)'],
    ['odd', [], 'credentials for "odd", a scheme A2A does not define'],
    ['missing', [], 'credentials for "missing", a scheme the card does not declare'],
  ] as const)('%s with scopes %j: %s', (name, scopes, expected) => {
    expect(describeCredential(name, (SCHEMES as Record<string, unknown>)[name], scopes)).toBe(expected);
  });
});

describe('describeAuthentication', () => {
  const card = (securityRequirements?: unknown[], securitySchemes: unknown = SCHEMES) => ({
    securitySchemes,
    ...(securityRequirements === undefined ? {} : { securityRequirements }),
  });

  it.each([
    ['no schemes, no requirements', { securitySchemes: {} }, 'No authentication required.', []],
    [
      'schemes without a requirement',
      card(undefined, { bearer: SCHEMES.bearer }),
      'No authentication required: the card describes one scheme but requires none.',
      [],
    ],
    [
      'schemes with only empty requirements',
      card([{ schemes: {} }], { bearer: SCHEMES.bearer, apiKey: SCHEMES.apiKey }),
      'No authentication required: the card describes 2 schemes but requires none.',
      [],
    ],
    ['one scheme', card([{ schemes: { bearer: { list: [] } } }]), 'Every call needs a bearer token (JWT).', []],
    [
      'two schemes together',
      card([{ schemes: { apiKey: { list: [] }, mtls: { list: [] } } }]),
      'Every call needs an API key in the header X-API-Key and a client certificate (mutual TLS).',
      [],
    ],
    [
      'alternatives',
      card([{ schemes: { oauth: { list: ['read'] } } }, { schemes: { apiKey: { list: [] } } }]),
      'Calls need one of:',
      ['an OAuth 2.0 access token (client credentials) with scope read', 'an API key in the header X-API-Key'],
    ],
    [
      'a credential or none',
      card([{ schemes: { bearer: { list: [] } } }, { schemes: {} }]),
      'Calls need one of:',
      ['a bearer token (JWT)', 'no credentials (anonymous calls are allowed)'],
    ],
    [
      'the same alternative twice',
      card([{ schemes: { bearer: { list: [] } } }, { schemes: { bearer: {} } }]),
      'Every call needs a bearer token (JWT).',
      [],
    ],
  ])('%s', (_, value, sentence, alternatives) => {
    expect(describeAuthentication(value)).toEqual({ sentence, alternatives });
  });

  it("reads a skill's requirements against the card's schemes", () => {
    expect(describeAuthentication(card(), [{ schemes: { oauth: { list: ['write'] } } }]).sentence).toBe(
      'Every call needs an OAuth 2.0 access token (client credentials) with scope write.',
    );
  });

  it('renders the alternatives as a list, escaped', () => {
    const value = card([{ schemes: { '<b>': {} } }, { schemes: { apiKey: {} } }]);
    expect(renderAuthentication(describeAuthentication(value)).value).toBe(
      '<p>Calls need one of:</p><ul class="plain"><li>credentials for &quot;&lt;b&gt;&quot;, a scheme the card does not declare</li><li>an API key in the header X-API-Key</li></ul>',
    );
  });
});
