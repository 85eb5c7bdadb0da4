// Whether the responder serves what it was asked to: kept by whatever rebuilds a card (update(),
// a reload of agent-card.json, a card function's variant), read by `agentCardStatus`.

/**
 * What a responder serves now, for a readiness probe:
 *
 * - `ok`: the card it serves is the last one it was given (or built);
 * - `stale`: the last rebuild failed (an invalid card given to `update()`, an `agent-card.json`
 *   that no longer validates, a card function that threw with `staleIfError`) and the card
 *   served before is still served;
 * - `failing`: the last build of a card function failed and there was nothing to serve instead
 *   (the request was answered 503).
 */
export type AgentCardState = 'ok' | 'stale' | 'failing';

/** What `agentCardStatus` returns. */
export interface AgentCardStatus {
  /** See {@link AgentCardState}. */
  readonly state: AgentCardState;
  /** `false` only when `failing`: a stale card still answers clients. */
  readonly ready: boolean;
  /** The error of the last failed rebuild, kept after a later one succeeds. */
  readonly lastError?: unknown;
  /** When {@link lastError} happened. */
  readonly lastErrorAt?: Date;
  /** When the state last changed (the responder's creation at first). */
  readonly since: Date;
  /**
   * With `store`: the store's name (never a password), whether this replica hears its changes
   * now, and how many tenants and prepared bytes it holds. `ready` is `false` while the store
   * has never been reached (and no `store.snapshot` is configured).
   */
  readonly store?: {
    readonly description: string;
    readonly connected: boolean;
    readonly tenants: number;
    readonly bytes: number;
  };
}

/** The recorder every rebuild reports to. */
export interface Health {
  status(): AgentCardStatus;
  /** A rebuild succeeded: the card served is the one asked for. */
  ok(): void;
  /** A rebuild failed; the card served before is still served. */
  stale(error: unknown): void;
  /** A build failed and nothing could be served instead. */
  failing(error: unknown): void;
}

/** A recorder that starts `ok`; the status object is made only when it changes. */
export function createHealth(now: () => Date = () => new Date()): Health {
  let current: AgentCardStatus = Object.freeze({ state: 'ok', ready: true, since: now() });
  const set = (state: AgentCardState, error?: unknown) => {
    const at = now();
    const failed = error === undefined ? {} : { lastError: error, lastErrorAt: at };
    if (state === current.state && error === undefined) return;
    const kept =
      current.lastErrorAt === undefined ? {} : { lastError: current.lastError, lastErrorAt: current.lastErrorAt };
    current = Object.freeze({
      state,
      ready: state !== 'failing',
      ...kept,
      ...failed,
      since: state === current.state ? current.since : at,
    });
  };
  return {
    status: () => current,
    ok: () => set('ok'),
    stale: (error) => set('stale', error),
    failing: (error) => set('failing', error),
  };
}
