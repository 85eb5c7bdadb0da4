import { createPublicKey } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAgentCard } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, cli, loopbackServers } from '../test/run-cli';

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-everyone-'));

/** The `alg` and `kid` of each protected header of a card. */
const headers = (card: { signatures?: { protected: string }[] }) =>
  (card.signatures ?? []).map(
    (s) => JSON.parse(Buffer.from(s.protected, 'base64url').toString()) as { alg: string; kid: string },
  );

describe('agent-card keys generate --for-everyone', () => {
  it('writes an ES256 and an Ed25519 key (mode 0600) and prints the JWK Set of both', async () => {
    const dir = tmp();
    const run = await cli(['keys', 'generate', '--for-everyone'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Wrote the ES256 private key to card-key.es256.pem and the Ed25519 one to card-key.ed25519.pem (mode 0600).',
    );
    const set = JSON.parse(run.stdout) as { keys: { kty: string; crv: string; alg: string; kid: string }[] };
    expect(set.keys.map((k) => [k.kty, k.crv, k.alg])).toEqual([
      ['EC', 'P-256', 'ES256'],
      ['OKP', 'Ed25519', 'EdDSA'],
    ]);
    for (const file of ['card-key.es256.pem', 'card-key.ed25519.pem']) {
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    }
    expect(createPublicKey(readFileSync(join(dir, 'card-key.ed25519.pem'), 'utf8')).asymmetricKeyType).toBe('ed25519');
  });

  it('writes neither key when one of the two files exists, and refuses --alg', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'card-key.ed25519.pem'), 'precious');
    const run = await cli(['keys', 'generate', '--for-everyone'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('card-key.ed25519.pem: already exists. Pass --force to overwrite it');
    expect(existsSync(join(dir, 'card-key.es256.pem'))).toBe(false);
    const both = await cli(['keys', 'generate', '--for-everyone', '--alg', 'ES384'], { cwd: dir });
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/option '--for-everyone' cannot be used with option '--alg/);
  });
});

