// Bun.serve on a free loopback port; the port is printed for the test.
import { app } from './card-app.mjs';

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request, server) => app(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log(`listening on ${server.port}`);
