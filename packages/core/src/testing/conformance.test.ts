import { createServer } from 'node:http';
import { createAgentCardFetchHandler } from '../bridges/fetch';
import { createAgentCardResponder } from '../http/responder';
import { runAgentCardConformanceSuite } from './conformance';
import { listenOnLoopback } from './loopback';
import type { AgentCardConformanceOptions } from './server';

/** The app routes every conformance host serves besides the card. */
const APP_ROUTES: Record<string, string> = { '/api/ping': 'pong', '/.well-known/other': 'other' };

// The reference hosts: plain node:http around respond(), and a web-standard server around the
// fetch handler. The framework adapters run the same suite in their own packages.
const hosts: AgentCardConformanceOptions[] = [
  {
    name: 'node:http',
    async start(options) {
      const responder = createAgentCardResponder(options);
      const server = createServer(async (req, res) => {
        const out = await responder.respond({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          raw: req,
          encrypted: false,
          remoteAddress: req.socket.remoteAddress,
        });
        if (out) {
          res.writeHead(out.status, out.headers);
          res.end(out.body);
          return;
        }
        const route = APP_ROUTES[req.url ?? '/'];
        res.statusCode = route === undefined ? 404 : 200;
        res.end(route ?? 'not found');
      });
      return listenOnLoopback(server);
    },
  },
  {
    name: 'fetch handler',
    async start(options) {
      const handle = createAgentCardFetchHandler(options);
      const server = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body:
            req.method === 'GET' || req.method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks),
        });
        const route = APP_ROUTES[req.url ?? '/'];
        const response =
          (await handle(request, { remoteAddress: req.socket.remoteAddress })) ??
          (route === undefined ? new Response('not found', { status: 404 }) : new Response(route));
        const headers: Record<string, string> = {};
        response.headers.forEach((v, k) => (headers[k] = v));
        res.writeHead(response.status, headers);
        res.end(Buffer.from(await response.arrayBuffer()));
      });
      return listenOnLoopback(server);
    },
  },
];

for (const host of hosts) runAgentCardConformanceSuite(host);
