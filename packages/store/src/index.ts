// The main entry: the files driver, which needs nothing but Node, and `storeFromUrl`. Redis and
// PostgreSQL are at `@agent-card/store/redis` and `@agent-card/store/postgres` (and loaded by
// `storeFromUrl` only when a location names them), so that neither client is loaded, or needs
// installing, in an app that does not use it.
export { FILES_STATE_DIR, type FilesStoreOptions, filesStore } from './files';
export { storeFromUrl } from './from-url';
