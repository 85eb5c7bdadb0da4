// `agent-card store ...`: the cards of a store (a folder, Redis or PostgreSQL) from the command
// line, written with the same validation, findings and exit codes as `validate`, and signed
// once, at the write, as `sign` signs.
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  AgentCardError,
  type AgentCard,
  type RuleOverrides,
  type SignAgentCardOptions,
  validateAgentCard,
  type ValidationProfile,
} from '@agent-card/core';
import { type CardStoreDriver, isAgentName, isTenantName, openCardStore } from '@agent-card/core/store';
import type { CliIO } from '../io';
import { CliError, createPainter } from '../io';
import { documentUrl, fetchBytes, isRemote, parseJson, readBytes, toJsonText, writeText } from '../read';
import { formatFindings, summarize } from '../report';
import { resolveRuleSettings, turnedOffLine } from '../rule-settings';
import { visible } from '../terminal';
import { jwkMember, keyAlgorithm, readKeyFile } from './keys';
import { namedDocument } from './validate';

/** The options every `store` command takes. */
export interface StoreOptions {
  /** `redis://…`, `postgres://…`, `files:<dir>` or a folder; else `AGENT_CARD_STORE`. */
  store?: string;
  /** PostgreSQL: create the tables when they are missing. */
  createTable?: boolean;
}

/** Options of `put` and `import`: those of `validate`, and the signing key of `sign`. */
export interface StoreWriteOptions extends StoreOptions {
  profile?: ValidationProfile;
  strict?: boolean;
  info?: boolean;
  rule?: string[];
  key?: string[];
  kid?: string;
  alg?: string;
  jku?: string;
}

/** Every form of the store URL's password, longest first, to cut out of anything printed. */
function secretsOf(location: string): string[] {
  const out = new Set<string>();
  try {
    const url = new URL(location);
    if (url.password.length >= 3) {
      out.add(url.password);
      try {
        out.add(decodeURIComponent(url.password));
      } catch {}
    }
    for (const [name, value] of url.searchParams)
      if (/pass|secret|token|key/i.test(name) && value.length >= 3) out.add(value);
  } catch {}
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * The drivers, loaded by the store commands only: `@agent-card/store` is an optional peer, so the
 * other commands install and run without it.
 */
async function loadDrivers<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /@agent-card\/store/.test(String(error)))
      throw new CliError(
        'the store commands need @agent-card/store: npm i @agent-card/store (and redis for Redis, pg for PostgreSQL).',
      );
    throw error;
  }
}

/** The store a command works on, opened; errors never carry the URL's password. */
async function openStore(io: CliIO, options: StoreOptions): Promise<{ driver: CardStoreDriver; secrets: string[] }> {
  const location = options.store ?? io.env.AGENT_CARD_STORE;
  if (location === undefined || location.trim() === '')
    throw new CliError(
      '--store: missing. Pass --store redis://host:6379, postgres://user@host/db or a folder (./cards), or set AGENT_CARD_STORE.',
    );
  const secrets = secretsOf(location);
  const postgres = /^postgres(ql)?:\/\//i.test(location);
  if (options.createTable && !postgres)
    throw new CliError('--create-table: only for a PostgreSQL store (postgres://). Redis and folders need no tables.');
  try {
    if (postgres && options.createTable) {
      const { postgresStore } = await loadDrivers(() => import('@agent-card/store/postgres'));
      return { driver: postgresStore({ connectionString: location, createTable: true }), secrets };
    }
    const remote = /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
    const path = location.startsWith('files:') ? location.slice('files:'.length) : location;
    const { storeFromUrl } = await loadDrivers(() => import('@agent-card/store'));
    return { driver: await storeFromUrl(remote ? location : resolve(io.cwd, path)), secrets };
  } catch (error) {
    throw storeFailure(error, secrets);
  }
}

/** A store error as a CLI error (exit 2; 1 for a refused version), without the password. */
function storeFailure(error: unknown, secrets: readonly string[]): unknown {
  if (error instanceof CliError) return error;
  let message = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) message = message.split(secret).join('***');
  const refused = error instanceof AgentCardError && error.code === 'ERR_AGENT_CARD_STORE_VERSION';
  return new CliError(message, refused ? 1 : 2);
}

