import type { AgentCardOptions } from '../http/types';

/** A running app under test. */
export interface ConformanceServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the framework's app with the card middleware built from `options`, plus two ordinary
 * routes: `GET /api/ping` → 200 `pong` and `GET /.well-known/other` → 200 `other`.
 */
export type StartConformanceServer = (options: AgentCardOptions<any>) => Promise<ConformanceServer>;

/** Settings of `runAgentCardConformanceSuite`. */
export interface AgentCardConformanceOptions {
  /** Shown in the test names, e.g. `express 4`. */
  name: string;
  /** Starts the app for one set of options (called once per configuration, lazily). */
  start: StartConformanceServer;
}
