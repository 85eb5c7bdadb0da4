import type { AgentCardFetchConnection, AgentCardFetchHandler, AgentCardResponder } from '@agent-card/core';

export declare const cardHandler: AgentCardFetchHandler & { readonly responder: AgentCardResponder<Request> };
export declare function app(request: Request, connection?: AgentCardFetchConnection): Promise<Response>;
