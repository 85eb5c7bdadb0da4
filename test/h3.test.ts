// The h3 recipe of @agent-card/core's README (Nitro, Nuxt): core's fetch handler in an h3
// middleware, held to the shared HTTP behaviour table over a real socket, on h3 2 (fetch-native)
// and on h3 1 (Nitro 2 and Nuxt 3/4), with the app's own routes next to it.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createAgentCardFetchHandler } from '@agent-card/core';
import { listenOnLoopback, runAgentCardConformanceSuite } from '@agent-card/core/testing';
import { H3, toNodeHandler } from 'h3';
import { createApp, defineEventHandler, getRequestIP, getRequestURL, toNodeListener } from 'h3v1';

runAgentCardConformanceSuite({
  name: 'h3 2 (the README recipe)',
  start: async (options) => {
    // The recipe, as the README gives it.
    const cards = createAgentCardFetchHandler(options);
    const app = new H3();
    app.use(
      async (event, next) =>
        (await cards(event.req, { remoteAddress: event.req.ip, target: event.runtime?.node?.req.url })) ?? next(),
    );
    app.get('/api/ping', () => 'pong');
    app.get('/.well-known/other', () => 'other');
    return listenOnLoopback(createServer(toNodeHandler(app)));
  },
});

runAgentCardConformanceSuite({
  name: 'h3 1 (the README recipe for Nitro 2 and Nuxt)',
  start: async (options) => {
    const cards = createAgentCardFetchHandler(options);
    const app = createApp();
    app.use(
      defineEventHandler((event) =>
        // Not toWebRequest: its URL takes https from any client's X-Forwarded-Proto, which only
        // core may trust (dynamic.trustProxy). The body is handed over as a getter: only the
        // registry's search reads one.
        cards(
          new Request(getRequestURL(event, { xForwardedProto: false }), {
            method: event.method,
            headers: event.headers,
          }),
          {
            remoteAddress: getRequestIP(event),
            target: event.node.req.url,
            body: () => Readable.toWeb(event.node.req) as ReadableStream<Uint8Array>,
          },
        ),
      ),
    );
    app.use(
      '/api/ping',
      defineEventHandler(() => 'pong'),
    );
    app.use(
      '/.well-known/other',
      defineEventHandler(() => 'other'),
    );
    return listenOnLoopback(createServer(toNodeListener(app)));
  },
});
