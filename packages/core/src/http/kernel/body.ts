// A request body, for the few routes that take one (the ARD registry's `POST /search`). The
// bridges read it, bounded in bytes and time, only when a route asks; core decides what it means.

/** The bounds a body is read within. */
export interface RequestBodyLimits {
  /** Most bytes read; a longer body is `too-large`, and reading stops there. */
  readonly maxBytes: number;
  /** Most milliseconds spent reading; a body still arriving then is `timeout`. */
  readonly timeoutMs: number;
}

/**
 * What a bridge read: the bytes (or text) as sent, or the value a framework's own body parser
 * already made of them (Express `express.json()`, Koa's body parser), or why there is none.
 * `closeConnection` says the rest of a refused body was left unread on an HTTP/1 connection, so
 * the answer should close it.
 */
export type RequestBodyRead =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array | string }
  | { readonly kind: 'parsed'; readonly value: unknown }
  | { readonly kind: 'too-large'; readonly closeConnection?: boolean }
  | { readonly kind: 'timeout'; readonly closeConnection?: boolean }
  /** The body was taken before the route asked (another middleware read the stream). */
  | { readonly kind: 'unavailable' };

/** Reads the body of the request it was made for; set by the bridges on a request that may carry one. */
export type RequestBodyReader = (limits: RequestBodyLimits) => Promise<RequestBodyRead>;
