import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AgentCard as SdkAgentCardCodec,
  type AgentCard as SdkAgentCard,
  type AgentCardSignatureVerifier,
} from '@a2a-js/sdk';
import { JsonRpcTransportError } from '@a2a-js/sdk/errors';
import { STATE_HEADERS_KEY, type ServerCallContext } from '@a2a-js/sdk/server';
import { verifyAgentCard } from '@agent-card/core';
import { getExtendedAgentCard } from '@agent-card/core/http';
import type { AgentCard, VerifyAgentCardOptions } from '@agent-card/core';
import type { AgentCardOptions, AgentCardRequestHeaders, AgentCardResponder } from '@agent-card/core/http';

export type { AgentCard as A2aJsAgentCard } from '@a2a-js/sdk';

/**
 * Converts a card written in the in-memory shape of `@a2a-js/sdk` (its `AgentCard` type, with
 * `{ scheme: { $case, value } }` security schemes and `{ flow: { $case, value } }` OAuth flows)
 * to the ProtoJSON card every `@agent-card/*` API takes and A2A clients read. It is the SDK's own
 * encoder (`AgentCard.toJSON`): default values (`''`, `[]`, `false`) are left out, as the SDK
 * serves them.
 *
 * @example
 * ```ts
 * import { fromA2aJsCard } from '@agent-card/a2a-js';
 * app.use(agentCard({ card: fromA2aJsCard(sdkCard) }));
 * ```
 * @see https://a2a-protocol.org/latest/specification/#441-agentcard
 */
export function fromA2aJsCard(card: SdkAgentCard): AgentCard {
  return SdkAgentCardCodec.toJSON(card) as AgentCard;
}

/**
 * Converts a ProtoJSON card to the in-memory shape `@a2a-js/sdk` works with, e.g. for the
 * `agentCard` argument of its `DefaultRequestHandler`. It is the SDK's own decoder
 * (`AgentCard.fromJSON`).
 *
 * @example
 * ```ts
 * new DefaultRequestHandler(toA2aJsCard(card), new InMemoryTaskStore(), executor, …);
 * ```
 */
export function toA2aJsCard(card: AgentCard): SdkAgentCard {
  return SdkAgentCardCodec.fromJSON(card);
}

/**
 * What `authenticate` receives when the extended card is asked for over the SDK's JSON-RPC
 * handler: the request headers (lower-case names, as Node gives them), the SDK's authenticated
 * `user` (from your `userBuilder`) and its whole `context`.
 */
export interface A2aJsExtendedCardRequest {
  /** Request headers as the SDK's default context builder records them (`{}` if it did not). */
  headers: AgentCardRequestHeaders;
  /** The user your `userBuilder` returned for the call. */
  user: ServerCallContext['user'];
  /** The SDK's call context (tenant, requested version, `state`). */
  context: ServerCallContext;
}

/**
 * The request `authenticate` can rely on when one options object serves both the middleware of
 * your framework (which hands it the framework's request) and {@link extendedCardProvider} (which
 * hands it an {@link A2aJsExtendedCardRequest}): the request headers, with lower-case names.
 */
export interface A2aJsSharedRequest {
  /** Request headers, lower-case names. */
  headers: AgentCardRequestHeaders;
}

/**
 * Core's `AgentCardOptions` for an options object shared by your framework's middleware and
 * {@link extendedCardProvider}: `authenticate` and a dynamic `card` receive an
 * {@link A2aJsSharedRequest}, so `const options: A2aJsAgentCardOptions = { … }` types `req` under
 * `strict` and fits both.
 */
export type A2aJsAgentCardOptions<Req extends A2aJsSharedRequest = A2aJsSharedRequest> = AgentCardOptions<Req>;

/** Settings of {@link extendedCardProvider}. */
export interface ExtendedCardProviderSettings<Req> {
  /**
   * Builds, from the SDK's call context, the value `authenticate` receives, when it should look
   * like your framework's request (for example `(context) => context.state.get('req')` with a
   * `contextBuilder` that stores it).
   * @default an {@link A2aJsExtendedCardRequest}: `{ headers, user, context }`
   */
  request?: (context: ServerCallContext) => Req;
}

/** The SDK's `ExtendedAgentCardProvider`: what `DefaultRequestHandler` calls for `GetExtendedAgentCard`. */
export type A2aJsExtendedCardProvider = (context: ServerCallContext) => Promise<SdkAgentCard>;

function headersOf(context: ServerCallContext): AgentCardRequestHeaders {
  const headers = context.state?.get(STATE_HEADERS_KEY);
  return headers !== null && typeof headers === 'object' ? (headers as AgentCardRequestHeaders) : {};
}

/**
 * The `extendedAgentCardProvider` argument of `@a2a-js/sdk`'s `DefaultRequestHandler`, answered by
 * the same responder as the middleware's REST `GET …/extendedAgentCard`: the same
 * `authenticate` decision, the same merged and validated extended card. Pass the middleware (any
 * `@agent-card/*` adapter's, which carries its responder as `responder`) or a responder: a card
 * changed with the middleware's `update()` is then the one JSON-RPC callers get.
 *
 * A refusal reaches the JSON-RPC caller as the error object `getExtendedAgentCard` returns, with
 * its code and message (`-32000` unauthenticated, `-32603` unavailable); the SDK answers it with
 * HTTP 200 and without `WWW-Authenticate`, as it does for every JSON-RPC error, unless
 * {@link extendedCardChallenge} is installed in front of its handler (then 401 and
 * `WWW-Authenticate` for an unauthenticated caller).
 *
 * @example
 * ```ts
 * const options = { card, extended: { authenticate: (req) => users.byKey(req.headers['x-api-key']), card: [refund] } };
 * const cards = agentCard(options);
 * app.use(cards);
 * const handler = new DefaultRequestHandler(toA2aJsCard(card), new InMemoryTaskStore(), executor,
 *   undefined, undefined, undefined, extendedCardProvider(cards));
 * app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
 * ```
 * @see https://a2a-protocol.org/latest/specification/#3111-get-extended-agent-card
 */
