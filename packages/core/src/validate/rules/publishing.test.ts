import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Severity, ValidationProfile } from '../../findings';
import type { CardShape } from '../context';
import { baseCard, cardWith, protectedHeader, runCheck, specSampleCard } from '../test-cards';
import { validateAgentCard } from '../validate';
import type { RuleCheck } from '../context';
import { checkInternalHosts } from './internal-hosts';
import { checkPublishing, createPublishingCheck, placeholderReason } from './publishing';

type Edit = (card: any) => void;

/** The URL rules of §6.3: the publishing module, and rule 35, which reads every URL of the card. */
const checkUrls: RuleCheck = (card, ctx) => {
  checkPublishing(card, ctx);
  checkInternalHosts(card, ctx);
};
type Trigger = [title: string, edit: Edit, rule: string, severity: Severity, path: string, message: string];
type Clean = [title: string, edit: Edit, rule: string];

const TOKEN_URL = '/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/tokenUrl';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const RANDOM = 'q8ZfT3mX7pL2vN9kR4sW6yB1';
const iface =
  (url: string, protocolBinding = 'JSONRPC'): Edit =>
  (c) =>
    (c.supportedInterfaces[0] = { url, protocolBinding, protocolVersion: '1.0' });
const withParams =
  (params: Record<string, unknown>): Edit =>
  (c) =>
    (c.capabilities.extensions = [{ uri: 'https://acme.io/ext/audit', params }]);
const noSecurity: Edit = (c) => {
  delete c.securitySchemes;
  delete c.securityRequirements;
  delete c.skills[1].securityRequirements;
};

