// `agent-card build`: what a static host needs to serve what the middleware serves. Every
// document comes from core's responder, asked path by path (`servedPathsOf`), so the bytes and
// ETags are the middleware's own and a document core learns to serve is written here too.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentCardError, loadAgentCardConfig, type ValidationProfile } from '@agent-card/core';
import {
  type AgentCardOptions,
  type AgentCardResponder,
  type AgentCardResponse,
  createAgentCardResponder,
  servedPathsOf,
} from '@agent-card/core/http';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { cardFromBytes, readBytes, refuseOverwrite } from '../read';
import { visible } from '../terminal';

export interface BuildCommandOptions {
  /** The directory written into. @default 'public' */
  out?: string;
  /** Overwrite files that exist. */
  force?: boolean;
  /** Validation profile of the cards. @default 'production' */
  profile?: ValidationProfile;
}

/** One document as the responder serves it: its bytes and the headers of each answer. */
export interface BuiltDocument {
  path: string;
  bytes: Uint8Array;
  etag: string;
  /** The headers of a 200 answer to GET. */
  ok: Readonly<Record<string, string>>;
  /** The headers of a 304 answer to a matching `If-None-Match`. */
  notModified: Readonly<Record<string, string>>;
  /** The headers of a 204 answer to a CORS preflight. */
  preflight: Readonly<Record<string, string>>;
  /** The headers of a 405 answer (any other method). */
  methodNotAllowed: Readonly<Record<string, string>>;
}

/** The headers file names, each for its host. */
export const NGINX_SNIPPET = 'agent-card.nginx.conf';
const HEADERS_FILE = '_headers';
const VERCEL_FILE = 'vercel.json';

/** A configuration module: its default export (or `options`), an options object or a function returning one. */
async function importOptions(file: string, path: string): Promise<unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(path))
      throw new CliError(`${file}: no such file. Check the path.`);
    throw new CliError(`${file}: cannot be loaded (${(error as Error).message}).`);
  }
  const found = mod.default ?? mod.options;
  return typeof found === 'function' ? await (found as () => unknown)() : found;
}

/**
 * The options the middleware takes, from `config`: a card file (`.json`), a module whose default
 * export is the options (`.mjs`, `.js`, `.cjs`), or with none `agent-card.json` (plus
 * `package.json`) of the working directory, as the middleware reads it.
 */
async function loadOptions(io: CliIO, config: string | undefined, profile: ValidationProfile) {
  if (config === undefined) {
    const card = loadAgentCardConfig({ cwd: io.cwd, profile, logger: { warn: () => {} } });
    return { options: { card } as AgentCardOptions, source: 'agent-card.json' };
  }
  if (extname(config) === '.json')
    return {
      options: { card: cardFromBytes(await readBytes(io, config), config) } as AgentCardOptions,
      source: config,
    };
  const value = await importOptions(config, resolve(io.cwd, config));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(
      `${config}: its default export is not the middleware's options (${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}). Export { card } or { agents }, e.g. export default { card }.`,
    );
  return { options: value as AgentCardOptions, source: config };
}

/** Answers one request, refusing what a static host could not send. */
async function ask(responder: AgentCardResponder, method: string, path: string, headers: Record<string, string>) {
  const answer: AgentCardResponse | undefined = await responder.respond({ method, path, headers });
  if (answer === undefined) throw new CliError(`${path}: listed by the responder but not answered (internal error).`);
  return answer;
}

/** Every document the responder serves, asked for path by path as a client would. */
export async function collectDocuments(responder: AgentCardResponder): Promise<BuiltDocument[]> {
  const documents: BuiltDocument[] = [];
  for (const path of servedPathsOf(responder)) {
    const ok = await ask(responder, 'GET', path, {});
    if (ok.status !== 200 || ok.body === undefined || ok.headers.etag === undefined)
      throw new CliError(`${path}: the responder answers ${ok.status}, not a document a static host can serve.`);
    const etag = ok.headers.etag;
    const notModified = await ask(responder, 'GET', path, { 'if-none-match': etag });
    const preflight = await ask(responder, 'OPTIONS', path, {
      origin: 'https://client.example',
      'access-control-request-method': 'GET',
    });
    const methodNotAllowed = await ask(responder, 'DELETE', path, {});
    documents.push({
      path,
      bytes: ok.body,
      etag,
      ok: ok.headers,
      notModified: notModified.headers,
      preflight: preflight.headers,
      methodNotAllowed: methodNotAllowed.headers,
    });
  }
  return documents;
}

