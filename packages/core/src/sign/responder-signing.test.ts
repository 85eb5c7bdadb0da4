import { generateKeyPairSync } from 'node:crypto';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { describe, expect, it, vi } from 'vitest';
import { AgentCardError } from '../errors';
import { createAgentCardResponder, getExtendedAgentCard } from '../http';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponse } from '../http/types';
import type { AgentCard } from '../model';
import { verifyAgentCard } from './verify';

const card: AgentCard = {
  name: 'Recipe Agent',
  description: 'Finds recipes from what is in your fridge.',
  supportedInterfaces: [{ url: 'https://recipes.acme.dev/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  provider: { organization: 'Acme', url: 'https://acme.dev' },
  version: '1.4.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'find-recipe',
      name: 'Find recipe',
      description: 'Finds a recipe for the given ingredients.',
      tags: ['cooking'],
    },
  ],
};

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const quiet = { warn: () => {} };
const get = (path = '/.well-known/agent-card.json', headers: Record<string, string> = {}): AgentCardRequest => ({
  method: 'GET',
  path,
  headers: { host: 'recipes.acme.dev', ...headers },
});
const body = (response: AgentCardResponse | undefined) =>
  JSON.parse(new TextDecoder().decode(response!.body!)) as AgentCard;

async function respond(options: AgentCardOptions, request = get()): Promise<AgentCardResponse> {
  const response = await createAgentCardResponder(options).respond(request);
  return response!;
}

function optionsError(options: AgentCardOptions): AgentCardError {
  try {
    createAgentCardResponder(options);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentCardError);
    return error as AgentCardError;
  }
  throw new Error('createAgentCardResponder accepted the options');
}

