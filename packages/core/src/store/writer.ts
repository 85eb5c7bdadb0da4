// Writing cards into a store: every write validated with the host's profile and rules, checked
// against the tenant's URLs, signed once (here, never on a replica) and serialised to the bytes
// every replica serves.
import { AgentCardError } from '../errors';
import type { ValidationProfile } from '../findings';
import { validateVariant } from '../http/kernel/card-validation';
import { encodeCard, signedVariant } from '../http/kernel/encode';
import { resolveTenancy, type Tenancy } from '../http/store/tenancy';
import { optionsError, reporter } from '../http/kernel/problems';
import type { AgentCard } from '../model';
import { checkRuleOverrides, type ResolvedRuleOverrides } from '../rules';
import type { AgentCardSigner } from '../sign/sign';
import { resolveSigning } from '../sign/signing-options';
import { showValue } from '../util';
import { defaultProfile } from '../validate/validate';
import { storeNameProblem } from './names';
import { type CardStore, type CardStoreOptions, DEFAULT_MAX_RECORD_BYTES } from './card-store';
import type { CardStoreDriver, StorePutOptions } from './types';

/** What a writer needs, checked once. */
export interface WriterSettings {
  readonly profile: ValidationProfile;
  readonly rules: ResolvedRuleOverrides | undefined;
  readonly signer: AgentCardSigner | undefined;
  readonly logger: Pick<Console, 'warn'>;
  readonly tenancy: Pick<Tenancy<unknown>, 'claims'> | undefined;
  readonly maxRecordBytes: number;
}

/** The record body of `card` for `tenant`/`agent`: validated, claims checked, signed, serialised. */
export function recordBody(tenant: string, agent: string, card: unknown, s: WriterSettings): string {
  const names = [storeNameProblem('tenant', tenant), storeNameProblem('agent', agent)].filter((p) => p !== undefined);
  if (names.length > 0) throw new AgentCardError('ERR_AGENT_CARD_STORE', `store: ${names.join(' ')}`);
  const where = `${tenant}/${agent}`;
  const valid = validateVariant(
    card,
    s,
    (findings) => {
      s.logger.warn(`agent card: ${where}: ${findings.length} warning(s): ${findings.map((f) => f.message).join(' ')}`);
    },
    where,
  );
  const claims = s.tenancy?.claims(tenant, interfaceUrls(valid)) ?? [];
  if (claims.length > 0)
    throw new AgentCardError(
      'ERR_AGENT_CARD_INVALID',
      `${where}: the Agent Card claims URLs of another tenant. Fix them; such a card is never served:\n${claims.map((c) => `  - ${c}`).join('\n')}`,
    );
  const bytes = encodeCard(signedVariant(valid, s.signer));
  if (bytes.byteLength > s.maxRecordBytes)
    throw new AgentCardError(
      'ERR_AGENT_CARD_INVALID',
      `${where}: the Agent Card is ${bytes.byteLength} bytes, more than maxRecordBytes (${s.maxRecordBytes}). Make it smaller or raise maxRecordBytes.`,
    );
  return new TextDecoder().decode(bytes);
}

/**
 * Refuses a card that declares an interface URL another agent of the tenant already declares: a
 * host cannot serve two agents at one endpoint, so every replica would stop serving the tenant.
 */
async function refuseSharedUrls(driver: CardStoreDriver, tenant: string, agent: string, card: AgentCard) {
  const mine = new Set(interfaceUrls(card));
  if (mine.size === 0) return;
  const shared: string[] = [];
  for (const record of await driver.tenant(tenant)) {
    if (record.agent === agent || typeof record.body !== 'string') continue;
    let other: unknown;
    try {
      other = JSON.parse(record.body);
    } catch {
      continue; // A record that does not parse is never served, and claims nothing.
    }
    if (typeof other !== 'object' || other === null) continue;
    for (const url of interfaceUrls(other as AgentCard))
      if (mine.has(url)) shared.push(`  - ${showValue(url)} is also agent "${record.agent}"'s`);
  }
  if (shared.length > 0)
    throw new AgentCardError(
      'ERR_AGENT_CARD_INVALID',
      `${tenant}/${agent}: the Agent Card declares interface URLs of another agent of the tenant, and a host cannot serve both. Give each agent its own endpoint URL, e.g. under its path:\n${shared.join('\n')}`,
    );
}

