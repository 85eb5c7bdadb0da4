// Where a verification may connect. A catalog, and the DID documents and artifacts it names, are
// written by whoever serves them: before any of it is fetched, the target is checked so that a
// catalog cannot turn its reader into a scanner of the reader's own network (loopback, private
// and link-local addresses, cloud metadata endpoints).
import ipaddr from 'ipaddr.js';
import { nodeBuiltin } from '../node-builtins';

/** The ranges ipaddr.js names that a verification reaches only when asked. */
const PUBLIC_RANGES = new Set(['unicast']);

/** Why the address `text` is not a public one, or `undefined` when it is. */
export function nonPublicAddress(text: string): string | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return undefined;
  let address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const range = address.range();
  return PUBLIC_RANGES.has(range) ? undefined : `${address.toString()} is a ${rangeName(range)} address`;
}

function rangeName(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    default:
      return `reserved (${range})`;
  }
}

type Dns = typeof import('node:dns');

/** An address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Every address `host` has, from DNS queries for its A and AAAA records (the servers of the
 * system's resolver configuration, or those `dns.setServers` names; `/etc/hosts` is not read).
 * Rejects with the resolver's error (`ENOTFOUND`, …) when there is none.
 */
async function resolveHost(dns: Dns, host: string): Promise<ResolvedAddress[]> {
  const [v4, v6] = await Promise.allSettled([dns.promises.resolve4(host), dns.promises.resolve6(host)]);
  const found: ResolvedAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  if (found.length > 0) return found;
  // ENODATA for one family says only that it has no records; the other family's error says more.
  const failed = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: unknown }] : []));
  throw failed.find((e) => e?.code !== 'ENODATA') ?? failed[0] ?? new Error(`${host} has no address`);
}

/** Why one of `addresses` is not public, or `undefined` when all are. */
function firstNonPublic(addresses: readonly ResolvedAddress[]): string | undefined {
  for (const { address } of addresses) {
    const problem = nonPublicAddress(address);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Why `url`'s host is not a public target, or `undefined` when it is: an address literal in a
 * loopback, private, link-local or reserved range, `localhost`, or a name that resolves to such
 * an address (looked up when the runtime has `node:dns`; a name that does not resolve is left
 * to the request, which fails the same way). This is the early answer; the connection itself is
 * held to the same rule by {@link publicOnlyLookup}, since a name may resolve differently a
 * moment later.
 */
export async function nonPublicTarget(url: URL): Promise<string | undefined> {
  const host = url.hostname.toLowerCase();
  const literal = nonPublicAddress(host);
  if (literal !== undefined) return `${url.host}: ${literal}`;
  if (ipaddr.isValid(host.replace(/^\[|\]$/g, ''))) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${url.host}: localhost is a loopback name`;
  const dns = nodeBuiltin('node:dns');
  if (dns === undefined) return undefined;
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolveHost(dns, host);
  } catch {
    return undefined;
  }
  const problem = firstNonPublic(addresses);
  return problem === undefined ? undefined : `${url.host} resolves to ${problem}`;
}

/** The `code` of the error a {@link publicOnlyLookup} connection fails with. */
export const NON_PUBLIC_TARGET = 'ERR_AGENT_CARD_NON_PUBLIC_TARGET';

/** Why a connection was refused by {@link publicOnlyLookup}, when `error` is that refusal. */
export function nonPublicRefusal(error: unknown): string | undefined {
  const { code, problem } = (error ?? {}) as { code?: unknown; problem?: unknown };
  return code === NON_PUBLIC_TARGET && typeof problem === 'string' ? problem : undefined;
}

/**
 * A `lookup` for a `node:net` connection that resolves the name once, fails the connection
 * (code {@link NON_PUBLIC_TARGET}) when any address is loopback, private, link-local or
 * reserved, and otherwise hands exactly the addresses it checked to the connection. The address
 * checked is the address connected to: no second resolution is left for a DNS server to answer
 * differently (DNS rebinding).
 */
export function publicOnlyLookup(dns: Dns): import('node:net').LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(dns, hostname).then(
      (addresses) => {
        const problem = firstNonPublic(addresses);
        if (problem !== undefined) {
          const refused = Object.assign(new Error(`${hostname} resolves to ${problem}`), {
            code: NON_PUBLIC_TARGET,
            problem,
          });
          callback(refused, []);
          return;
        }
        const family = Number(String(options.family ?? 0).replace(/^IPv/, ''));
        const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (options.all === true) callback(null, usable);
        else if (usable[0] === undefined)
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error, []),
    );
  };
}
