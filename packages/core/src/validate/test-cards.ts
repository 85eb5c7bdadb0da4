/**
 * Test support for the validation rules: a small clean card, the spec §8.5 sample, and a runner
 * that applies one rule module under a profile. Not part of the package API.
 */
import { readFileSync } from 'node:fs';
import type { Finding, ValidationProfile } from '../findings';
import { createRuleContext, type CardShape, type JsonObject, type RuleCheck } from './context';

/**
 * A v1.0 card that passes every cross-field and publishing rule under `production` with no
 * finding at all. Returns a fresh copy on each call, so tests may mutate it.
 */
export function baseCard(): JsonObject {
  return {
    name: 'Acme Order Support',
    description: 'Answers questions about Acme orders, returns and delivery times for signed-in customers.',
    supportedInterfaces: [{ url: 'https://api.acme.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: 'Acme Inc.', url: 'https://acme.io' },
    version: '1.4.0',
    documentationUrl: 'https://docs.acme.io/agents/support',
    iconUrl: 'https://acme.io/icons/support.png',
    capabilities: { streaming: true, extendedAgentCard: true },
    securitySchemes: {
      oauth: {
        oauth2SecurityScheme: {
          flows: {
            clientCredentials: {
              tokenUrl: 'https://auth.acme.io/oauth/token',
              scopes: { 'orders:read': 'Read orders', 'orders:write': 'Change orders' },
            },
          },
        },
      },
    },
    securityRequirements: [{ schemes: { oauth: { list: ['orders:read'] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'order-status',
        name: 'Order status',
        description: 'Looks up the status and delivery estimate of an order.',
        tags: ['orders'],
        examples: ['Where is order 1234?'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain', 'application/json'],
      },
      {
        id: 'returns',
        name: 'Returns',
        description: 'Starts a return for an order and explains the refund timeline.',
        tags: ['orders', 'returns'],
        examples: ['I want to return the shoes from order 1234.'],
        securityRequirements: [{ schemes: { oauth: { list: ['orders:write'] } } }],
      },
    ],
  };
}

/** A deep copy of the spec §8.5 sample card (main branch, proto-conformant). */
export function specSampleCard(): JsonObject {
  const url = new URL(
    '../../../../test/fixtures/spec/examples/spec-8.5-sample-agent-card.main-16ba5269.json',
    import.meta.url,
  );
  return JSON.parse(readFileSync(url, 'utf8')) as JsonObject;
}

/** A base card changed by `edit` (which may mutate it in place). */
export function cardWith(edit: (card: any) => void): JsonObject {
  const card = baseCard();
  edit(card);
  return card;
}

/** Runs one rule module on a card and returns its findings. */
export function runCheck(
  check: RuleCheck,
  card: JsonObject,
  profile: ValidationProfile = 'production',
  shape: CardShape = 'v1.0',
): Finding[] {
  const ctx = createRuleContext(profile, shape);
  check(card, ctx);
  ctx.closeBounds();
  return ctx.findings;
}

/** Encodes a JWS protected header the way `signatures[].protected` carries it. */
export function protectedHeader(header: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(header), 'utf8').toString('base64url');
}
