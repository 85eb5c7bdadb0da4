/**
 * Where `diff` and `verify` read a card: a file, stdin (`-`), a document URL, a host (an origin
 * with no path, discovered as `check` discovers it) or a file at a git revision (`main:agent-card.json`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_MAX_CARD_BYTES, discoverAgentCard } from '@agent-card/discovery';
import type { CliIO } from './io';
import { CliError } from './io';
import {
  CardInputError,
  cardFromBytes,
  documentUrl,
  fetchBytes,
  isRemote,
  MAX_FILE_BYTES,
  readBytes,
  UNREADABLE,
} from './read';
import { visible } from './terminal';

/** A card read by {@link readCardSource}. */
export interface CardSource {
  card: Record<string, unknown>;
  /** The bytes as read, when they came from a file, stdin, a URL or git (not from a host). */
  bytes?: Uint8Array;
  /** A local file's path as given (for annotations); absent for stdin, URLs, hosts and revisions. */
  file?: string;
  /** Where the card came from, for reports: the path, `stdin`, the card's URL, or `rev:path`. */
  name: string;
}

/** A card over the card size limit (`--max-card-bytes`): reported as a finding, not read. */
export class CardTooLargeError extends CliError {
  constructor(
    readonly source: string,
    readonly size: string,
    readonly limit: number,
  ) {
    super(
      `${visible(source)}: the card is ${size}, over the ${limit}-byte card size limit; not read. Raise the limit with --max-card-bytes <bytes> to read it anyway.`,
      1,
    );
  }
}

/** How {@link readCardSource} reads remote cards. */
export interface CardSourceOptions {
  timeoutMs: number;
  /** The command's `--allow-http`. */
  allowHttp: boolean;
  /** Largest card read from a host (`--max-card-bytes`); a document URL reads up to this or 1 MiB. */
  maxCardBytes?: number;
}

/** How long `git` may take to print one file: a local object read, so this is generous. */
const GIT_TIMEOUT_MS = 10_000;

/** `rev:path`: a revision git accepts (no option, no shell syntax) and a path in it. */
const GIT_REVISION = /^([A-Za-z0-9_][\w./@{}~^-]*):(.+)$/;

/**
 * The git revision and path in `source`, when it names one: `rev:path` that is not an existing
 * file and not a Windows drive path (`C:\card.json`).
 */
export function gitRevisionOf(io: CliIO, source: string): { rev: string; path: string } | undefined {
  if (/^[A-Za-z]:[\\/]/.test(source) || existsSync(resolve(io.cwd, source))) return undefined;
  const m = GIT_REVISION.exec(source);
  if (!m || m[1]!.includes('..') || m[1]!.endsWith('.lock')) return undefined;
  return { rev: m[1]!, path: m[2]! };
}

/**
 * The bytes of `path` at `rev`, as git stores them: `git cat-file blob`, run without a shell (the
 * argument is one word whatever it holds), with no textconv filter or pager, at most
 * {@link MAX_FILE_BYTES} and {@link GIT_TIMEOUT_MS}.
 */
export function readGitBlob(io: CliIO, rev: string, path: string): Promise<Uint8Array> {
  const spec = `${rev}:${path}`;
  return new Promise((done, fail) => {
    execFile(
      'git',
      ['--no-pager', 'cat-file', 'blob', spec],
      {
        cwd: io.cwd,
        env: { ...io.env, GIT_TERMINAL_PROMPT: '0' },
        encoding: 'buffer',
        maxBuffer: MAX_FILE_BYTES,
        timeout: GIT_TIMEOUT_MS,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return done(new Uint8Array(stdout));
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return fail(new CliError(`${visible(spec)}: git is not installed (or not on PATH).`));
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          return fail(
            new CliError(`${visible(spec)}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB. Check the path.`),
          );
        }
        if ((error as { killed?: boolean }).killed) {
          return fail(new CliError(`${visible(spec)}: git gave no answer within ${GIT_TIMEOUT_MS} ms.`));
        }
        const why = Buffer.from(stderr).toString('utf8').trim().split('\n')[0] ?? '';
        fail(
          new CliError(
            `${visible(spec)}: not a file at a git revision (${visible(why || 'git failed')}). Pass rev:path, e.g. main:agent-card.json, from inside the repository.`,
          ),
        );
      },
    );
  });
}

