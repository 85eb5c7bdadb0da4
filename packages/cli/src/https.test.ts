// The commands that read a URL given as input, over real TLS: a local https server with a
// certificate made for the run, trusted by the CLI only through NODE_EXTRA_CA_CERTS, so the tests
// also show that a certificate the machine does not trust is refused rather than skipped. Node
// reads NODE_EXTRA_CA_CERTS when it starts, so these run the built binary.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAgentCard } from '@agent-card/core';
import { cards, cliBinary, requireBuiltCli } from '../test/run-cli';

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-https-'));

const dir = tmp();
const caFile = join(dir, 'ca.pem');
let server: Server;
let origin = '';
const requested: string[] = [];

/** Runs the CLI in `dir`, trusting the run's certificate unless `trust` is false. */
const runIn = (args: string[], options: { cwd?: string; trust?: boolean } = {}) =>
  cliBinary(args, { cwd: options.cwd ?? dir, env: options.trust === false ? {} : { NODE_EXTRA_CA_CERTS: caFile } });

beforeAll(async () => {
  requireBuiltCli();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    keyType: 'ec',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  writeFileSync(caFile, pems.cert);

  const card = readFileSync(join(cards, 'support.json'));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = await signAgentCard(JSON.parse(card.toString('utf8')), {
    privateKey: privateKey.export({ format: 'jwk' }),
    kid: 'support-key-1',
    alg: 'ES256',
  });
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'support-key-1', alg: 'ES256' }] };
  const bodies: Record<string, string | Buffer> = {
    '/card.json': card,
    '/signed.json': JSON.stringify(signed),
    '/jwks.json': JSON.stringify(jwks),
  };
  server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requested.push(req.url ?? '');
    const body = bodies[req.url ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

// A suite that failed before its server started closes nothing (and does not wait for the hook's timeout).
afterAll(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

describe('a URL given as input, over https', () => {
  it('diff reads it and compares the card it serves', async () => {
    const run = await runIn(['diff', join(cards, 'support.json'), `${origin}/card.json`]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('No differences.\n');
    expect(run.code).toBe(0);
  });

  it('is refused when the machine does not trust the certificate: exit 2, nothing read', async () => {
    const run = await runIn(['diff', join(cards, 'support.json'), `${origin}/card.json`], { trust: false });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`agent-card: ${origin}/card.json: cannot be fetched (self-signed certificate).\n`);
  });

  it('verify reads the signed card and its key set from URLs', async () => {
    const run = await runIn(['verify', `${origin}/signed.json`, '--jwks', `${origin}/jwks.json`]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('support-key-1');
    expect(run.code).toBe(0);
  });

  it('init --catalog lists a card hosted elsewhere by its URL, after reading and checking it', async () => {
    const out = tmp();
    const before = requested.length;
    // The previous draft's entry (an identifier from the host, displayName), pinned as in init.test.
    const run = await runIn(
      ['init', '--catalog', '--draft', '634a09d9', '--agent', `support=${origin}/card.json`, '--host-name', 'Acme'],
      { cwd: out },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(requested.slice(before)).toEqual(['/card.json']);
    const catalog = JSON.parse(readFileSync(join(out, 'ai-catalog.json'), 'utf8'));
    const served = JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));
    expect(catalog.entries).toEqual([
      expect.objectContaining({
        identifier: 'urn:agent-card:127.0.0.1:support',
        url: `${origin}/card.json`,
        displayName: served.name,
      }),
    ]);
    // A card hosted elsewhere is not one the middleware serves: no agents snippet is printed.
    expect(run.stdout).not.toContain('The middleware serves the same entries');
  });

  it('view writes the page of the card at a document URL', async () => {
    const out = tmp();
    const run = await runIn(['view', `${origin}/card.json`, '-o', 'card.html'], { cwd: out });
    expect(run.stderr).toBe(
      `Wrote card.html (card ${JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8')).name}).\n`,
    );
    expect(run.code).toBe(0);
    expect(readFileSync(join(out, 'card.html'), 'utf8')).toContain(`href="${origin}/card.json"`);
  });
});
