// The serve hook: told, after each answered request, what was served to whom. Wraps `respond`
// only when the hook is set, so a responder without it runs exactly the code it ran before.
import { isPromiseLike } from '../../util';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import type { AgentCardResponder } from '../kernel/responder';
import { type AgentCardServedKind, servedOf } from '../kernel/served';
import { type AgentCardClientFamily, clientFamily, requestedVersion } from './client';

/** What {@link AgentCardOptions.onServe} receives about one answered request. */
export interface AgentCardServeEvent {
  /**
   * What was served: `card`, `alias` (`/.well-known/agent.json`), `extended`, `catalog` (the AI
   * Catalog), `jwks`, `viewer` (a page), or the kind another served document names.
   */
  readonly kind: AgentCardServedKind;
  /** The agent's id, with `agents` (`undefined` for the catalog, its page, and a single card). */
  readonly agent: string | undefined;
  /** The status sent: 200, 304, 204 (preflight), 400, 401, 405, 503… */
  readonly status: number;
  /** The request method. */
  readonly method: string;
  /** The `A2A-Version` the client asked for, as `major.minor`; `'invalid'` for anything else. */
  readonly a2aVersion: string | undefined;
  /** Who asked, coarsely, from `User-Agent` (see {@link AgentCardClientFamily}). */
  readonly client: AgentCardClientFamily;
}

/** The `onServe` option. */
export type AgentCardServeHook = (event: AgentCardServeEvent) => void;

function eventOf(request: AgentCardRequest<unknown>, response: AgentCardResponse): AgentCardServeEvent {
  const served = servedOf(response);
  const headers = request.headers;
  return {
    kind: served?.kind ?? 'other',
    agent: served?.agent,
    status: response.status,
    method: request.method,
    a2aVersion: requestedVersion(headers['a2a-version']),
    client: clientFamily(headers['user-agent']),
  };
}

/**
 * `respond` that tells `hook` about each answer. The hook runs in a microtask, after the adapter
 * has the answer (a static card's is written in the same tick); what it throws goes to `onError`
 * and never reaches the response.
 */
export function withServeHook<Req>(
  respond: AgentCardResponder<Req>['respond'],
  hook: AgentCardServeHook,
  onError: (error: unknown) => void,
): AgentCardResponder<Req>['respond'] {
  const tell = (request: AgentCardRequest<Req>, response: AgentCardResponse) => {
    queueMicrotask(() => {
      try {
        const result: unknown = hook(eventOf(request, response));
        // An async hook's rejection is reported like a throw, never left unhandled.
        if (isPromiseLike(result)) (result as Promise<unknown>).then(undefined, onError);
      } catch (error) {
        onError(error);
      }
    });
  };
  return (request) => {
    const answer = respond(request);
    if (answer === undefined) return undefined;
    if (!isPromiseLike(answer)) {
      tell(request, answer);
      return answer;
    }
    return answer.then((settled) => {
      if (settled !== undefined) tell(request, settled);
      return settled;
    });
  };
}
