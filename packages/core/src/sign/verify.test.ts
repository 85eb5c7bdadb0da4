import { type KeyObject, createHmac, createSecretKey, generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlattenedSign, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCardError } from '../errors';
import type { AgentCard, AgentCardSignature } from '../model';
import { canonicalizeAgentCard } from './canonicalize';
import { signAgentCard } from './sign';
import { type VerifyAgentCardOptions, verifyAgentCard } from './verify';

const card: AgentCard = {
  name: 'Recipe Agent',
  description: 'Finds recipes.',
  supportedInterfaces: [{ url: 'https://recipes.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'find', name: 'Find', description: 'Finds a recipe.', tags: ['cooking'] }],
};

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const publicJwk = (key: KeyObject, extra: Record<string, string> = {}) => ({
  ...key.export({ format: 'jwk' }),
  ...extra,
});
const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;
const b64 = (value: unknown) => base64url.encode(typeof value === 'string' ? value : JSON.stringify(value));
const payload = () => new TextEncoder().encode(canonicalizeAgentCard(card));

/** A signature with any protected header, made with jose directly (our signer refuses bad headers). */
async function signWithHeader(
  header: Record<string, unknown>,
  key: KeyObject = ec.privateKey,
): Promise<AgentCardSignature> {
  const jws = await new FlattenedSign(payload()).setProtectedHeader(header as never).sign(key);
  return { protected: jws.protected!, signature: jws.signature };
}

/** A signature over any header, even one jose would refuse to produce. */
function signRaw(header: Record<string, unknown>): AgentCardSignature {
  const encoded = b64(header);
  const input = `${encoded}.${base64url.encode(payload())}`;
  const signature = sign('sha256', Buffer.from(input), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }).toString(
    'base64url',
  );
  return { protected: encoded, signature };
}

const withSignatures = (...signatures: unknown[]) => ({ ...card, signatures }) as AgentCard;

async function expectOptionsError(options: VerifyAgentCardOptions, message: RegExp) {
  const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
  const error = await verifyAgentCard(signed, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentCardError);
  expect((error as AgentCardError).code).toBe('ERR_AGENT_CARD_SIGNATURE');
  expect((error as AgentCardError).message).toMatch(message);
}

describe('verifyAgentCard: keys', () => {
  it.each([
    ['an SPKI PEM', () => spki(ec.publicKey)],
    ['a public JWK', () => publicJwk(ec.publicKey)],
    ['a KeyObject', () => ec.publicKey],
    ['a private KeyObject (its public half is used)', () => ec.privateKey],
    [
      'a CryptoKey',
      () =>
        webcrypto.subtle.importKey('jwk', publicJwk(ec.publicKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, [
          'verify',
        ]),
    ],
  ])('verifies with the key given as %s and names it', async (_, key) => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const result = await verifyAgentCard(signed, { keys: { k: (await key()) as never } });
    expect(result).toEqual({
      valid: true,
      signatures: [{ index: 0, kid: 'k', alg: 'ES256', valid: true, key: 'keys["k"]', form: 'pruned' }],
    });
  });

  it('verifies with a JWKS, matching by kid', async () => {
    const signed = await signAgentCard(card, { privateKey: rsa.privateKey, kid: 'rsa-1', alg: 'RS256' });
    const jwks = {
      keys: [
        publicJwk(ec.publicKey, { kid: 'ec-1' }),
        publicJwk(rsa.publicKey, { kid: 'rsa-1', use: 'sig', alg: 'RS256' }),
      ],
    };
    expect(await verifyAgentCard(signed, { jwks })).toMatchObject({
      valid: true,
      signatures: [{ valid: true, key: 'jwks["rsa-1"]' }],
    });
  });

  it('says which signature verified and why each other one failed', async () => {
    const signed = await signAgentCard(card, { privateKey: ed.privateKey, kid: 'retired', alg: 'EdDSA' });
    const twice = await signAgentCard(signed, { privateKey: ec.privateKey, kid: 'current', alg: 'ES256' });
    const result = await verifyAgentCard(twice, { keys: { current: ec.publicKey } });
    expect(result.valid).toBe(true);
    expect(result.signatures).toEqual([
      {
        index: 0,
        kid: 'retired',
        alg: 'EdDSA',
        valid: false,
        reason: 'unknown kid "retired": no trusted key has this kid',
      },
      { index: 1, kid: 'current', alg: 'ES256', valid: true, key: 'keys["current"]', form: 'pruned' },
    ]);
  });

  it('is invalid, with a reason, for a card without signatures', async () => {
    expect(await verifyAgentCard(card, { keys: { k: ec.publicKey } })).toEqual({
      valid: false,
      signatures: [],
      reason: 'the card has no signatures',
    });
    expect(await verifyAgentCard(withSignatures(), { keys: { k: ec.publicKey } })).toEqual({
      valid: false,
      signatures: [],
      reason: 'the card has no signatures',
    });
    expect(await verifyAgentCard({ ...card, signatures: 'x' } as never, { keys: { k: ec.publicKey } })).toMatchObject({
      valid: false,
      reason: '"signatures" is not an array',
    });
    expect(await verifyAgentCard(null as never, { keys: { k: ec.publicKey } })).toMatchObject({
      valid: false,
      reason: 'the card is not a JSON object',
    });
  });

  it('reports a card that cannot be canonicalized on every signature', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const result = await verifyAgentCard({ ...signed, name: 'a\uD800' } as never, { keys: { k: ec.publicKey } });
    expect(result.valid).toBe(false);
    expect(result.reason).toMatch(
      /^the card cannot be canonicalized: canonicalizeAgentCard: the card cannot be serialized with RFC 8785 \(Lone surrogate/,
    );
    expect(result.signatures[0]!.reason).toBe(result.reason);
  });
});

describe('verifyAgentCard: refusals', () => {
  const hmacConfusion = (() => {
    // The classic attack: HMAC keyed with the verifier's public key, which is public.
    const header = b64({ alg: 'HS256', typ: 'JOSE', kid: 'k' });
    const signature = createHmac('sha256', spki(ec.publicKey))
      .update(`${header}.${base64url.encode(payload())}`)
      .digest('base64url');
    return { protected: header, signature };
  })();

  it.each<[string, () => Promise<unknown> | unknown, RegExp, VerifyAgentCardOptions?]>([
    [
      'alg none',
      () => ({ protected: b64({ alg: 'none', typ: 'JOSE', kid: 'k' }), signature: 'AA' }),
      /^alg "none" means an unsigned card and is never accepted$/,
    ],
    [
      'HMAC signed with the public key (key/alg confusion)',
      () => hmacConfusion,
      /^alg "HS256" is HMAC, .*\(key\/alg confusion\)$/,
    ],
    [
      'an alg outside the allowlist',
      () => ({ protected: b64({ alg: 'ES256K', typ: 'JOSE', kid: 'k' }), signature: 'AA' }),
      /^alg "ES256K" is not an allowed Agent Card signing algorithm$/,
    ],
    [
      'an alg the caller did not allow',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k' }),
      /^alg "ES256" is not in the algorithms this verifier accepts \(EdDSA\)$/,
      { keys: { k: ec.publicKey }, algorithms: ['EdDSA'] },
    ],
    [
      'an unknown kid',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'other' }),
      /^unknown kid "other": no trusted key has this kid$/,
    ],
    [
      'a kid chosen to flood the report and move the cursor',
      () => signRaw({ alg: 'ES256', typ: 'JOSE', kid: `${'x'.repeat(100_000)}\n\u001b[2J` }),
      /^unknown kid "x{119}…": no trusted key has this kid$/,
    ],
    [
      'a missing kid',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE' }),
      /^the protected header has no "kid", so no trusted key can be chosen$/,
    ],
    [
      'a missing typ',
      () => signWithHeader({ alg: 'ES256', kid: 'k' }),
      /^the protected header has no "typ" \(spec §8\.4\.2: "JOSE"\)$/,
    ],
    [
      'a missing alg',
      () => ({ protected: b64({ typ: 'JOSE', kid: 'k' }), signature: 'AA' }),
      /^alg is missing \(undefined\)$/,
    ],
    [
      'an http jku',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k', jku: 'http://keys.example.com/jwks.json' }),
      /^jku is not https \(http:\/\/keys\.example\.com\/jwks\.json\): keys must come over https/,
    ],
    [
      'a jku that is not a URL',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k', jku: 'jwks.json' }),
      /^jku is not an absolute URL/,
    ],
    [
      'protected not base64url',
      () => ({ protected: 'eyJ+YWxn', signature: 'AA' }),
      /^malformed signature: "protected" is not base64url \(RFC 7515 §2\)$/,
    ],
    [
      'signature not base64url',
      () => ({ protected: b64({ alg: 'ES256', typ: 'JOSE', kid: 'k' }), signature: 'AA==' }),
      /^malformed signature: "signature" is not base64url/,
    ],
    [
      'a header that is not JSON',
      () => ({ protected: b64('{alg:'), signature: 'AA' }),
      /^malformed signature: "protected" does not decode to JSON/,
    ],
    [
      'a header nested deeper than 64 levels',
      () => ({
        protected: b64(`{"alg":"ES256","typ":"JOSE","kid":"k","x":${'['.repeat(5000)}${']'.repeat(5000)}}`),
        signature: 'AA',
      }),
      /^malformed signature: "protected" does not decode to JSON \(nested deeper than 64 levels\)$/,
    ],
    [
      'a header that is not an object',
      () => ({ protected: b64('["ES256"]'), signature: 'AA' }),
      /^malformed signature: "protected" does not decode to a JSON object$/,
    ],
    [
      'a header that is not UTF-8',
      () => ({ protected: base64url.encode(new Uint8Array([0xff, 0xfe])), signature: 'AA' }),
      /^malformed signature: "protected" does not decode to JSON/,
    ],
    [
      'an entry without signature',
      () => ({ protected: b64({ alg: 'ES256', typ: 'JOSE', kid: 'k' }) }),
      /^malformed signature: "signature" is missing or not a string$/,
    ],
    ['an entry that is not an object', () => 'sig', /^malformed signature: the entry is not an object$/],
    [
      'a key of another type (RSA key, ES256 signature)',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k' }),
      /^keys\["k"\]: alg "ES256" needs an EC P-256 key but the key is a public rsa 2048-bit key \(key\/alg confusion\)$/,
      { keys: { k: rsa.publicKey } },
    ],
    [
      'a JWK published for another alg',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k' }),
      /^jwks\["k"\] is for alg "ES384", the signature uses "ES256"$/,
      { jwks: { keys: [publicJwk(ec.publicKey, { kid: 'k', alg: 'ES384' })] } },
    ],
    [
      'a JWK for encryption',
      () => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k' }),
      /^unknown kid "k": no trusted key has this kid \(jwks\["k"\] is for "use": "enc", not signatures\)$/,
      { jwks: { keys: [publicJwk(ec.publicKey, { kid: 'k', use: 'enc' })] } },
    ],
    [
      'an oct JWK in the JWKS',
      () => hmacConfusion,
      /^alg "HS256" is HMAC/,
      { jwks: { keys: [{ kty: 'oct', kid: 'k', k: 'c2VjcmV0' }] } },
    ],
    [
      'a signature by another key',
      () =>
        signWithHeader(
          { alg: 'ES256', typ: 'JOSE', kid: 'k' },
          generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
        ),
      /^keys\["k"\]: the signature does not match the card: the card changed after signing, or another key signed it$/,
    ],
    [
      'an unknown critical header',
      () => signRaw({ alg: 'ES256', typ: 'JOSE', kid: 'k', crit: ['exp'], exp: 1 }),
      /^keys\["k"\]: not supported: Extension Header Parameter "exp" is not recognized$/,
    ],
  ])('fails on %s, with a clear reason', async (_, entry, reason, options = { keys: { k: ec.publicKey } }) => {
    const result = await verifyAgentCard(withSignatures(await entry()), options);
    expect(result.valid).toBe(false);
    expect(result.signatures).toHaveLength(1);
    expect(result.signatures[0]!.valid).toBe(false);
    expect(result.signatures[0]!.reason).toMatch(reason);
  });

  it('fails when one byte of the card changes, naming the signature', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const result = await verifyAgentCard({ ...signed, version: '1.0.1' }, { keys: { k: ec.publicKey } });
    expect(result).toEqual({
      valid: false,
      signatures: [
        {
          index: 0,
          kid: 'k',
          alg: 'ES256',
          valid: false,
          reason:
            'keys["k"]: the signature does not match the card: the card changed after signing, or another key signed it',
        },
      ],
    });
  });

  it('still verifies when only default-valued members are added (the pruned form)', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const changed = { ...signed, iconUrl: '', skills: [{ ...signed.skills[0]!, examples: [] }] } as AgentCard;
    const result = await verifyAgentCard(changed, { keys: { k: ec.publicKey } });
    expect(result.valid).toBe(true);
    expect(result.signatures[0]?.form).toBe('pruned');
    expect((await verifyAgentCard(changed, { keys: { k: ec.publicKey }, forms: ['served-as-is'] })).valid).toBe(false);
  });

  it('a pruned-form signature does not pass for a served-as-is one once a scope-less requirement is removed', async () => {
    // An API key requirement without scopes is all default values: the pruned form leaves it out.
    const guarded = { ...card, securityRequirements: [{ schemes: { apiKey: { list: [] } } }] } as AgentCard;
    const signed = await signAgentCard(guarded, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    expect(signed.signatures).toHaveLength(2);
    const { securityRequirements: _, ...open } = signed;
    const strict = await verifyAgentCard(open as AgentCard, { keys: { k: ec.publicKey }, forms: ['served-as-is'] });
    expect(strict.valid).toBe(false);
    expect(strict.signatures[0]?.reason).toBe(
      'the signature covers the pruned form, which this verification does not accept (forms: served-as-is)',
    );
    expect(strict.signatures[1]?.reason).toMatch(/^keys\["k"\]: the signature does not match the card/);
    // Both forms accepted: it verifies, over the pruned form only.
    const lenient = await verifyAgentCard(open as AgentCard, { keys: { k: ec.publicKey } });
    expect(lenient.signatures.map((s) => [s.valid, s.form])).toEqual([
      [true, 'pruned'],
      [false, undefined],
    ]);
    // On the card as signed, the pruned-form signature says which members it leaves uncovered.
    const honest = await verifyAgentCard(signed, { keys: { k: ec.publicKey } });
    expect(honest.signatures[0]).toMatchObject({ valid: true, form: 'pruned', uncovered: ['/securityRequirements'] });
    expect(honest.signatures[1]).toMatchObject({ valid: true, form: 'served-as-is' });
    expect(honest.signatures[1]?.uncovered).toBeUndefined();
  });

  it('lists the members the pruned form leaves out in the order of the canonical text', async () => {
    const scheme = { apiKeySecurityScheme: { location: 'header', name: 'X-Key', description: '' } };
    const schemes = { b: scheme, '10': scheme, a: scheme, '2': scheme };
    const signed = await signAgentCard({ ...card, securitySchemes: schemes } as AgentCard, {
      privateKey: ec.privateKey,
      kid: 'k',
      alg: 'ES256',
    });
    const result = await verifyAgentCard(signed, { keys: { k: ec.publicKey } });
    expect(result.signatures[0]?.uncovered).toEqual(
      ['2', '10', 'a', 'b'].map((name) => `/securitySchemes/${name}/apiKeySecurityScheme/description`),
    );
  });

  it('refuses a signature that names a form that is not one', async () => {
    const forged = await signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k', agentCardForm: 'model' });
    const result = await verifyAgentCard(withSignatures(forged), { keys: { k: ec.publicKey } });
    expect(result.signatures[0]?.reason).toBe(
      'the protected header\'s "agentCardForm" is "model", not a canonical form (pruned, served-as-is)',
    );
  });

  it('fails when a member outside the v1.0 model is added, since a reader sees it', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const changed = { ...signed, url: 'https://evil.example/a2a' } as AgentCard;
    const result = await verifyAgentCard(changed, { keys: { k: ec.publicKey } });
    expect(result.valid).toBe(false);
    expect(result.signatures[0]?.reason).toMatch(
      /^keys\["k"\]: the signature does not cover \/url: it matches the card only as the v1\.0 model reads it/,
    );
    expect(result.signatures[0]?.uncovered).toEqual(['/url']);
  });

  it.each<[string, VerifyAgentCardOptions, RegExp]>([
    [
      'no key source',
      {},
      /^verifyAgentCard: no trusted key source\. Pass keys \(by kid\), jwks, jwksUrl, or allowJkuHosts\.$/,
    ],
    [
      'HMAC in algorithms',
      { keys: { k: ec.publicKey }, algorithms: ['HS256' as never] },
      /^verifyAgentCard: algorithms: alg "HS256" is HMAC.*\. Use only ES256, /,
    ],
    [
      'none in algorithms',
      { keys: { k: ec.publicKey }, algorithms: ['none' as never] },
      /^verifyAgentCard: algorithms: alg "none" means an unsigned card/,
    ],
    [
      'an empty algorithms list',
      { keys: { k: ec.publicKey }, algorithms: [] },
      /^verifyAgentCard: algorithms is empty\. /,
    ],
    [
      'a secret KeyObject',
      { keys: { k: createSecretKey(Buffer.alloc(32)) } },
      /^verifyAgentCard: keys\["k"\]: a secret \(symmetric\) key cannot verify Agent Card signatures\. HMAC is refused/,
    ],
    [
      'an oct JWK',
      { keys: { k: { kty: 'oct', k: 'AAAA' } } },
      /^verifyAgentCard: keys\["k"\]: the JWK is a symmetric "oct" key\. /,
    ],
    [
      'a string that is not PEM',
      { keys: { k: 'key.pub' } },
      /^verifyAgentCard: keys\["k"\]: a string key must be a PEM document/,
    ],
    [
      'an http jwksUrl',
      { jwksUrl: 'http://keys.example.com/jwks.json' },
      /^verifyAgentCard: jwksUrl is not https \(http:\/\/keys\.example\.com\/jwks\.json\)\. Use https \(allowInsecureJwksUrl admits http to 127\.0\.0\.1 for tests\)\.$/,
    ],
    [
      'an http jwksUrl to a non-loopback host even when insecure URLs are allowed',
      { jwksUrl: 'http://keys.example.com/jwks.json', allowInsecureJwksUrl: true },
      /^verifyAgentCard: jwksUrl is not https .*only admits http to 127\.0\.0\.1/,
    ],
    ['a jwks without keys', { jwks: {} as never }, /^verifyAgentCard: jwks has no "keys" array\. /],
  ])('throws ERR_AGENT_CARD_SIGNATURE for %s', async (_, options, message) => {
    await expectOptionsError(options, message);
  });
});

