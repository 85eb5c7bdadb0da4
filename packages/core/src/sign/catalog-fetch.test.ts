// Where verifyAiCatalog connects: a forged catalog names 100 URLs on this machine; a signed one
// names a private address or another origin. A server counts every TCP connection it gets.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest, signAiCatalog, verifyAiCatalog } from './catalog-signing';

const owner = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const attacker = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keys = { 'catalog-key': owner.publicKey };

let connections = 0;
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function entries(count: number, base: () => string) {
  return Array.from({ length: count }, (_, i) => ({
    identifier: `urn:air:acme.example:agent:a${i}`,
    type: 'application/a2a-agent-card+json',
    url: `${base()}/agents/a${i}.json`,
    digest: sha256Digest(`card ${i}`),
  }));
}

describe('verifyAiCatalog connects only where a verified catalog allows', () => {
  it('a forged catalog naming 100 URLs on this machine: 0 connections, no digest checked', async () => {
    connections = 0;
    const forged = signAiCatalog(
      { specVersion: '1.0', entries: entries(100, () => `https://127.0.0.1:${port}`) },
      { privateKey: attacker.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const result = await verifyAiCatalog(forged, { keys, allowInsecureArtifactUrls: true });
    expect(result.signature.valid).toBe(false);
    expect(result.digests).toEqual([]);
    expect(connections).toBe(0);
  });

  it('a signed catalog naming loopback and private addresses: refused without allowPrivateTargets', async () => {
    connections = 0;
    const catalog = signAiCatalog(
      {
        specVersion: '1.0',
        entries: [
          ...entries(1, () => `https://127.0.0.1:${port}`),
          { ...entries(1, () => 'https://10.0.0.1')[0]!, identifier: 'urn:air:acme.example:agent:p' },
          { ...entries(1, () => 'https://169.254.169.254')[0]!, identifier: 'urn:air:acme.example:agent:m' },
          { ...entries(1, () => 'https://[::ffff:127.0.0.1]')[0]!, identifier: 'urn:air:acme.example:agent:v' },
          { ...entries(1, () => `https://localhost:${port}`)[0]!, identifier: 'urn:air:acme.example:agent:l' },
        ],
      },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const result = await verifyAiCatalog(catalog, { keys });
    expect(result.signature.valid).toBe(true);
    expect(result.digests.map((d) => d.reason)).toEqual([
      `"https://127.0.0.1:${port}/agents/a0.json" was not fetched: 127.0.0.1:${port}: 127.0.0.1 is a loopback address`,
      '"https://10.0.0.1/agents/a0.json" was not fetched: 10.0.0.1: 10.0.0.1 is a private address',
      '"https://169.254.169.254/agents/a0.json" was not fetched: 169.254.169.254: 169.254.169.254 is a link-local address',
      '"https://[::ffff:7f00:1]/agents/a0.json" was not fetched: [::ffff:7f00:1]: 127.0.0.1 is a loopback address',
      `"https://localhost:${port}/agents/a0.json" was not fetched: localhost:${port}: localhost is a loopback name`,
    ]);
    expect(result.valid).toBe(false);
    expect(connections).toBe(0);
  });

  it('with catalogUrl, fetches only the catalog origin unless followArtifacts is any', async () => {
    const card = 'card 0';
    const catalog = signAiCatalog(
      {
        specVersion: '1.0',
        entries: [
          { ...entries(1, () => 'https://acme.example')[0]!, digest: sha256Digest(card) },
          { ...entries(1, () => 'https://elsewhere.example')[0]!, identifier: 'urn:air:acme.example:agent:e' },
        ],
      },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const asked: string[] = [];
    const fetch = async (url: URL | string | Request) => {
      asked.push(String(url));
      return new Response(card);
    };
    const catalogUrl = 'https://acme.example/.well-known/ai-catalog.json';
    const same = await verifyAiCatalog(catalog, { keys, fetch, catalogUrl });
    expect(asked).toEqual(['https://acme.example/agents/a0.json']);
    expect(same.digests.map((d) => [d.valid, d.reason])).toEqual([
      [true, undefined],
      [
        false,
        `not fetched: "https://elsewhere.example/agents/a0.json" is not at the catalog's origin (https://acme.example); fetch other origins with followArtifacts: 'any' (--follow-artifacts any)`,
      ],
    ]);
    asked.length = 0;
    await verifyAiCatalog(catalog, { keys, fetch, catalogUrl, followArtifacts: 'any' });
    expect(asked).toEqual(['https://acme.example/agents/a0.json', 'https://elsewhere.example/agents/a0.json']);
  });

  it('reaches this machine when asked (allowPrivateTargets)', async () => {
    connections = 0;
    const catalog = signAiCatalog(
      { specVersion: '1.0', entries: entries(1, () => `https://127.0.0.1:${port}`) },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    await verifyAiCatalog(catalog, { keys, allowPrivateTargets: true });
    expect(connections).toBe(1);
  });
});
