// `agent-card verify` given an AI Catalog: its signature and the digest of every card it lists,
// against the catalog an attacker edited and the card a host swapped.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signAiCatalog, signAiCatalogDidWeb } from '@agent-card/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test/run-cli';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const served = { body: '{"name":"Billing"}' };
const server = createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'application/a2a+json' }).end(served.body),
);
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agents/billing/.well-known/agent-card.json`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-catalog-'));
  const digest = `sha256:${createHash('sha256').update('{"name":"Billing"}').digest('hex')}`;
  const catalog = signAiCatalog(
    {
      specVersion: '1.0',
      entries: [{ identifier: 'urn:air:acme.com:agent:billing', type: 'application/a2a-agent-card+json', url, digest }],
    },
    { privateKey, alg: 'ES256', kid: 'catalog-key' },
  );
  writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  return { dir, catalog };
}

describe('agent-card verify with an AI Catalog', () => {
  it('verifies the signature and each digest against the card served (exit 0)', async () => {
    const { dir, catalog } = setUp();
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    const run = await cli(
      ['verify', 'ai-catalog.json', '--key', 'key.pub.pem', '--kid', 'catalog-key', '--allow-http'],
      {
        cwd: dir,
      },
    );
    expect(run.stdout).toBe(
      `✔ ai-catalog.json: catalog signature (ES256, kid "catalog-key"): verified with keys["catalog-key"]\n✔ entries[0] urn:air:acme.com:agent:billing: digest matches ${url}\n! signature is a detached JWS string, the form of an earlier AI Catalog draft; the current specification carries a Signature object { signer, profile: "did-web-v1", issuedAt, jws } verified through the signer's did:web DID document\nValid: the catalog signature verified and every digest matched.\n`,
    );
    expect(run.code).toBe(0);
  });

  it('refuses an edited catalog (exit 1)', async () => {
    const { dir, catalog } = setUp();
    catalog.entries[0]!.url = 'https://evil.example/card.json';
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    const run = await cli(['verify', 'ai-catalog.json', '--key', 'key.pub.pem', '--kid', 'catalog-key'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✖ ai-catalog.json: catalog signature (ES256, kid "catalog-key"): keys["catalog-key"]: the signature does not match the catalog',
    );
  });

  it('refuses a card swapped behind a signed catalog (exit 1)', async () => {
    const { dir, catalog } = setUp();
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    served.body = '{"name":"Billing","url":"https://evil.example"}';
    try {
      const run = await cli(
        ['verify', 'ai-catalog.json', '--key', 'key.pub.pem', '--kid', 'catalog-key', '--allow-http'],
        {
          cwd: dir,
        },
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('✖ entries[0] urn:air:acme.com:agent:billing: the bytes do not match the digest');
    } finally {
      served.body = '{"name":"Billing"}';
    }
  });

  it('connects to none of the 100 URLs a forged catalog names (exit 1, 0 connections)', async () => {
    let connections = 0;
    const counter = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const port = (counter.address() as AddressInfo).port;
    try {
      const { dir } = setUp();
      const attacker = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      for (const scheme of ['https', 'http']) {
        const forged = signAiCatalog(
          {
            specVersion: '1.0',
            entries: Array.from({ length: 100 }, (_, i) => ({
              identifier: `urn:air:acme.com:agent:a${i}`,
              type: 'application/a2a-agent-card+json',
              url: `${scheme}://127.0.0.1:${port}/a${i}.json`,
              digest: `sha256:${'0'.repeat(64)}`,
            })),
          },
          { privateKey: attacker.privateKey, alg: 'ES256', kid: 'catalog-key' },
        );
        writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(forged));
        const args = ['verify', 'ai-catalog.json', '--key', 'key.pub.pem', '--kid', 'catalog-key'];
        const run = await cli(scheme === 'http' ? [...args, '--allow-http'] : args, { cwd: dir });
        expect(run.code).toBe(1);
        expect(run.stdout).not.toContain('entries[');
      }
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => counter.close(resolve));
    }
  });

  it('verifies a did:web catalog with no key given, resolving the signer, never on this machine unless asked', async () => {
    const { dir } = setUp();
    const catalog = signAiCatalogDidWeb(
      { specVersion: '1.0', host: { displayName: 'Local' }, entries: [] },
      { privateKey, alg: 'ES256', kid: 'catalog-1' },
      { signer: 'did:web:localhost' },
    );
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    const run = await cli(['verify', 'ai-catalog.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      '✖ ai-catalog.json: catalog signature (did:web:localhost, did-web-v1, kid "did:web:localhost#catalog-1"): the DID document of did:web:localhost could not be read: "https://localhost/.well-known/did.json" was not fetched: localhost: localhost is a loopback name\nInvalid: the catalog signature did not verify: the DID document of did:web:localhost could not be read: "https://localhost/.well-known/did.json" was not fetched: localhost: localhost is a loopback name.\n',
    );
  });

  it('still asks for a key for a catalog signed in the earlier form', async () => {
    const { dir, catalog } = setUp();
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify(catalog));
    const run = await cli(['verify', 'ai-catalog.json'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('verify: pass exactly one of --key <file> or --jwks <file|url>.');
  });
});