/** Runs `work` on the store, closes it, and turns its errors into CLI errors. */
async function withStore<T>(
  io: CliIO,
  options: StoreOptions,
  work: (driver: CardStoreDriver) => Promise<T>,
): Promise<T> {
  const { driver, secrets } = await openStore(io, options);
  try {
    return await work(driver);
  } catch (error) {
    throw storeFailure(error, secrets);
  } finally {
    await driver.close().catch(() => undefined);
  }
}

function checkKey(tenant: string, agent?: string): void {
  if (!isTenantName(tenant))
    throw new CliError(
      `${visible(tenant)}: not a tenant name. Use 1 to 63 lower-case letters, digits and dashes, not starting or ending with a dash (acme).`,
    );
  if (agent !== undefined && !isAgentName(agent))
    throw new CliError(
      `${visible(agent)}: not an agent name. Use 1 to 64 letters, digits, dots, dashes and underscores.`,
    );
}

/** The signing options of `--key` (repeatable), `--kid`, `--alg`, `--jku`, as `sign` reads them. */
async function signingOptions(io: CliIO, options: StoreWriteOptions): Promise<SignAgentCardOptions[] | undefined> {
  const files = options.key ?? [];
  if (files.length === 0) {
    if (options.kid !== undefined || options.alg !== undefined || options.jku !== undefined)
      throw new CliError('--kid, --alg and --jku go with --key: add the private key to sign with.');
    return undefined;
  }
  if (files.length > 1 && (options.kid !== undefined || options.alg !== undefined))
    throw new CliError(
      '--kid and --alg name one key: with several --key files, give each its kid and alg in a JWK file, or leave them out.',
    );
  const out: SignAgentCardOptions[] = [];
  for (const file of files) {
    const privateKey = await readKeyFile(io, file);
    const kid = options.kid ?? jwkMember(privateKey, 'kid');
    const alg = options.alg ?? jwkMember(privateKey, 'alg') ?? keyAlgorithm(privateKey);
    if (!alg) throw new CliError(`${visible(file)}: --alg: missing, and the key fits more than one algorithm.`);
    out.push({
      privateKey: privateKey as SignAgentCardOptions['privateKey'],
      ...(kid ? { kid } : {}),
      alg: alg as SignAgentCardOptions['alg'],
      ...(options.jku ? { jku: options.jku } : {}),
    });
  }
  return out;
}

/** What a write needs: the profile, the rules and the signer, each read once. */
interface WriteSettings {
  profile: ValidationProfile;
  rules: RuleOverrides | undefined;
  sign: SignAgentCardOptions[] | undefined;
}

async function writeSettings(io: CliIO, options: StoreWriteOptions): Promise<WriteSettings> {
  return {
    profile: options.strict ? 'strict' : (options.profile ?? 'production'),
    rules: await resolveRuleSettings(io, options.rule),
    sign: await signingOptions(io, options),
  };
}

/**
 * Validates `bytes` as `validate` does and prints its report; the card when it has no error.
 */
function validated(io: CliIO, name: string, bytes: Uint8Array, s: WriteSettings, info: boolean): AgentCard | undefined {
  const result = validateAgentCard(bytes, { profile: s.profile, ...(s.rules ? { rules: s.rules } : {}) });
  const painter = createPainter(io);
  // An invalid card keeps its name and version in the header, as in validate.
  const card = result.card ?? namedDocument(bytes);
  const title =
    card?.name !== undefined
      ? `${painter.paint('bold', visible(card.name))}${card.version === undefined ? '' : ` ${visible(card.version)}`} (${result.shape})`
      : `(${result.shape} card)`;
  io.stdout.write(`${visible(name)}: ${title}, profile ${s.profile}\n`);
  const body = formatFindings(result.findings, painter, { showInfo: info });
  if (body) io.stdout.write(`${body}\n`);
  io.stdout.write(turnedOffLine(result.turnedOff, painter));
  const verdict = result.valid ? painter.paint('green', '✔ valid') : painter.paint('red', '✖ invalid');
  io.stdout.write(`${verdict}: ${summarize(result.findings, painter)}\n`);
  return result.valid ? result.card : undefined;
}

const quiet = { warn: () => undefined };

