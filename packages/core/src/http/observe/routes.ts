// The paths a responder serves, for a start-up line (Nest prints it next to its "Mapped" lines):
// the paths its options can make, each asked with OPTIONS (which reaches every route without
// authenticating or building a card), kept when answered, named by the kind its answer carries.
import { ARD_PATH } from '../../ard/format';
import { AI_CATALOG_PATH, MCP_CATALOG_PATH } from '../../catalog/format';
import { DEFAULT_JWKS_PATH } from '../../sign/signing-options';
import { isPromiseLike } from '../../util';
import type { AgentCardResponder } from '../kernel/responder';
import { type AgentCardServedKind, servedOf } from '../kernel/served';
import {
  AGENT_CARD_PATH,
  CATALOG_VIEWER_PATH,
  extendedPathsOf,
  LEGACY_AGENT_CARD_PATH,
  VIEWER_PATH,
} from '../kernel/paths';

/** One path a responder serves. */
export interface AgentCardRoute {
  readonly path: string;
  readonly kind: AgentCardServedKind;
}

type Options = Record<string, unknown>;

function pathOption(value: unknown, key: string, fallback: string): string {
  const set = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof set === 'string' ? set : fallback;
}

/** The paths one card's options can make, relative to where it is served. */
function cardPaths(o: Options, viewer: unknown): string[] {
  const paths = [AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, pathOption(o.sign, 'jwksPath', DEFAULT_JWKS_PATH)];
  paths.push(pathOption(viewer, 'path', VIEWER_PATH));
  return paths;
}

/** The REST extended-card paths a card declares, or that `extended.path` names. */
function extendedPaths(o: Options): string[] {
  const explicit = (o.extended as { path?: unknown } | undefined)?.path;
  if (Array.isArray(explicit)) return explicit.filter((p): p is string => typeof p === 'string');
  const interfaces = (o.card as { supportedInterfaces?: unknown } | undefined)?.supportedInterfaces;
  return Array.isArray(interfaces) && typeof o.card === 'object' ? extendedPathsOf(interfaces) : [];
}

/** Every path the options can make a responder serve. */
export function candidatePaths(o: Options): string[] {
  if (!Array.isArray(o.agents)) return [...cardPaths(o, o.viewer), ARD_PATH, ...extendedPaths(o)];
  const paths = [AI_CATALOG_PATH, MCP_CATALOG_PATH, ARD_PATH, pathOption(o.viewer, 'catalogPath', CATALOG_VIEWER_PATH)];
  for (const raw of o.agents as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const agent = raw as Options;
    const prefix = typeof agent.path === 'string' ? agent.path : '';
    const own = { ...agent, sign: agent.sign ?? o.sign };
    if (agent.id === o.default) paths.push(...cardPaths(own, o.viewer));
    for (const p of cardPaths(own, o.viewer)) paths.push(`${prefix}${p}`);
    paths.push(...extendedPaths(agent));
  }
  return paths;
}

/** The paths of `candidates` that `respond` answers, with the kind of each answer. */
export async function probeRoutes(
  respond: AgentCardResponder<unknown>['respond'],
  candidates: readonly string[],
): Promise<AgentCardRoute[]> {
  const routes: AgentCardRoute[] = [];
  for (const path of new Set(candidates)) {
    let answer = respond({ method: 'OPTIONS', path, headers: {} });
    if (isPromiseLike(answer)) answer = await answer.then(undefined, () => undefined);
    if (answer === undefined) continue;
    routes.push({ path, kind: servedOf(answer)?.kind ?? 'other' });
  }
  return routes;
}
