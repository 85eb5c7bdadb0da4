import type { ExtendedCardRequest, GetExtendedAgentCardResult } from './extended';
import type { AgentCardResponder } from './types';

/** What a responder keeps for `getExtendedAgentCard`. */
export interface ResponderInternals {
  extended(request: ExtendedCardRequest<unknown>): Promise<GetExtendedAgentCardResult>;
}

/** Each responder's internals, kept off the public object. */
export const internals = new WeakMap<object, ResponderInternals>();

/** The responder built last from each options object (the adapter's). */
export const responders = new WeakMap<object, AgentCardResponder<any>>();
