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
 * GETs `url` with {@link publicOnlyFetch}; `undefined` on a runtime without `node:https`,
 * `node:dns` and `node:stream`, where the caller falls back to its own `fetch`.
 */
export function publicOnlyGet(url: URL, signal: AbortSignal): Promise<FetchedBody> | undefined {
  const missing =
    nodeBuiltin('node:https') === undefined ||
    nodeBuiltin('node:dns') === undefined ||
    nodeBuiltin('node:stream') === undefined;
  if (missing) return undefined;
  return publicOnlyFetch(url, { signal, headers: { accept: '*/*' } });
}

/** What {@link publicOnlyFetch} reads of `fetch`'s `init`. */
export interface PublicOnlyInit {
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Statuses whose `Response` has no body. */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * A `fetch` for a URL a remote document named: the request goes over a connection of its own
 * (no pooled socket, `http:` or `https:`) whose addresses are resolved and checked by
 * {@link publicOnlyLookup}, so the address checked is the address connected to. No redirect is
 * followed (the 3xx is the answer, as with `redirect: 'manual'`). Rejects with code
 * `ERR_AGENT_CARD_NON_PUBLIC_TARGET` when the name resolves to a loopback, private, link-local or
 * reserved address, and on a runtime without `node:http`, `node:https`, `node:dns` and
 * `node:stream`. An address literal connects without a lookup: check it first with
 * `nonPublicTarget`.
 */
export function publicOnlyFetch(input: string | URL, init: PublicOnlyInit = {}): Promise<Response> {
  const url = new URL(String(input));
  const client = nodeBuiltin(url.protocol === 'http:' ? 'node:http' : 'node:https');
  const dns = nodeBuiltin('node:dns');
  const stream = nodeBuiltin('node:stream');
  if (client === undefined || dns === undefined || stream === undefined)
    return Promise.reject(new Error('this runtime cannot connect only to checked addresses; pass options.fetch'));
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`not an http(s) URL (${url.protocol})`));
  const check = publicOnlyLookup(dns);
  let looked = false;
  const lookup: typeof check = (hostname, options, callback) => {
    looked = true;
    check(hostname, options, callback);
  };
  const literal = ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''));
  const method = (init.method ?? 'GET').toUpperCase();
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method, agent: false, lookup, headers: init.headers ?? {}, ...(init.signal ? { signal: init.signal } : {}) },
      (response) => {
        const status = response.statusCode ?? 0;
        if ((!looked && !literal) || status < 200 || status > 599) {
          response.destroy();
          reject(
            new Error(
              looked || literal
                ? `the server answered status ${status}`
                : 'the runtime connected without the address check; pass options.fetch to choose how',
            ),
          );
          return;
        }
        const headers = new Headers();
        const raw = response.rawHeaders;
        try {
          for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
        } catch (error) {
          response.destroy();
          reject(error);
          return;
        }
        const empty = method === 'HEAD' || NULL_BODY.has(status);
        if (empty) response.resume();
        const body = empty ? null : (stream.Readable.toWeb(response) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: response.statusMessage ?? '', headers }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