/** The interface URLs a card declares. */
export function interfaceUrls(card: AgentCard): string[] {
  const list = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  return list.map((i) => i.url).filter((u): u is string => typeof u === 'string');
}

/** Checks the writer's options; every problem is thrown together. */
export function resolveWriterSettings(options: CardStoreOptions, where = 'options'): WriterSettings {
  const problems: string[] = [];
  const err = reporter(problems);
  const rules = checkRuleOverrides(options.rules, `${where}.rules`);
  problems.push(...rules.problems);
  let signer: AgentCardSigner | undefined;
  if (options.sign !== undefined) {
    try {
      signer = resolveSigning(options.sign, `${where}.sign`).signer;
    } catch (error) {
      problems.push(error instanceof AgentCardError ? error.message : `${where}.sign: ${String(error)}`);
    }
  }
  const tenancy = options.tenant === undefined ? undefined : resolveTenancy(options.tenant, err);
  const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  if (!Number.isInteger(max) || max < 1024)
    err('maxRecordBytes', 'must be a whole number of bytes, at least 1024', max, 'Leave it out for 1 MiB.');
  if (problems.length > 0) throw optionsError(problems);
  return {
    profile: options.profile ?? defaultProfile(),
    rules: rules.overrides,
    signer,
    logger: options.logger ?? console,
    tenancy,
    maxRecordBytes: max,
  };
}

/** {@link CardStore} over `driver` with settings already checked. */
export function createCardStore(driver: CardStoreDriver, s: WriterSettings): CardStore {
  const key = (tenant: string, agent: string) => {
    const names = [storeNameProblem('tenant', tenant), storeNameProblem('agent', agent)].filter((p) => p !== undefined);
    if (names.length > 0) throw new AgentCardError('ERR_AGENT_CARD_STORE', `store: ${names.join(' ')}`);
    return { tenant, agent };
  };
  return Object.freeze({
    description: driver.description,
    async put(tenant: string, agent: string, card: AgentCard, options?: StorePutOptions) {
      const body = recordBody(tenant, agent, card, s);
      await refuseSharedUrls(driver, tenant, agent, card);
      return driver.put({ tenant, agent }, body, options?.version === undefined ? {} : { version: options.version });
    },
    async get(tenant: string, agent: string) {
      return driver.get(key(tenant, agent));
    },
    async list(options?: { readonly tenant?: string; readonly after?: string; readonly limit?: number }) {
      if (options?.tenant !== undefined) key(options.tenant, 'a');
      return driver.list(options);
    },
    async delete(tenant: string, agent: string) {
      return driver.delete(key(tenant, agent));
    },
    close: () => driver.close(),
  });
}

/**
 * Reads and writes the cards of a store (`memoryStore()`, or a Redis, PostgreSQL or files driver)
 * with the validation and signing of the host that serves them: `put` validates the card with
 * `profile` and `rules` (throws `ERR_AGENT_CARD_INVALID` listing every error), refuses interface
 * URLs of another tenant (with `tenant`), signs once when `sign` is given (the signatures the
 * host's `sign` option would add), serialises the card to the bytes every replica serves and
 * writes it with a version.
 *
 * @throws AgentCardError `ERR_AGENT_CARD_OPTIONS` listing every bad option.
 * @example
 * const cards = openCardStore(memoryStore(), { profile: 'production', sign: { privateKey, alg: 'ES256' } })
 * await cards.put('acme', 'main', card)
 */
export function openCardStore(driver: CardStoreDriver, options: CardStoreOptions = {}): CardStore {
  return createCardStore(driver, resolveWriterSettings(options));
}
