// A GET whose connection goes only where the check allowed. `fetch` resolves the name again when
// it connects, so a check made before it can be answered one way and the connection another
// (DNS rebinding); a request of its own, with the lookup that checks, closes that gap.
import ipaddr from 'ipaddr.js';
import { nodeBuiltin } from '../node-builtins';
import { publicOnlyLookup } from './fetch-target';

/** What a verification reads of a response: `fetch`'s `Response` has it too. */
export interface FetchedBody {
  status: number;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * GETs `url` (https) over a connection of its own (no pooled socket) whose addresses are
 * resolved and checked by {@link publicOnlyLookup}, following no redirect; `undefined` on a
 * runtime without `node:https`, `node:dns` and `node:stream`.
 */
export function publicOnlyGet(url: URL, signal: AbortSignal): Promise<FetchedBody> | undefined {
  const https = nodeBuiltin('node:https');
  const dns = nodeBuiltin('node:dns');
  const stream = nodeBuiltin('node:stream');
  if (https === undefined || dns === undefined || stream === undefined) return undefined;
  const check = publicOnlyLookup(dns);
  let looked = false;
  const lookup: typeof check = (hostname, options, callback) => {
    looked = true;
    check(hostname, options, callback);
  };
  // An address literal has no lookup to make (and was checked before the request).
  const literal = ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''));
  return new Promise((resolve, reject) => {
    const request = https.get(url, { agent: false, lookup, signal, headers: { accept: '*/*' } }, (response) => {
      // A runtime whose node:https ignores `lookup` has connected to an address nobody checked.
      if (!looked && !literal) {
        response.destroy();
        reject(new Error('the runtime connected without the address check; pass options.fetch to choose how'));
        return;
      }
      resolve({
        status: response.statusCode ?? 0,
        body: stream.Readable.toWeb(response) as unknown as ReadableStream<Uint8Array>,
      });
    });
    request.on('error', reject);
  });
}
