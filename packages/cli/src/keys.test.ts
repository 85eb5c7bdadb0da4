import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAgentCard } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, cli, loopbackServers } from '../test/run-cli';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-keys-'));

describe('agent-card keys generate', () => {
  it.each(['ES256', 'EdDSA', 'RS256'])(
    '--alg %s writes a PKCS#8 key with mode 0600 and prints its public JWK with the thumbprint kid',
    async (alg) => {
      const dir = tmp();
      const run = await cli(['keys', 'generate', '--alg', alg, '-o', 'card-key.pem'], { cwd: dir });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`Wrote the ${alg} private key to card-key.pem (mode 0600).`);
      const path = join(dir, 'card-key.pem');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      const jwk = JSON.parse(run.stdout);
      for (const member of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(member);
      expect(jwk).toMatchObject({ alg, use: 'sig' });
      const publicJwk = createPublicKey(readFileSync(path, 'utf8')).export({ format: 'jwk' });
      expect(jwk.kid).toBe(await calculateJwkThumbprint(publicJwk as never, 'sha256'));
    },
  );

  it('never overwrites an existing key without --force', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'card-key.pem'), 'precious');
    const run = await cli(['keys', 'generate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('card-key.pem: already exists. Pass --force to overwrite it');
    expect(readFileSync(join(dir, 'card-key.pem'), 'utf8')).toBe('precious');
  });
});

describe('key files are read as every other JSON file', () => {
  it('a JWK nested deeper than 64 levels is refused before it reaches the signer (exit 2)', async () => {
    const dir = tmp();
    const jwk = JSON.stringify(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }));
    writeFileSync(join(dir, 'key.jwk'), `${jwk.slice(0, -1)},"note":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const run = await cli(['sign', join(cards, 'support.json'), '--key', 'key.jwk', '--kid', 'k', '--alg', 'ES256'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('key.jwk: not a PEM key or a JWK.');
  });

  it('a key file that is not UTF-8 is a one-line error (exit 2), from a file and from stdin', async () => {
    const dir = tmp();
    const bytes = Buffer.concat([Buffer.from('-----BEGIN PRIVATE KEY-----\n'), Buffer.from([0xff])]);
    writeFileSync(join(dir, 'key.pem'), bytes);
    for (const [key, where] of [
      ['key.pem', 'key.pem'],
      ['-', 'stdin'],
    ] as const) {
      const run = await cli(['keys', 'jwks', key], { cwd: dir, input: bytes });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${where}: not valid UTF-8. Save it as UTF-8.`);
    }
  });
});

describe('agent-card keys jwks and sign with thumbprint kids', () => {
  it('prints a JWK Set of public members from private and public keys, and sign uses the same kid by default', async () => {
    const dir = tmp();
    await cli(['keys', 'generate', '-o', 'a.pem'], { cwd: dir });
    const second = await cli(['keys', 'generate', '--alg', 'EdDSA', '-o', 'b.pem'], { cwd: dir });
    writeFileSync(join(dir, 'b.pub.jwk'), second.stdout);
    const run = await cli(['keys', 'jwks', 'a.pem', 'b.pub.jwk'], { cwd: dir });
    expect(run.code).toBe(0);
    const set = JSON.parse(run.stdout) as { keys: Record<string, unknown>[] };
    expect(set.keys).toHaveLength(2);
    for (const key of set.keys) for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    writeFileSync(join(dir, 'jwks.json'), run.stdout);

    const signed = await cli(
      ['sign', join(cards, 'support.json'), '--key', 'a.pem', '--alg', 'ES256', '-o', 'signed.json'],
      { cwd: dir },
    );
    expect(signed.code).toBe(0);
    expect(signed.stderr).toContain(`kid "${set.keys[0]!.kid}"`);
    const verified = await cli(['verify', 'signed.json', '--jwks', 'jwks.json'], { cwd: dir });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`verified with jwks["${set.keys[0]!.kid}"]`);
  });

  it('refuses two keys with one kid', async () => {
    const dir = tmp();
    await cli(['keys', 'generate', '-o', 'a.pem'], { cwd: dir });
    const run = await cli(['keys', 'jwks', 'a.pem', 'a.pem'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/keys jwks: kid ".+" names two of the keys given/);
  });
});

describe('agent-card check and the host key set', () => {
  const servers = loopbackServers();
  const listen = (options: Parameters<typeof createAgentCardResponder>[0]) => {
    const responder = createAgentCardResponder({ ...options, profile: 'development', logger: { warn() {} } });
    const server = createServer(async (req, res) => {
      const answer = await responder.respond({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
      });
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
    return servers.listen(server);
  };
  let signedHost = '';
  let unsignedHost = '';
  let dir = '';

  beforeAll(async () => {
    dir = tmp();
    await cli(['keys', 'generate', '-o', 'card-key.pem'], { cwd: dir });
    const card = JSON.parse(readFileSync(join(cards, 'shopping.json'), 'utf8'));
    signedHost = await listen({
      card,
      sign: { privateKey: readFileSync(join(dir, 'card-key.pem'), 'utf8'), alg: 'ES256' },
    });
    unsignedHost = await listen({ card });
  });
  afterAll(() => servers.close());

  it("verifies each signature with the host's own /.well-known/jwks.json and says so", async () => {
    const run = await cli(['check', signedHost, '--allow-http', '--profile', 'development'], { cwd: dir });
    expect(run.stdout).toContain("signature: verified (keys: the host's own key set)");
    expect(run.stdout).toMatch(
      /#0 \(kid ".+", ES256\) verified with http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json#.+ over the pruned form/,
    );
    expect(run.code).toBe(0);
    const card = (await (await fetch(`${signedHost}/.well-known/agent-card.json`)).json()) as never;
    expect(
      (await verifyAgentCard(card, { jwksUrl: `${signedHost}/.well-known/jwks.json`, allowInsecureJwksUrl: true }))
        .valid,
    ).toBe(true);
  });

  it('an unsigned card is only info without --require-signature, and an error (exit 1) with it', async () => {
    const relaxed = await cli(['check', unsignedHost, '--allow-http', '--profile', 'development'], { cwd: dir });
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain('signature: unsigned');
    const strict = await cli(
      ['check', unsignedHost, '--allow-http', '--profile', 'development', '--require-signature'],
      { cwd: dir },
    );
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('card is not signed, and a signature is required.');
  });
});
