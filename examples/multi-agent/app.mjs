// One Express service hosting two A2A agents (billing and support) and the AI Catalog that lists
// them, from one middleware.
import { createServer } from 'node:http';
import express from 'express';
import { agentCard } from '@agent-card/express';

/** Key accepted for the billing agent's extended card when `API_KEYS` is not set. Local runs only. */
export const DEVELOPMENT_API_KEY = 'billing-dev-key';

const common = {
  provider: { organization: 'Acme Corp', url: 'https://github.com/acme-corp' },
  version: '2.0.0',
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
};

/** The two public cards; each agent's endpoint lives under its own path. */
export function createCards(publicUrl) {
  return {
    billing: {
      ...common,
      name: 'Acme Billing Agent',
      description: 'Answers questions about invoices and payments of Acme customers.',
      supportedInterfaces: [
        { url: `${publicUrl}/agents/billing/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: false, extendedAgentCard: true },
      securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
      securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
      skills: [
        {
          id: 'invoice-status',
          name: 'Invoice status',
          description: 'Says whether an invoice is paid.',
          tags: ['billing', 'invoices'],
          examples: ['Is invoice INV-1042 paid?', 'Which of my invoices are still open?'],
        },
      ],
    },
    support: {
      ...common,
      name: 'Acme Support Agent',
      description: 'Answers product questions and opens support tickets.',
      supportedInterfaces: [
        { url: `${publicUrl}/agents/support/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: false },
      skills: [
        {
          id: 'open-ticket',
          name: 'Open a ticket',
          description: 'Opens a support ticket.',
          tags: ['support', 'tickets'],
          examples: ['Open a ticket: the checkout page will not load', 'My order arrived damaged'],
        },
      ],
    },
  };
}

/** Skills only callers with a billing API key see. */
export const billingExtras = [
  {
    id: 'refund-invoice',
    name: 'Refund an invoice',
    description: 'Refunds a paid invoice.',
    tags: ['billing', 'refunds'],
  },
];

/** What the host lists besides its agents: an MCP server and an Agent Skills index, hosted elsewhere. */
export function otherEntries() {
  return [
    {
      identifier: 'urn:air:acme-corp.example:mcp:invoices',
      type: 'application/mcp-server-card+json',
      url: 'https://mcp.acme-corp.example/server-card',
      // The ARD manifest (/.well-known/ard.json) lists an entry only with a name people see.
      displayName: 'Acme invoices MCP server',
    },
    {
      identifier: 'urn:air:acme-corp.example:skills:index',
      type: 'application/agent-skills+json',
      url: 'https://acme-corp.example/.well-known/agent-skills/index.json',
      displayName: 'Acme skills',
    },
  ];
}

/** The app: its own routes, plus the middleware in front of them. */
export function createApp({ publicUrl, apiKeys = [DEVELOPMENT_API_KEY], signingKey }) {
  const cards = createCards(publicUrl);
  const app = express();
  app.use(
    agentCard({
      agents: [
        {
          id: 'billing',
          path: '/agents/billing',
          card: cards.billing,
          extended: {
            authenticate: (req) => (apiKeys.includes(req.headers['x-api-key']) ? { partner: true } : undefined),
            card: billingExtras,
          },
        },
        { id: 'support', path: '/agents/support', card: cards.support },
      ],
      default: 'support',
      // The AI Catalog (current draft): the agents as urn:air:acme-corp.example:agent:{id}, then the
      // entries declared here; the MCP Server Card is also listed at /.well-known/mcp/catalog.json.
      catalog: {
        publisher: 'acme-corp.example',
        host: { displayName: 'Acme Corp' },
        baseUrl: publicUrl,
        entries: otherEntries(),
      },
      // With SIGNING_KEY (a PKCS#8 PEM, e.g. from `agent-card keys generate`), the cards and the
      // catalog are signed, and each catalog entry carries the SHA-256 of its card.
      ...(signingKey ? { sign: { privateKey: signingKey, alg: 'ES256' } } : {}),
      cacheControl: 'public, max-age=600',
      // A page per agent ({path}/.well-known/agent-card.html) and one listing them all
      // (/.well-known/ai-catalog.html).
      viewer: true,
    }),
  );
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  return app;
}

/** Starts the service; resolves with its URL and a close function. */
export async function start({ port = Number(process.env.PORT ?? 3000), host = process.env.HOST ?? '127.0.0.1' } = {}) {
  // The card URLs need the public origin, which is known once the port is bound.
  let handler = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(port, host, resolve));
  const url = `http://${host}:${server.address().port}`;
  const apiKeys = process.env.API_KEYS?.split(',').filter(Boolean);
  handler = createApp({
    publicUrl: process.env.PUBLIC_URL ?? url,
    ...(apiKeys ? { apiKeys } : {}),
    signingKey: process.env.SIGNING_KEY,
  });
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
