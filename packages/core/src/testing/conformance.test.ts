import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createAgentCardFetchHandler } from '../bridges/fetch';
import { createAgentCardResponder } from '../http/responder';
import { runAgentCardConformanceSuite } from './conformance';

// The reference hosts: plain node:http around respond(), and a web-standard server around the
// fetch handler. The framework adapters run the same suite in their own packages.
runAgentCardConformanceSuite({
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
      } else if (req.url === '/api/ping') res.end('pong');
      else if (req.url === '/.well-known/other') res.end('other');
      else {
        res.statusCode = 404;
        res.end('not found');
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  },
});

runAgentCardConformanceSuite({
  name: 'fetch handler',
  async start(options) {
    const handle = createAgentCardFetchHandler(options);
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === 'GET' || req.method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks),
      });
      const out = await handle(request, { remoteAddress: req.socket.remoteAddress });
      const path = req.url ?? '/';
      const response =
        out ??
        (path === '/api/ping'
          ? new Response('pong')
          : path === '/.well-known/other'
            ? new Response('other')
            : new Response('not found', { status: 404 }));
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  },
});