describe('verifyAgentCard: JWKS URLs and jku', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  const jwks = JSON.stringify({ keys: [publicJwk(ec.publicKey, { kid: 'k', use: 'sig' })] });

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      else if (req.url === '/redirect') res.writeHead(302, { location: '/jwks.json' }).end();
      else if (req.url === '/html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
      else if (req.url === '/empty') res.writeHead(200).end('{"keys":"none"}');
      else if (req.url === '/deep')
        res.writeHead(200).end(`${jwks.slice(0, -1)},"x":${'['.repeat(5000)}${']'.repeat(5000)}}`);
      else if (req.url === '/latin1')
        res.writeHead(200).end(Buffer.from(`${jwks.slice(0, -1)},"x":"\u00e9"}`, 'latin1'));
      else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once('drain', pump);
          else res.end();
        };
        pump();
      } else if (req.url === '/slow') res.writeHead(200).write('{"keys":[');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches jwksUrl once per call, whatever the number of signatures', async () => {
    hits.length = 0;
    const once = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const twice = await signAgentCard(once, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const result = await verifyAgentCard(twice, { jwksUrl: `${base}/jwks.json`, allowInsecureJwksUrl: true });
    expect(result.signatures.map((s) => [s.valid, s.key])).toEqual([
      [true, `${base}/jwks.json#k`],
      [true, `${base}/jwks.json#k`],
    ]);
    expect(hits).toEqual(['/jwks.json']);
  });

  it.each([
    ['/redirect', /redirects \(302\); configure the final URL/],
    ['/html', /is not JSON/],
    ['/empty', /has no "keys" array of JWK objects/],
    ['/deep', /is not JSON \(nested deeper than 64 levels\)/],
    ['/latin1', /is not JSON \(byte 0xe9 at offset \d+ is not UTF-8\)/],
    ['/missing', /answered HTTP 404/],
    ['/huge', /is larger than 262144 bytes/],
  ])('reports a JWKS at %s that cannot be used', async (path, reason) => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const result = await verifyAgentCard(signed, { jwksUrl: `${base}${path}`, allowInsecureJwksUrl: true });
    expect(result.valid).toBe(false);
    expect(result.signatures[0]!.reason).toMatch(
      /^unknown kid "k": no trusted key has this kid \(JWKS http:\/\/127\.0\.0\.1:\d+\//,
    );
    expect(result.signatures[0]!.reason).toMatch(reason);
  });

  it('gives up on a JWKS that never finishes within timeoutMs', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const started = performance.now();
    const result = await verifyAgentCard(signed, {
      jwksUrl: `${base}/slow`,
      allowInsecureJwksUrl: true,
      timeoutMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.signatures[0]!.reason).toMatch(/did not answer within 300 ms/);
  });

  it('gives up within timeoutMs even when a custom fetch ignores the abort signal', async () => {
    const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256' });
    const never = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const result = await verifyAgentCard(signed, {
      jwksUrl: 'https://keys.example.com/jwks.json',
      fetch: never,
      timeoutMs: 100,
    });
    expect(result.signatures[0]!.reason).toMatch(
      /JWKS https:\/\/keys\.example\.com\/jwks\.json did not answer within 100 ms/,
    );
  });

  describe('jku policy', () => {
    const jku = 'https://keys.example.com/.well-known/jwks.json';
    const requested: string[] = [];
    const fakeFetch = (async (url: URL | string) => {
      requested.push(String(url));
      return new Response(jwks, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;

    it('never fetches a jku whose host is not allowed: the key must come from the caller', async () => {
      requested.length = 0;
      const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256', jku });
      const result = await verifyAgentCard(signed, { keys: { other: ed.publicKey }, fetch: fakeFetch });
      expect(result.signatures[0]).toMatchObject({
        valid: false,
        jku,
        reason: 'unknown kid "k": no trusted key has this kid',
      });
      expect(requested).toEqual([]);
      expect((await verifyAgentCard(signed, { keys: { k: ec.publicKey }, fetch: fakeFetch })).valid).toBe(true);
      expect(requested).toEqual([]);
    });

    it('fetches a jku whose host the caller allowed', async () => {
      requested.length = 0;
      const signed = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256', jku });
      const result = await verifyAgentCard(signed, { allowJkuHosts: ['keys.example.com'], fetch: fakeFetch });
      expect(result.signatures[0]).toMatchObject({ valid: true, key: `${jku}#k` });
      expect(requested).toEqual([jku]);
    });

    it('fails a signature whose jku differs from the trusted jwksUrl', async () => {
      requested.length = 0;
      const signed = await signAgentCard(card, {
        privateKey: ec.privateKey,
        kid: 'k',
        alg: 'ES256',
        jku: 'https://evil.example.net/jwks.json',
      });
      const result = await verifyAgentCard(signed, { jwksUrl: jku, fetch: fakeFetch });
      expect(result.signatures[0]!.reason).toBe(
        `jku https://evil.example.net/jwks.json differs from the trusted jwksUrl ${jku}; add it to allowJkuHosts if both are yours`,
      );
      expect(requested).toEqual([]);
      const same = await signAgentCard(card, { privateKey: ec.privateKey, kid: 'k', alg: 'ES256', jku });
      expect((await verifyAgentCard(same, { jwksUrl: jku, fetch: fakeFetch })).valid).toBe(true);
    });
  });
});

describe('verifyAgentCard: the card cannot choose what the verifier fetches', () => {
  const jwksBody = JSON.stringify({ keys: [publicJwk(ec.publicKey, { kid: 'k', use: 'sig' })] });
  /** A fetch that records every URL asked for and answers with the key set after `delayMs`. */
  const recordingFetch = (delayMs = 0) => {
    const asked: string[] = [];
    const fetchImpl = (async (input: string | URL | Request) => {
      asked.push(String(input instanceof Request ? input.url : input));
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return new Response(jwksBody, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    return { asked, fetchImpl };
  };
  const withJkus = async (jkus: string[]) => ({
    ...card,
    signatures: await Promise.all(jkus.map((jku) => signWithHeader({ alg: 'ES256', typ: 'JOSE', kid: 'k', jku }))),
  });

  it('20 signatures naming 20 jkus on an allowed host cause one fetch, not 20', async () => {
    const { asked, fetchImpl } = recordingFetch();
    const jkus = Array.from({ length: 20 }, (_, i) => `https://keys.acme-corp.io/internal/set-${i}.json`);
    const result = await verifyAgentCard(await withJkus(jkus), {
      allowJkuHosts: ['keys.acme-corp.io'],
      fetch: fetchImpl,
    });
    expect(asked).toEqual(['https://keys.acme-corp.io/internal/set-0.json']);
    expect(result.valid).toBe(true);
    expect(result.signatures[1]!.reason).toMatch(
      /jku https:\/\/keys\.acme-corp\.io\/internal\/set-1\.json was not fetched: allowJkuHosts entry "keys\.acme-corp\.io" already gave https:\/\/keys\.acme-corp\.io\/internal\/set-0\.json/,
    );
  });

  it.each([
    [
      'a port the entry does not name',
      'https://keys.acme-corp.io:9000/internal/admin',
      /uses port 9000, which no allowJkuHosts entry names/,
    ],
    [
      'a query string',
      'https://keys.acme-corp.io/internal/admin?delete=0',
      /carries a query string, which only an exact allowJkuHosts URL may/,
    ],
    ['both', 'https://keys.acme-corp.io:9000/internal/admin?delete=0', /uses port 9000/],
  ])('a jku with %s is never fetched', async (_, jku, reason) => {
    const { asked, fetchImpl } = recordingFetch();
    const result = await verifyAgentCard(await withJkus([jku]), {
      allowJkuHosts: ['keys.acme-corp.io'],
      fetch: fetchImpl,
    });
    expect(asked).toEqual([]);
    expect(result.valid).toBe(false);
    expect(result.signatures[0]!.reason).toMatch(reason);
  });

  it('an entry that names the port or the exact URL admits exactly that', async () => {
    const { asked, fetchImpl } = recordingFetch();
    const jku = 'https://keys.acme-corp.io:9000/jwks.json?set=cards';
    const exact = await verifyAgentCard(await withJkus([jku]), { allowJkuHosts: [jku], fetch: fetchImpl });
    expect(exact.valid).toBe(true);
    const port = await verifyAgentCard(await withJkus(['https://keys.acme-corp.io:9000/jwks.json']), {
      allowJkuHosts: ['keys.acme-corp.io:9000'],
      fetch: fetchImpl,
    });
    expect(port.valid).toBe(true);
    expect(asked).toEqual([jku, 'https://keys.acme-corp.io:9000/jwks.json']);
  });

  it('all key-set fetches of one verification share one timeoutMs budget', async () => {
    const { asked, fetchImpl } = recordingFetch(400);
    const hosts = ['a.keys.example', 'b.keys.example', 'c.keys.example', 'd.keys.example', 'e.keys.example'];
    const card = await withJkus(hosts.map((host) => `https://${host}/jwks.json`));
    const started = performance.now();
    const result = await verifyAgentCard(
      { ...card, signatures: card.signatures.map((s) => ({ ...s, signature: `${s.signature.slice(0, -4)}AAAA` })) },
      { allowJkuHosts: hosts, fetch: fetchImpl, timeoutMs: 1_000 },
    );
    expect(performance.now() - started).toBeLessThan(1_600);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(result.signatures.at(-1)!.reason).toMatch(
      /the 1000 ms budget of this verification is spent|did not answer within 1000 ms/,
    );
  });

  it('a malformed allowJkuHosts entry is an options error naming it', async () => {
    await expect(verifyAgentCard(card, { allowJkuHosts: ['keys.example.com/path'] })).rejects.toThrow(
      /verifyAgentCard: allowJkuHosts entry "keys\.example\.com\/path" is not a host, host:port or https URL/,
    );
    await expect(verifyAgentCard(card, { allowJkuHosts: ['http://keys.example.com/jwks.json'] })).rejects.toThrow(
      /allowJkuHosts entry "http:\/\/keys\.example\.com\/jwks\.json" is not https/,
    );
  });
});