/** `agent-card store put <tenant> <agent> <card.json> [--version N]`. */
export async function storePutCommand(
  io: CliIO,
  tenant: string,
  agent: string,
  file: string,
  options: StoreWriteOptions & { version?: number },
): Promise<number> {
  checkKey(tenant, agent);
  const s = await writeSettings(io, options);
  const card = validated(io, file === '-' ? 'stdin' : file, await readBytes(io, file), s, options.info !== false);
  if (!card) return 1;
  return withStore(io, options, async (driver) => {
    const cards = openCardStore(driver, {
      profile: s.profile,
      ...(s.rules ? { rules: s.rules } : {}),
      ...(s.sign ? { sign: s.sign } : {}),
      logger: quiet,
    });
    const record = await cards.put(
      tenant,
      agent,
      card,
      options.version === undefined ? undefined : { version: options.version },
    );
    io.stdout.write(
      `Stored ${visible(tenant)}/${visible(agent)} version ${record.version}${s.sign ? ', signed' : ''} in ${visible(driver.description)}.\n`,
    );
    return 0;
  });
}

/** `agent-card store get <tenant> <agent>`: the stored body, as every replica serves it. */
export async function storeGetCommand(
  io: CliIO,
  tenant: string,
  agent: string,
  options: StoreOptions,
): Promise<number> {
  checkKey(tenant, agent);
  return withStore(io, options, async (driver) => {
    const record = await driver.get({ tenant, agent });
    if (!record) {
      io.stderr.write(
        `agent-card: ${visible(tenant)}/${visible(agent)}: no such card in ${visible(driver.description)}.\n`,
      );
      return 1;
    }
    io.stdout.write(record.body.endsWith('\n') ? record.body : `${record.body}\n`);
    return 0;
  });
}

/** Every key of the store (or of one tenant), page after page. */
async function allKeys(driver: CardStoreDriver, tenant?: string): Promise<{ tenant: string; agent: string }[]> {
  const keys: { tenant: string; agent: string }[] = [];
  let after: string | undefined;
  do {
    const page = await driver.list({
      ...(tenant === undefined ? {} : { tenant }),
      ...(after === undefined ? {} : { after }),
      limit: 1000,
    });
    for (const k of page.items) keys.push({ tenant: k.tenant, agent: k.agent });
    after = page.next;
  } while (after !== undefined);
  return keys;
}

/** `agent-card store list [--tenant t] [--json]`. */
export async function storeListCommand(
  io: CliIO,
  options: StoreOptions & { tenant?: string; json?: boolean },
): Promise<number> {
  if (options.tenant !== undefined) checkKey(options.tenant);
  return withStore(io, options, async (driver) => {
    const keys = await allKeys(driver, options.tenant);
    if (options.json) io.stdout.write(toJsonText(keys));
    else for (const k of keys) io.stdout.write(`${visible(k.tenant)}/${visible(k.agent)}\n`);
    return 0;
  });
}

/** `agent-card store rm <tenant> <agent>`. */
export async function storeRmCommand(io: CliIO, tenant: string, agent: string, options: StoreOptions): Promise<number> {
  checkKey(tenant, agent);
  return withStore(io, options, async (driver) => {
    if (!(await driver.delete({ tenant, agent }))) {
      io.stderr.write(
        `agent-card: ${visible(tenant)}/${visible(agent)}: no such card in ${visible(driver.description)}.\n`,
      );
      return 1;
    }
    io.stdout.write(`Deleted ${visible(tenant)}/${visible(agent)} from ${visible(driver.description)}.\n`);
    return 0;
  });
}

/** One card to import: its agent name, where it came from, its bytes. */
interface Incoming {
  agent: string;
  from: string;
  bytes: Uint8Array;
}

/** The agent name of a catalog entry: the last segment of its identifier (urn:air:acme.io:agent:billing). */
function agentOfEntry(identifier: unknown): string | undefined {
  if (typeof identifier !== 'string') return undefined;
  const last = identifier
    .split(/[:/]/)
    .filter((s) => s !== '')
    .pop();
  return last !== undefined && isAgentName(last) ? last : undefined;
}

