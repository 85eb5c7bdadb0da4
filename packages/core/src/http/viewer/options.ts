// The `viewer` option: whether pages people can read are served next to the card, and where.
import { unknownOption } from '../../nearest';
import { showValue } from '../../util';
import { CATALOG_VIEWER_PATH, VIEWER_PATH } from '../kernel/paths';

/** The `viewer` option: `true` for the default paths, or where to serve the pages. */
export interface AgentCardViewerOptions {
  /**
   * The card's page. For a multi-agent host, each agent's page is at `{agent path}{path}` and the
   * default agent's at `path`.
   * @default '/.well-known/agent-card.html'
   */
  path?: string;
  /**
   * The host's page listing every agent of the AI Catalog (multi-agent hosts only).
   * @default '/.well-known/ai-catalog.html'
   */
  catalogPath?: string;
}

/** The `viewer` option after validation. */
export interface ResolvedViewerOptions {
  readonly path: string;
  readonly catalogPath: string;
}

/** A page path: `/`-separated non-empty segments of RFC 3986 path characters, no dot segments. */
const PAGE_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;
const VIEWER_KEYS = new Set(['path', 'catalogPath']);

/**
 * Checks the `viewer` option; problems are added to `problems` (`where: what (value). Fix.`).
 * `undefined` and `false` mean no viewer.
 */
export function resolveViewerOption(value: unknown, problems: string[]): ResolvedViewerOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { path: VIEWER_PATH, catalogPath: CATALOG_VIEWER_PATH };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(
      `options.viewer: must be true, false or { path } (${showValue(value)}). Use viewer: true to serve the page at ${VIEWER_PATH}.`,
    );
    return undefined;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!VIEWER_KEYS.has(key))
      problems.push(unknownOption(`options.viewer.${key}`, key, VIEWER_KEYS, 'the viewer option'));
  }
  const path = (key: 'path' | 'catalogPath', fallback: string): string => {
    const given = v[key];
    if (given === undefined) return fallback;
    if (typeof given === 'string' && PAGE_PATH.test(given)) return given;
    problems.push(
      `options.viewer.${key}: must be a path of non-empty segments starting with '/', without query, fragment, trailing slash or dot segment (${showValue(given)}). Use e.g. '${fallback}'.`,
    );
    return fallback;
  };
  const resolved = { path: path('path', VIEWER_PATH), catalogPath: path('catalogPath', CATALOG_VIEWER_PATH) };
  if (v.path !== undefined && v.catalogPath !== undefined && resolved.path === resolved.catalogPath)
    problems.push(
      `options.viewer.catalogPath: is the same as viewer.path (${showValue(resolved.path)}). Give the host's page its own path.`,
    );
  return resolved;
}
