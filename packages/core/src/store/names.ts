// The names a store keeps records under. A tenant name comes from a request (a host name label or
// a path segment), so it is checked here before it reaches a cache, a log line or a driver: a
// name that passes is never a key pattern, a glob, a path or SQL.

/** A tenant: a DNS label (lower-case letters, digits, `-` inside), 1 to 63 characters. */
const TENANT = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** An agent: letters, digits, `.`, `_`, `-`, 1 to 64 characters, first a letter or digit. */
const AGENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Longest tenant name. */
export const MAX_TENANT_LENGTH = 63;

/** Whether `value` may name a tenant (checked before any cache or store sees it). */
export function isTenantName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TENANT_LENGTH && TENANT.test(value);
}

/** Whether `value` may name an agent of a tenant. */
export function isAgentName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && AGENT.test(value);
}

/** What is wrong with a tenant or agent name, for an error message; `undefined` when it is good. */
export function storeNameProblem(kind: 'tenant' | 'agent', value: unknown): string | undefined {
  if (kind === 'tenant' ? isTenantName(value) : isAgentName(value)) return undefined;
  const shown =
    typeof value === 'string'
      ? // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this masks.
        JSON.stringify(value.length > 64 ? `${value.slice(0, 63)}…` : value).replace(/[\u0000-\u001f\u007f]/g, '?')
      : typeof value;
  return kind === 'tenant'
    ? `tenant: must be 1-63 lower-case letters, digits or '-', not starting or ending with '-' (${shown}). Use e.g. 'acme'.`
    : `agent: must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit (${shown}). Use e.g. 'billing'.`;
}
