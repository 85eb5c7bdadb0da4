// The registry's search bounds: the store's options resolve them, the ARD room's search reads them.

/** Bounds of `POST /search`. */
export interface SearchSettings {
  /** Largest request body read, in bytes; a larger one is a 413. */
  readonly maxBodyBytes: number;
  /** Most milliseconds spent reading a request body; a slower one is a 408. */
  readonly timeoutMs: number;
}

/** `store.registry`'s defaults for search. */
export const SEARCH_DEFAULTS: SearchSettings = { maxBodyBytes: 8192, timeoutMs: 5000 };