/** The cards a folder holds: each `<agent>.json`. */
async function folderCards(io: CliIO, dir: string): Promise<Incoming[]> {
  const names = (await readdir(resolve(io.cwd, dir))).filter((n) => n.endsWith('.json')).sort();
  const out: Incoming[] = [];
  for (const name of names) {
    const agent = name.slice(0, -'.json'.length);
    if (!isAgentName(agent))
      throw new CliError(`${visible(join(dir, name))}: ${visible(agent)} is not an agent name. Rename the file.`);
    out.push({ agent, from: join(dir, name), bytes: await readBytes(io, join(dir, name)) });
  }
  return out;
}

/** The cards an AI Catalog lists: inline (`data`) or fetched from `url` (same origin by default). */
async function catalogCards(
  io: CliIO,
  source: string,
  options: {
    allowHttp?: boolean;
    follow?: 'same-origin' | 'any';
    allowPrivateTargets?: boolean;
    timeout?: number;
    maxAgents?: number;
  },
): Promise<Incoming[]> {
  const remote = isRemote(source);
  const base = remote ? documentUrl(source, options.allowHttp === true) : undefined;
  const timeout = options.timeout ?? 10_000;
  const bytes = base ? await fetchBytes(base.href, timeout) : await readBytes(io, source);
  const catalog = parseJson(bytes, source) as { entries?: unknown } | null;
  if (typeof catalog !== 'object' || catalog === null || !Array.isArray(catalog.entries))
    throw new CliError(`${visible(source)}: not an AI Catalog (no "entries"). Pass a catalog, or a folder of cards.`);
  const max = options.maxAgents ?? 1000;
  if (catalog.entries.length > max)
    throw new CliError(
      `${visible(source)}: ${catalog.entries.length} entries, more than --max-agents (${max}). Raise --max-agents to import them all.`,
    );
  // What the catalog names off its own origin (any URL, for a catalog file) is fetched from public addresses only.
  const elsewhere = { publicOnly: options.allowPrivateTargets !== true };
  const out: Incoming[] = [];
  for (const [i, raw] of catalog.entries.entries()) {
    const entry = raw as { identifier?: unknown; type?: unknown; mediaType?: unknown; url?: unknown; data?: unknown };
    const type = String(entry?.type ?? entry?.mediaType ?? '');
    if (!/a2a/i.test(type)) {
      io.stderr.write(`${visible(source)}: entries[${i}] is not an A2A Agent Card (${visible(type)}): skipped.\n`);
      continue;
    }
    const agent = agentOfEntry(entry.identifier);
    if (agent === undefined)
      throw new CliError(
        `${visible(source)}: entries[${i}]: the identifier ${visible(String(entry.identifier))} does not end in an agent name.`,
      );
    if (entry.data !== undefined) {
      out.push({ agent, from: `${source} entries[${i}]`, bytes: Buffer.from(JSON.stringify(entry.data)) });
      continue;
    }
    if (typeof entry.url !== 'string')
      throw new CliError(`${visible(source)}: entries[${i}] has neither url nor data.`);
    if (!base) {
      if (isRemote(entry.url) || /^[a-z][a-z0-9+.-]*:/i.test(entry.url)) {
        if (options.follow !== 'any')
          throw new CliError(
            `${visible(source)}: entries[${i}] is at ${visible(entry.url)}; a catalog file reads cards beside it. Pass --follow any to fetch it.`,
          );
        const url = documentUrl(entry.url, options.allowHttp === true);
        out.push({ agent, from: url.href, bytes: await fetchBytes(url.href, timeout, undefined, elsewhere) });
      } else {
        const path = join(dirname(source), entry.url);
        out.push({ agent, from: path, bytes: await readBytes(io, path) });
      }
      continue;
    }
    const url = new URL(entry.url, base);
    if (options.follow !== 'any' && url.origin !== base.origin)
      throw new CliError(
        `${visible(source)}: entries[${i}] is on another origin (${visible(url.origin)}). Pass --follow any to fetch it.`,
      );
    const checked = documentUrl(url.href, options.allowHttp === true);
    const publicOnly = url.origin !== base.origin ? elsewhere : {};
    out.push({ agent, from: checked.href, bytes: await fetchBytes(checked.href, timeout, undefined, publicOnly) });
  }
  return out;
}

