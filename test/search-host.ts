/**
 * The host the Express and Koa registry-search tests serve: tenant `acme` under the path prefix
 * `/t`, with two agents ("Billing Assistant" and "Travel Guide") in a memory store, and a search
 * request of at most 256 bytes. Each adapter mounts it around its own body parser.
 */
import type { AgentCard } from '@agent-card/core';
import type { AgentCardOptions } from '@agent-card/core/http';
import { memoryStore } from '@agent-card/core/store';

const card = (agent: string, name: string): AgentCard => ({
  name,
  description: `The ${name}.`,
  version: '1.0.0',
  supportedInterfaces: [
    { url: `https://api.example.com/t/acme/agents/${agent}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: `${agent}-answer`, name: 'Answer', description: 'Answers.', tags: ['support'] }],
});

/** The middleware's options for that host, over a store of its own on each call. */
export function searchHostOptions(): AgentCardOptions {
  const driver = memoryStore();
  void driver.put({ tenant: 'acme', agent: 'billing' }, JSON.stringify(card('billing', 'Billing Assistant')));
  void driver.put({ tenant: 'acme', agent: 'travel' }, JSON.stringify(card('travel', 'Travel Guide')));
  return {
    store: { driver, registry: { maxSearchBytes: 256 } },
    tenant: { from: 'path', prefix: '/t' },
    profile: 'development',
    logger: { warn() {} },
  };
}
