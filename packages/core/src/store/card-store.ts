// What core offers on top of a driver: the cards of a store, read and written with the
// validation and signing of the host that serves them (types only; see writer.ts).
import type { AgentCardTenantOption } from '../http/store/tenancy';
import type { ValidationProfile } from '../findings';
import type { AgentCard } from '../model';
import type { RuleOverrides } from '../rules';
import type { SignAgentCardOptions } from '../sign/sign';
import type { AgentCardSigningOptions } from '../sign/signing-options';
import type { StorePage, StorePutOptions, StoreRecord } from './types';

/** Largest record body a writer writes and a replica reads. @default 1 MiB */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

/** Options of {@link openCardStore}: the same as the serving host's, so writes validate alike. */
export interface CardStoreOptions {
  /** Validation profile. @default `production` when NODE_ENV=production, else `development` */
  readonly profile?: ValidationProfile;
  /** Per-rule settings, as the host's `rules`. */
  readonly rules?: RuleOverrides;
  /** Signs each card once, when it is written (the host's `sign`): replicas serve it as written. */
  readonly sign?: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions;
  /** Where validation warnings go. @default console */
  readonly logger?: Pick<Console, 'warn'>;
  /**
   * The host's `tenant` option: which URLs a tenant's cards may claim (see `AgentCardTenantOption`).
   * Without it, any URL.
   */
  readonly tenant?: AgentCardTenantOption<never>;
  /** Largest card written, in bytes of its JSON. @default 1 MiB */
  readonly maxRecordBytes?: number;
}

/** Cards of a store, read and written by core. */
export interface CardStore {
  /** The store's name in logs and errors (never a password), from the driver. */
  readonly description: string;
  /**
   * Validates `card` (throws `ERR_AGENT_CARD_INVALID` listing every error, also for interface
   * URLs that are not the tenant's), signs it when `sign` is set, and writes it.
   * @throws AgentCardError `ERR_AGENT_CARD_STORE_VERSION` when `version` is not newer than the
   *   stored one; `ERR_AGENT_CARD_STORE` for a bad tenant or agent name.
   */
  put(tenant: string, agent: string, card: AgentCard, options?: StorePutOptions): Promise<StoreRecord>;
  /** The record of one agent, as stored (its `body` is the card's JSON text), or `undefined`. */
  get(tenant: string, agent: string): Promise<StoreRecord | undefined>;
  /** Keys, in (tenant, agent) order. */
  list(options?: { readonly tenant?: string; readonly after?: string; readonly limit?: number }): Promise<StorePage>;
  /** Deletes one agent's record; `false` when there was none. */
  delete(tenant: string, agent: string): Promise<boolean>;
  /** Closes the driver. */
  close(): Promise<void>;
}
