// Readiness, routes and closing, read from a responder (or an adapter's middleware, plugin or
// handler, which carries it as `responder`) like `getExtendedAgentCard` reads the extended card.
import type { AgentCardStatus } from '../kernel/health';
import { type AgentCardResponder, internalsFrom, type ResponderInternals } from '../kernel/responder';
import type { CardStore } from '../../store/card-store';
import type { AgentCardRoute } from './routes';

type Source = AgentCardResponder<any> | { readonly responder: AgentCardResponder<any> };

function top(source: unknown, caller: string): ResponderInternals & Required<Pick<ResponderInternals, 'status'>> {
  const internals = internalsFrom(source, caller);
  if (internals.status === undefined)
    throw new TypeError(
      `${caller}: this is one agent's responder (from agentResponderOf); pass the responder, middleware, plugin or handler that serves every agent.`,
    );
  return internals as ResponderInternals & Required<Pick<ResponderInternals, 'status'>>;
}

/**
 * What the responder serves now, for a readiness probe: `ok`; `stale` when the last rebuild
 * failed (an invalid card given to `update()`, an `agent-card.json` that no longer validates
 * under `watch`, a card function that threw while `staleIfError` kept its last variant) and the
 * card served before is still served; `failing` when a card function's last build failed with
 * nothing to serve instead. `ready` is `false` only when failing; `lastError` is the last
 * failure, kept after recovery.
 * @example
 * app.get('/readyz', (req, res) => {
 *   const { ready, state } = agentCardStatus(cards);
 *   res.status(ready ? 200 : 503).json({ state });
 * });
 */
export function agentCardStatus(source: Source): AgentCardStatus {
  return top(source, 'agentCardStatus').status();
}

/**
 * Stops what the responder runs beside serving: the watch of `agent-card.json` (`watch`). The
 * Fastify plugin and the Nest module call it when the app closes; with Express, Koa and Hono call
 * it when the server closes (`server.on('close', () => closeAgentCard(cards))`). Serving goes on.
 */
export function closeAgentCard(source: Source): void {
  top(source, 'closeAgentCard').close?.();
}

/**
 * The paths the responder serves, each with the kind of document served there (`card`, `alias`,
 * `extended`, `jwks`, `viewer`, `catalog`…), relative to where it is mounted; for a start-up log
 * line. Asks each path the options can make with `OPTIONS`, so nothing is authenticated or built.
 */
export function agentCardRoutes(source: Source): Promise<AgentCardRoute[]> {
  return top(source, 'agentCardRoutes').routes?.() ?? Promise.resolve([]);
}

/**
 * The cards of a store-backed responder (`store`), to write through: `put(tenant, agent, card)`
 * validates with the responder's `profile` and `rules`, refuses interface URLs that are not the
 * tenant's, signs once with its `sign`, writes a new version to the store (every replica hears
 * it) and resolves once this replica serves it. `delete(tenant, agent)` likewise.
 * @throws TypeError when the responder does not serve from a store.
 * @example await agentCardStore(cards).put('acme', 'main', card)
 */
export function agentCardStore(source: Source): CardStore {
  const store = top(source, 'agentCardStore').store;
  if (store === undefined)
    throw new TypeError(
      'agentCardStore: the responder does not serve from a store. Create it with store: memoryStore() (or another driver) and tenant, or use update(card).',
    );
  return store;
}
