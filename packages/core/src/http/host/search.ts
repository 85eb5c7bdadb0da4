// The registry's search bounds: the store's options resolve them, the ARD room's search reads them;
// and the count of its word indexes, which the ARD room adds to and the store's tests read.

/** Bounds of `POST /search`. */
export interface SearchSettings {
  /** Largest request body read, in bytes; a larger one is a 413. */
  readonly maxBodyBytes: number;
  /** Most milliseconds spent reading a request body; a slower one is a 408. */
  readonly timeoutMs: number;
}

/** `store.registry`'s defaults for search. */
export const SEARCH_DEFAULTS: SearchSettings = { maxBodyBytes: 8192, timeoutMs: 5000 };

let indexBuilds = 0;

/** How many word indexes this process has built: a host that is never searched builds none. */
export function searchIndexBuilds(): number {
  return indexBuilds;
}

/** Counts one word index built for `POST /search` (the ARD room's search, at a listing's first search). */
export function countSearchIndexBuild(): void {
  indexBuilds++;
}
