import type { AgentCard, AgentSkill } from '../../model';
import type { AgentCardRequest } from '../kernel/exchange';
import type { JsonRpcErrorObject } from '../kernel/protocol-errors';

/**
 * The principal `authenticate` returns: anything truthy identifies the caller; `undefined`,
 * `null` or `false` means "not authenticated".
 */
export type Principal = NonNullable<unknown>;

/** What the extended card adds to the public one: extra skills, or a partial card merged over it. */
export type ExtendedCardContent = Partial<AgentCard> | readonly AgentSkill[];

/** Extended card settings (spec §3.1.11, §13.3). */
export interface ExtendedAgentCardOptions<Req = unknown, P extends Principal = Principal> {
  /**
   * Decides who may read the extended card. Return a principal, or nothing for 401.
   * Runs for every extended-card request (it is not cached).
   */
  authenticate: (request: Req) => P | undefined | null | false | Promise<P | undefined | null | false>;
  /**
   * What the extended card adds for this principal: extra skills, or a partial card merged over
   * the public one.
   */
  card?: ExtendedCardContent | ((principal: P) => ExtendedCardContent | Promise<ExtendedCardContent>);
  /**
   * Path (relative to the mount point) of the REST `GetExtendedAgentCard` endpoint, or a list of
   * them; `false` serves none (use `getExtendedAgentCard()`). Required with a card function: only
   * a declared path builds a variant.
   * @default for a static card, the path of each HTTP+JSON interface + `/extendedAgentCard`
   */
  path?: string | readonly string[] | false;
  /**
   * The `realm` of the `WWW-Authenticate` challenges sent with a 401.
   * @default the card's `name` (printable ASCII only)
   */
  realm?: string;
  /** Distinct extended cards kept prepared (validated, serialised, hashed). @default 100 */
  maxVariants?: number;
}

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
