import type { ExtendedCardRequest, GetExtendedAgentCardResult } from './extended';

/** What a responder keeps for `getExtendedAgentCard`. */
export interface ResponderInternals {
  extended(request: ExtendedCardRequest<unknown>): Promise<GetExtendedAgentCardResult>;
}

/** Each responder's internals, kept off the public object. */
export const internals = new WeakMap<object, ResponderInternals>();
