import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_MAX_CARD_BYTES, discoverAgentCard, type DiscoveryReport } from '@agent-card/discovery';
import { CardTooLargeError } from '../card-source';
import { renderAgentCardPage, renderAiCatalogPage } from '@agent-card/core/view';
import type { CliIO } from '../io';
import { CliError } from '../io';
import {
  cardFromBytes,
  catalogFromText,
  catalogText,
  documentUrl,
  fetchBytes,
  isRemote,
  readBytes,
  refuseOverwrite,
  writeText,
} from '../read';
import { guardOutput, visible } from '../terminal';
import { catalogCards } from '../html-report';
import { countPromptTokens, PROMPT_ENCODING } from '../prompt';
import { viewPromptCommand } from './view-prompt';

export interface ViewCommandOptions {
  /** Write the page here instead of stdout. */
  output?: string;
  /** Overwrite `output`. */
  force?: boolean;
  /** Read the file or URL as an AI Catalog, whatever it looks like. */
  catalog?: boolean;
  /** Time budget of a URL (per request for a host). @default 10_000 */
  timeout?: number;
  /** Read `http://` from localhost, 127.0.0.1 or ::1. */
  allowHttp?: boolean;
  /** Catalog entries of a host followed at most. @default 16 */
  maxAgents?: number;
  /** The largest card of a host read (`--max-card-bytes`). @default 262144 (256 KiB) */
  maxCardBytes?: number;
  /** Open the page in the browser (`$BROWSER`, else the system's opener) once written. */
  open?: boolean;
  /** Print what a model reads from the card instead of the page. */
  prompt?: boolean;
}

/** The "What a model reads" section counts tokens with the CLI's tokenizer. */
const PROMPT = { prompt: { countTokens: countPromptTokens, encoding: PROMPT_ENCODING } };

