import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { toAgentCardRequest } from '../bridges/node';
import { createAgentCardFetchHandler } from '../bridges/fetch';
import { agentCardStore } from '../http/observe/status';
import { createAgentCardResponder } from '../http/responder';
import type { AgentCardOptions } from '../http/types';
import type { AgentCard } from '../model';
import { memoryStore } from '../store/memory';
import { runAgentCardConformanceSuite } from './conformance';
import { aiCatalog } from './features/catalog';
import { fallThrough, publicCard } from './features/card';
import { cors } from './features/cors';
import { discoveryDocuments } from './features/discovery';
import { signedCard } from './features/jwks';
import { runConformanceFeatures } from './runner';
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
        const out = await responder.respond(toAgentCardRequest(req, req.url ?? '/'));
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
        // The body as a stream, as a web-standard server hands it over (a slow one stays slow).
        const bodied = req.method !== 'GET' && req.method !== 'HEAD';
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: bodied ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
          ...(bodied ? { duplex: 'half' } : {}),
        } as RequestInit);
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

/**
 * A store-backed host (memory driver) given the suite's options: the card (or each agent's card)
 * is written through the store for one tenant, found from the Host header, and served from there.
 * It runs the features whose fixtures are cards a store keeps (not card functions or extended
 * cards, which a store does not hold).
 */
const storeHost: AgentCardConformanceOptions = {
  name: 'store-backed host (memory)',
  async start(options) {
    const { card, agents, ...rest } = options as AgentCardOptions & { card?: AgentCard };
    const responder = createAgentCardResponder({
      ...rest,
      store: memoryStore(),
      tenant: { from: 'host', hosts: ['{tenant}.cards.test'], owns: () => true },
      default: options.default ?? 'main',
    });
    const store = agentCardStore(responder);
    if (card !== undefined) await store.put('conformance', 'main', card);
    for (const agent of agents ?? []) await store.put('conformance', agent.id, agent.card as AgentCard);
    const server = createServer(async (req, res) => {
      // What a load balancer in front of the tenants' host names would send.
      const out = await responder.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: { ...req.headers, host: 'conformance.cards.test' },
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
};
// Not here: legacyPath (a tenant is a host of several agents, whose alias also links the
// catalog), and severalAgents, extendedCard, dynamicCard, viewerPage, serveEvents (their fixtures
// have card functions or extended cards, which a store does not keep).
runConformanceFeatures(storeHost, 'agent card conformance', [
  publicCard,
  fallThrough,
  cors,
  signedCard,
  discoveryDocuments,
]);
runConformanceFeatures(storeHost, 'several agents and the AI catalog', [aiCatalog]);
