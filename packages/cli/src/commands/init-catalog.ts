import { type AiCatalogEntry, validateAgentCard, validateAiCatalog } from '@agent-card/core';
import {
  AI_CATALOG_DRAFT,
  AI_CATALOG_PREVIOUS_DRAFT,
  type AiCatalogPreviousEntry,
  toAgentEntry,
  toAiCatalog,
} from '@agent-card/core/http';
import type { CliIO } from '../io';
import { CliError, createPainter, selfCommand } from '../io';
import { isRemote, readCard, toJsonText, writeText } from '../read';
import { formatFindings } from '../report';
import { visible } from '../terminal';

export interface InitCatalogOptions {
  /** `<id>=<card file or https URL>`, repeated: one entry each, in this order. */
  agent?: string[];
  /** `host.displayName` of the catalog. */
  hostName?: string;
  /** Origin (and base path) the cards are served on; default: each card's first interface origin. */
  baseUrl?: string;
  /** Where the agents' paths start: `{agentsPath}/{id}`. */
  agentsPath?: string;
  /** Domain of the `urn:air:{publisher}:agent:{id}` identifiers (current draft). */
  publisher?: string;
  /** The draft to write: current (default) or previous. */
  draft?: string;
  output?: string;
  force?: boolean;
}

/** The middleware's rule for an agent id (`agents[].id`), so every id written here can be served. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const CARD_PATH = '/.well-known/agent-card.json';

interface Agent {
  id: string;
  source: string;
}

function parseAgent(value: string): Agent {
  const eq = value.indexOf('=');
  const id = eq === -1 ? '' : value.slice(0, eq);
  const source = eq === -1 ? '' : value.slice(eq + 1);
  if (!AGENT_ID.test(id) || source === '') {
    throw new CliError(
      `--agent: expected <id>=<card file or URL> with an id of 1-64 letters, digits, '.', '_' or '-' ("${visible(value)}"). Use e.g. --agent billing=agents/billing/agent-card.json.`,
    );
  }
  return { id, source };
}

/** `origin` + path without trailing slashes, as the middleware's `catalog.baseUrl`. */
function normaliseBase(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${flag}: not an absolute URL ("${visible(value)}"). Use e.g. https://agents.acme.io.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`${flag}: not an http(s) URL ("${visible(value)}"). Use e.g. https://agents.acme.io.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function originOfCard(card: Record<string, unknown>): string | undefined {
  const first = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces[0] : undefined;
  const url = first && typeof first === 'object' ? (first as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return undefined;
  try {
    const { origin, protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `agent-card init --catalog`: writes a starter AI Catalog (`ai-catalog.json`) listing the given
 * agents, entry for entry what the middleware serves for `agents: [{ id, path: '{agentsPath}/{id}',
 * card }]` and `catalog: { host: { displayName }, baseUrl }`. A card given by URL is an agent hosted
 * elsewhere: its entry points at that URL. Takes flags only (it never prompts).
 */
export async function initCatalogCommand(io: CliIO, options: InitCatalogOptions): Promise<number> {
  const agents = (options.agent ?? []).map(parseAgent);
  if (agents.length === 0) {
    throw new CliError(
      '--catalog: no agents to list. Give each with --agent <id>=<card file or URL>, e.g. --agent billing=agents/billing/agent-card.json.',
    );
  }
  const prefix = options.agentsPath ?? '/agents';
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(prefix) || /\/\.\.?(\/|$)/.test(prefix)) {
    throw new CliError(
      `--agents-path: not a path like /agents ("${visible(prefix)}"). Use e.g. /agents, or '' for /{id}.`,
    );
  }
  const base = options.baseUrl === undefined ? undefined : normaliseBase(options.baseUrl, '--base-url');
  const draft = options.draft ?? AI_CATALOG_DRAFT.id;
  if (draft !== AI_CATALOG_DRAFT.id && draft !== AI_CATALOG_PREVIOUS_DRAFT.id)
    throw new CliError(
      `--draft: not a draft this version knows ("${visible(draft)}"). Use ${AI_CATALOG_DRAFT.id} (current) or ${AI_CATALOG_PREVIOUS_DRAFT.id} (previous).`,
    );
  const previous = draft === AI_CATALOG_PREVIOUS_DRAFT.id;
  const publisher = options.publisher;
  if (publisher !== undefined && !/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(publisher))
    throw new CliError(
      `--publisher: not a lowercase domain name ("${visible(publisher)}"). Use e.g. --publisher acme.com.`,
    );
  const painter = createPainter(io);
  const seen = new Set<string>();
  const entries: (AiCatalogEntry | AiCatalogPreviousEntry)[] = [];
  const served: string[] = [];
  for (const agent of agents) {
    if (seen.has(agent.id))
      throw new CliError(`--agent: the id "${visible(agent.id)}" is given twice. Give each agent its own id.`);
    seen.add(agent.id);
    const card = await readCard(io, agent.source);
    const errors = validateAgentCard(card, { profile: 'development' }).findings.filter((f) => f.severity === 'error');
    if (errors.length > 0) {
      io.stderr.write(`${formatFindings(errors, createPainter({ ...io, stdout: io.stderr }))}\n`);
      throw new CliError(
        `--agent ${visible(agent.id)}: ${visible(agent.source)} has errors (see above); nothing was written.`,
        1,
      );
    }
    const remote = isRemote(agent.source);
    const origin = remote ? undefined : (base ?? originOfCard(card));
    if (!remote && origin === undefined) {
      throw new CliError(
        `--agent ${visible(agent.id)}: the card's first interface has no http(s) origin to serve it on. Pass --base-url, e.g. --base-url https://agents.acme.io.`,
      );
    }
    const url = remote ? agent.source : `${origin}${prefix}/${agent.id}${CARD_PATH}`;
    const host = new URL(remote ? agent.source : (origin as string)).hostname;
    const source = { url, card: card as Parameters<typeof toAgentEntry>[0]['card'] };
    entries.push(
      previous
        ? toAgentEntry({ ...source, identifier: `urn:agent-card:${host}:${agent.id}` }, AI_CATALOG_PREVIOUS_DRAFT.id)
        : toAgentEntry({ ...source, identifier: `urn:air:${publisher ?? host}:agent:${agent.id}` }),
    );
    if (!remote) served.push(`{ id: '${agent.id}', path: '${prefix}/${agent.id}', card: /* ${agent.source} */ }`);
  }
  const hostName = options.hostName?.trim();
  const parts = { ...(hostName ? { host: { displayName: hostName } } : {}) };
  const catalog = previous
    ? toAiCatalog({ ...parts, entries: entries as AiCatalogPreviousEntry[] }, AI_CATALOG_PREVIOUS_DRAFT.id)
    : toAiCatalog({ ...parts, entries: entries as AiCatalogEntry[] });
  const text = toJsonText(catalog);
  // As the cards above: what would make the file unreadable, not where it will be served (a
  // catalog of cards on localhost is a fine start); the `validate` it suggests next holds the
  // file to the production profile.
  const check = validateAiCatalog(text, { profile: 'development' });
  if (!check.valid) {
    io.stderr.write(
      `${formatFindings(
        check.findings.filter((f) => f.severity === 'error'),
        painter,
      )}\n`,
    );
    throw new CliError('the catalog has errors (see above); nothing was written.', 1);
  }
  const output = options.output ?? 'ai-catalog.json';
  await writeText(io, output, text, { force: options.force ?? false });
  const lines = [
    `${painter.paint('green', '✔')} Wrote ${visible(output)}: an AI Catalog of ${entries.length} agent${entries.length === 1 ? '' : 's'}.`,
  ];
  if (served.length > 0) {
    lines.push(
      'The middleware serves the same entries at /.well-known/ai-catalog.json with:',
      `  agents: [${served.map(visible).join(', ')}],`,
      `  catalog: {${[previous ? ` draft: '${draft}'` : '', publisher ? ` publisher: '${visible(publisher)}'` : '', hostName ? ` host: { displayName: ${JSON.stringify(visible(hostName))} }` : '', base ? ` baseUrl: '${visible(base)}'` : ''].filter(Boolean).join(',')} },`,
    );
  }
  lines.push(`Next: ${selfCommand(io)} validate ${visible(output)}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
