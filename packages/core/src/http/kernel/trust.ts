import proxyAddr from 'proxy-addr';

/**
 * Which proxies `trustProxy` trusts, in the forms Express' `trust proxy` setting takes:
 * `true` (the peer), a hop count, addresses / CIDR ranges / `loopback`, `linklocal`,
 * `uniquelocal` (a list or a comma-separated string), or `(address, hop) => boolean`.
 * @see https://expressjs.com/en/guide/behind-proxies.html
 */
export type TrustProxySetting =
  | boolean
  | number
  | string
  | readonly string[]
  | ((address: string, hop: number) => boolean);

/** A `trustProxy` setting after validation. */
export interface ProxyTrust {
  /**
   * Whether the hop at `address` is a trusted proxy; `hop` 0 is the peer of the connection, 1
   * the address the peer says connected to it, and so on.
   */
  trusts(address: string, hop: number): boolean;
  /** The most hops ever trusted (`true` is 1: the peer only). */
  readonly maxHops: number;
  /** Whether the number of `X-Forwarded-For` entries can change which element is read. */
  readonly readsForwardedFor: boolean;
}

const EVERY_ADDRESS = () => true;

/**
 * Turns a `trustProxy` setting into a {@link ProxyTrust}, or `undefined` when nothing is
 * trusted. Problems (an invalid address, a negative count…) are returned, one line each, for the
 * caller's start-up error.
 */
export function resolveTrustProxy(value: unknown): { trust: ProxyTrust | undefined; problems: string[] } {
  if (value === undefined || value === false || value === 0) return { trust: undefined, problems: [] };
  // Express' `true` trusts every hop; for the origin that would let a client choose it whenever
  // a proxy appends to X-Forwarded-Host or Forwarded instead of overwriting, so `true` is the peer.
  if (value === true) return { trust: { trusts: EVERY_ADDRESS, maxHops: 1, readsForwardedFor: false }, problems: [] };
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0)
      return { trust: undefined, problems: ['must be a whole number of hops'] };
    return { trust: { trusts: (_a, hop) => hop < value, maxHops: value, readsForwardedFor: value > 1 }, problems: [] };
  }
  if (typeof value === 'function') {
    const fn = value as (address: string, hop: number) => unknown;
    const trusts = (address: string, hop: number) => {
      try {
        return fn(address, hop) === true;
      } catch {
        // A throwing predicate trusts nothing: the request falls back to Host.
        return false;
      }
    };
    return { trust: { trusts, maxHops: Infinity, readsForwardedFor: true }, problems: [] };
  }
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (list === undefined)
    return {
      trust: undefined,
      problems: ['must be true, a hop count, proxy addresses / CIDR ranges, or a function (address, hop) => boolean'],
    };
  const entries: string[] = [];
  const problems: string[] = [];
  for (const entry of list) {
    const text = typeof entry === 'string' ? entry.trim() : entry;
    try {
      if (typeof text !== 'string' || text === '') throw new TypeError('not an address');
      proxyAddr.compile(text);
      entries.push(text);
    } catch {
      problems.push(`${JSON.stringify(text)} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
  }
  if (entries.length === 0 && problems.length === 0) problems.push('an empty list trusts nobody');
  if (problems.length > 0) return { trust: undefined, problems };
  return { trust: { trusts: proxyAddr.compile(entries), maxHops: Infinity, readsForwardedFor: true }, problems };
}
