import { describe, expect, it } from 'vitest';
import type { ValidationProfile } from '../../findings';
import { cardWith, protectedHeader, runCheck } from '../test-cards';
import { validateAgentCard } from '../validate';
import { checkInternalHosts } from './internal-hosts';

const found = (card: Record<string, unknown>, profile: ValidationProfile = 'production') =>
  runCheck(checkInternalHosts, card, profile).map((f) => [f.severity, f.path, f.message]);

describe('url-private-host (rule 35), any URL of the card', () => {
  it.each<[string, (card: any) => void, string, string]>([
    [
      'an extension URI on a .corp host',
      (c) => (c.capabilities.extensions = [{ uri: 'https://schemas.acme.corp/ext/orders/v1' }]),
      '/capabilities/extensions/0/uri',
      'capabilities.extensions[0].uri: host is under .corp, a private-network suffix ("schemas.acme.corp").',
    ],
    [
      'a URL inside a skill description is not a URL field, and is still read',
      (c) => (c.skills[0].examples = ['https://10.20.0.7/orders/1234']),
      '/skills/0/examples/0',
      'skills[0].examples[0]: host is an RFC 1918 private address ("10.20.0.7").',
    ],
    [
      'a gRPC interface on a single-label host',
      (c) => c.supportedInterfaces.push({ url: 'orders:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' }),
      '/supportedInterfaces/1/url',
      'supportedInterfaces[1].url: host is a single-label host that only resolves inside a private network ("orders").',
    ],
    [
      'a .lan documentation link',
      (c) => (c.documentationUrl = 'https://wiki.office.lan/agents'),
      '/documentationUrl',
      'documentationUrl: host is under .lan, a private-network suffix ("wiki.office.lan").',
    ],
    [
      'a link-local IPv6 token URL',
      (c) =>
        (c.securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl = 'https://[fe80::1]/token'),
      '/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/tokenUrl',
      'securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl: host is an IPv6 link-local address (fe80::/10) ("[fe80::1]").',
    ],
    [
      'the jku of a signature',
      (c) =>
        (c.signatures = [
          {
            protected: protectedHeader({ alg: 'ES256', kid: 'k', jku: 'https://keys.internal/jwks.json' }),
            signature: 'AA',
          },
        ]),
      '/signatures/0/protected',
      'signatures[0].protected (jku): host is under .internal, a private-network suffix ("keys.internal").',
    ],
  ])('%s is an error in production', (_title, edit, path, message) => {
    expect(found(cardWith(edit))).toEqual([['error', path, message]]);
  });

  it.each<[ValidationProfile, string]>([
    ['development', 'warning'],
    ['production', 'error'],
    ['strict', 'error'],
  ])('%s: %s', (profile, severity) => {
    const card = cardWith((c) => (c.supportedInterfaces[0].url = 'https://agent.svc.cluster.local/a2a'));
    expect(found(card, profile).map(([s]) => s)).toEqual([severity]);
  });

  it.each<[string, (card: any) => void]>([
    ['public hosts', () => {}],
    ['a loopback host (rule 34 reports it)', (c) => (c.supportedInterfaces[0].url = 'http://localhost:3000/a2a')],
    ['an example host (rule 36 reports it)', (c) => (c.documentationUrl = 'https://docs.example.com')],
    ['prose that is not a URL', (c) => (c.description = 'Answers questions about orders: status, returns.')],
    ['a URN', (c) => (c.capabilities.extensions = [{ uri: 'urn:acme:ext:orders' }])],
  ])('reports nothing on %s', (_title, edit) => {
    expect(found(cardWith(edit))).toEqual([]);
  });

  it('makes a card with an internal interface invalid in production, once per URL', () => {
    const card = cardWith((c) => (c.supportedInterfaces[0].url = 'https://10.0.0.5/a2a'));
    const result = validateAgentCard(card, { profile: 'production' });
    expect(result.valid).toBe(false);
    expect(result.findings.filter((f) => f.rule === 'url-private-host').map((f) => [f.severity, f.path])).toEqual([
      ['error', '/supportedInterfaces/0/url'],
    ]);
  });
});
