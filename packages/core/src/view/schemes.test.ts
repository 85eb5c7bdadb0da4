import { describe, expect, it } from 'vitest';
import { describeRequirements, describeSecurityScheme, descriptionText, renderDescriptionParts } from './schemes';

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

describe('describeRequirements', () => {
  it('reads an OR of ANDs with scopes', () => {
    expect(
      describeRequirements([
        { schemes: { oauth: { list: ['agent:invoke'] }, apiKey: {} } },
        { schemes: { mtls: { list: [] } } },
        {},
      ]),
    ).toEqual(['oauth (agent:invoke) and apiKey', 'mtls', 'no authentication']);
  });
});
