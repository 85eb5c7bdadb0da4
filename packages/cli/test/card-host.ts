// Hosts for the tests in src/, on real loopback sockets: `hostCard` and `hostResponder` deploy
// with core's responder (the middleware's answers, as a service serves them), `hostSite` serves a folder as a
// static host serves what `agent-card build` wrote. Outside src/, so the published package does
// not ship them.
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { type AgentCardOptions, createAgentCardResponder } from '@agent-card/core/http';
import type { loopbackServers } from './run-cli';

type Servers = ReturnType<typeof loopbackServers>;

/** A host serving `card` with core's responder (see {@link hostResponder}). Resolves to its base URL. */
export function hostCard(servers: Servers, card: unknown): Promise<string> {
  return hostResponder(servers, { card: card as AgentCardOptions['card'] });
}

/**
 * A host whose every answer is core's responder's for `options` (the middleware's options, under
 * the `development` profile unless they say otherwise, warnings silenced); any other path is a
 * JSON 404. Resolves to its base URL.
 */
export function hostResponder(servers: Servers, options: AgentCardOptions): Promise<string> {
  const responder = createAgentCardResponder({ profile: 'development', logger: { warn() {} }, ...options });
  return servers.listen(
    createServer(async (req, res) => {
      const answer = await responder.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
      });
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    }),
  );
}

/**
 * A static host of the folder `root()` (read at each request, so a test may change a file between
 * runs): each file as JSON at its path, a JSON 404 for anything else. Resolves to its base URL.
 */
export function hostSite(servers: Servers, root: () => string): Promise<string> {
  return servers.listen(
    createServer(async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://host').pathname;
      const file = normalize(join(root(), decodeURIComponent(path)));
      const inside = file.startsWith(`${normalize(root())}${sep}`);
      const isFile =
        inside &&
        (await stat(file).then(
          (s) => s.isFile(),
          () => false,
        ));
      if (!isFile) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(await readFile(file));
    }),
  );
}
