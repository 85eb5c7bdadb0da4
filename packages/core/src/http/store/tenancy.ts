// How a request names its tenant (`tenant` option), and which URLs a tenant's cards may claim.
import { isTenantName } from '../../store/names';
import { showValue } from '../../util';
import type { AgentCardRequest } from '../kernel/exchange';
import type { Report } from '../kernel/problems';

/**
 * The `tenant` option of a store-backed host: where a request's tenant comes from.
 *
 * - `{ from: 'host', hosts: ['{tenant}.agents.example.com'] }`: the `Host` header, matched against
 *   each pattern (one `{tenant}` each; the port is ignored). A host that matches no pattern is not
 *   the middleware's: the request goes on to the app. Forwarded headers are not read.
 * - `{ from: 'path', prefix: '/t' }`: the first path segment after `prefix`
 *   (`/t/acme/.well-known/agent-card.json` is tenant `acme`'s `/.well-known/agent-card.json`).
 * - `{ from: (request) => string | undefined, vary: ['X-Tenant'] }`: your function (e.g. reading
 *   a header). `vary` names the request headers it reads: they are sent in `Vary` on every answer,
 *   and a `public` `cacheControl` without them is a start-up error, since a shared cache would
 *   hand one tenant's card to another.
 *
 * A tenant name is 1-63 lower-case letters, digits and `-` (a DNS label); any other name gets a
 * fixed 400 and never reaches the cache or the store.
 *
 * `owns(tenant, url)` replaces the rule for the URLs a tenant's cards may claim (every
 * `supportedInterfaces[].url`): by default, with `host`, a URL on one of the tenant's host names;
 * with `path`, a URL whose path is under `{prefix}/{tenant}`; with a function, any URL.
 */
export type AgentCardTenantOption<Req = unknown> =
  | { readonly from: 'host'; readonly hosts: readonly string[]; readonly owns?: TenantOwns }
  | { readonly from: 'path'; readonly prefix: string; readonly owns?: TenantOwns }
  | {
      readonly from: (request: AgentCardRequest<Req>) => string | undefined;
      readonly vary: readonly string[];
      readonly owns?: TenantOwns;
    };

/** Whether a card of `tenant` may declare an interface at `url`. */
export type TenantOwns = (tenant: string, url: URL) => boolean;

/** Where a request's tenant was found: its name as sent (unchecked) and the path inside the tenant. */
export interface Tenancy<Req> {
  readonly kind: 'host' | 'path' | 'function';
  /**
   * The tenant name the request gives (not yet checked), or `undefined` when the request is not
   * for a tenant of this host (the app's own). For `path`, `rest` is the path inside the tenant.
   */
  tenantOf(request: AgentCardRequest<Req>): string | undefined;
  /** The path inside the tenant (the request's path, or what follows `{prefix}/{tenant}`). */
  restOf(request: AgentCardRequest<Req>, tenant: string): string;
  /** The path a tenant's documents are under on its host: `{prefix}/{tenant}`, or `''`. */
  base(tenant: string): string;
  /** The request headers the tenant comes from, for `Vary` (a function's `vary`). */
  readonly vary: readonly string[];
  /** Problems of the card URLs of `tenant` (empty when it may claim every one). */
  claims(tenant: string, urls: readonly string[]): string[];
}

const HOST_PATTERN = /^(?:[a-z0-9-]+\.)*\{tenant\}(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;
const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks the `tenant` option; problems go to `err`. */
export function resolveTenancy<Req>(value: unknown, err: Report): Tenancy<Req> | undefined {
  if (typeof value !== 'object' || value === null) {
    err(
      'tenant',
      'is required with store and must be an object',
      value,
      "Use { from: 'host', hosts: ['{tenant}.agents.example.com'] }, { from: 'path', prefix: '/t' } or { from: (request) => tenant, vary: ['X-Tenant'] }.",
    );
    return undefined;
  }
  const t = value as Record<string, unknown>;
  const owns = t.owns as TenantOwns | undefined;
  if (owns !== undefined && typeof owns !== 'function') {
    err('tenant.owns', 'must be a function (tenant, url) => boolean', owns, 'Pass a function or leave it out.');
    return undefined;
  }
  if (t.from === 'host') return hostTenancy(t.hosts, owns, err);
  if (t.from === 'path') return pathTenancy(t.prefix, owns, err);
  if (typeof t.from === 'function')
    return functionTenancy(t.from as (r: AgentCardRequest<Req>) => unknown, t.vary, owns, err);
  err(
    'tenant.from',
    "must be 'host', 'path' or a function",
    t.from,
    "Use { from: 'host', hosts: ['{tenant}.example.com'] }.",
  );
  return undefined;
}

function checkedOwns(owns: TenantOwns | undefined, rule: TenantOwns, what: string) {
  const test = owns ?? rule;
  return (tenant: string, urls: readonly string[]): string[] => {
    const problems: string[] = [];
    for (const raw of urls) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        continue; // The card's own validation reports a URL that does not parse.
      }
      if (!test(tenant, url))
        problems.push(
          `the interface URL ${showValue(raw)} is not tenant "${tenant}"'s: ${owns === undefined ? what : 'tenant.owns refused it'}.`,
        );
    }
    return problems;
  };
}

