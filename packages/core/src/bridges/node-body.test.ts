import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentCardResponder } from '../http/responder';
import type { AgentCard } from '../model';
import { memoryStore } from '../store/memory';
import { createAgentCardNodeHandler } from './node';

const card: AgentCard = {
  name: 'Billing Assistant',
  description: 'Answers invoice questions.',
  supportedInterfaces: [
    { url: 'https://api.example.com/t/acme/agents/billing/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  version: '1.0.0',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'invoices', name: 'Invoices', description: 'Finds invoices.', tags: ['finance'] }],
} as AgentCard;

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.closeAllConnections();
  return Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(): Promise<number> {
  const driver = memoryStore();
  await driver.put({ tenant: 'acme', agent: 'billing' }, JSON.stringify(card));
  const handle = createAgentCardNodeHandler(
    createAgentCardResponder({
      store: { driver, registry: { maxSearchBytes: 256, searchTimeoutMs: 200 } },
      tenant: { from: 'path', prefix: '/t' },
      profile: 'development',
      logger: { warn() {} },
    }),
  );
  const server = createServer((req, res) =>
    handle(req, res, () => {
      res.statusCode = 404;
      res.end();
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Sends `head` and `chunks` (chunked encoding, never ended) on a raw socket; what came back when it closed. */
function raw(port: number, chunks: readonly string[]): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
    });
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy());
    socket.write(
      'POST /t/acme/ard/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    for (const chunk of chunks) socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
  });
}

describe('the Node bridge reads a search body within its bounds', () => {
  it('answers 413 to a chunked body past the byte bound and closes the connection, not reading the rest', async () => {
    const port = await listen();
    const { text, ms } = await raw(port, ['{"query":{"text":"', 'x'.repeat(300)]);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('"errorCode":"PAYLOAD_TOO_LARGE"');
    // Closed by the server: the client never ended its body.
    expect(ms).toBeLessThan(5000);
  });

  it('answers 408 to a body that never ends and closes the connection within the time bound', async () => {
    const port = await listen();
    const { text, ms } = await raw(port, ['{"query":']);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(ms).toBeLessThan(200 + 4000);
  });
});