/** The system's command that opens a file in the default browser. */
function opener(io: CliIO): { command: string; args: string[] } {
  const browser = io.env.BROWSER;
  if (browser) return { command: browser, args: [] };
  if (process.platform === 'darwin') return { command: 'open', args: [] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  return { command: 'xdg-open', args: [] };
}

/**
 * How long `--open` waits for the opener to say it failed: one that finds no browser (`xdg-open`
 * on a server, a `$BROWSER` that is not installed) exits at once with a status; one that found a
 * browser may run as long as the browser does, and is left to it.
 */
const OPENER_FAILS_WITHIN_MS = 2_000;

/**
 * Opens `file` in the browser. A missing opener, or one that exits with a status other than 0, is
 * said with the way to open the page by hand; it is not an error of the command.
 */
function openFile(io: CliIO, file: string): Promise<void> {
  const { command, args } = opener(io);
  const byHand = `open ${pathToFileURL(file).href} in a browser yourself, or set BROWSER to the command that opens one`;
  return new Promise((resolve) => {
    const child = spawn(command, [...args, file], { detached: true, stdio: 'ignore', env: io.env, cwd: io.cwd });
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (message?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (message !== undefined) io.stderr.write(`${message}\n`);
      resolve();
    };
    child.once('error', (error) =>
      settle(`Could not open it with ${visible(command)} (${visible(error.message)}): ${byHand}.`),
    );
    child.once('exit', (code, signal) => {
      const how = code === null ? `was stopped by ${signal}` : `exited with status ${code}`;
      settle(code === 0 ? undefined : `Could not open it: ${visible(command)} ${how} (no browser?); ${byHand}.`);
    });
    child.once('spawn', () => {
      timer = setTimeout(() => {
        child.unref();
        settle();
      }, OPENER_FAILS_WITHIN_MS);
    });
  });
}

/** What `view` renders, and what it says about it on stderr. */
interface Page {
  html: string;
  what: string;
}

/**
 * One document (a file, stdin or a URL's body): an AI Catalog when it looks like one (as
 * `validate` decides) or `--catalog` says so, else a card. A catalog read this way shows its
 * entries only: no card it lists is fetched.
 */
function documentPage(bytes: Uint8Array, source: string, options: ViewCommandOptions, jsonHref?: string): Page {
  const link = jsonHref === undefined ? {} : { jsonHref };
  const catalog = catalogText(bytes, source === '-' ? 'stdin' : source, options.catalog === true);
  if (catalog !== undefined) {
    const value = catalogFromText(catalog, source);
    const entries = (value as { entries?: unknown }).entries;
    return {
      html: renderAiCatalogPage(value, { cspMeta: true, ...link }),
      what: `AI Catalog, ${Array.isArray(entries) ? entries.length : 0} entries`,
    };
  }
  const card = cardFromBytes(bytes, source);
  return {
    html: renderAgentCardPage(card, { cspMeta: true, ...link, ...PROMPT }),
    what: `card ${typeof card.name === 'string' ? card.name : '(no name)'}`,
  };
}

/**
 * A host (an origin with no path): discovered as `check` does, with its bounds (one time
 * budget, 256 KiB per card and 1 MiB per other body, no cross-origin redirects, listed cards on the same origin only), and
 * shown as its AI Catalog with every listed card that loaded, or else as its one card.
 */
async function hostPage(origin: string, options: ViewCommandOptions): Promise<Page> {
  const report: DiscoveryReport = await discoverAgentCard(origin, {
    profile: 'development',
    timeoutMs: options.timeout ?? 10_000,
    allowHttp: options.allowHttp ?? false,
    probeHttp: false,
    followCatalog: 'same-origin',
    ...(options.maxAgents === undefined ? {} : { maxCatalogEntries: options.maxAgents }),
    ...(options.maxCardBytes === undefined ? {} : { maxCardBytes: options.maxCardBytes }),
  });
  const catalog = report.catalog;
  if (catalog?.found && typeof catalog.document === 'object' && catalog.document !== null) {
    const agents = report.agents ?? [];
    const loaded = agents.filter((a) => a.checked && typeof a.card?.document === 'object' && a.card.document !== null);
    return {
      html: renderAiCatalogPage(catalog.document, {
        cspMeta: true,
        cards: catalogCards(agents, catalog),
        jsonHref: catalog.finalUrl,
      }),
      what: `AI Catalog, ${catalog.entries} entries, ${loaded.length} cards loaded`,
    };
  }
  if (typeof report.document === 'object' && report.document !== null && !Array.isArray(report.document)) {
    const card = report.document as Record<string, unknown>;
    return {
      html: renderAgentCardPage(card, {
        cspMeta: true,
        ...PROMPT,
        ...(report.cardUrl === undefined ? {} : { jsonHref: report.cardUrl }),
      }),
      what: `card ${typeof card.name === 'string' ? card.name : '(no name)'}`,
    };
  }
  const primary = report.primary;
  if (primary.failure?.kind === 'too-large') {
    const limit = options.maxCardBytes ?? DEFAULT_MAX_CARD_BYTES;
    throw new CardTooLargeError(`${origin}${primary.path}`, `more than ${limit} bytes`, limit);
  }
  const answer =
    primary.status === undefined ? (primary.failure?.message ?? 'no response') : `status ${primary.status}`;
  throw new CliError(
    `${origin}: serves no Agent Card at ${primary.path} (${answer}). Run "agent-card check ${origin}" for details.`,
  );
}

async function render(io: CliIO, source: string, options: ViewCommandOptions): Promise<Page> {
  if (!isRemote(source)) return documentPage(await readBytes(io, source), source, options);
  const url = documentUrl(source, options.allowHttp === true);
  if (url.pathname === '/' && url.search === '') {
    return hostPage(url.origin, options);
  }
  const bytes = await fetchBytes(url.href, options.timeout ?? 10_000);
  return documentPage(bytes, url.href, options, url.href);
}

/**
 * `agent-card view <file|url>`: one self-contained HTML page (inline CSS, the policy as a
 * `<meta>` Content-Security-Policy) of a card or an AI Catalog, to stdout when it is piped, or
 * to `-o`; on a terminal (or with `--open`) to a new file in the temporary directory, named on
 * stderr and, with `--open`, opened in the browser. Exit 0 when
 * written, 1 when the card is not readable JSON (the validator's findings), 2 on usage and I/O
 * errors.
 */
export async function viewCommand(io: CliIO, source: string, options: ViewCommandOptions): Promise<number> {
  if (options.prompt === true) return viewPromptCommand(io, source, options);
  // Before any request: a refused overwrite must not wait for a slow host first.
  if (options.output) await refuseOverwrite(io, options.output, options.force === true);
  const page = await render(io, source, options);
  // The file gets the bytes stdout would: any control or bidi character a card smuggles past
  // the page's own escaping is shown as \uXXXX text, never kept raw.
  const html = guardOutput(page.html);
  // HTML printed on a terminal is a wall of markup nobody reads: it goes to a file instead.
  let output = options.output;
  if (output === undefined && (options.open === true || io.stdout.isTTY === true)) {
    const dir = await mkdtemp(join(io.env.TMPDIR ?? tmpdir(), 'agent-card-view-'));
    output = join(dir, page.what.startsWith('AI Catalog') ? 'catalog.html' : 'card.html');
  }
  if (output === undefined) {
    io.stdout.write(html);
    return 0;
  }
  await writeText(io, output, html, { force: options.force === true });
  io.stderr.write(`Wrote ${visible(output)} (${visible(page.what)}).\n`);
  if (options.open === true) await openFile(io, output);
  else if (options.output === undefined) {
    io.stderr.write('Open it in a browser, or pass --open next time; -o <file> writes it where you choose.\n');
  }
  return 0;
}
