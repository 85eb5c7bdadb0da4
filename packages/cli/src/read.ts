import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIO } from './io';
import { CliError } from './io';

/** Reads a whole stream (stdin) as UTF-8. */
async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a file (or stdin for `-`) as text; a missing file is a one-line usage error. */
export async function readText(io: CliIO, file: string): Promise<string> {
  if (file === '-') return readStream(io.stdin);
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`${file}: no such file. Check the path.`);
    if (code === 'EISDIR') throw new CliError(`${file}: is a directory. Pass a JSON file.`);
    throw new CliError(`${file}: cannot be read (${code ?? String(error)}).`);
  }
}

/** Reads and parses a JSON file; invalid JSON is a one-line error naming the file. */
export async function readJson(io: CliIO, file: string): Promise<unknown> {
  const text = await readText(io, file);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`${file === '-' ? 'stdin' : file}: not valid JSON (${(error as Error).message}).`);
  }
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

/** Pretty JSON with a trailing newline, as the CLI writes cards. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** True when the argument looks like a URL or a bare domain rather than a file. */
export function isRemote(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

/** Largest card body the CLI reads from a URL. */
const MAX_BYTES = 1024 * 1024;

/** Fetches JSON from a URL with a timeout, no redirects and a size cap. */
export async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    throw new CliError(`${url}: cannot be fetched (${reason}).`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const where = response.headers.get('location');
    throw new CliError(
      `${url}: answered ${response.status}${where ? ` (redirect to ${where})` : ''}. Run "agent-card check" for details.`,
    );
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new CliError(`${url}: body larger than ${MAX_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${url}: not valid JSON (${(error as Error).message}).`);
  }
}
