// One string picks the driver, as a command line or an environment variable gives it:
// `redis://…`, `postgres://…`, `files:./cards` or a folder path.
import { AgentCardError } from '@agent-card/core';
import type { CardStoreDriver } from '@agent-card/core/store';
import { filesStore } from './files';
import { describeUrl } from './shared';

/**
 * The driver a store location names: `redis://` or `rediss://` → {@link redisStore},
 * `postgres://` or `postgresql://` → {@link postgresStore} (its tables must exist), `files:<dir>`
 * or any other path → {@link filesStore}. The Redis and PostgreSQL drivers are loaded only when
 * named, so their clients need installing only then.
 * @example const store = await storeFromUrl(process.env.CARD_STORE ?? './cards')
 */
export async function storeFromUrl(location: string): Promise<CardStoreDriver> {
  if (typeof location !== 'string' || location.trim() === '')
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      'storeFromUrl: give a store: redis://host:6379, postgres://user@host/db, or a folder (./cards).',
    );
  if (/^rediss?:\/\//i.test(location)) {
    const { redisStore } = await import('./redis');
    return redisStore({ url: location });
  }
  if (/^postgres(ql)?:\/\//i.test(location)) {
    const { postgresStore } = await import('./postgres');
    return postgresStore({ connectionString: location });
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location))
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      `storeFromUrl: ${describeUrl(location)} is not a store this package knows. Use redis://, rediss://, postgres://, or a folder.`,
    );
  return filesStore({ dir: location.startsWith('files:') ? location.slice('files:'.length) : location });
}
