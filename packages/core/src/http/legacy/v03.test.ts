import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../../model';
import { toLegacyV03Card } from './v03';

const sample = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL(
        '../../../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json',
        import.meta.url,
      ),
    ),
    'utf8',
  ),
) as AgentCard;

describe('toLegacyV03Card', () => {
  const legacy = toLegacyV03Card(sample);

  it('keeps every v1.0 field unchanged (a superset card)', () => {
    for (const key of Object.keys(sample) as (keyof AgentCard)[]) {
      if (key === 'securitySchemes' || key === 'skills') continue;
      expect(legacy[key as keyof typeof legacy]).toEqual(sample[key]);
    }
    expect(legacy.securitySchemes?.google?.openIdConnectSecurityScheme).toEqual(
      sample.securitySchemes?.google?.openIdConnectSecurityScheme,
    );
  });

  it('adds the v0.3 endpoint fields from the preferred interface', () => {
    expect(legacy).toMatchObject({
      url: 'https://georoute-agent.example.com/a2a/v1',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      supportsAuthenticatedExtendedCard: true,
      additionalInterfaces: [
        { url: 'https://georoute-agent.example.com/a2a/v1', transport: 'JSONRPC' },
        { url: 'https://georoute-agent.example.com/a2a/grpc', transport: 'GRPC' },
        { url: 'https://georoute-agent.example.com/a2a/json', transport: 'HTTP+JSON' },
      ],
    });
  });

  it('adds the legacy security list and type-tagged schemes', () => {
    expect(legacy.security).toEqual([{ google: ['openid', 'profile', 'email'] }]);
    expect(legacy.securitySchemes?.google).toMatchObject({
      type: 'openIdConnect',
      openIdConnectUrl: 'https://accounts.google.com/.well-known/openid-configuration',
    });
  });

  it('prefers a 0.3 interface when the card has one', () => {
    const card: AgentCard = {
      ...sample,
      supportedInterfaces: [
        { url: 'https://a.example.org/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://a.example.org/v03', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
    };
    expect(toLegacyV03Card(card)).toMatchObject({
      url: 'https://a.example.org/v03',
      preferredTransport: 'HTTP+JSON',
      protocolVersion: '0.3',
      additionalInterfaces: [{ url: 'https://a.example.org/v03', transport: 'HTTP+JSON' }],
    });
  });

  it.each([
    [
      { apiKeySecurityScheme: { location: 'header', name: 'X-Key', description: 'k' } },
      { type: 'apiKey', in: 'header', name: 'X-Key', description: 'k' },
    ],
    [
      { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    ],
    [
      {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://a.example.org/t', scopes: { r: 'read' } } },
        },
      },
      { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://a.example.org/t', scopes: { r: 'read' } } } },
    ],
    [
      {
        oauth2SecurityScheme: {
          flows: {
            deviceCode: {
              deviceAuthorizationUrl: 'https://a.example.org/d',
              tokenUrl: 'https://a.example.org/t',
              scopes: {},
            },
          },
        },
      },
      { type: 'oauth2', flows: {} },
    ],
    [{ mtlsSecurityScheme: {} }, { type: 'mutualTLS' }],
  ])('scheme %j gains %j alongside', (scheme, v03) => {
    const out = toLegacyV03Card({ ...sample, securitySchemes: { s: scheme as never } });
    expect(out.securitySchemes?.s).toEqual({ ...scheme, ...v03 });
  });

  it('maps skill-level securityRequirements to security', () => {
    const card: AgentCard = {
      ...sample,
      skills: [{ ...sample.skills[0]!, securityRequirements: [{ schemes: { google: { list: ['email'] } } }] }],
    };
    expect(toLegacyV03Card(card).skills[0]?.security).toEqual([{ google: ['email'] }]);
  });
});
