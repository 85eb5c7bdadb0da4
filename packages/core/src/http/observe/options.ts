// The options of observing a responder: the serve hook, and the watch of `agent-card.json`.
import type { Report } from '../kernel/problems';
import type { AgentCardServeHook } from './hook';

/** The `watch` option's object form. */
export interface AgentCardWatchOptions {
  /**
   * Milliseconds from the first change seen to the reload; every change in between makes one
   * reload (a ConfigMap update fires several events).
   * @default 100
   */
  debounce?: number;
}

/** The observing options, checked. */
export interface ObserveSettings {
  onServe: AgentCardServeHook | undefined;
  /** The debounce of `watch` in milliseconds; `undefined` without `watch`. */
  watch: number | undefined;
}

/** The top-level options read here. */
export const OBSERVE_KEYS = ['onServe', 'watch'];

const DEFAULT_DEBOUNCE = 100;
const MAX_DEBOUNCE = 60_000;

/** Checks `onServe` and `watch`; problems go to `err`. */
export function resolveObserve(o: Record<string, unknown>, err: Report): ObserveSettings {
  if (o.onServe !== undefined && typeof o.onServe !== 'function')
    err('onServe', 'must be a function', o.onServe, 'Pass (event) => { … }, or leave it out.');
  return { onServe: o.onServe as AgentCardServeHook | undefined, watch: resolveWatch(o, err) };
}

function resolveWatch(o: Record<string, unknown>, err: Report): number | undefined {
  const value = o.watch;
  if (value === undefined || value === false) return undefined;
  let debounce = DEFAULT_DEBOUNCE;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const key of Object.keys(value))
      if (key !== 'debounce') err(`watch.${key}`, 'is not an option of watch', key, 'Use watch: { debounce }.');
    const d = (value as AgentCardWatchOptions).debounce;
    if (d !== undefined && (!Number.isInteger(d) || d < 0 || d > MAX_DEBOUNCE))
      err('watch.debounce', `must be a whole number of milliseconds from 0 to ${MAX_DEBOUNCE}`, d, 'Use e.g. 100.');
    else if (d !== undefined) debounce = d;
  } else if (value !== true) {
    err('watch', 'must be true, false or { debounce }', value, 'Use watch: true.');
    return undefined;
  }
  if (o.card !== undefined || o.agents !== undefined)
    err(
      'watch',
      `reloads agent-card.json, so the card must come from that file (${o.card !== undefined ? 'card' : 'agents'} is set)`,
      value,
      'Leave card out to serve agent-card.json, or call update(card) when your card changes.',
    );
  return debounce;
}
