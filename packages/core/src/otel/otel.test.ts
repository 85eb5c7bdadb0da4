import type { Meter } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createAgentCardResponder } from '../http';
import { CONFORMANCE_CARD, conformanceAgentCard } from '../testing/cards';
import { AGENT_CARD_SERVED_METRIC, agentCardMetrics } from './index';

// The OpenTelemetry SDK itself counts in test/otel.test.ts (a Node process of its own: its
// CommonJS build cannot load under the test runner's `module` condition). Here, a meter that
// records what the counter is given.
function recordingMeter() {
  const added: { name: string; value: number; attributes: Record<string, unknown> }[] = [];
  const meter = {
    createCounter: (name: string) => ({
      add: (value: number, attributes: Record<string, unknown>) => added.push({ name, value, attributes }),
    }),
  } as unknown as Meter;
  return { meter, added };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const quiet = { warn: () => {} };

describe('agentCardMetrics: the served documents as a counter', () => {
  it('adds one per answered request, with the attributes of what was served', async () => {
    const { meter, added } = recordingMeter();
    const responder = createAgentCardResponder({
      logger: quiet,
      default: 'billing',
      agents: [{ id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing') }],
      onServe: agentCardMetrics({ meter }),
    });
    const crawler = { 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2)', 'a2a-version': '1.0' };
    await responder.respond({ method: 'GET', path: '/agents/billing/.well-known/agent-card.json', headers: crawler });
    await responder.respond({ method: 'POST', path: '/.well-known/ai-catalog.json', headers: {} });
    await responder.respond({ method: 'GET', path: '/not/ours', headers: {} });
    await tick();
    expect(added).toEqual([
      {
        name: AGENT_CARD_SERVED_METRIC,
        value: 1,
        attributes: {
          'agent_card.kind': 'card',
          'agent_card.agent': 'billing',
          'http.response.status_code': 200,
          'a2a.version': '1.0',
          'user_agent.family': 'agent-crawler',
        },
      },
      {
        name: AGENT_CARD_SERVED_METRIC,
        value: 1,
        attributes: { 'agent_card.kind': 'catalog', 'http.response.status_code': 405, 'user_agent.family': 'none' },
      },
    ]);
  });

  it('keeps each attribute to a few values, whatever clients send', async () => {
    const { meter, added } = recordingMeter();
    const responder = createAgentCardResponder({
      card: CONFORMANCE_CARD,
      logger: quiet,
      onServe: agentCardMetrics({ meter }),
    });
    for (let i = 0; i < 500; i++)
      responder.respond({
        method: 'GET',
        path: '/.well-known/agent-card.json',
        headers: { 'user-agent': `random-client-${i}/${i}`, 'a2a-version': `${i}.${i}.${i}-x${i}` },
      });
    await tick();
    expect(added).toHaveLength(500);
    expect(new Set(added.map((a) => JSON.stringify(a.attributes))).size).toBeLessThanOrEqual(11);
  });
});
