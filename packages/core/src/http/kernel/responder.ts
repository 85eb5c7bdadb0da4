// The responder every adapter calls, and what it keeps for itself: `getExtendedAgentCard` and
// `agentResponderOf` read a responder's internals from the responder (a symbol-keyed member that
// is not enumerable), never from a registry.
import type { AgentCard } from '../../model';
import { showValue } from '../../util';
import type { VariantSource } from './derived';
import type { AgentCardRequest, AgentCardResponse } from './exchange';
import type { ExtendedCardRequest, ExtendedCardSetting, GetExtendedAgentCardResult } from './extended';
import type { AgentCardStatus } from './health';
import type { AgentCardServedKind } from './served';
import type { CardStore } from '../../store/card-store';

/** Answers requests for the card; built once by {@link createAgentCardResponder}. */
export interface AgentCardResponder<Req = unknown> {
  /**
   * Answers one request, or returns `undefined` when the request is not for the card (the
   * adapter then passes it on to the app). Synchronous for a static card.
   */
  respond(request: AgentCardRequest<Req>): AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>;
  /**
   * Replaces a static card at run time. The new card is validated with the responder's profile,
   * signed (with `sign`), serialised and hashed once, then swapped in: a request is answered
   * wholly from the old card or wholly from the new one, each with its own ETag.
   * @throws AgentCardError `ERR_AGENT_CARD_INVALID` listing every error; the served card is
   *   unchanged. `ERR_AGENT_CARD_OPTIONS` when `card` is a function (a per-request card changes
   *   with what the function returns).
   * @example
   * responder.update({ ...card, skills: [...card.skills, newSkill] })
   */
  update(card: AgentCard, changes?: AgentCardUpdate): void;
}

/** What else {@link AgentCardResponder.update} changes besides the public card. */
export interface AgentCardUpdate {
  /** Replaces `extended.card` for the new card (and later updates); validated with it. */
  extendedCard?: ExtendedCardSetting;
}

/** What a responder keeps off its public face. */
export interface ResponderInternals {
  /** The extended card of a request, for `getExtendedAgentCard` (one card: not with `agents`). */
  extended?(request: ExtendedCardRequest<unknown>): Promise<GetExtendedAgentCardResult>;
  /**
   * The current variant of the JSON document at a request's path (a card, the AI Catalog), for
   * the documents made of them (kernel/derived.ts).
   */
  variant?: VariantSource<any>;
  /** With `agents`: each agent's own responder, for `agentResponderOf`. */
  readonly agents?: ReadonlyMap<string, AgentCardResponder<any>>;
  /**
   * The paths of the documents it serves to anyone who asks with GET (the card, the legacy
   * alias, the JWK Set, the catalog, the viewer's pages), as they stand now, for
   * `servedPathsOf`; absent when they depend on the request (a card function).
   */
  paths?(): readonly string[];
  /** What it serves now, for `agentCardStatus`. */
  status?(): AgentCardStatus;
  /** Stops what runs beside it (the watch of `agent-card.json`), for `closeAgentCard`. */
  close?(): void;
  /** With `store`: the writer of write-throughs, for `agentCardStore`. */
  readonly store?: CardStore;
  /** The paths it serves and their kinds, for `agentCardRoutes`. */
  routes?(): Promise<{ readonly path: string; readonly kind: AgentCardServedKind }[]>;
}

const INTERNALS = Symbol('agent card responder internals');

type Carrier = { [INTERNALS]?: ResponderInternals };

/** Freezes `responder` with `internals` attached (a wrapper passes on those of what it wraps). */
export function sealResponder<R extends AgentCardResponder<any>>(responder: R, internals: ResponderInternals): R {
  Object.defineProperty(responder, INTERNALS, { value: internals, enumerable: false });
  return Object.freeze(responder);
}

/**
 * `internals` with `more` paths added to those of what it wraps (none when the wrapped responder
 * has no fixed paths: its documents depend on the request, and so do the wrapper's).
 */
export function withPaths(internals: ResponderInternals, more: () => readonly string[]): ResponderInternals {
  const inner = internals.paths;
  return inner === undefined ? internals : { ...internals, paths: () => [...inner(), ...more()] };
}

/** The internals of a responder made here, if it is one. */
export function internalsOf(responder: AgentCardResponder<any>): ResponderInternals | undefined {
  return (responder as Carrier)[INTERNALS];
}

/**
 * The internals of `source`: a responder, or an adapter's middleware, plugin or handler carrying
 * its responder as `responder`. Anything else, an options object first of all, is a TypeError
 * that says what to pass.
 */
export function internalsFrom(source: unknown, caller: string): ResponderInternals {
  if ((typeof source === 'object' && source !== null) || typeof source === 'function') {
    const own = (source as Carrier)[INTERNALS];
    if (own !== undefined) return own;
    const carried = (source as { responder?: Carrier }).responder;
    const found = typeof carried === 'object' && carried !== null ? carried[INTERNALS] : undefined;
    if (found !== undefined) return found;
  }
  const looksLikeOptions =
    typeof source === 'object' &&
    source !== null &&
    !('respond' in source) &&
    ('card' in source || 'agents' in source || Object.keys(source).length === 0);
  const got = looksLikeOptions ? 'an options object' : showValue(source);
  throw new TypeError(
    `${caller}: expected the responder, or an adapter's middleware, plugin or handler (it carries its responder as \`responder\`) (got ${got}). Pass what createAgentCardResponder(options) or the adapter returned; options objects are not looked up.`,
  );
}

/**
 * The paths of every document a responder serves to anyone who asks with `GET`: the card, the
 * legacy alias, the JWK Set, the AI Catalog, each agent's card and the viewer's pages, as they
 * stand now. The extended card is not among them (it is served only to whom `authenticate`
 * admits). Ask the responder itself for each path to get its bytes and headers: that is what
 * `agent-card build` writes for static hosts. Pass the responder, or an adapter's middleware,
 * plugin or handler (which carries its responder as `responder`).
 *
 * @throws TypeError when the responder serves a card function: its documents depend on the
 *   request, so there is no fixed list to give.
 * @example
 * for (const path of servedPathsOf(responder)) {
 *   const res = responder.respond({ method: 'GET', path, headers: {} })
 * }
 */
export function servedPathsOf(
  source: AgentCardResponder<any> | { readonly responder: AgentCardResponder<any> },
): readonly string[] {
  const internals = internalsFrom(source, 'servedPathsOf');
  const paths = internals.paths;
  if (paths === undefined && internals.store !== undefined)
    throw new TypeError(
      "servedPathsOf: the responder serves the cards of a store (store), whose documents depend on the request's tenant. List a tenant's records with agentCardStore(responder).list({ tenant }).",
    );
  if (paths === undefined)
    throw new TypeError(
      'servedPathsOf: the responder serves a card function, whose documents depend on the request (dynamic). Give a card (an object) to list the paths it serves.',
    );
  return paths();
}
