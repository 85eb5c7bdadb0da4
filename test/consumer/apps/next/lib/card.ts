import type { AgentCard } from '@agent-card/core';
import { agentCardRoute } from '@agent-card/core/next';

const origin = process.env.PUBLIC_ORIGIN ?? 'http://127.0.0.1:3000';
const card: AgentCard = {
  name: 'Orders Agent',
  description: 'Answers questions about Acme orders.',
  version: '1.0.0',
  supportedInterfaces: [{ url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  capabilities: { extendedAgentCard: true },
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Reports where an order is.', tags: ['orders'] }],
};

export const { GET, HEAD, OPTIONS } = agentCardRoute({
  card,
  profile: 'development',
  viewer: true,
  extended: {
    authenticate: (request) => (request.headers.get('x-api-key') === 'partner-key' ? { id: 'partner' } : null),
    card: {
      skills: [...card.skills, { id: 'refund', name: 'Refund', description: 'Refunds an order.', tags: ['orders'] }],
    },
  },
});
