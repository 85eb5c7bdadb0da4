import { constants } from 'node:fs';
import { access, open, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Finding, readJsonText, validateAgentCard, validateAiCatalog } from '@agent-card/core';
import { nonPublicTarget, publicOnlyFetch } from '@agent-card/core/http';
import type { CliIO } from './io';
import { CliError } from './io';
import { visible } from './terminal';

/**
 * Largest file (or stdin) the CLI reads: sixteen times what clients fetch of a card (1 MiB), and
 * far more than any card, catalog, key or key set. A path to a device, a pipe that never ends or
 * a file grown by mistake fails at this size instead of filling memory.
 */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

const where = (file: string) => (file === '-' ? 'stdin' : file);

const tooLarge = (file: string) =>
  new CliError(
    `${visible(where(file))}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, far more than a card, catalog or key. Check the path.`,
  );

/**
 * The bytes of a stream (a file, stdin, a response body), at most `max`: past it, `tooLarge()` is
 * thrown at once, which also stops (and for a body cancels) the stream, so the rest is never
 * buffered.
 */
async function collect(
  stream: AsyncIterable<Uint8Array | string>,
  max: number,
  tooLarge: () => CliError,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.byteLength;
    if (size > max) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Reads a file (or stdin for `-`) as bytes, at most {@link MAX_FILE_BYTES}; a missing file is a
 * one-line usage error. A regular file's size is checked before anything is read; anything else
 * (a device, a named pipe, a socket) is refused before it is read: opening is non-blocking, so a
 * pipe with no writer cannot hold the command. Its content can still come in on stdin (`-`).
 */
export async function readBytes(io: CliIO, file: string): Promise<Uint8Array> {
  if (file === '-') return collect(io.stdin as AsyncIterable<Buffer>, MAX_FILE_BYTES, () => tooLarge(file));
  const failed = (error: unknown): CliError => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new CliError(`${file}: no such file. Check the path.`);
    if (code === 'EISDIR') return new CliError(`${file}: is a directory. Pass a JSON file.`);
    return new CliError(`${file}: cannot be read (${code ?? String(error)}).`);
  };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking, so that opening a pipe with no writer returns at once to be refused below.
    handle = await open(resolve(io.cwd, file), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw failed(error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw failed(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    if (!stat.isFile()) {
      throw new CliError(
        `${file}: not a regular file (a device, a pipe or a socket). Pass a file, or - to read stdin.`,
      );
    }
    if (stat.size > MAX_FILE_BYTES) throw tooLarge(file);
    return await collect(handle.createReadStream({ autoClose: false }), MAX_FILE_BYTES, () => tooLarge(file));
  } catch (error) {
    throw error instanceof CliError ? error : failed(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Deepest nesting the CLI reads from a file or URL: the validator's limit (64 levels), so every
 * command refuses what `validate` reports as `card-json-parse`, and nothing deeper ever reaches a
 * recursive step (JSON printing, canonical JSON, the diff).
 */
export const MAX_JSON_DEPTH = 64;

/** How the CLI reads JSON: core's reader, to the validator's depth; repeated members are the validator's concern. */
const JSON_READING = { maxBytes: MAX_FILE_BYTES, maxDepth: MAX_JSON_DEPTH, duplicates: 0, inexactNumbers: 0 };

/** Why core's reader refused a file. */
type JsonTextFailure = Extract<ReturnType<typeof readJsonText>, { ok: false }>;

/** The one-line error for JSON text from `file` that cannot be read. */
function unreadable(failure: JsonTextFailure, file: string): CliError {
  switch (failure.error) {
    case 'too-large':
      return tooLarge(file);
    case 'utf-8':
      // A lossy decode would turn a broken file into a different, "valid" one.
      return new CliError(`${where(file)}: not valid UTF-8. Save it as UTF-8.`);
    case 'too-deep':
      return new CliError(`${where(file)}: nested deeper than ${MAX_JSON_DEPTH} levels. Pass a plain JSON file.`);
    case 'syntax':
      return new CliError(`${where(file)}: not valid JSON (${visible(failure.reason)}).`);
  }
}

/**
 * Reads JSON from `file` (its bytes, or text already decoded); invalid UTF-8, invalid JSON and
 * nesting past {@link MAX_JSON_DEPTH} are one-line errors.
 */
export function parseJson(input: Uint8Array | string, file: string): unknown {
  const read = readJsonText(input, JSON_READING);
  if (!read.ok) throw unreadable(read, file);
  return read.value;
}

/**
 * The file's text when it is an AI Catalog: `forced` (`--catalog`), or a JSON object with both
 * `specVersion` and `entries` (members no Agent Card has). Anything else is read as a card, whose
 * validator reports invalid UTF-8 or JSON with the byte offset.
 */
export function catalogText(bytes: Uint8Array, name: string, forced: boolean): string | undefined {
  // Any depth: a deep catalog is still a catalog, and its validator says what is wrong with it.
  const read = readJsonText(bytes, { maxDepth: Number.POSITIVE_INFINITY, duplicates: 0, inexactNumbers: 0 });
  if (!read.ok && (read.error === 'utf-8' || read.error === 'too-large')) {
    if (forced) throw new CliError(`${name}: not valid UTF-8. Save the catalog as UTF-8.`);
    return undefined;
  }
  // The text as decoded, byte order mark included: the catalog's validator reads it again.
  const text = read.bom ? `\uFEFF${read.text}` : read.text;
  if (forced) return text;
  if (!read.ok) return undefined;
  const value = read.value;
  return typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, 'specVersion') &&
    Object.hasOwn(value, 'entries')
    ? text
    : undefined;
}

/**
 * Reads a file (or stdin for `-`) that is JSON or text (a key: a JWK or PEM): what core's reader
 * found, with the decoded text when it is not JSON. Bytes that are not UTF-8 are a one-line error.
 */
export async function readJsonOrText(io: CliIO, file: string) {
  const read = readJsonText(await readBytes(io, file), JSON_READING);
  if (!read.ok && (read.error === 'utf-8' || read.error === 'too-large')) throw unreadable(read, file);
  return read;
}

/** Reads and parses a JSON file that is not a card (a JWK Set); problems are one-line errors. */
export async function readJson(io: CliIO, file: string): Promise<unknown> {
  return parseJson(await readBytes(io, file), file);
}

/** A card input that is not JSON: the validator's findings say why (exit 1). */
export class CardInputError extends CliError {
  constructor(
    readonly source: string,
    readonly findings: Finding[],
    what = 'Agent Card',
  ) {
    super(`${where(source)}: not a readable ${what} (see the findings above).`, 1);
  }
}

/** The validator's errors that leave no one card to work on. */
export const UNREADABLE = new Set([
  'card-json-parse',
  'card-root-object',
  'card-json-duplicate-member',
  'card-json-inexact-number',
]);

/**
 * A card from a file, stdin or (for `diff`) a URL, parsed only if the validator can read it:
 * invalid UTF-8, invalid JSON, nesting deeper than {@link MAX_JSON_DEPTH}, a root that is not
 * an object, a member named twice (which parsers resolve differently, so `verify` would check
 * one card while a client reads another) and a number a double does not hold exactly (which
 * readers read differently too) are its `card-json-parse` / `card-root-object` /
 * `card-json-duplicate-member` / `card-json-inexact-number` errors, thrown as a {@link CardInputError}, exactly as
 * `agent-card validate` reports them.
 */
export async function readCard(
  io: CliIO,
  source: string,
  options: ReadCardOptions = {},
): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  if (isRemote(source)) {
    // Refused before any request: plain http off this machine, or a URL with credentials.
    documentUrl(source, options.allowHttp === true, options.allowHttp !== undefined);
    bytes = await fetchBytes(source, options.timeoutMs ?? 10_000);
  } else bytes = await readBytes(io, source);
  return cardFromBytes(bytes, source);
}

/** How {@link readCard} reads a URL. */
export interface ReadCardOptions {
  /** One deadline for the headers and the body. @default 10000 */
  timeoutMs?: number;
  /**
   * The command's `--allow-http`: plain http from this machine only. Leave it out for a command
   * that has no such flag (its errors then do not offer one).
   */
  allowHttp?: boolean;
}

/**
 * The AI Catalog in `text` (what {@link catalogText} returned) read from `source`, refused as a
 * {@link CardInputError} when it names a member twice (`catalog-duplicate-member`): parsers keep
 * different values, so what is shown or checked would be one of two catalogs.
 */
export function catalogFromText(text: string, source: string): unknown {
  const duplicated = validateAiCatalog(text).findings.filter((f) => f.rule === 'catalog-duplicate-member');
  if (duplicated.length > 0) throw new CardInputError(source, duplicated, 'AI Catalog');
  return parseJson(text, source);
}

/** The card in `bytes` read from `source`, held to the rules of {@link readCard}. */
export function cardFromBytes(bytes: Uint8Array, source: string): Record<string, unknown> {
  const unreadable = validateAgentCard(bytes, { profile: 'development' }).findings.filter(
    (f) => f.severity === 'error' && UNREADABLE.has(f.rule),
  );
  if (unreadable.length > 0) throw new CardInputError(source, unreadable);
  return parseJson(bytes, source) as Record<string, unknown>;
}

/**
 * Fails when `file` exists and `force` is not set, with the message {@link writeText} gives: for
 * commands that would otherwise find out only after a slow network run.
 */
export async function refuseOverwrite(io: CliIO, file: string, force: boolean): Promise<void> {
  if (force) return;
  try {
    await access(resolve(io.cwd, file));
  } catch {
    return;
  }
  throw new CliError(`${file}: already exists. Pass --force to overwrite it.`);
}

/** Writes a file relative to the working directory. */
export async function writeText(
  io: CliIO,
  file: string,
  text: string,
  options: { force?: boolean } = {},
): Promise<string> {
  const path = resolve(io.cwd, file);
  try {
    await writeFile(path, text, { flag: options.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError(`${file}: already exists. Pass --force to overwrite it.`);
    }
    throw new CliError(`${file}: cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  return path;
}

/**
 * Pretty JSON with a trailing newline, as the CLI writes cards and reports. Whatever the value,
 * this never recurses past {@link MAX_JSON_DEPTH} levels below the report's own: a deeper value
 * is printed as a string saying so.
 */
export function toJsonText(value: unknown): string {
  const depths = new WeakMap<object, number>();
  const cut = `(nested deeper than ${MAX_JSON_DEPTH} levels: left out)`;
  const limit = MAX_JSON_DEPTH + 16;
  const text = JSON.stringify(
    value,
    function (this: unknown, _key, item: unknown) {
      if (typeof item !== 'object' || item === null) return item;
      const depth = (typeof this === 'object' && this !== null ? (depths.get(this) ?? 0) : 0) + 1;
      if (depth > limit) return cut;
      depths.set(item, depth);
      return item;
    },
    2,
  );
  return `${text}\n`;
}

/** True when the argument looks like a URL or a bare domain rather than a file. */
export function isRemote(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

/** `localhost`, `127.0.0.0/8` and `::1`, as the WHATWG URL parser spells them. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The URL a document is read from: `https:`, or `http:` on this machine (`localhost`,
 * `127.0.0.0/8`, `::1`) when `allowHttp` is given. Plain http to any other host is refused
 * before a request is sent: anyone on the path could change what comes back.
 */
export function documentUrl(input: string, allowHttp: boolean, offerFlag = true): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CliError(`${visible(input)}: not a URL. Pass e.g. https://acme.io/.well-known/agent-card.json.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new CliError(
      `${visible(`${url.protocol}//${url.host}${url.pathname}`)}: the URL carries a user name or password. Remove them: a card is public, and the URL would end up in logs.`,
    );
  }
  if (url.protocol === 'https:') return url;
  const shown = visible(input);
  if (url.protocol === 'http:' && allowHttp && isLoopback(url.hostname)) return url;
  if (url.protocol === 'http:' && allowHttp) {
    throw new CliError(
      `${shown}: plain http to another machine (${visible(url.hostname)}). Use the https:// URL; --allow-http reads only from localhost, 127.0.0.1 or ::1.`,
    );
  }
  throw new CliError(
    offerFlag
      ? `${shown}: plain http. Use the https:// URL, or --allow-http for localhost, 127.0.0.1 or ::1.`
      : `${shown}: plain http. Use the https:// URL: anyone on the way could change what comes back.`,
  );
}

/** Largest card body the CLI reads from a URL. */
const MAX_BYTES = 1024 * 1024;

/** Fetches a body from a URL with one deadline for headers and body, no redirects and a size cap. */
export async function fetchBytes(
  url: string,
  timeoutMs: number,
  maxBytes = MAX_BYTES,
  options: { publicOnly?: boolean } = {},
): Promise<Uint8Array> {
  const shown = visible(url);
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: unknown): CliError => {
    const reason =
      signal.aborted || (error as Error).name === 'TimeoutError'
        ? `no complete answer within ${timeoutMs} ms`
        : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    return new CliError(`${shown}: cannot be fetched (${visible(reason)}).`);
  };
  let response: Response;
  if (options.publicOnly) {
    // A URL a remote document or a file chose, off the origin the user named: public addresses
    // only, and the connection made to the address that was checked.
    const refused = await nonPublicTarget(new URL(url));
    if (refused !== undefined)
      throw new CliError(
        `${shown}: not fetched: another origin on a non-public address (${visible(refused)}). Pass --allow-private-targets to fetch it.`,
      );
  }
  try {
    const init = { redirect: 'manual', signal, headers: { accept: 'application/json' } } as const;
    response = await (options.publicOnly ? publicOnlyFetch(url, init) : fetch(url, init));
  } catch (error) {
    throw failed(error);
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    throw new CliError(
      `${shown}: answered ${response.status}${location ? ` (redirect to ${visible(location)})` : ''}. Run "agent-card check" for details.`,
    );
  }
  if (!response.body) return new Uint8Array();
  try {
    return await collect(response.body, maxBytes, () => new CliError(`${shown}: body larger than ${maxBytes} bytes.`));
  } catch (error) {
    throw error instanceof CliError ? error : failed(error);
  }
}
