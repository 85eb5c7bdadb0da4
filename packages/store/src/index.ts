// The main entry: the files driver, which needs nothing but Node. Redis and PostgreSQL are at
// `@agent-card/store/redis` and `@agent-card/store/postgres`, so that neither client is loaded
// (or needs installing) by an app that does not use it.
export { FILES_STATE_DIR, type FilesStoreOptions, filesStore } from './files';