describe('agent-card sign with both keys, and check of a host that serves them', () => {
  const servers = loopbackServers();
  let dir = '';
  let host = '';
  let jwks: { keys: { kid: string; alg: string }[] } = { keys: [] };

  beforeAll(async () => {
    dir = tmp();
    jwks = JSON.parse((await cli(['keys', 'generate', '--for-everyone'], { cwd: dir })).stdout);
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify(jwks));
    writeFileSync(join(dir, 'es256.jwk'), JSON.stringify(jwks.keys[0]));
    // The middleware's sign option with the two keys: a signature by each, both in the JWK Set.
    const responder = createAgentCardResponder({
      card: JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8')),
      profile: 'development',
      logger: { warn() {} },
      sign: [
        { privateKey: readFileSync(join(dir, 'card-key.es256.pem'), 'utf8'), alg: 'ES256' },
        { privateKey: readFileSync(join(dir, 'card-key.ed25519.pem'), 'utf8'), alg: 'EdDSA' },
      ],
    });
    host = await servers.listen(
      createServer(async (req, res) => {
        const answer = await responder.respond({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
        });
        if (!answer) return void res.writeHead(404).end();
        res.writeHead(answer.status, answer.headers).end(answer.body);
      }),
    );
  });
  afterAll(() => servers.close());

  it('sign --key --key: the card carries signatures by each key, and each verifies with its key alone', async () => {
    const run = await cli(
      [
        'sign',
        join(cards, 'shopping.json'),
        '--key',
        'card-key.es256.pem',
        '--key',
        'card-key.ed25519.pem',
        '-o',
        'signed.json',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Signed with ES256 and EdDSA \(kid ".+", ".+"\), \d signatures \(one per canonical form and key\)/,
    );
    const signed = JSON.parse(readFileSync(join(dir, 'signed.json'), 'utf8'));
    const byKid = new Map(headers(signed).map((h) => [h.kid, h.alg]));
    expect(byKid).toEqual(new Map(jwks.keys.map((k) => [k.kid, k.alg])));
    for (const key of jwks.keys) {
      const result = await verifyAgentCard(signed, { jwks: { keys: [key] as never } });
      expect(result.valid, key.alg).toBe(true);
    }
  });

  it('sign refuses --kid with several keys: one kid cannot name two keys', async () => {
    const run = await cli(
      [
        'sign',
        join(cards, 'shopping.json'),
        '--key',
        'card-key.es256.pem',
        '--key',
        'card-key.ed25519.pem',
        '--kid',
        'k',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--kid and --alg name one key: with several --key files');
  });

  it('the host serves a signature by each key and a JWK Set of both', async () => {
    const card = (await (await fetch(`${host}/.well-known/agent-card.json`)).json()) as {
      signatures?: { protected: string }[];
    };
    expect(new Set(headers(card).map((h) => h.alg))).toEqual(new Set(['ES256', 'EdDSA']));
    const served = (await (await fetch(`${host}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(served.keys.map((k) => k.kid).sort()).toEqual(jwks.keys.map((k) => k.kid).sort());
  });

  it('check --require-signature passes with the ES256 key alone, the EdDSA signatures listed as infos', async () => {
    const run = await cli(
      [
        'check',
        host,
        '--allow-http',
        '--profile',
        'development',
        '--require-signature',
        '--key',
        'es256.jwk',
        '--json',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { findings: { rule: string; severity: string; message: string }[] };
    const signature = report.findings.filter((f) => f.rule === 'discovery-signature');
    expect(signature.map((f) => f.severity)).toEqual(signature.map(() => 'info'));
    expect(signature[0]?.message).toMatch(/signature verified/);
    const others = signature.filter((f) => /did not verify/.test(f.message));
    expect(others.length).toBeGreaterThan(0);
    for (const f of others)
      expect(f.message).toMatch(/EdDSA\) did not verify \(.*unknown kid.*\); #\d+(, #\d+)* did, which is enough\.$/);
  });

  it("check --require-signature with the host's key set verifies every signature", async () => {
    const run = await cli(['check', host, '--allow-http', '--profile', 'development', '--require-signature'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("signature: verified (keys: the host's own key set)");
    expect(run.stdout).toMatch(/EdDSA\) verified with/);
    expect(run.stdout).toMatch(/ES256\) verified with/);
  });
});

describe('the card size limit of check and verify (--max-card-bytes)', () => {
  const servers = loopbackServers();
  let host = '';
  let dir = '';
  // About 300 KiB: over the 256 KiB default, under what --max-card-bytes 524288 allows.
  const big = () => {
    const card = JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8'));
    return { ...card, description: `${card.description} ${'More detail. '.repeat(23_700)}` };
  };

  beforeAll(async () => {
    dir = tmp();
    await cli(['keys', 'generate', '-o', 'card-key.pem'], { cwd: dir });
    const body = JSON.stringify(big());
    host = await servers.listen(
      createServer((req, res) => {
        if (req.url !== '/.well-known/agent-card.json') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      }),
    );
    writeFileSync(join(dir, 'big.json'), JSON.stringify(big()));
    const signed = await cli(['sign', 'big.json', '--key', 'card-key.pem', '-o', 'signed.json'], { cwd: dir });
    expect(signed.code).toBe(0);
    writeFileSync(join(dir, 'key.jwk'), (await cli(['keys', 'jwks', 'card-key.pem'], { cwd: dir })).stdout);
  });
  afterAll(() => servers.close());

  it('check refuses a 300 KiB card with a finding that names --max-card-bytes, and reads it when raised', async () => {
    const run = await cli(['check', host, '--allow-http', '--profile', 'development'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/body over the 262144-byte card size limit \(\d+ bytes declared\); reading stopped\./);
    expect(run.stdout).toContain('raise the limit (--max-card-bytes <bytes>).');
    const raised = await cli(
      ['check', host, '--allow-http', '--profile', 'development', '--max-card-bytes', '524288'],
      {
        cwd: dir,
      },
    );
    expect(raised.stdout).not.toContain('card size limit');
    expect(raised.stdout).toMatch(/body larger than 128 KiB/);
  });

  it('verify refuses a 300 KiB card file (exit 1, a finding naming the flag), and verifies it when raised', async () => {
    const run = await cli(['verify', 'signed.json', '--jwks', 'key.jwk'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /signed\.json: the card is \d+ bytes, over the 262144-byte card size limit; not read\. Raise the limit with --max-card-bytes <bytes> to read it anyway\./,
    );
    const sarif = await cli(['verify', 'signed.json', '--jwks', 'key.jwk', '--format', 'github'], { cwd: dir });
    expect(sarif.code).toBe(1);
    expect(sarif.stdout).toContain('--max-card-bytes');
    const raised = await cli(['verify', 'signed.json', '--jwks', 'key.jwk', '--max-card-bytes', '524288'], {
      cwd: dir,
    });
    expect(raised.code).toBe(0);
    expect(raised.stdout).toContain('Valid: at least one signature verified.');
  });

  it('diff and view of a host refuse its 300 KiB card naming --max-card-bytes, and read it when raised', async () => {
    const diff = await cli(['diff', host, 'big.json', '--allow-http'], { cwd: dir });
    expect(diff.code).not.toBe(0);
    expect(diff.stderr).toMatch(
      /over the 262144-byte card size limit; not read\. Raise the limit with --max-card-bytes/,
    );
    const raised = await cli(['diff', host, 'big.json', '--allow-http', '--max-card-bytes', '524288'], { cwd: dir });
    expect(raised.code).toBe(0);
    const view = await cli(['view', host, '--allow-http', '-o', 'card.html'], { cwd: dir });
    expect(view.code).not.toBe(0);
    expect(view.stderr).toMatch(
      /over the 262144-byte card size limit; not read\. Raise the limit with --max-card-bytes/,
    );
    const shown = await cli(['view', host, '--allow-http', '-o', 'card.html', '--max-card-bytes', '524288'], {
      cwd: dir,
    });
    expect(shown.code).toBe(0);
  });

  it('verify of a host refuses its 300 KiB card the same way', async () => {
    const run = await cli(['verify', host, '--jwks', 'key.jwk', '--allow-http'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /over the 262144-byte card size limit; not read\. Raise the limit with --max-card-bytes/,
    );
  });
});
