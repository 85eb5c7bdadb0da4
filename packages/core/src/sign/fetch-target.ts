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

/**
 * Why `url`'s host is not a public target, or `undefined` when it is: an address literal in a
 * loopback, private, link-local or reserved range, `localhost`, or a name that resolves to such
 * an address (looked up when the runtime has `node:dns`; a name that does not resolve is left
 * to the request, which fails the same way).
 */
export async function nonPublicTarget(url: URL): Promise<string | undefined> {
  const host = url.hostname.toLowerCase();
  const literal = nonPublicAddress(host);
  if (literal !== undefined) return `${url.host}: ${literal}`;
  if (ipaddr.isValid(host.replace(/^\[|\]$/g, ''))) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${url.host}: localhost is a loopback name`;
  const dns = nodeBuiltin('node:dns');
  if (dns === undefined) return undefined;
  let addresses: { address: string }[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const problem = nonPublicAddress(address);
    if (problem !== undefined) return `${url.host} resolves to ${problem}`;
  }
  return undefined;
}
