// Deno.serve on a free loopback port; the port is printed for the test.
import { app } from './card-app.mjs';

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on ${port}`) },
  (request, info) => app(request, { remoteAddress: info.remoteAddr.hostname }),
);
