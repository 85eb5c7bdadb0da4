// What each prebuilt answer is about: the kind of document and the agent, recorded once when the
// answer is made (never per request), read only by the serve hook (observe/).
import type { AgentCardResponse } from './exchange';

/**
 * The kind of document an answer is about, named by the feature folder that prepares it:
 * `card`, `alias` (the legacy path), `extended`, `catalog` (the AI Catalog), `mcp-catalog`,
 * `ard`, `jwks`, `viewer`. A new served
 * document names its own kind where it prepares its answers.
 */
export type AgentCardServedKind =
  | 'card'
  | 'alias'
  | 'extended'
  | 'catalog'
  | 'mcp-catalog'
  | 'ard'
  | 'jwks'
  | 'viewer'
  | (string & {});

/** What an answer serves: its kind, and the agent's id when the responder serves `agents`. */
export interface ServedDocument {
  readonly kind: AgentCardServedKind;
  readonly agent?: string | undefined;
}

// A WeakMap rather than a member of the answer: the answers adapters write keep their shape, and
// an answer dropped with its card variant is forgotten with it.
const served = new WeakMap<AgentCardResponse, ServedDocument>();

/** Records what `response` serves (at start-up, or once per variant). */
export function markServed(response: AgentCardResponse, document: ServedDocument): AgentCardResponse {
  served.set(response, document);
  return response;
}

/** What `response` serves, when a feature recorded it. */
export function servedOf(response: AgentCardResponse): ServedDocument | undefined {
  return served.get(response);
}
