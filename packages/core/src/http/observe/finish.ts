// The responder as users get it: the composed features, plus what observes them (the serve hook,
// the status, the routes, closing), added in one place on top.
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import type { Health } from '../kernel/health';
import { type AgentCardResponder, internalsOf, sealResponder } from '../kernel/responder';
import { withServeHook } from './hook';
import type { ObserveSettings } from './options';
import { probeRoutes } from './routes';

/** What {@link finishResponder} adds. */
export interface FinishSettings {
  observe: ObserveSettings;
  onError: (error: unknown) => void;
  health: Health;
  /** Every path the options can make the responder serve (see routes.ts). */
  candidates: readonly string[];
  /** Stops what runs beside the responder (the watch). */
  close: () => void;
}

/**
 * `inner` with the serve hook on `respond` when `onServe` is set (without it `respond` is the
 * inner one itself, no extra call), `update` reporting to the status, and the internals that
 * `agentCardStatus`, `closeAgentCard` and `agentCardRoutes` read.
 */
export function finishResponder<Req>(inner: AgentCardResponder<Req>, s: FinishSettings): AgentCardResponder<Req> {
  const { health } = s;
  const respond =
    s.observe.onServe === undefined ? inner.respond : withServeHook(inner.respond, s.observe.onServe, s.onError);
  const update = (card: AgentCard, changes?: Parameters<AgentCardResponder<Req>['update']>[1]) => {
    try {
      inner.update(card, changes);
    } catch (error) {
      // A card that does not validate leaves the one served before: stale until a good one comes.
      if (error instanceof AgentCardError && error.code === 'ERR_AGENT_CARD_INVALID') health.stale(error);
      throw error;
    }
    health.ok();
  };
  return sealResponder(
    { respond, update },
    {
      ...internalsOf(inner),
      status: internalsOf(inner)?.status ?? health.status,
      close: () => {
        internalsOf(inner)?.close?.();
        s.close();
      },
      routes: () => probeRoutes(inner.respond as AgentCardResponder<unknown>['respond'], s.candidates),
    },
  );
}
