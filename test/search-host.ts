/**
 * The host the Express and Koa registry-search tests serve: tenant `acme` under the path prefix
 * `/t`, with two agents ("Billing Assistant" and "Travel Guide") in a memory store, and a search
 * request of at most 256 bytes. Each adapter mounts it around its own body parser.
 */
import type { AgentCard } from '@agent-card/core';
import type { AgentCardOptions } from '@agent-card/core/http';
import { memoryStore } from '@agent-card/core/store';
import { expect } from 'vitest';

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

/** Sends one search request: a value as JSON, a string as the raw JSON text. */
export type SearchPost = (body: unknown) => PromiseLike<{ status: number; body: any }>;

/** The search finds the billing agent, and a request past the 256-byte bound is a 413 in the draft's shape. */
export async function expectSearchWithinBound(post: SearchPost): Promise<void> {
  const found = await post({ query: { text: 'billing' } });
  expect(found.status).toBe(200);
  expect(found.body.results.map((r: { identifier: string }) => r.identifier)).toEqual([
    'urn:air:api.example.com:agent:billing',
  ]);
  const big = await post({ query: { text: 'a', filter: { tags: ['x'.repeat(300)] } } });
  expect(big.status).toBe(413);
  expect(big.body).toEqual({ errorCode: 'PAYLOAD_TOO_LARGE', message: 'A search request is at most 256 bytes.' });
}

/** A member named twice is refused, though a parser keeping the last value would have searched "billing". */
export async function expectDuplicateRefused(post: SearchPost): Promise<void> {
  const twice = await post('{"query":{"text":"zzz","text":"billing"}}');
  expect(twice.status).toBe(400);
  expect(twice.body.message).toBe('The body names a member twice in one object.');
}
