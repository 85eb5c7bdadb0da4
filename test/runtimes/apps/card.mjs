// The card the runtime tests serve, shared by the apps and the test that checks them.
export const TOKEN = 'runtime-token';

export const CARD = {
  name: 'Runtime Agent',
  description: 'Serves its card from every runtime the tests start.',
  supportedInterfaces: [
    { url: 'https://agent.runtime-card.dev/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  version: '1.0.0',
  capabilities: { streaming: false, extendedAgentCard: true },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'public-answer', name: 'Public answers', description: 'Answers questions.', tags: ['qa'] }],
};

export const EXTENDED_SKILL = {
  id: 'private-audit',
  name: 'Private audit',
  description: 'Only for authenticated callers.',
  tags: ['audit'],
};
