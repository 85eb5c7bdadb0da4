import type { AgentCard, AgentSkill } from '../model';

/**
 * The public card the conformance suite serves: an HTTP+JSON interface (so the REST extended
 * card lives at `/a2a/rest/extendedAgentCard`), a bearer and an API-key scheme, and
 * `capabilities.extendedAgentCard: true`.
 */
export const CONFORMANCE_CARD: AgentCard = {
  name: 'Conformance Agent',
  description: 'Answers questions about serving A2A agent cards; used by the conformance suite.',
  supportedInterfaces: [
    { url: 'https://agent.conformance.dev/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://agent.conformance.dev/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  provider: { organization: 'Agent Card Conformance', url: 'https://conformance.dev' },
  version: '1.0.0',
  capabilities: { streaming: false, extendedAgentCard: true },
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'public-answer',
      name: 'Public answers',
      description: 'Answers general questions about agent cards.',
      tags: ['qa'],
      examples: ['What is an agent card?'],
    },
  ],
};

/** The REST extended card path of {@link CONFORMANCE_CARD}. */
export const CONFORMANCE_EXTENDED_PATH = '/a2a/rest/extendedAgentCard';

/** The skill only authenticated callers may see. */
export const EXTENDED_ONLY_SKILL: AgentSkill = {
  id: 'private-audit',
  name: 'Private audit',
  description: 'Audits private deployments; only for authenticated callers.',
  tags: ['audit'],
};

/** The bearer token the suite's `authenticate` accepts. */
export const CONFORMANCE_TOKEN = 'conformance-token';

/**
 * A card for one agent of a multi-agent host: {@link CONFORMANCE_CARD} named after `id`, with
 * its interfaces under `/agents/{id}/a2a/…` (so its REST extended card is at
 * `/agents/{id}/a2a/rest/extendedAgentCard`) and a skill tagged `id`.
 */
export function conformanceAgentCard(id: string, origin = 'https://agent.conformance.dev'): AgentCard {
  return {
    ...CONFORMANCE_CARD,
    name: `Conformance ${id}`,
    description: `The ${id} agent of the multi-agent conformance host.`,
    version: '1.2.0',
    supportedInterfaces: [
      { url: `${origin}/agents/${id}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/agents/${id}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    skills: [{ id: `${id}-answer`, name: `${id} answers`, description: `Answers ${id} questions.`, tags: [id, 'qa'] }],
  };
}
