import type { ExtendedCardSetting, Principal } from '../kernel/extended';

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
  card?: ExtendedCardSetting<P>;
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