/** `content-type` → `Content-Type`, `etag` → `ETag`. */
function headerName(name: string): string {
  if (name === 'etag') return 'ETag';
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * The headers a CDN must be told: all of the 200's but those it sets itself from the file
 * (`Content-Length`, and `ETag`, which Vercel, Netlify and Cloudflare compute from the bytes).
 */
function cdnHeaders(doc: BuiltDocument): [string, string][] {
  return Object.entries(doc.ok)
    .filter(([name]) => name !== 'content-length' && name !== 'etag')
    .map(([name, value]) => [headerName(name), value]);
}

/** `_headers` for Netlify and Cloudflare Pages: a path line, then its headers indented. */
export function headersFile(documents: readonly BuiltDocument[]): string {
  const blocks = documents.map((doc) =>
    [doc.path, ...cdnHeaders(doc).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
  );
  return `# Written by agent-card build: the headers the agent card middleware sends.\n${blocks.join('\n\n')}\n`;
}

/** `vercel.json` with the `headers` of every document. */
export function vercelJson(documents: readonly BuiltDocument[]): string {
  const headers = documents.map((doc) => ({
    source: doc.path,
    headers: cdnHeaders(doc).map(([key, value]) => ({ key, value })),
  }));
  return `${JSON.stringify({ headers }, null, 2)}\n`;
}

/** A double-quoted nginx string; `$` would start a variable, and nginx has no escape for it. */
function nginxString(value: string, where: string): string {
  if (value.includes('$') || /[\r\n]/.test(value))
    throw new CliError(`${where}: the value has a "$" or a line break, which an nginx string cannot hold (${value}).`);
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

function addHeaders(headers: Readonly<Record<string, string>>, indent: string, path: string): string[] {
  return Object.entries(headers)
    .filter(([name]) => name !== 'content-length' && name !== 'content-type')
    .map(([name, value]) => `${indent}add_header ${headerName(name)} ${nginxString(value, `${path} ${name}`)} always;`);
}

/** One exact-match `location`: the file with the middleware's headers, 304, 204 and 405. */
function nginxLocation(doc: BuiltDocument): string {
  const tag = doc.etag.slice(1, -1);
  if (!/^[A-Za-z0-9_-]+$/.test(tag)) throw new CliError(`${doc.path}: unexpected ETag ${doc.etag}.`);
  const contentType = nginxString(doc.ok['content-type'] ?? 'application/octet-stream', `${doc.path} content-type`);
  return [
    `location = ${doc.path} {`,
    // Only these headers: no charset, no compression, and the ETag of the bytes, not nginx's own.
    '    types { }',
    `    default_type ${contentType};`,
    '    charset off;',
    '    gzip off;',
    '    etag off;',
    '    if_modified_since off;',
    ...addHeaders(doc.ok, '    ', doc.path),
    '    if ($request_method = OPTIONS) {',
    ...addHeaders(doc.preflight, '        ', doc.path),
    '        return 204;',
    '    }',
    '    if ($request_method !~ ^(GET|HEAD)$) {',
    ...addHeaders(doc.methodNotAllowed, '        ', doc.path),
    '        return 405;',
    '    }',
    // If-None-Match as core reads it: this tag (weak or strong) in the list, or `*`.
    `    if ($http_if_none_match ~ "(^|[ ,])(W/)?\\"${tag}\\"($|[ ,])|^[ \\t]*\\*[ \\t]*$") {`,
    ...addHeaders(doc.notModified, '        ', doc.path),
    '        return 304;',
    '    }',
    '}',
  ].join('\n');
}

/**
 * The nginx snippet: one `location` per document, to include in a `server` whose `root` is the
 * output, and a 404 for `_headers`, which Netlify and Cloudflare Pages read from that directory
 * but nginx would otherwise serve as a file.
 */
export function nginxSnippet(documents: readonly BuiltDocument[]): string {
  return `# Written by agent-card build: the headers, ETags and answers of the agent card middleware.
# Include it in a server block whose root is the output directory it was written beside:
#   root /srv/www;
#   include /srv/${NGINX_SNIPPET};
${documents.map(nginxLocation).join('\n\n')}

location = /${HEADERS_FILE} {
    return 404;
}
`;
}

/**
 * The characters an agent path may hold (core allows RFC 3986's sub-delims, `:` and `@`) that a
 * static host's files read as syntax, not as the path: nginx ends a directive at `;` and takes `$`
 * for a variable; Netlify's `_headers` reads `*` as a splat and `:name` as a placeholder; Vercel's
 * `source` (path-to-regexp) reads `:name`, `(…)`, `*` and `+` as patterns. Neither Netlify nor
 * Vercel documents an escape, so such a path is refused rather than served under a pattern that
 * sends the card's CORS and Cache-Control headers to other paths.
 */
const PATH_SYNTAX: Readonly<Record<string, string>> = {
  ';': 'nginx reads as the end of a directive',
  $: 'nginx reads as the start of a variable',
  '*': "Netlify's _headers and vercel.json read as a wildcard",
  ':': "Netlify's _headers and vercel.json read as a placeholder (:name)",
  '(': 'vercel.json reads as the start of a regular expression',
  ')': 'vercel.json reads as the end of a regular expression',
  '+': 'vercel.json reads as a repeat of the segment before it',
};

/** Refuses a document path that nginx, `_headers` or `vercel.json` would not read literally. */
function checkPaths(documents: readonly BuiltDocument[], source: string): void {
  for (const { path } of documents) {
    const character = [...path].find((c) => Object.hasOwn(PATH_SYNTAX, c));
    if (character !== undefined)
      throw new CliError(
        `${path}: has "${character}", which ${PATH_SYNTAX[character]}, so no headers file can name this path. Give the agent a path of letters, digits and - . _ ~ ! & ' , = @ in ${source} (e.g. '/agents/orders'), or serve it with the middleware.`,
      );
  }
}

/** `path` under `out`, refusing anything that would leave it. */
function fileOf(out: string, path: string): string {
  const segments = path.split('/').slice(1);
  if (!path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\')))
    throw new CliError(`${path}: not a path that can be written as a file under ${out}.`);
  return resolve(out, ...segments);
}

/** Refuses what a static host cannot do before anything is written. */
function checkStatic(options: AgentCardOptions, source: string): void {
  const lists = [options, ...(options.agents ?? [])].some((o) => Array.isArray(o.cors));
  if (lists)
    throw new CliError(
      `${source}: cors is a list of origins, which the server must echo per request; a static host sends the same headers to everyone. Use cors: '*' or false, or serve the card with the middleware.`,
    );
}

/** A written file as the user names it: under `out` as given, or relative to the working directory. */
function shown(io: CliIO, out: string, dir: string, file: string): string {
  if (file.startsWith(dir + sep)) return `${out}${sep}${file.slice(dir.length + 1)}`;
  const path = relative(io.cwd, file);
  return path.startsWith('..') || isAbsolute(path) ? file : path;
}

/**
 * `agent-card build [config] --out <dir>`: writes every document the middleware would serve
 * for `config` (the card, the legacy alias, the JWK Set, the AI Catalog, each agent's card, the
 * viewer's pages), byte for byte, and the headers to send with them for Netlify and Cloudflare
 * Pages (`_headers`, in `dir`), and beside `dir`, where no host serves them, for Vercel
 * (`vercel.json`) and nginx (`agent-card.nginx.conf`, with the middleware's ETags, 304, 204 and
 * 405).
 */
export async function buildCommand(
  io: CliIO,
  config: string | undefined,
  options: BuildCommandOptions,
): Promise<number> {
  const out = options.out ?? 'public';
  const profile = options.profile ?? 'production';
  const { options: cardOptions, source } = await loadOptions(io, config, profile);
  checkStatic(cardOptions, source);
  let responder: AgentCardResponder;
  try {
    responder = createAgentCardResponder({
      profile,
      logger: { warn: (message: string) => io.stderr.write(`${message}\n`) },
      ...cardOptions,
    });
  } catch (error) {
    if (!(error instanceof AgentCardError)) throw error;
    // Every problem on its own line, as the middleware would list them at start-up.
    io.stderr.write(`${error.message.split('\n').map(visible).join('\n')}\n`);
    throw new CliError(`${source}: the options or the card are invalid (above). Fix them and build again.`, 1);
  }
  let documents: BuiltDocument[];
  try {
    documents = await collectDocuments(responder);
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith('servedPathsOf:'))
      throw new CliError(
        `${source}: a card function is built per request, so there are no files to write. Give a card (an object), or serve it with the middleware.`,
      );
    throw error;
  }
  checkPaths(documents, source);
  const dir = resolve(io.cwd, out);
  // Server configuration goes beside the published directory, never into it, where a host
  // would serve it as a file; `_headers` is the exception: Netlify and Cloudflare Pages read it
  // only from the published directory (and do not serve it), and the nginx snippet hides it.
  const beside = dirname(dir);
  if (beside === dir)
    throw new CliError(
      `${out}: is the root directory; vercel.json and ${NGINX_SNIPPET} go beside it. Pick --out <dir>.`,
    );
  const files = new Map<string, string | Uint8Array>();
  for (const doc of documents) files.set(fileOf(dir, doc.path), doc.bytes);
  files.set(resolve(dir, HEADERS_FILE), headersFile(documents));
  files.set(resolve(beside, VERCEL_FILE), vercelJson(documents));
  files.set(resolve(beside, NGINX_SNIPPET), nginxSnippet(documents));
  // Every refusal before the first write: a half-written site is worse than none.
  for (const file of files.keys()) await refuseOverwrite(io, file, options.force === true);
  for (const [file, content] of files) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    io.stdout.write(`${shown(io, out, dir, file)}\n`);
  }
  io.stderr.write(
    `✔ ${documents.length} documents and _headers written to ${out}; ${VERCEL_FILE} and ${NGINX_SNIPPET} beside it, where no host serves them (${VERCEL_FILE} belongs in the project's root).\n`,
  );
  return 0;
}
