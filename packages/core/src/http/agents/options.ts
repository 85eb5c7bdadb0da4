// The `agents` option: each agent's entry checked, its options merged with the top-level ones,
// and the checks that span agents (one extended path, one interface URL per agent).
import type { AgentCard } from '../../model';
import { showValue } from '../../util';
import { agentLogger } from '../kernel/log';
import { DYNAMIC_KEYS, DYNAMIC_ONLY } from '../kernel/options';
import { extendedPathsOf, VIEWER_PATH, WELL_KNOWN_PREFIX } from '../kernel/paths';
import type { Agent } from '../host/agent';
import type { AgentCardOptions, AgentOptions } from '../types';

/** An entry of `agents` that passed its own checks, ready to be built. */
export interface AgentEntry<Req> {
  readonly options: AgentOptions<Req>;
  readonly id: string;
  readonly name: string;
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** RFC 3986 path characters, no empty, `.` or `..` segment, no percent-encoding surprises. */
const AGENT_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;
const MULTI_KEYS = ['agents', 'default', 'catalog', 'ard', 'viewer'] as const;

/** The `dynamic` an agent runs with: the top-level members it may inherit, then its own. */
function agentDynamic(top: unknown, own: unknown, isFunction: boolean): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  // A value that is not an object is the agent's resolver's to report.
  if (!isObject(top)) return own ?? top;
  if (own !== undefined && !isObject(own)) return own;
  const inherited: Record<string, unknown> = { ...top };
  if (!isFunction) for (const key of DYNAMIC_ONLY) delete inherited[key];
  return { ...inherited, ...own };
}

/** Merges the top-level options into one agent's (the agent's own win). */
export function agentOptions<Req>(
  top: AgentCardOptions<Req>,
  agent: AgentOptions<Req>,
  id: string,
): AgentCardOptions<Req> {
  const {
    id: _id,
    path: _path,
    catalogEntry: _entry,
    viewer: _viewer,
    ...own
  } = agent as AgentOptions<Req> & {
    viewer?: unknown;
  };
  const shared: Record<string, unknown> = { ...top };
  for (const key of MULTI_KEYS) delete shared[key];
  // An extended card is per agent: a top-level one would hand one agent's extras to the others.
  delete shared.extended;
  // The old top-level spelling is reported once, for the whole host.
  for (const key of DYNAMIC_KEYS) delete shared[key];
  const merged = { ...shared, ...own } as AgentCardOptions<Req>;
  const dynamic = agentDynamic(top.dynamic, agent.dynamic, typeof agent.card === 'function');
  if (dynamic === undefined) delete merged.dynamic;
  else merged.dynamic = dynamic as AgentCardOptions<Req>['dynamic'];
  // Warnings name the agent they are about.
  merged.logger = agentLogger(merged.logger ?? console, id);
  return merged;
}

/** Ids and paths of the entries checked so far. */
export interface TakenNames {
  readonly ids: Map<string, number>;
  readonly paths: Map<string, string>;
}

/**
 * Checks entry `i` of `agents` on its own (an object, its id, its path, its card, its catalog
 * entry, no viewer of its own) and against the entries before it (id and path taken); returns
 * it when it may be built.
 */
export function checkAgentEntry<Req>(
  raw: unknown,
  i: number,
  taken: TakenNames,
  problems: string[],
): AgentEntry<Req> | undefined {
  const { ids, paths } = taken;
  const at = `options.agents[${i}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${at}: must be an object (${showValue(raw)}). Use { id, path, card }.`);
    return undefined;
  }
  const a = raw as AgentOptions<Req>;
  const id = typeof a.id === 'string' && AGENT_ID.test(a.id) ? a.id : undefined;
  if (id === undefined) {
    problems.push(`${at}.id: must be 1-64 letters, digits, '.', '_' or '-' (${showValue(a.id)}). Use e.g. 'billing'.`);
    return undefined;
  }
  const name = `${at} (agent "${id}")`;
  if ((a as { viewer?: unknown }).viewer !== undefined)
    problems.push(
      `${name}.viewer: is set for the whole host, not per agent (${showValue((a as { viewer?: unknown }).viewer)}). Move viewer to the top-level options; every agent then has its page at {path}${VIEWER_PATH}.`,
    );
  const firstWithId = ids.get(id);
  if (firstWithId !== undefined) {
    problems.push(`${name}.id: repeats options.agents[${firstWithId}] (${showValue(id)}). Give each agent its own id.`);
    return undefined;
  }
  ids.set(id, i);
  if (typeof a.path !== 'string' || !AGENT_PATH.test(a.path) || a.path.includes(WELL_KNOWN_PREFIX.slice(0, -1))) {
    problems.push(
      `${name}.path: must start with '/', have no trailing slash, query, empty or dot segment, and no /.well-known (${showValue(a.path)}). Use e.g. '/agents/${id}'.`,
    );
    return undefined;
  }
  const samePath = paths.get(a.path);
  if (samePath !== undefined) {
    problems.push(
      `${name}.path: is also the path of agent "${samePath}" (${showValue(a.path)}). Give each agent its own path.`,
    );
    return undefined;
  }
  paths.set(a.path, id);
  if (a.card === undefined || a.card === null) {
    problems.push(`${name}.card: is required (${showValue(a.card)}). Pass the agent's card, or (ctx) => card.`);
    return undefined;
  }
  if (
    a.catalogEntry !== undefined &&
    a.catalogEntry !== false &&
    (typeof a.catalogEntry !== 'object' || a.catalogEntry === null)
  )
    problems.push(
      `${name}.catalogEntry: must be an object of entry members or false (${showValue(a.catalogEntry)}). Use e.g. { displayName: 'Billing' }.`,
    );
  return { options: a, id, name };
}

/** The REST extended-card paths a static card answers (mirrors `createExtendedEndpoint`). */
export function staticExtendedPaths(
  card: AgentCard,
  extended: { path?: string | readonly string[] | false } | undefined,
): string[] {
  const declared = card.capabilities?.extendedAgentCard === true;
  const explicit = extended?.path;
  if ((!declared && extended === undefined) || explicit === false) return [];
  if (explicit !== undefined) {
    const list: readonly string[] = typeof explicit === 'string' ? [explicit] : explicit;
    return list.map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p));
  }
  return extendedPathsOf(Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []);
}

/** Two agents with one extended card path or one interface URL: the first one keeps it. */
export function checkCollisions<Req>(agents: readonly Agent<Req>[], problems: string[]): void {
  const extendedOwners = new Map<string, string>();
  const interfaceOwners = new Map<string, string>();
  for (const { id, name, card, extendedPaths } of agents) {
    for (const p of extendedPaths) {
      const owner = extendedOwners.get(p);
      if (owner !== undefined)
        problems.push(
          `${name}.extended: its extended card path is also agent "${owner}"'s (${showValue(p)}). Give the agents distinct HTTP+JSON interface URLs, or set extended.path.`,
        );
      else extendedOwners.set(p, id);
    }
    for (const intf of card?.supportedInterfaces ?? []) {
      const owner = interfaceOwners.get(intf.url);
      if (owner !== undefined && owner !== id)
        problems.push(
          `${name}.card.supportedInterfaces: its interface URL is also agent "${owner}"'s (${showValue(intf.url)}). Give each agent its own endpoint URL, e.g. under its path.`,
        );
      else interfaceOwners.set(intf.url, id);
    }
  }
}
