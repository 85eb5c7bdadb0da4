// What the kernel says about the extended card: what a caller asks with, what it gets back, and
// what `update()` may replace. The `extended` option itself is the extended room's.
import type { AgentCard, AgentSkill } from '../../model';
import type { AgentCardRequest } from './exchange';
import type { JsonRpcErrorObject } from './protocol-errors';

/**
 * The principal `authenticate` returns: anything truthy identifies the caller; `undefined`,
 * `null` or `false` means "not authenticated".
 */
export type Principal = NonNullable<unknown>;

/** What the extended card adds to the public one: extra skills, or a partial card merged over it. */
export type ExtendedCardContent = Partial<AgentCard> | readonly AgentSkill[];

/** What the extended card adds, given once or per principal (`extended.card`, `update()`'s `extendedCard`). */
export type ExtendedCardSetting<P = any> =
  | ExtendedCardContent
  | ((principal: P) => ExtendedCardContent | Promise<ExtendedCardContent>);

/** The request fields the extended card needs (no method or path). */
export type ExtendedCardRequest<Req = unknown> = Pick<
  AgentCardRequest<Req>,
  'headers' | 'raw' | 'encrypted' | 'remoteAddress'
>;

/**
 * What {@link getExtendedAgentCard} returns: the card, or a JSON-RPC error object with the HTTP
 * status and headers a JSON-RPC-over-HTTP handler should use (401 carries `WWW-Authenticate`).
 */
export type GetExtendedAgentCardResult =
  | { readonly card: AgentCard; readonly error?: undefined }
  | {
      readonly card?: undefined;
      readonly error: JsonRpcErrorObject;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
    };