/**
 * What `path` at `rev` is, as git stores it (`blob` for a file, `tree` for a folder), or
 * `undefined` when git knows no such object: `git cat-file -t`, run as {@link readGitBlob} runs git.
 */
export function gitObjectType(io: CliIO, rev: string, path: string): Promise<string | undefined> {
  return new Promise((done, fail) => {
    execFile(
      'git',
      ['--no-pager', 'cat-file', '-t', `${rev}:${path}`],
      {
        cwd: io.cwd,
        env: { ...io.env, GIT_TERMINAL_PROMPT: '0' },
        encoding: 'utf8',
        maxBuffer: 1024,
        timeout: GIT_TIMEOUT_MS,
        windowsHide: true,
      },
      (error, stdout) => {
        if (!error) return done(stdout.trim());
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return fail(new CliError(`${visible(`${rev}:${path}`)}: git is not installed (or not on PATH).`));
        done(undefined);
      },
    );
  });
}

/**
 * A host (`https://acme.io`): its card as `check` finds it (the well-known path, then the legacy
 * one), with the bounds of `check`; no catalog and no plain-http probe.
 */
async function hostCard(origin: string, options: CardSourceOptions): Promise<CardSource> {
  const report = await discoverAgentCard(origin, {
    profile: 'development',
    timeoutMs: options.timeoutMs,
    allowHttp: options.allowHttp,
    probeHttp: false,
    followCatalog: false,
    ...(options.maxCardBytes === undefined ? {} : { maxCardBytes: options.maxCardBytes }),
  });
  if (report.primary.failure?.kind === 'too-large') {
    const declared = Number(report.primary.headers['content-length'] ?? Number.NaN);
    const limit = options.maxCardBytes ?? DEFAULT_MAX_CARD_BYTES;
    throw new CardTooLargeError(
      report.cardUrl ?? `${origin}${report.primary.path}`,
      Number.isFinite(declared) ? `${declared} bytes` : `more than ${limit} bytes`,
      limit,
    );
  }
  const unreadable = report.findings.filter((f) => f.severity === 'error' && UNREADABLE.has(f.rule));
  if (unreadable.length > 0) throw new CardInputError(report.cardUrl ?? origin, unreadable);
  const document = report.document;
  if (typeof document === 'object' && document !== null && !Array.isArray(document)) {
    return { card: document as Record<string, unknown>, name: report.cardUrl ?? origin };
  }
  const primary = report.primary;
  const answer =
    primary.status === undefined ? (primary.failure?.message ?? 'no response') : `status ${primary.status}`;
  throw new CliError(
    `${origin}: serves no Agent Card at ${primary.path} (${answer}). Run "agent-card check ${origin}" for details.`,
  );
}

/**
 * The card named by `source`: a file, `-` (stdin), an `https://` document URL, a host (a URL with
 * no path: discovered as `check` does) or `rev:path` (the file at a git revision). Every source is
 * held to the rules of `readCard` (UTF-8, JSON, depth, duplicate members).
 */
export async function readCardSource(io: CliIO, source: string, options: CardSourceOptions): Promise<CardSource> {
  if (isRemote(source)) {
    const url = documentUrl(source, options.allowHttp);
    if (url.pathname === '/' && url.search === '') return hostCard(url.origin, options);
    // A URL may name a catalog too (verify reads both): the card's own limit is checked after.
    const bytes = await fetchBytes(url.href, options.timeoutMs, Math.max(1024 * 1024, options.maxCardBytes ?? 0));
    return { card: cardFromBytes(bytes, url.href), bytes, name: url.href };
  }
  const revision = gitRevisionOf(io, source);
  if (revision) {
    const bytes = await readGitBlob(io, revision.rev, revision.path);
    return { card: cardFromBytes(bytes, source), bytes, name: source };
  }
  const bytes = await readBytes(io, source);
  const card = cardFromBytes(bytes, source);
  return source === '-' ? { card, bytes, name: 'stdin' } : { card, bytes, file: source, name: source };
}