function hostTenancy<Req>(hosts: unknown, owns: TenantOwns | undefined, err: Report): Tenancy<Req> | undefined {
  if (
    !Array.isArray(hosts) ||
    hosts.length === 0 ||
    !hosts.every((h) => typeof h === 'string' && HOST_PATTERN.test(h))
  ) {
    err(
      'tenant.hosts',
      "must be a non-empty list of lower-case host names, each with '{tenant}' once as a whole label",
      hosts,
      "Use e.g. ['{tenant}.agents.example.com'].",
    );
    return undefined;
  }
  const patterns = (hosts as string[]).map((h) => {
    const name = h.replace(/:\d+$/, '');
    const at = name.indexOf('{tenant}');
    return { prefix: name.slice(0, at), suffix: name.slice(at + '{tenant}'.length) };
  });
  const hostOf = (tenant: string) => patterns.map((p) => `${p.prefix}${tenant}${p.suffix}`);
  return {
    kind: 'host',
    vary: [],
    tenantOf(request) {
      let host = request.headers.host;
      if (typeof host !== 'string') return undefined;
      const colon = host.lastIndexOf(':');
      if (colon !== -1 && host.indexOf(']') === -1) host = host.slice(0, colon);
      host = host.toLowerCase();
      for (const p of patterns)
        if (host.length > p.prefix.length + p.suffix.length && host.startsWith(p.prefix) && host.endsWith(p.suffix))
          return host.slice(p.prefix.length, host.length - p.suffix.length);
      return undefined;
    },
    restOf: (request) => request.path,
    base: () => '',
    claims: checkedOwns(
      owns,
      (tenant, url) => hostOf(tenant).includes(url.hostname),
      `with tenant.from 'host', a card's interfaces must be on the tenant's host (${hostOf('{tenant}').join(' or ')})`,
    ),
  };
}

function pathTenancy<Req>(prefix: unknown, owns: TenantOwns | undefined, err: Report): Tenancy<Req> | undefined {
  if (typeof prefix !== 'string' || !PREFIX.test(prefix) || prefix.includes('/.well-known')) {
    err(
      'tenant.prefix',
      "must be '' or a path starting with '/' with no trailing slash, query or dot segment",
      prefix,
      "Use e.g. '/t' (tenant acme at /t/acme/.well-known/agent-card.json).",
    );
    return undefined;
  }
  const start = `${prefix}/`;
  return {
    kind: 'path',
    vary: [],
    tenantOf(request) {
      const path = request.path;
      if (!path.startsWith(start)) return undefined;
      let end = path.indexOf('/', start.length);
      if (end === -1) {
        end = path.indexOf('?', start.length);
        if (end === -1) end = path.length;
      }
      return path.slice(start.length, end);
    },
    restOf(request, tenant) {
      const rest = request.path.slice(start.length + tenant.length);
      return rest === '' || rest[0] === '?' ? `/${rest}` : rest;
    },
    base: (tenant) => `${prefix}/${tenant}`,
    claims: checkedOwns(
      owns,
      (tenant, url) => url.pathname === `${start}${tenant}` || url.pathname.startsWith(`${start}${tenant}/`),
      `with tenant.from 'path', a card's interfaces must be under ${start}{tenant}/`,
    ),
  };
}

function functionTenancy<Req>(
  from: (request: AgentCardRequest<Req>) => unknown,
  vary: unknown,
  owns: TenantOwns | undefined,
  err: Report,
): Tenancy<Req> | undefined {
  if (!Array.isArray(vary) || !vary.every((h) => typeof h === 'string' && HEADER_NAME.test(h))) {
    err(
      'tenant.vary',
      'must list the request headers the tenant function reads',
      vary,
      "Use e.g. vary: ['X-Tenant'] (an empty list only when it reads no header).",
    );
    return undefined;
  }
  return {
    kind: 'function',
    vary: vary as string[],
    tenantOf(request) {
      const tenant = from(request);
      return typeof tenant === 'string' ? tenant : undefined;
    },
    restOf: (request) => request.path,
    base: () => '',
    claims: checkedOwns(owns, () => true, ''),
  };
}

/** Whether a tenant name from a request may be looked up (see {@link isTenantName}). */
export const acceptsTenant = isTenantName;
