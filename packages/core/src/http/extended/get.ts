import { type AgentCardResponder, internalsFrom } from '../kernel/responder';
import type { ExtendedCardRequest, GetExtendedAgentCardResult } from '../kernel/extended';

/**
 * The extended card for a JSON-RPC `GetExtendedAgentCard` handler (spec §3.1.11, §9.4.8): runs
 * `authenticate` on `request.raw` and returns `{ card }`, or `{ error, status, headers }` where
 * `error` is the JSON-RPC error object to send (`-32004` UnsupportedOperationError, `-32007`
 * ExtendedAgentCardNotConfiguredError, `-32000` unauthenticated with status 401 and a
 * `WWW-Authenticate` header to set).
 *
 * Pass the responder the adapter uses, or the adapter's middleware, plugin or handler (which
 * carries its responder as `responder`): what the adapter serves, and changes with `update()`, is
 * what this returns. With `agents`, pass `agentResponderOf(responder, id)`.
 *
 * @throws TypeError (synchronously) for anything else, an options object first of all (it is
 *   not looked up), and for a responder that serves several agents.
 * @example
 * const result = await getExtendedAgentCard(responder, { headers: req.headers, raw: req })
 * if (result.error) res.status(result.status).set(result.headers).json({ jsonrpc: '2.0', id, error: result.error })
 * else res.json({ jsonrpc: '2.0', id, result: result.card })
 * @see https://a2a-protocol.org/latest/specification/#3111-get-extended-agent-card
 */
export function getExtendedAgentCard<Req = unknown>(
  source: AgentCardResponder<Req> | { readonly responder: AgentCardResponder<Req> },
  request: ExtendedCardRequest<Req>,
): Promise<GetExtendedAgentCardResult> {
  const internals = internalsFrom(source, 'getExtendedAgentCard');
  if (internals.extended === undefined)
    throw new TypeError(
      'getExtendedAgentCard: the responder serves several agents (agents), each with its own extended card. Pass agentResponderOf(responder, id) for the agent the request is for.',
    );
  return internals.extended(request as ExtendedCardRequest<unknown>);
}
