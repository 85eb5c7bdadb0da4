// `@agent-card/core/otel` counted by the OpenTelemetry SDK's in-memory metric reader, in a Node
// process of its own (as users run it: the built package, Node's own resolution).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const core = fileURLToPath(new URL('../packages/core/', import.meta.url));

const script = `
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { metrics } from '@opentelemetry/api';
import { createAgentCardResponder } from '@agent-card/core/http';
import { agentCardMetrics } from '@agent-card/core/otel';
import { CONFORMANCE_CARD } from '@agent-card/core/testing';

const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
  exportIntervalMillis: 60_000,
});
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: { warn() {} }, onServe: agentCardMetrics() });
const crawler = { 'user-agent': 'Mozilla/5.0 (compatible; ClaudeBot/1.0)', 'a2a-version': '1.0' };
for (let i = 0; i < 3; i++) responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: crawler });
responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: { 'if-none-match': '*' } });
responder.respond({ method: 'DELETE', path: '/.well-known/agent.json', headers: { 'user-agent': 'curl/8.5.0' } });
await new Promise((resolve) => setTimeout(resolve, 0));
const { resourceMetrics } = await reader.collect();
const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'agent_card.served');
console.log(JSON.stringify({ unit: metric.descriptor.unit, points: metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })) }));
`;

describe('agentCardMetrics with the OpenTelemetry SDK', () => {
  it('counts served documents in the in-memory reader, by kind, status, A2A version and client family', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: core,
      timeout: 20_000,
    });
    const { unit, points } = JSON.parse(stdout);
    expect(unit).toBe('{document}');
    expect(points).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            'agent_card.kind': 'card',
            'http.response.status_code': 200,
            'a2a.version': '1.0',
            'user_agent.family': 'agent-crawler',
          },
          value: 3,
        },
        {
          attributes: { 'agent_card.kind': 'card', 'http.response.status_code': 304, 'user_agent.family': 'none' },
          value: 1,
        },
        {
          attributes: {
            'agent_card.kind': 'alias',
            'http.response.status_code': 405,
            'user_agent.family': 'http-library',
          },
          value: 1,
        },
      ]),
    );
    expect(points).toHaveLength(3);
  });
});
