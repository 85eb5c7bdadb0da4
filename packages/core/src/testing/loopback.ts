import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConformanceServer } from './server';

/**
 * Starts `server` on a free port of 127.0.0.1 and returns what the conformance suites take: its
 * base URL (plus `path`, for a host mounted under one) and a `close` that also ends kept-alive
 * connections, so a suite's `afterAll` never waits on them.
 * @example
 * start: async (options) => listenOnLoopback(createServer(app(options)))
 */
export async function listenOnLoopback(server: Server, path = ''): Promise<ConformanceServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