describe('responder option sign', () => {
  it('serves a static card signed once at start-up: same bytes and ETag on every request, even with ES256', async () => {
    const responder = createAgentCardResponder({
      card,
      logger: quiet,
      sign: { privateKey: ec.privateKey, kid: 'card-1', alg: 'ES256' },
    });
    const first = (await responder.respond(get()))!;
    // ECDSA signatures are random: signing per request would change the bytes every time.
    for (let i = 0; i < 20; i++) {
      const again = (await responder.respond(get()))!;
      expect(again.body).toEqual(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
    }
    const notModified = (await responder.respond(get(undefined, { 'if-none-match': first.headers.etag! })))!;
    expect(notModified.status).toBe(304);
    const legacy = (await responder.respond(get('/.well-known/agent.json')))!;
    expect(legacy.body).toEqual(first.body);

    const served = body(first);
    expect(served.signatures).toHaveLength(1);
    expect(await verifyAgentCard(served, { keys: { 'card-1': ec.publicKey } })).toMatchObject({ valid: true });
    await expect(verifyAgentCardSignature(async () => ec.publicKey)(served as never)).resolves.toBeUndefined();
  });

  it('gives the same bytes and ETag on every replica with a deterministic algorithm', async () => {
    const options = { card, logger: quiet, sign: { privateKey: ed.privateKey, kid: 'card-1', alg: 'EdDSA' as const } };
    const a = await respond(options);
    const b = await respond({ ...options });
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.body).toEqual(b.body);
  });

  it('keeps the signatures a card already has and appends its own', async () => {
    // The spec §8.4.2 example signature: well formed, but made with a key nobody published.
    const presigned = {
      ...card,
      signatures: [
        {
          protected:
            'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpPU0UiLCJraWQiOiJrZXktMSIsImprdSI6Imh0dHBzOi8vZXhhbXBsZS5jb20vYWdlbnQvandrcy5qc29uIn0',
          signature: 'QFdkNLNszlGj3z3u0YQGt_T9LixY3qtdQpZmsTdDHDe3fXV9y9-B3m2-XgCpzuhiLt8E0tV6HXoZKHv4GtHgKQ',
        },
      ],
    };
    const served = body(
      await respond({
        card: presigned,
        logger: quiet,
        sign: { privateKey: ed.privateKey, kid: 'card-1', alg: 'EdDSA' },
      }),
    );
    expect(served.signatures).toHaveLength(2);
    expect(served.signatures![0]).toEqual(presigned.signatures[0]);
    const result = await verifyAgentCard(served, { keys: { 'card-1': ed.publicKey } });
    expect(result.signatures.map((s) => s.valid)).toEqual([false, true]);
  });

  it('signs each variant of a card function once, keyed by an explicit cacheKey', async () => {
    const provider = vi.fn((ctx: { tenant?: string }) => ({ ...card, name: `Recipe Agent (${ctx.tenant})` }));
    const responder = createAgentCardResponder({
      card: provider,
      dynamic: {
        tenant: (request) => String(request.headers['x-tenant'] ?? 'default'),
        allowedTenants: ['a', 'b', 'default'],
        cacheKey: (ctx) => ctx.tenant ?? 'default',
      },
      logger: quiet,
      sign: { privateKey: ec.privateKey, kid: 'card-1', alg: 'ES256' },
    });
    const a1 = (await responder.respond(get(undefined, { 'x-tenant': 'a' })))!;
    const a2 = (await responder.respond(get(undefined, { 'x-tenant': 'a', host: 'evil.example' })))!;
    const b = (await responder.respond(get(undefined, { 'x-tenant': 'b' })))!;
    expect(provider).toHaveBeenCalledTimes(2);
    expect(a2.body).toEqual(a1.body);
    expect(body(b).name).toBe('Recipe Agent (b)');
    for (const response of [a1, b]) {
      expect((await verifyAgentCard(body(response), { keys: { 'card-1': ec.publicKey } })).valid).toBe(true);
    }
  });

  it('answers 503 (and reports why) when a signed card function reads ctx.origin', async () => {
    const onError = vi.fn();
    const response = await respond({
      card: (ctx) => ({
        ...card,
        supportedInterfaces: [{ url: `${ctx.origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
      dynamic: { cacheKey: () => 'one' },
      onError,
      logger: quiet,
      sign: { privateKey: ec.privateKey, kid: 'card-1', alg: 'ES256' },
    });
    expect(response.status).toBe(503);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(AgentCardError);
    expect((onError.mock.calls[0]![0] as Error).message).toBe(
      'card: ctx.origin is not available when options.sign is set, a signed card must not take its URLs from the request. Build the URLs from configuration.',
    );
  });

  it.each<[string, Partial<AgentCardOptions>, RegExp]>([
    [
      'a card function without cacheKey',
      { card: () => card },
      /options\.sign: needs an explicit cacheKey with a card function, the default variant key is the request origin \(Host header\) \("no cacheKey"\)\. Add cacheKey/,
    ],
    [
      'a card function with trustProxy',
      { card: () => card, dynamic: { cacheKey: () => 'k', trustProxy: true } },
      /options\.sign: cannot sign a card function with trustProxy: true, its URLs could come from Forwarded or X-Forwarded-\* headers \(true\)\. Set trustProxy to false/,
    ],
    [
      'alg none',
      { sign: { privateKey: ec.privateKey, kid: 'k', alg: 'none' as never } },
      /options\.sign: alg "none" means an unsigned card and is never accepted\. Use one of /,
    ],
    [
      'a public key',
      { sign: { privateKey: ec.publicKey, kid: 'k', alg: 'ES256' } },
      /options\.sign: privateKey: a public ec prime256v1 key cannot sign an Agent Card\. /,
    ],
    [
      'an http jku',
      { sign: { privateKey: ec.privateKey, kid: 'k', alg: 'ES256', jku: 'http://acme.dev/jwks.json' } },
      /options\.sign: jku is not https \(http:\/\/acme\.dev\/jwks\.json\)\. /,
    ],
  ])('refuses at start-up: %s', (_, override, message) => {
    const error = optionsError({
      card,
      logger: quiet,
      sign: { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' },
      ...override,
    });
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect(error.message).toMatch(message);
  });

  it('still serves a static card with trustProxy (its URLs never come from headers)', async () => {
    const served = body(
      await respond({
        card,
        dynamic: { trustProxy: true },
        logger: quiet,
        sign: { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
      }),
    );
    expect((await verifyAgentCard(served, { keys: { k: ed.publicKey } })).valid).toBe(true);
  });
});

describe('the JWK Set route of a signing responder', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaNext = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwksOf = (response: AgentCardResponse | undefined) =>
    JSON.parse(new TextDecoder().decode(response!.body!)) as { keys: Record<string, unknown>[] };

  it('serves the public keys at /.well-known/jwks.json like a card: media type, strong ETag, 304, CORS, HEAD, 405', async () => {
    const responder = createAgentCardResponder({
      card,
      logger: quiet,
      sign: { privateKey: ec.privateKey, alg: 'ES256' },
    });
    const ok = (await responder.respond(get('/.well-known/jwks.json')))!;
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/jwk-set+json');
    expect(ok.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(ok.headers['cache-control']).toBe('public, max-age=3600');
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const [key] = jwksOf(ok).keys;
    expect(Object.keys(key!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    const signed = body(await responder.respond(get()));
    expect((await verifyAgentCard(signed, { jwks: jwksOf(ok) as never })).valid).toBe(true);

    const again = await responder.respond(get('/.well-known/jwks.json?x=1', { 'if-none-match': ok.headers.etag! }));
    expect(again!.status).toBe(304);
    const head = await responder.respond({ ...get('/.well-known/jwks.json/'), method: 'HEAD' });
    expect(head!.status).toBe(200);
    expect(head!.body).toBeUndefined();
    expect((await responder.respond({ ...get('/.well-known/jwks.json'), method: 'POST' }))!.status).toBe(405);
  });

  it.each([
    ['a KeyObject', () => rsa.privateKey],
    ['a PKCS#8 PEM', () => rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string],
    ['a private JWK', () => rsa.privateKey.export({ format: 'jwk' })],
  ])('never serves a private member, whatever form the key is passed in (%s)', async (_, key) => {
    const responder = createAgentCardResponder({
      card,
      logger: quiet,
      sign: {
        keys: { privateKey: key() as never, alg: 'RS256' },
        publish: [rsaNext.privateKey.export({ format: 'jwk' }) as never],
      },
    });
    const text = new TextDecoder().decode((await responder.respond(get('/.well-known/jwks.json')))!.body!);
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(text).not.toContain(`"${member}":`);
  });

  it('rotation: two signing keys and a published next key; a verifier with either signing key alone accepts the card', async () => {
    const next = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const responder = createAgentCardResponder({
      card,
      logger: quiet,
      sign: {
        keys: [
          { privateKey: ed.privateKey, kid: 'current', alg: 'EdDSA' },
          { privateKey: ec.privateKey, kid: 'retiring', alg: 'ES256' },
        ],
        publish: [{ ...next.publicKey.export({ format: 'jwk' }), kid: 'next' }],
      },
    });
    const keys = jwksOf(await responder.respond(get('/.well-known/jwks.json'))).keys;
    expect(keys.map((k) => k.kid)).toEqual(['current', 'retiring', 'next']);
    const signed = body(await responder.respond(get()));
    for (const kid of ['current', 'retiring']) {
      const only = { keys: keys.filter((k) => k.kid === kid) };
      expect((await verifyAgentCard(signed, { jwks: only as never })).valid).toBe(true);
    }
    expect(
      (await verifyAgentCard(signed, { jwks: { keys: keys.filter((k) => k.kid === 'next') } as never })).valid,
    ).toBe(false);
  });

  it('jwksPath moves the key set, and false serves none', async () => {
    const moved = createAgentCardResponder({
      card,
      logger: quiet,
      sign: { keys: { privateKey: ec.privateKey, alg: 'ES256' }, jwksPath: '/keys/card.json' },
    });
    expect((await moved.respond(get('/keys/card.json')))!.status).toBe(200);
    expect(await moved.respond(get('/.well-known/jwks.json'))).toBeUndefined();
    const none = createAgentCardResponder({
      card,
      logger: quiet,
      sign: { keys: { privateKey: ec.privateKey, alg: 'ES256' }, jwksPath: false },
    });
    expect(await none.respond(get('/.well-known/jwks.json'))).toBeUndefined();
  });

  it.each<[string, AgentCardOptions['sign'], RegExp]>([
    [
      'duplicate kids across the list',
      [
        { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' },
        { privateKey: ed.privateKey, kid: 'k', alg: 'EdDSA' },
      ],
      /options\.sign\[1\]: kid "k" is also the kid of options\.sign\[0\]/,
    ],
    [
      'a published key with the kid of a signing key',
      {
        keys: { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' },
        publish: [{ ...ed.publicKey.export({ format: 'jwk' }), kid: 'k' } as never],
      },
      /options\.sign: kid "k" names two keys/,
    ],
    [
      'a public key passed as the signing key',
      { privateKey: ec.publicKey, alg: 'ES256' },
      /options\.sign: privateKey: a public ec prime256v1 key cannot sign an Agent Card\. Pass the private key/,
    ],
    [
      'a key of the wrong type for alg',
      { privateKey: rsa.privateKey, alg: 'ES256' },
      /options\.sign: privateKey: alg "ES256" needs an EC P-256 key, got a private rsa 2048-bit key/,
    ],
    [
      'an RSA key under 2048 bits',
      { privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, alg: 'RS256' },
      /options\.sign: privateKey: alg "RS256" needs an RSA key of 2048 bits or more/,
    ],
    [
      'a jwksPath that is not a path',
      { keys: { privateKey: ec.privateKey, alg: 'ES256' }, jwksPath: 'jwks.json' },
      /options\.sign\.jwksPath: must be a path starting with "\/"/,
    ],
  ])('refuses %s at start-up, naming the option and the fix', (_, sign, message) => {
    const error = optionsError({ card, logger: quiet, sign });
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect(error.message).toMatch(message);
  });

  it('warns once at start-up that PS256 signatures differ between processes', () => {
    const warn = vi.fn();
    createAgentCardResponder({ card, logger: { warn }, sign: { privateKey: rsa.privateKey, alg: 'PS256' } });
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^agent card: options\.sign: PS256 signatures are randomized, .*Sign once at build time \(agent-card sign\)/,
      ),
    );
  });
});

describe('the extended card of a signing responder', () => {
  const TOKEN = 'partner-token';
  const audit = { id: 'audit', name: 'Audit', description: 'Lists what changed this week.', tags: ['admin'] };
  const declared: AgentCard = {
    ...card,
    supportedInterfaces: [
      { url: 'https://recipes.acme.dev/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { extendedAgentCard: true },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  const authenticate = (raw: unknown) =>
    (raw as { headers: Record<string, string> }).headers.authorization === `Bearer ${TOKEN}` ? 'partner' : undefined;
  const options = (extended: AgentCardOptions['extended'] = { authenticate, card: [audit] }): AgentCardOptions => ({
    card: declared,
    logger: quiet,
    extended,
    sign: { privateKey: ec.privateKey, kid: 'card-1', alg: 'ES256' },
  });
  const extendedOf = async (responder: ReturnType<typeof createAgentCardResponder>) => {
    const headers = { host: 'recipes.acme.dev', authorization: `Bearer ${TOKEN}` };
    return (await responder.respond({
      method: 'GET',
      path: '/a2a/rest/extendedAgentCard',
      headers,
      raw: { headers },
    }))!;
  };
  const jwksBytes = async (responder: ReturnType<typeof createAgentCardResponder>) =>
    (await responder.respond(get('/.well-known/jwks.json')))!.body!;

  it('serves the extended card signed, verifiable with the published key set by us and by @a2a-js/sdk', async () => {
    const responder = createAgentCardResponder(options());
    const response = await extendedOf(responder);
    expect(response.status).toBe(200);
    const extended = body(response);
    expect(extended.skills.map((s) => s.id)).toEqual(['find-recipe', 'audit']);
    // One per canonical form: `list: []` is default-valued, so the pruned form differs.
    expect(extended.signatures).toHaveLength(2);
    const jwks = JSON.parse(new TextDecoder().decode(await jwksBytes(responder)));
    expect(await verifyAgentCard(extended, { jwks })).toMatchObject({ valid: true });
    await expect(verifyAgentCardSignature(async () => ec.publicKey)(extended as never)).resolves.toBeUndefined();
    // The signature covers the extended content: the public card's signature does not verify it.
    const publicCard = body(await responder.respond(get()));
    expect(extended.signatures).not.toEqual(publicCard.signatures);
    expect((await verifyAgentCard({ ...extended, signatures: publicCard.signatures }, { jwks })).valid).toBe(false);
    // The JSON-RPC answer is the same signed card.
    const headers = { authorization: `Bearer ${TOKEN}` };
    const rpc = await getExtendedAgentCard(responder, { headers, raw: { headers } });
    expect(rpc.card).toEqual(extended);
  });

  it('signs each distinct extended card of an extended.card function once, the same on every request', async () => {
    const produce = vi.fn(() => [audit]);
    const responder = createAgentCardResponder(options({ authenticate, card: produce }));
    const first = await extendedOf(responder);
    const again = await extendedOf(responder);
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await verifyAgentCard(body(first), { keys: { 'card-1': ec.publicKey } })).valid).toBe(true);
  });

  it('gives replicas built from the same options the same extended bytes and ETag (ES256 is deterministic)', async () => {
    for (const extended of [
      { authenticate, card: [audit] },
      { authenticate, card: () => [audit] },
    ]) {
      const a = await extendedOf(createAgentCardResponder(options(extended)));
      const b = await extendedOf(createAgentCardResponder(options(extended)));
      expect(body(a).signatures).toHaveLength(2);
      expect(a.headers.etag).toBe(b.headers.etag);
      expect(a.body).toEqual(b.body);
    }
  });

  it('publishes no key for the extended card: the key set is the same with and without extended', async () => {
    const withExtended = await jwksBytes(createAgentCardResponder(options()));
    const { extended: _, ...rest } = options();
    const without = await jwksBytes(createAgentCardResponder(rest));
    expect(new TextDecoder().decode(withExtended)).toBe(new TextDecoder().decode(without));
    expect(JSON.parse(new TextDecoder().decode(withExtended)).keys).toHaveLength(1);
  });
});
