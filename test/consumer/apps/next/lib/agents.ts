import type { AgentCard } from '@agent-card/core';
import { agentCardRoute } from '@agent-card/core/next';

const origin = process.env.PUBLIC_ORIGIN ?? 'http://127.0.0.1:3000';
const agent = (id: string, name: string) => ({
  id,
  path: `/agents/${id}`,
  card: {
    name,
    description: `${name}: answers questions about Acme orders.`,
    version: '1.0.0',
    supportedInterfaces: [{ url: `${origin}/agents/${id}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: `${id}-help`, name: 'Help', description: 'Answers questions.', tags: [id] }],
  } satisfies AgentCard,
});

export const { GET, HEAD, OPTIONS } = agentCardRoute({
  agents: [agent('orders', 'Orders Agent'), agent('refunds', 'Refunds Agent')],
  profile: 'development',
});
