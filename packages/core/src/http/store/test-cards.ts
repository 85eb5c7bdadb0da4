// The card the store tests write for a tenant's agent (not shipped: see the package's `files`).
import type { AgentCard } from '../../model';

/** An agent of `tenant` on `{tenant}.agents.example.com`, with one skill; `fields` replace members in place. */
export function tenantCard(tenant: string, agent: string, fields: Partial<AgentCard> = {}): AgentCard {
  return {
    name: `${tenant} ${agent}`,
    description: `The ${agent} agent of ${tenant}.`,
    supportedInterfaces: [
      {
        url: `https://${tenant}.agents.example.com/agents/${agent}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
    ],
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers questions.', tags: ['qa'] }],
    ...fields,
  } as AgentCard;
}
