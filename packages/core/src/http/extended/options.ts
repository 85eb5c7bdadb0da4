// The `extended` option: who may read the extended card, what it adds, and where REST serves it.
import { unknownOption } from '../../nearest';
import { isPositiveInt, type Report } from '../kernel/problems';
import type { ExtendedAgentCardOptions } from './types';

/** Extended-card options after validation. */
export interface ResolvedExtendedOptions<Req = unknown> {
  authenticate: ExtendedAgentCardOptions<Req>['authenticate'];
  card: ExtendedAgentCardOptions<Req>['card'];
  /** The REST paths (declared, trailing slash removed), `false`, or derived from the card. */
  path: readonly string[] | false | undefined;
  realm: string | undefined;
  maxVariants: number;
}

const EXTENDED_KEYS = new Set(['authenticate', 'card', 'path', 'realm', 'maxVariants']);

/**
 * Checks the `extended` option (`undefined` when it is not set). `dynamic` says whether the card
 * is a function, which must declare its REST paths.
 */
export function resolveExtended<Req>(
  value: unknown,
  dynamic: boolean,
  err: Report,
  problems: string[],
): ResolvedExtendedOptions<Req> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    err('extended', 'must be an object', value, 'Pass { authenticate, card }.');
    return undefined;
  }
  const e = value as ExtendedAgentCardOptions<Req> & Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (!EXTENDED_KEYS.has(key))
      problems.push(unknownOption(`options.extended.${key}`, key, EXTENDED_KEYS, 'ExtendedAgentCardOptions'));
  }
  if (typeof e.authenticate !== 'function') {
    err(
      'extended.authenticate',
      'is required and must be a function',
      e.authenticate,
      'Pass (request) => principal | undefined; the extended card MUST be authenticated (spec §13.3).',
    );
  }
  if (e.card !== undefined && (typeof e.card !== 'object' || e.card === null) && typeof e.card !== 'function') {
    err(
      'extended.card',
      'must be extra skills, a partial card, or a function of the principal',
      e.card,
      'Pass e.g. [{ id, name, description, tags }].',
    );
  }
  const path = resolveExtendedPaths(e.path, dynamic, err);
  if (e.realm !== undefined && (typeof e.realm !== 'string' || e.realm.length === 0)) {
    err('extended.realm', 'must be a non-empty string', e.realm, "Use e.g. 'my-agent'.");
  }
  if (e.maxVariants !== undefined && !isPositiveInt(e.maxVariants)) {
    err('extended.maxVariants', 'must be a positive integer', e.maxVariants, 'Use e.g. 100.');
  }
  return {
    authenticate: e.authenticate,
    card: e.card,
    path,
    realm: e.realm as string | undefined,
    maxVariants: (e.maxVariants as number | undefined) ?? 100,
  };
}

/**
 * `extended.path`: a path or a list of paths starting with `/` (no query; one trailing slash is
 * dropped), or `false`. A card function must declare its paths: only a declared path may build a
 * variant, or any `…/extendedAgentCard` of the app would cost a call to `card`.
 */
function resolveExtendedPaths(value: unknown, dynamic: boolean, err: Report): readonly string[] | false | undefined {
  if (value === false) return false;
  if (value === undefined) {
    if (dynamic)
      err(
        'extended.path',
        'is required with a card function, the REST path of a variant is not known before it is built',
        'not set',
        "Set it to the path of your HTTP+JSON interface plus /extendedAgentCard, e.g. '/a2a/extendedAgentCard' (a list for several), or false to answer only through getExtendedAgentCard().",
      );
    return undefined;
  }
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : [value];
  const bad = list.filter((p) => typeof p !== 'string' || !p.startsWith('/') || p.includes('?'));
  if (bad.length > 0 || list.length === 0) {
    err(
      'extended.path',
      'must be a path starting with / (no query), a list of them, or false',
      list.length === 0 ? value : bad.length === 1 ? bad[0] : bad,
      "Use e.g. '/a2a/extendedAgentCard'.",
    );
    return undefined;
  }
  return [...new Set((list as string[]).map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p)))];
}
