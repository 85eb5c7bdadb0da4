// `@agent-card/core/otel`: the served documents as an OpenTelemetry counter. A separate entry, so
// only those who import it need `@opentelemetry/api` (an optional peer dependency).
import { type Attributes, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import type { AgentCardServeEvent, AgentCardServeHook } from '../http';

/** The counter's name. */
export const AGENT_CARD_SERVED_METRIC = 'agent_card.served';

/** Options of {@link agentCardMetrics}. */
export interface AgentCardMetricsOptions {
  /**
   * The meter to count with.
   * @default `meterProvider.getMeter('@agent-card/core')`
   */
  meter?: Meter;
  /**
   * Where the meter comes from when `meter` is not given.
   * @default the global provider (`metrics.getMeterProvider()`), as set by the OpenTelemetry SDK
   */
  meterProvider?: MeterProvider;
}

/**
 * An `onServe` hook that counts every served document with OpenTelemetry: one counter,
 * `agent_card.served` (unit `{document}`), with the attributes
 *
 * - `agent_card.kind`: `card`, `alias`, `extended`, `catalog`, `jwks`, `viewer`…;
 * - `agent_card.agent`: the agent's id, with `agents` (absent otherwise);
 * - `http.response.status_code`: 200, 304, 401, 405, 503…;
 * - `a2a.version`: the `A2A-Version` asked for (`1.0`, `invalid`; absent without the header);
 * - `user_agent.family`: `agent-crawler`, `search-crawler`, `a2a-sdk`, `http-library`,
 *   `browser`, `other`, `none`.
 *
 * Every attribute takes a bounded set of values whatever clients send, so the counter's
 * cardinality stays small. The meter is resolved once, here.
 * @example
 * import { agentCardMetrics } from '@agent-card/core/otel';
 * app.use(agentCard({ card, onServe: agentCardMetrics() }));
 */
export function agentCardMetrics(options: AgentCardMetricsOptions = {}): AgentCardServeHook {
  const meter = options.meter ?? (options.meterProvider ?? metrics.getMeterProvider()).getMeter('@agent-card/core');
  const counter = meter.createCounter(AGENT_CARD_SERVED_METRIC, {
    description: 'Agent Card documents served, by kind, agent, status, A2A version and client family.',
    unit: '{document}',
  });
  return (event: AgentCardServeEvent) => {
    const attributes: Attributes = {
      'agent_card.kind': event.kind,
      'http.response.status_code': event.status,
      'user_agent.family': event.client,
    };
    if (event.agent !== undefined) attributes['agent_card.agent'] = event.agent;
    if (event.a2aVersion !== undefined) attributes['a2a.version'] = event.a2aVersion;
    counter.add(1, attributes);
  };
}
