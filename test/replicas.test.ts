// Two processes started with the same config and the same key must serve the same signed
// bytes and the same ETag, or a load balancer and a CDN see the card flap between versions.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/servers/signed-replica.mjs', import.meta.url));
const children: ChildProcess[] = [];

/** Starts one replica and resolves to its origin once it listens. */
function replica(env: Record<string, string>): Promise<{ origin: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', ...env } });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdout?.once('data', (chunk) =>
      resolve({ origin: `http://127.0.0.1:${String(chunk).trim()}`, stderr: () => stderr }),
    );
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${stderr}`)));
  });
}

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

const card = async (origin: string) => {
  const response = await fetch(`${origin}/.well-known/agent-card.json`);
  return { etag: response.headers.get('etag'), body: await response.text() };
};

describe('replicas of a signed card', () => {
  it('two processes with the same ES256 key serve byte-identical cards with one ETag', async () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const [a, b] = await Promise.all([replica({ CARD_KEY_PEM: pem }), replica({ CARD_KEY_PEM: pem })]);
    const [first, second] = await Promise.all([card(a!.origin), card(b!.origin)]);
    expect(JSON.parse(first.body).signatures).toHaveLength(2);
    expect(second.body).toBe(first.body);
    expect(second.etag).toBe(first.etag);
    expect(a!.stderr()).not.toMatch(/warn: .*PS256/);
  });

  it('a PS256 key cannot sign deterministically: a start-up warning says so and how to sign once', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const [a, b] = await Promise.all([
      replica({ CARD_KEY_PEM: pem, CARD_ALG: 'PS256' }),
      replica({ CARD_KEY_PEM: pem, CARD_ALG: 'PS256' }),
    ]);
    const [first, second] = await Promise.all([card(a!.origin), card(b!.origin)]);
    expect(second.etag).not.toBe(first.etag);
    expect(a!.stderr()).toMatch(/warn: agent card: options\.sign: PS256 signatures are randomized/);
  });
});