export function extendedCardProvider<Req = A2aJsExtendedCardRequest>(
  source: AgentCardResponder<Req> | { readonly responder: AgentCardResponder<Req> },
  settings: ExtendedCardProviderSettings<Req> = {},
): A2aJsExtendedCardProvider {
  const toRequest = settings.request;
  // The responder itself, or the one an adapter's middleware carries.
  const responder = (source as { responder?: AgentCardResponder<Req> }).responder ?? source;
  return async (context) => {
    const headers = headersOf(context);
    const raw = (toRequest ? toRequest(context) : { headers, user: context.user, context }) as Req;
    const result = await getExtendedAgentCard<Req>(responder as AgentCardResponder<Req>, { headers, raw });
    if (result.error !== undefined) {
      // Behind extendedCardChallenge, an unauthenticated caller gets 401 and WWW-Authenticate.
      const refusal = result.status === 401 ? refusals.getStore() : undefined;
      if (refusal !== undefined) refusal.headers = result.headers;
      // The SDK's JSON-RPC handler sends an error of this class as it is: code and message.
      const { code, message, data } = result.error;
      throw new JsonRpcTransportError({
        jsonrpc: '2.0',
        id: null,
        error: { code, message, data: data.map((info) => ({ ...info })) },
      });
    }
    return SdkAgentCardCodec.fromJSON(result.card);
  };
}

/**
 * The `verifySignature` argument of the SDK client's `getAgentCard(options, verifySignature)`,
 * checking the card with `verifyAgentCard` of `@agent-card/core` and the keys of `options`.
 * It resolves when at least one signature verifies and throws an `Error` naming why each failed
 * otherwise.
 *
 * The SDK hands the verifier its in-memory card; its own `verifyAgentCardSignature` canonicalizes
 * that shape without `securitySchemes` (a2aproject/a2a-js#663), so it refuses every correctly
 * signed card that declares security schemes, as every extended card does. This verifier turns
 * the card back into ProtoJSON (`fromA2aJsCard`) first, so the signature covers the schemes.
 *
 * @example
 * ```ts
 * const verify = cardSignatureVerifier({ jwksUrl: 'https://orders.acme-corp.io/.well-known/jwks.json' });
 * const extended = await client.getAgentCard(undefined, verify);
 * ```
 */
export function cardSignatureVerifier(options: VerifyAgentCardOptions): AgentCardSignatureVerifier {
  return async (card) => {
    const result = await verifyAgentCard(fromA2aJsCard(card), options);
    if (result.valid) return;
    const reasons = result.signatures.map((s) => `#${s.index}${s.kid ? ` (kid ${s.kid})` : ''}: ${s.reason}`);
    throw new Error(
      `No signature of the agent card verifies: ${reasons.length > 0 ? reasons.join('; ') : result.reason}.`,
    );
  };
}

/** What the provider leaves for {@link extendedCardChallenge} when it refuses a caller. */
interface Refusal {
  headers?: Readonly<Record<string, string>>;
}

/** One slot per request that passed through {@link extendedCardChallenge}, for the provider to fill. */
const refusals = new AsyncLocalStorage<Refusal>();

/**
 * A Connect/Express middleware to install in front of the SDK's `jsonRpcHandler`: when
 * {@link extendedCardProvider} refuses a `GetExtendedAgentCard` call for want of a principal, the
 * answer goes out as HTTP 401 with the `WWW-Authenticate` challenge the REST route sends (built
 * from the card's security schemes), instead of the SDK's HTTP 200. The body stays the SDK's
 * JSON-RPC error object, with the request's `id`. Every other answer, including the extended
 * card itself and every other method, is left exactly as the SDK sends it.
 *
 * The SDK's client reads a JSON-RPC error in a 401 as it reads one in a 200 (the same typed
 * error), and its retry-on-401 helper (`createAuthenticatingFetchWithRetry`) then gets the
 * chance to retry with credentials.
 *
 * @example
 * ```ts
 * app.use('/a2a/jsonrpc', extendedCardChallenge(), jsonRpcHandler({ requestHandler, userBuilder }));
 * ```
 */
export function extendedCardChallenge(): (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void {
  return (_req, res, next) => {
    const refusal: Refusal = {};
    const writeHead = res.writeHead;
    // The SDK writes its status and body itself; the status is changed when the head goes out,
    // which is after the provider ran, whatever the handler called (writeHead, or end alone).
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      res.writeHead = writeHead;
      const headers = refusal.headers;
      if (headers === undefined || status !== 200) return Reflect.apply(writeHead, this, [status, ...rest]);
      for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
      // A reason phrase given for 200 would be wrong for 401: Node picks the right one.
      return Reflect.apply(writeHead, this, [401, ...(typeof rest[0] === 'string' ? rest.slice(1) : rest)]);
    } as ServerResponse['writeHead'];
    refusals.run(refusal, next);
  };
}