/**
 * `agent-card store import <folder|catalog.json|catalog URL> --tenant t`: every card validated
 * first; one with errors and nothing is written (exit 1).
 */
export async function storeImportCommand(
  io: CliIO,
  source: string,
  options: StoreWriteOptions & {
    tenant: string;
    allowHttp?: boolean;
    follow?: 'same-origin' | 'any';
    allowPrivateTargets?: boolean;
    timeout?: number;
  },
): Promise<number> {
  checkKey(options.tenant);
  const s = await writeSettings(io, options);
  let folder = false;
  if (!isRemote(source)) {
    try {
      folder = (await readdir(resolve(io.cwd, source))).length >= 0;
    } catch {}
  }
  const incoming = folder ? await folderCards(io, source) : await catalogCards(io, source, options);
  if (incoming.length === 0) throw new CliError(`${visible(source)}: no cards to import.`, 1);
  const seen = new Set<string>();
  for (const c of incoming) {
    if (seen.has(c.agent)) throw new CliError(`${visible(source)}: two cards for the agent ${visible(c.agent)}.`);
    seen.add(c.agent);
  }
  const cards: { agent: string; card: AgentCard }[] = [];
  let invalid = 0;
  for (const c of incoming) {
    const card = validated(io, c.from, c.bytes, s, options.info !== false);
    if (card) cards.push({ agent: c.agent, card });
    else invalid++;
  }
  if (invalid > 0) {
    io.stderr.write(
      `agent-card: ${invalid} of ${incoming.length} card${incoming.length === 1 ? '' : 's'} invalid: nothing imported. Fix them and import again.\n`,
    );
    return 1;
  }
  return withStore(io, options, async (driver) => {
    const store = openCardStore(driver, {
      profile: s.profile,
      ...(s.rules ? { rules: s.rules } : {}),
      ...(s.sign ? { sign: s.sign } : {}),
      logger: quiet,
    });
    for (const { agent, card } of cards) {
      const record = await store.put(options.tenant, agent, card);
      io.stdout.write(`Stored ${visible(options.tenant)}/${visible(agent)} version ${record.version}.\n`);
    }
    io.stdout.write(
      `Imported ${cards.length} card${cards.length === 1 ? '' : 's'} into ${visible(driver.description)}.\n`,
    );
    return 0;
  });
}

/**
 * `agent-card store export <dir|snapshot.json>`: a folder of card files
 * (`<dir>/<tenant>/<agent>.json`), or the snapshot file the `store.snapshot` option reads.
 */
export async function storeExportCommand(
  io: CliIO,
  target: string,
  options: StoreOptions & { tenant?: string; force?: boolean },
): Promise<number> {
  if (options.tenant !== undefined) checkKey(options.tenant);
  return withStore(io, options, async (driver) => {
    const keys = await allKeys(driver, options.tenant);
    const records = [];
    let skipped = 0;
    for (const key of keys) {
      // Another tool may have written any key: one that is not a tenant and an agent name would
      // be a path outside the folder, and is refused by store.snapshot, so it is left out.
      if (!isTenantName(key.tenant) || !isAgentName(key.agent)) {
        io.stderr.write(
          `agent-card: ${visible(key.tenant)}/${visible(key.agent)}: not a tenant and agent name; not exported.\n`,
        );
        skipped++;
        continue;
      }
      const record = await driver.get(key);
      if (record) records.push(record);
    }
    if (target.endsWith('.json')) {
      const snapshot = records.map((r) => ({
        tenant: r.tenant,
        agent: r.agent,
        version: r.version,
        revision: r.revision,
        body: r.body,
      }));
      await writeText(io, target, `${JSON.stringify({ records: snapshot }, null, 2)}\n`, {
        force: options.force ?? false,
      });
    } else {
      for (const r of records) {
        const file = join(target, r.tenant, `${r.agent}.json`);
        await mkdir(resolve(io.cwd, target, r.tenant), { recursive: true });
        await writeText(io, file, r.body.endsWith('\n') ? r.body : `${r.body}\n`, { force: options.force ?? false });
      }
    }
    io.stdout.write(
      `Exported ${records.length} card${records.length === 1 ? '' : 's'} from ${visible(driver.description)} to ${visible(target)}.\n`,
    );
    return skipped > 0 ? 1 : 0;
  });
}