describe('checkPublishing', () => {
  it('reports nothing for a clean card', () => {
    expect(runCheck(checkPublishing, baseCard())).toEqual([]);
  });

  it('flags the example.com hosts and the template organization of the spec §8.5 sample', () => {
    const findings = runCheck(checkPublishing, specSampleCard());
    expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(['url-placeholder']));
    expect(findings.map((f) => f.path)).toEqual([
      '/supportedInterfaces/0/url',
      '/supportedInterfaces/1/url',
      '/supportedInterfaces/2/url',
      '/iconUrl',
      '/signatures/0/protected',
      '/provider/organization',
    ]);
  });

  const triggers: Trigger[] = [
    // 33 url-https
    [
      'http interface URL',
      iface('http://api.acme.io/a2a'),
      'url-https',
      'error',
      '/supportedInterfaces/0/url',
      'supportedInterfaces[0].url: uses http:// ("http://api.acme.io/a2a").',
    ],
    [
      'http documentationUrl (a link for people: https is required only for A2A endpoints)',
      (c) => (c.documentationUrl = 'http://docs.acme.io/agent'),
      'url-https',
      'warning',
      '/documentationUrl',
      'documentationUrl: uses http://',
    ],
    [
      'http provider.url (a link for people)',
      (c) => (c.provider.url = 'http://acme.io'),
      'url-https',
      'warning',
      '/provider/url',
      'provider.url: uses http://',
    ],
    [
      'http iconUrl',
      (c) => (c.iconUrl = 'http://acme.io/icon.png'),
      'url-https',
      'error',
      '/iconUrl',
      'iconUrl: uses http://',
    ],
    [
      'http OAuth tokenUrl',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl = 'http://auth.acme.io/token'),
      'url-https',
      'error',
      TOKEN_URL,
      'uses http://',
    ],
    [
      'http authorizationUrl',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows = {
          authorizationCode: {
            authorizationUrl: 'http://auth.acme.io/authorize',
            tokenUrl: 'https://auth.acme.io/token',
            scopes: {},
          },
        }),
      'url-https',
      'error',
      '/securitySchemes/oauth/oauth2SecurityScheme/flows/authorizationCode/authorizationUrl',
      'uses http://',
    ],
    [
      'http refreshUrl',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.refreshUrl =
          'http://auth.acme.io/refresh'),
      'url-https',
      'error',
      '/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/refreshUrl',
      'uses http://',
    ],
    [
      'http deviceAuthorizationUrl',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows = {
          deviceCode: {
            deviceAuthorizationUrl: 'http://auth.acme.io/device',
            tokenUrl: 'https://auth.acme.io/token',
            scopes: {},
          },
        }),
      'url-https',
      'error',
      '/securitySchemes/oauth/oauth2SecurityScheme/flows/deviceCode/deviceAuthorizationUrl',
      'uses http://',
    ],
    [
      'http oauth2MetadataUrl',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.oauth2MetadataUrl =
          'http://auth.acme.io/.well-known/oauth-authorization-server'),
      'url-https',
      'error',
      '/securitySchemes/oauth/oauth2SecurityScheme/oauth2MetadataUrl',
      'uses http://',
    ],
    [
      'http openIdConnectUrl',
      (c) =>
        (c.securitySchemes.oidc = {
          openIdConnectSecurityScheme: { openIdConnectUrl: 'http://id.acme.io/.well-known/openid-configuration' },
        }),
      'url-https',
      'error',
      '/securitySchemes/oidc/openIdConnectSecurityScheme/openIdConnectUrl',
      'uses http://',
    ],
    [
      'http jku in a signature header',
      (c) =>
        (c.signatures = [
          {
            protected: protectedHeader({ alg: 'ES256', kid: 'k1', jku: 'http://acme.io/jwks.json' }),
            signature: 'c2ln',
          },
        ]),
      'url-https',
      'error',
      '/signatures/0/protected',
      'signatures[0].protected (jku): uses http:// ("http://acme.io/jwks.json").',
    ],
    [
      'ftp documentationUrl',
      (c) => (c.documentationUrl = 'ftp://docs.acme.io/agent.pdf'),
      'url-https',
      'error',
      '/documentationUrl',
      'uses ftp://',
    ],
    [
      'documentationUrl without scheme',
      (c) => (c.documentationUrl = 'docs.acme.io/agent'),
      'url-https',
      'error',
      '/documentationUrl',
      'documentationUrl: is not an absolute https:// URL ("docs.acme.io/agent").',
    ],
    [
      'gRPC host:port',
      iface('grpc.acme.io:443', 'GRPC'),
      'url-https',
      'info',
      '/supportedInterfaces/0/url',
      'is a gRPC host:port, so the card does not say whether TLS is used ("grpc.acme.io:443")',
    ],
    // 34 url-localhost
    [
      'localhost interface',
      iface('https://localhost:3000/a2a'),
      'url-localhost',
      'error',
      '/supportedInterfaces/0/url',
      'supportedInterfaces[0].url: points at a loopback host name, which other machines cannot reach ("localhost").',
    ],
    [
      'IPv6 loopback provider URL',
      (c) => (c.provider.url = 'https://[::1]:8443/'),
      'url-localhost',
      'error',
      '/provider/url',
      'the IPv6 loopback address (::1)',
    ],
    [
      '127.0.0.1 icon',
      (c) => (c.iconUrl = 'https://127.0.0.1/icon.png'),
      'url-localhost',
      'error',
      '/iconUrl',
      'a loopback address (127.0.0.0/8)',
    ],
    [
      '0.0.0.0 token URL',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl = 'https://0.0.0.0:8080/token'),
      'url-localhost',
      'error',
      TOKEN_URL,
      'the unspecified address',
    ],
    [
      'gRPC on localhost',
      iface('localhost:50051', 'GRPC'),
      'url-localhost',
      'error',
      '/supportedInterfaces/0/url',
      '("localhost")',
    ],
    // 35 url-private-host
    [
      'RFC 1918 interface',
      iface('https://10.0.0.5/a2a'),
      'url-private-host',
      'error',
      '/supportedInterfaces/0/url',
      'host is an RFC 1918 private address ("10.0.0.5")',
    ],
    [
      'single-label token host',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl =
          'https://keycloak:8443/realms/a/token'),
      'url-private-host',
      'error',
      TOKEN_URL,
      'single-label host',
    ],
    [
      '.internal host',
      iface('https://agent.internal/a2a'),
      'url-private-host',
      'error',
      '/supportedInterfaces/0/url',
      'under .internal',
    ],
    [
      '.svc.cluster.local host',
      iface('https://agent.default.svc.cluster.local/a2a'),
      'url-private-host',
      'error',
      '/supportedInterfaces/0/url',
      '("agent.default.svc.cluster.local")',
    ],
    [
      'ULA IPv6 host',
      iface('https://[fd00::5]/a2a'),
      'url-private-host',
      'error',
      '/supportedInterfaces/0/url',
      'fc00::/7',
    ],
    [
      'link-local metadata host',
      (c) => (c.documentationUrl = 'https://169.254.169.254/latest'),
      'url-private-host',
      'error',
      '/documentationUrl',
      '169.254.0.0/16',
    ],
    // 36 url-placeholder
    [
      'example.com interface',
      iface('https://api.example.com/a2a'),
      'url-placeholder',
      'warning',
      '/supportedInterfaces/0/url',
      'host is under example.com, an RFC 2606 example domain ("api.example.com")',
    ],
    [
      '.test host',
      (c) => (c.provider.url = 'https://acme.test'),
      'url-placeholder',
      'warning',
      '/provider/url',
      'reserved .test TLD',
    ],
    [
      'your-… URL',
      iface('https://your-domain.com/a2a'),
      'url-placeholder',
      'warning',
      '/supportedInterfaces/0/url',
      'looks like a "your-…" placeholder ("https://your-domain.com/a2a")',
    ],
    [
      '<…> URL',
      iface('https://<host>/a2a'),
      'url-placeholder',
      'warning',
      '/supportedInterfaces/0/url',
      'a <…> placeholder',
    ],
    [
      'unrendered ${VAR} URL',
      iface('https://${PUBLIC_HOST}/a2a'),
      'url-placeholder',
      'warning',
      '/supportedInterfaces/0/url',
      'an unrendered template variable',
    ],
    [
      '"My Agent" name',
      (c) => (c.name = 'My Agent'),
      'url-placeholder',
      'warning',
      '/name',
      'name: looks like a template placeholder ("My Agent").',
    ],
    [
      'TODO description',
      (c) => (c.description = 'TODO: describe what this agent does for customers.'),
      'url-placeholder',
      'warning',
      '/description',
      'a TODO marker',
    ],
    [
      'changeme organization',
      (c) => (c.provider.organization = 'changeme'),
      'url-placeholder',
      'warning',
      '/provider/organization',
      '("changeme")',
    ],
    [
      '"Example org" organization',
      (c) => (c.provider.organization = 'Example Org'),
      'url-placeholder',
      'warning',
      '/provider/organization',
      '("Example Org")',
    ],
    [
      '<…> skill example',
      (c) => (c.skills[0].examples = ['<your question here>']),
      'url-placeholder',
      'warning',
      '/skills/0/examples/0',
      'a <…> placeholder',
    ],
    // 37 interface-url-is-card-url
    [
      'interface URL is the card URL',
      iface('https://api.acme.io/.well-known/agent-card.json'),
      'interface-url-is-card-url',
      'error',
      '/supportedInterfaces/0/url',
      'points at the Agent Card, not at the A2A endpoint',
    ],
    [
      'interface URL is the legacy card URL',
      iface('https://api.acme.io/agent.json'),
      'interface-url-is-card-url',
      'error',
      '/supportedInterfaces/0/url',
      '("https://api.acme.io/agent.json")',
    ],
    // 39 secrets-in-card
    [
      'JWT in a skill description',
      (c) => (c.skills[0].description = `Call with ${JWT} to test.`),
      'secrets-in-card',
      'error',
      '/skills/0/description',
      'skills[0].description: looks like a JWT ("eyJh…"',
    ],
    [
      'PEM private key in extension params',
      withParams({ key: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----' }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/key',
      'a PEM private key',
    ],
    [
      'Stripe live key',
      (c) => (c.description += ' Key: sk_live_4eC39HqLyjWDarjtT1zdp7dc'),
      'secrets-in-card',
      'error',
      '/description',
      'a Stripe-style secret key ("sk_l…"',
    ],
    [
      'sk- API key',
      withParams({ model: `sk-proj-${RANDOM}` }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/model',
      'an API secret key (sk-…)',
    ],
    [
      'AWS access key id',
      withParams({ aws: 'AKIAIOSFODNN7EXAMPLE' }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/aws',
      'an AWS access key id',
    ],
    [
      'GitHub token',
      (c) => c.skills[0].tags.push(`ghp_${'a1B2c3D4e5'.repeat(4)}`),
      'secrets-in-card',
      'error',
      '/skills/0/tags/1',
      'a GitHub token',
    ],
    [
      'password= in a URL',
      (c) => (c.documentationUrl = 'https://docs.acme.io/?user=ops&password=hunter22'),
      'secrets-in-card',
      'error',
      '/documentationUrl',
      'a credential assignment',
    ],
    [
      'Bearer token in an example',
      (c) => (c.skills[0].examples = [`curl -H "Authorization: Bearer ${RANDOM}" https://api.acme.io/a2a`]),
      'secrets-in-card',
      'error',
      '/skills/0/examples/0',
      'a bearer token ("Bear…"',
    ],
    [
      'random apiKey value',
      withParams({ apiKey: RANDOM }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/apiKey',
      'a credential under "apiKey" ("q8Zf…", 24 characters)',
    ],
    [
      'client_secret value',
      withParams({ client_secret: RANDOM }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/client_secret',
      'a credential under "client_secret"',
    ],
    [
      'password value',
      withParams({ password: 'hunter22' }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/password',
      'a password under "password"',
    ],
    [
      'credentials in a URL',
      (c) => (c.provider.url = 'https://admin:pa55w0rd@acme.io/'),
      'secrets-in-card',
      'error',
      '/provider/url',
      'credentials in a URL',
    ],
    [
      'token deep in nested params',
      withParams({ a: { b: { c: [{ d: { token: RANDOM } }] } } }),
      'secrets-in-card',
      'error',
      '/capabilities/extensions/0/params/a/b/c/0/d/token',
      'a credential under "token"',
    ],
    // 40 metadata-quality
    ['generic name', (c) => (c.name = 'Assistant'), 'metadata-quality', 'info', '/name', 'name: is generic'],
    [
      'short description',
      (c) => (c.description = 'Helps.'),
      'metadata-quality',
      'info',
      '/description',
      'description: is shorter than 20 characters ("Helps.").',
    ],
    [
      'generic description',
      (c) => (c.description = 'A helpful AI assistant.'),
      'metadata-quality',
      'info',
      '/description',
      'description: is generic',
    ],
    [
      'skill without examples',
      (c) => delete c.skills[1].examples,
      'metadata-quality',
      'info',
      '/skills/1/examples',
      'skills[1].examples: the skill has no examples ("returns").',
    ],
    ['no provider', (c) => delete c.provider, 'metadata-quality', 'info', '/provider', 'provider: is missing'],
    [
      'no documentationUrl',
      (c) => delete c.documentationUrl,
      'metadata-quality',
      'info',
      '/documentationUrl',
      'documentationUrl: is missing.',
    ],
    // 41 no-security-declared
    [
      'no security at all',
      noSecurity,
      'no-security-declared',
      'info',
      '/securitySchemes',
      'the card declares no security',
    ],
  ];

  it.each(triggers.map(([title, ...rest]): Trigger => [`${title} → ${rest[1]}`, ...rest]))(
    '%s',
    (_title, edit, rule, severity, path, message) => {
      const findings = runCheck(checkUrls, cardWith(edit));
      const finding = findings.find((f) => f.rule === rule && f.path === path && f.severity === severity);
      expect(finding, JSON.stringify(findings, null, 2)).toBeDefined();
      expect(finding?.message).toContain(message);
      expect(finding?.hint).toMatch(/^[A-Z].{6,}[.)]$/);
    },
  );

  const clean: Clean[] = [
    ['https everywhere', () => {}, 'url-https'],
    ['wss custom binding', iface('wss://api.acme.io/agents', 'https://acme.io/bindings/websocket'), 'url-https'],
    ['gRPC https URL', iface('https://grpc.acme.io', 'GRPC'), 'url-https'],
    [
      'https jku',
      (c) =>
        (c.signatures = [
          {
            protected: protectedHeader({ alg: 'ES256', kid: 'k1', jku: 'https://acme.io/jwks.json' }),
            signature: 'c2ln',
          },
        ]),
      'url-https',
    ],
    [
      'undecodable protected header',
      (c) =>
        (c.signatures = [
          { protected: '!!not base64!!', signature: 'x' },
          { protected: 'bm90IGpzb24', signature: 'x' },
        ]),
      'url-https',
    ],
    ['a public host', () => {}, 'url-localhost'],
    ['localhost as a subdomain label', iface('https://localhost.acme.io/a2a'), 'url-localhost'],
    ['public IP', iface('https://203.0.114.7/a2a'), 'url-private-host'],
    ['172.32.x is outside RFC 1918', iface('https://172.32.0.1/a2a'), 'url-private-host'],
    ['real names', () => {}, 'url-placeholder'],
    [
      '"Todo list" agent (TODO only in upper case)',
      (c) => {
        c.name = 'Todo List Helper';
        c.description = 'Keeps your todo list in order and reminds you of due items.';
      },
      'url-placeholder',
    ],
    [
      'HTML tag in a description',
      (c) => (c.description = 'Answers <b>order</b> questions for Acme customers in any language.'),
      'url-placeholder',
    ],
    [
      'examplegeoservices.com is not example.com',
      (c) => (c.provider.url = 'https://www.examplegeoservices.com'),
      'url-placeholder',
    ],
    ['endpoint URL under /a2a', () => {}, 'interface-url-is-card-url'],
    ['agent.json as a query value', iface('https://api.acme.io/a2a?doc=agent.json'), 'interface-url-is-card-url'],
    ['no secrets', () => {}, 'secrets-in-card'],
    [
      'bearer scheme declaration',
      (c) =>
        (c.securitySchemes.bearer = {
          httpAuthSecurityScheme: {
            scheme: 'Bearer',
            bearerFormat: 'JWT',
            description: 'Send Bearer <token> in the Authorization header.',
          },
        }),
      'secrets-in-card',
    ],
    [
      'signature parts (random base64url by design)',
      (c) => (c.signatures = specSampleCard().signatures),
      'secrets-in-card',
    ],
    ['word-like token value', withParams({ token: 'the-session-token-name' }), 'secrets-in-card'],
    ['placeholder password', withParams({ password: '${ADMIN_PASSWORD}' }), 'secrets-in-card'],
    ['sk- followed by words', (c) => c.skills[0].tags.push('sk-learn-classification-models'), 'secrets-in-card'],
    [
      'password= with a placeholder',
      (c) => (c.skills[0].examples = ['Log in with password=<your password>']),
      'secrets-in-card',
    ],
    ['rich metadata', () => {}, 'metadata-quality'],
    ['securitySchemes declared', () => {}, 'no-security-declared'],
    [
      'only a legacy security list',
      (c) => {
        noSecurity(c);
        c.security = [{ oauth: [] }];
      },
      'no-security-declared',
    ],
  ];

  it.each(clean.map(([title, edit, rule]): Clean => [`${title} → no ${rule}`, edit, rule]))(
    '%s',
    (_title, edit, rule) => {
      expect(runCheck(checkUrls, cardWith(edit)).filter((f) => f.rule === rule)).toEqual([]);
    },
  );

  it.each<[ValidationProfile, string, string, Severity]>([
    ['development', 'http://api.acme.io/a2a', 'url-https', 'info'],
    ['production', 'http://api.acme.io/a2a', 'url-https', 'error'],
    ['strict', 'http://api.acme.io/a2a', 'url-https', 'error'],
    ['development', 'https://localhost:3000/a2a', 'url-localhost', 'info'],
    ['production', 'https://localhost:3000/a2a', 'url-localhost', 'error'],
    ['strict', 'https://[::ffff:127.0.0.1]/a2a', 'url-localhost', 'error'],
    ['development', 'https://10.1.1.1/a2a', 'url-private-host', 'warning'],
    ['production', 'https://10.1.1.1/a2a', 'url-private-host', 'error'],
    ['strict', 'https://agent.acme.corp/a2a', 'url-private-host', 'error'],
  ])('%s: %s → %s %s', (profile, url, rule, severity) => {
    const findings = runCheck(checkUrls, cardWith(iface(url)), profile);
    expect(findings.filter((f) => f.rule === rule).map((f) => [f.severity, f.path])).toEqual([
      [severity, '/supportedInterfaces/0/url'],
    ]);
  });

  // The spec requires https for the A2A endpoints (§7.1, §13.4); links for people only warn.
  it.each<[ValidationProfile, string, Edit, Severity]>([
    ['development', '/provider/url', (c) => (c.provider.url = 'http://acme.io'), 'info'],
    ['production', '/provider/url', (c) => (c.provider.url = 'http://acme.io'), 'warning'],
    ['strict', '/provider/url', (c) => (c.provider.url = 'http://acme.io'), 'warning'],
    ['development', '/documentationUrl', (c) => (c.documentationUrl = 'http://docs.acme.io'), 'info'],
    ['production', '/documentationUrl', (c) => (c.documentationUrl = 'http://docs.acme.io'), 'warning'],
    ['strict', '/documentationUrl', (c) => (c.documentationUrl = 'http://docs.acme.io'), 'warning'],
    ['production', '/iconUrl', (c) => (c.iconUrl = 'http://acme.io/icon.png'), 'error'],
    ['production', '/documentationUrl', (c) => (c.documentationUrl = 'ftp://docs.acme.io/a.pdf'), 'error'],
  ])('%s: an http %s is url-https $3', (profile, path, edit, severity) => {
    const findings = runCheck(checkPublishing, cardWith(edit), profile);
    expect(findings.filter((f) => f.rule === 'url-https').map((f) => [f.severity, f.path])).toEqual([[severity, path]]);
  });

  it('keeps a production card with http provider and documentation links valid, with the reason in the hint', () => {
    const result = validateAgentCard(
      cardWith((c) => {
        c.provider.url = 'http://acme.io';
        c.documentationUrl = 'http://docs.acme.io/agents/support';
      }),
      { profile: 'production' },
    );
    expect(result.valid).toBe(true);
    expect(result.findings.filter((f) => f.rule === 'url-https')).toEqual([
      {
        rule: 'url-https',
        severity: 'warning',
        path: '/provider/url',
        message: 'provider.url: uses http:// ("http://acme.io").',
        hint: 'Use https://acme.io. The spec requires https only for the A2A endpoints (§7.1, §13.4), but readers of an http page can be served a forged one.',
      },
      {
        rule: 'url-https',
        severity: 'warning',
        path: '/documentationUrl',
        message: 'documentationUrl: uses http:// ("http://docs.acme.io/agents/support").',
        hint: 'Use https://docs.acme.io/agents/support. The spec requires https only for the A2A endpoints (§7.1, §13.4), but readers of an http page can be served a forged one.',
      },
    ]);
  });

  it.each<[string, string]>([
    ['tokenUrl', TOKEN_URL],
    ['openIdConnectUrl', '/securitySchemes/oauth/openIdConnectSecurityScheme/openIdConnectUrl'],
  ])('OAuth/OIDC %s over http is an error even in development', (_what, path) => {
    const card = cardWith((c) => {
      if (path === TOKEN_URL)
        c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl = 'http://localhost:8080/token';
      else
        c.securitySchemes.oauth = {
          openIdConnectSecurityScheme: { openIdConnectUrl: 'http://localhost:8080/.well-known/openid-configuration' },
        };
    });
    const findings = runCheck(checkPublishing, card, 'development').filter((f) => f.path === path);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['url-https', 'error'],
      ['url-localhost', 'info'],
    ]);
    expect(findings[0]?.hint).toBe(
      'Use https://localhost:8080' +
        (path === TOKEN_URL ? '/token' : '/.well-known/openid-configuration') +
        '. OAuth and OpenID Connect endpoints require TLS in every environment (RFC 6749 §3.1).',
    );
  });

  it('suggests the https form of an http URL', () => {
    const finding = runCheck(checkPublishing, cardWith(iface('http://api.acme.io/a2a'))).find(
      (f) => f.rule === 'url-https',
    );
    expect(finding?.hint).toBe('Use https://api.acme.io/a2a.');
  });

  it('checks the legacy url of a v0.3-shaped card', () => {
    const card = {
      name: 'Legacy',
      url: 'http://localhost:9999/',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
    };
    const findings = runCheck(checkPublishing, card, 'production', 'v0.3' satisfies CardShape);
    expect(findings.filter((f) => f.path === '/url').map((f) => f.rule)).toEqual(['url-https', 'url-localhost']);
  });

  it('says when the secret check stopped at its bound, rather than passing the rest in silence', () => {
    // 60 keys: the check reports 50 and says it stopped; one more secret hides behind them.
    const many = cardWith((c) => {
      c.skills[0].examples = Array.from(
        { length: 60 },
        (_, i) => `sk_live_4eC39HqLyjWDarjtT1zdp${String(i).padStart(3, '0')}`,
      );
    });
    const findings = runCheck(checkPublishing, many).filter((f) => f.rule === 'secrets-in-card');
    expect(findings.filter((f) => f.severity === 'error')).toHaveLength(50);
    expect(findings.at(-1)).toMatchObject({
      severity: 'info',
      path: '',
      message: 'card: the secret check stopped after 50 findings; the rest of the card was not checked.',
    });
    // A secret past the 100,000th value is not read: the card is not called clean.
    const large = cardWith((c) => {
      c.metadata = { rows: Array.from({ length: 100_000 }, () => 'plain'), token: JWT };
    });
    const tail = runCheck(checkPublishing, large).filter((f) => f.rule === 'secrets-in-card');
    expect(tail.map((f) => [f.severity, f.message])).toEqual([
      ['info', 'card: the secret check stopped after 100,000 values; the rest of the card was not checked.'],
    ]);
    // Within the bounds, nothing more is said.
    expect(runCheck(checkPublishing, baseCard()).filter((f) => f.rule === 'secrets-in-card')).toEqual([]);
  });

  it('never puts a secret into a message or hint', () => {
    const secrets = [
      JWT,
      'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      `sk-proj-${RANDOM}`,
      'AKIAIOSFODNN7EXAMPLE',
      RANDOM,
      'hunter22',
      'pa55w0rd',
    ];
    const card = cardWith(
      withParams({
        jwt: JWT,
        stripe: secrets[1],
        openai: secrets[2],
        aws: secrets[3],
        apiKey: RANDOM,
        password: 'hunter22',
        url: 'https://admin:pa55w0rd@acme.io/',
        bearer: `Bearer ${RANDOM}`,
      }),
    );
    const findings = runCheck(checkPublishing, card).filter((f) => f.rule === 'secrets-in-card');
    expect(findings).toHaveLength(8);
    for (const f of findings) {
      for (const secret of secrets) expect(`${f.message} ${f.hint}`).not.toContain(secret.slice(2, 10));
    }
  });

  it('stops walking at the depth cap without throwing', () => {
    let deep: unknown = { token: RANDOM };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const card = cardWith(withParams({ deep }));
    const findings = runCheck(checkPublishing, card);
    expect(findings.filter((f) => f.rule === 'secrets-in-card')).toEqual([]);
  });

  describe('createPublishingCheck({ cardUrl })', () => {
    it.each<[string, string, string]>([
      [
        'a subdomain of the serving host',
        'https://api.acme.io/a2a',
        'host differs from the host that served the card, acme.io ("api.acme.io")',
      ],
      [
        'another domain',
        'https://agents.acme-cloud.dev/a2a',
        'is on a different domain than the host that served the card, acme.io ("agents.acme-cloud.dev")',
      ],
      ['a gRPC host:port elsewhere', 'grpc.acme-cloud.dev:443', 'different domain'],
    ])('reports an interface on %s', (_what, url, message) => {
      const check = createPublishingCheck({ cardUrl: 'https://acme.io/.well-known/agent-card.json' });
      const findings = runCheck(check, cardWith(iface(url, url.startsWith('grpc') ? 'GRPC' : 'JSONRPC'))).filter(
        (f) => f.rule === 'interface-origin-mismatch',
      );
      expect(findings.map((f) => [f.severity, f.path])).toEqual([['info', '/supportedInterfaces/0/url']]);
      expect(findings[0]?.message).toContain(message);
    });

    it.each([
      ['the same host', 'https://api.acme.io/.well-known/agent-card.json'],
      ['no card URL (local file)', undefined],
    ])('stays quiet for %s', (_what, cardUrl) => {
      const check = createPublishingCheck(cardUrl ? { cardUrl } : {});
      expect(runCheck(check, baseCard()).filter((f) => f.rule === 'interface-origin-mismatch')).toEqual([]);
    });
  });

  it('never throws on arbitrary input', () => {
    const check = createPublishingCheck({ cardUrl: 'https://acme.io/.well-known/agent-card.json' });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ withNullPrototype: true, withObjectString: true }),
          fc.json().map((s) => JSON.parse(s)),
        ),
        (value) => {
          runCheck(checkPublishing, value as never);
          runCheck(
            check,
            {
              supportedInterfaces: [value],
              securitySchemes: { a: value },
              signatures: [value],
              provider: value,
              skills: [value],
              capabilities: value,
            } as never,
            'development',
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('placeholderReason', () => {
  it.each([
    ['TODO', 'a template placeholder'],
    ['Fill me in: TODO', 'a TODO marker'],
    ['YOUR_API_KEY', 'a "your-…" placeholder'],
    ['{{agent_name}}', 'an unrendered template variable'],
    ['Lorem ipsum dolor sit amet', 'lorem ipsum filler'],
    ['Acme Order Support', undefined],
    ['Todo list manager', undefined],
    ['Returns <em>fast</em>', undefined],
  ])('%s', (value, reason) => {
    expect(placeholderReason(value)).toBe(reason);
  });
});

describe('publishing rules through validateAgentCard', () => {
  const httpCard = JSON.stringify(cardWith(iface('http://localhost:3000/a2a')));

  it.each<[ValidationProfile, boolean, Severity]>([
    ['development', true, 'info'],
    ['production', false, 'error'],
    ['strict', false, 'error'],
  ])('an http://localhost interface under %s: valid=%s, url-https is %s', (profile, valid, severity) => {
    const result = validateAgentCard(httpCard, { profile });
    expect(result.valid).toBe(valid);
    const mine = result.findings.filter((f) => f.rule === 'url-https' || f.rule === 'url-localhost');
    expect(mine.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['url-https', severity, '/supportedInterfaces/0/url'],
      ['url-localhost', severity, '/supportedInterfaces/0/url'],
    ]);
  });

  it('rejects an http token endpoint even in development', () => {
    const card = cardWith(
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl = 'http://auth.acme.io/token'),
    );
    const result = validateAgentCard(card, { profile: 'development' });
    expect(result.valid).toBe(false);
    expect(result.findings.find((f) => f.severity === 'error')).toMatchObject({ rule: 'url-https', path: TOKEN_URL });
  });

  it('rejects a card that carries a secret, without echoing it', () => {
    const result = validateAgentCard(cardWith(withParams({ apiKey: RANDOM })), { profile: 'production' });
    expect(result.valid).toBe(false);
    const finding = result.findings.find((f) => f.rule === 'secrets-in-card');
    expect(finding?.path).toBe('/capabilities/extensions/0/params/apiKey');
    expect(JSON.stringify(result)).not.toContain(RANDOM);
  });

  it('accepts the clean card in production with no publishing finding', () => {
    const result = validateAgentCard(baseCard(), { profile: 'production' });
    expect(result.valid).toBe(true);
    expect(result.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('keeps the spec sample valid in production, with placeholder warnings', () => {
    const result = validateAgentCard(JSON.stringify(specSampleCard()), { profile: 'production' });
    expect(result.valid).toBe(true);
    expect(result.findings.filter((f) => f.severity === 'warning').every((f) => f.rule === 'url-placeholder')).toBe(
      true,
    );
  });

  it("never trips the validator's internal-error guard on arbitrary field values", () => {
    const fields = [
      'supportedInterfaces',
      'securitySchemes',
      'signatures',
      'provider',
      'skills',
      'capabilities',
      'documentationUrl',
      'name',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.oneof(
          fc.anything(),
          fc.json().map((s) => JSON.parse(s)),
        ),
        (field, value) => {
          const result = validateAgentCard(
            cardWith((c) => (c[field] = value)),
            { profile: 'production' },
          );
          expect(result.findings.filter((f) => f.rule === 'internal-error')).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
