import type { AgentCardFetchConnection, AgentCardFetchHandler } from '@agent-card/core';
import type { AgentCardResponder } from '@agent-card/core/http';

export declare const cardHandler: AgentCardFetchHandler & { readonly responder: AgentCardResponder<Request> };
export declare function app(request: Request, connection?: AgentCardFetchConnection): Promise<Response>;
