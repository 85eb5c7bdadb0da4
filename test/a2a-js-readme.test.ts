// The @a2a-js/sdk example of packages/a2a-js/README.md, as written (`server.mjs` and `server.cjs`),
// against the SDK's own client with its retry-on-401 helper over JSON-RPC: the client asks for the
// extended card without a key, gets the challenge, retries with the key it names and reads the
// card. A bridge copied from the README that answers the refusal with HTTP 200 is never retried.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { readmeFiles } from './consumer/harness';

// Inside test/, so that the packages resolve through test/node_modules to the built workspace ones.
const dir = fileURLToPath(new URL('./.readme-a2a-js/', import.meta.url));
const blocks = readmeFiles('packages/a2a-js/README.md', ['server.mjs', 'server.cjs']);
mkdirSync(dir, { recursive: true });
for (const [name, code] of Object.entries(blocks)) writeFileSync(join(dir, name), code);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PARTNER_KEY = 'readme-partner-key';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Runs the README's file with node until `stop()`; resolves once the card is served. */
async function start(file: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [file], {
    cwd: dir,
    env: { PATH: process.env.PATH, PORT: String(port), PARTNER_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const end = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/.well-known/agent-card.json`)).ok) return { base, stop, output: () => output };
    } catch {}
    if (child.exitCode !== null || Date.now() > end) {
      await stop();
      throw new Error(`${file} did not serve its card:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe.each(['server.mjs', 'server.cjs'])('packages/a2a-js/README.md %s, as written', (file) => {
  it("gives the SDK client's retry-on-401 helper the challenge it retries on, and the extended card over JSON-RPC", async () => {
    const server = await start(file);
    try {
      const challenges: string[] = [];
      const authFetch = createAuthenticatingFetchWithRetry(fetch, {
        headers: async () => ({}),
        shouldRetryWithHeaders: async (_req, res) => {
          const challenge = res.headers.get('www-authenticate');
          if (res.status !== 401 || challenge === null) return undefined;
          challenges.push(challenge);
          // The header the ApiKey challenge names is where the key goes.
          const name = /ApiKey [^,]*, in="header", name="([^"]+)"/.exec(challenge)?.[1];
          return name === undefined ? undefined : { [name]: PARTNER_KEY };
        },
      });
      // The README's card names its production origin; the client is pointed at this one.
      const json = (await (await fetch(`${server.base}/.well-known/agent-card.json`)).text()).replaceAll(
        'https://orders.acme-corp.io',
        server.base,
      );
      const factory = new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
          preferredTransports: ['JSONRPC'],
        }),
      );
      const client = await factory.createFromAgentCard(SdkAgentCard.fromJSON(JSON.parse(json)));
      const extended = await client.getAgentCard();
      expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
      expect(challenges).toEqual(['ApiKey realm="Orders Agent", in="header", name="x-api-key"']);
      expect(server.output()).toBe('');
    } finally {
      await server.stop();
    }
  }, 30_000);
});
