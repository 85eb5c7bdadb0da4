// Interoperability with the real @a2a-js/sdk 1.3.0, over HTTP: an SDK server (DefaultRequestHandler
// with its REST and JSON-RPC Express handlers) with our middleware in front for the well-known
// paths and the REST extended card, and the bridge for the SDK's JSON-RPC GetExtendedAgentCard.
// The SDK's own client discovers the card, sends a message over each transport and reads the
// extended card over each, with and without credentials.
import { createPublicKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import express from 'express';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import {
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { AgentCard as SdkAgentCardCodec, Role, verifyAgentCardSignature, type Message } from '@a2a-js/sdk';
import type { AgentCard } from '@agent-card/core';
import type { AgentCardOptions } from '@agent-card/core/http';
import { agentCard } from '@agent-card/express';
import { cardSignatureVerifier, extendedCardChallenge, extendedCardProvider, toA2aJsCard } from './index';

const API_KEY = 'interop-key-7f3a';
const refund = { id: 'refund', name: 'Refund', description: 'Refunds an order.', tags: ['orders'] };

function cardAt(url: string): AgentCard {
  return {
    name: 'Orders Agent',
    description: 'Looks up and tracks customer orders, and answers delivery questions.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { extendedAgentCard: true },
    securitySchemes: {
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key', description: 'Partner key' } },
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      oauth: {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://login.example.net/authorize',
              tokenUrl: 'https://login.example.net/token',
              scopes: { 'orders:read': 'Read orders' },
              pkceRequired: true,
            },
          },
        },
      },
      oidc: {
        openIdConnectSecurityScheme: { openIdConnectUrl: 'https://login.example.net/.well-known/openid-configuration' },
      },
      mtls: { mtlsSecurityScheme: { description: 'Client certificate' } },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'order-status', name: 'Order status', description: 'Where an order is.', tags: ['orders'] }],
  };
}

/** Replies to every message with its text, as an SDK agent does. */
const executor: AgentExecutor = {
  async execute(context, bus) {
    const part = context.userMessage.parts[0]?.content;
    const text = part?.$case === 'text' ? part.value : '';
    bus.publish(
      AgentEvent.message({
        messageId: `reply-${context.userMessage.messageId}`,
        contextId: context.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [
          { content: { $case: 'text', value: `echo: ${text}` }, metadata: undefined, filename: '', mediaType: '' },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      } as Message),
    );
    bus.finished();
  },
  async cancelTask() {},
};

type BridgeOptions = AgentCardOptions<{ headers: Record<string, string | string[] | undefined> }>;

/** The SDK's request handler for `card`, its extended card from the middleware's responder. */
const sdkHandler = (card: AgentCard, source: Parameters<typeof extendedCardProvider>[0]) =>
  new DefaultRequestHandler(
    toA2aJsCard(card),
    new InMemoryTaskStore(),
    executor,
    undefined,
    undefined,
    undefined,
    extendedCardProvider(source),
  );

const fetchWith =
  (headers: Record<string, string>): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } });

const transports = {
  'HTTP+JSON': (fetchImpl: typeof fetch) => new RestTransportFactory({ fetchImpl }),
  JSONRPC: (fetchImpl: typeof fetch) => new JsonRpcTransportFactory({ fetchImpl }),
};

/** A client that speaks `binding` only (the SDK's defaults would pick the card's first interface). */
const clientOver = (binding: keyof typeof transports, fetchImpl: typeof fetch) =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [transports[binding](fetchImpl)],
      preferredTransports: [binding],
    }),
  );

const userMessage = (text: string) => ({
  tenant: '',
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  } as Message,
  configuration: undefined,
  metadata: undefined,
});

describe('@a2a-js/sdk server and client with agent-card in front', () => {
  let server: Server;
  let url: string;
  let card: AgentCard;
  /** The principals authenticate saw, per call, to show both transports ask the same function. */
  const seen: string[] = [];

  beforeAll(async () => {
    const app = express();
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    card = cardAt(url);
    const options: BridgeOptions = {
      card,
      profile: 'development',
      logger: { warn() {} },
      extended: {
        authenticate: (req) => {
          const ok = req.headers['x-api-key'] === API_KEY;
          seen.push(ok ? 'partner' : 'anonymous');
          return ok ? { partner: 'acme' } : undefined;
        },
        card: [refund],
      },
    };
    const middleware = agentCard(options);
    app.use(middleware);
    const requestHandler = sdkHandler(card, middleware.responder);
    app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
    app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('discovers the card through the middleware and reads every security scheme', async () => {
    const discovered = await new DefaultAgentCardResolver().resolve(url);
    expect(discovered.name).toBe(card.name);
    expect(discovered.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(['HTTP+JSON', 'JSONRPC']);
    const schemes = Object.fromEntries(
      Object.entries(discovered.securitySchemes).map(([name, scheme]) => [name, scheme.scheme]),
    );
    expect(schemes).toEqual({
      apiKey: {
        $case: 'apiKeySecurityScheme',
        value: { location: 'header', name: 'x-api-key', description: 'Partner key' },
      },
      bearer: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer', bearerFormat: 'JWT', description: '' } },
      oauth: {
        $case: 'oauth2SecurityScheme',
        value: {
          description: '',
          oauth2MetadataUrl: '',
          flows: {
            flow: {
              $case: 'authorizationCode',
              value: {
                authorizationUrl: 'https://login.example.net/authorize',
                tokenUrl: 'https://login.example.net/token',
                refreshUrl: '',
                scopes: { 'orders:read': 'Read orders' },
                pkceRequired: true,
              },
            },
          },
        },
      },
      oidc: {
        $case: 'openIdConnectSecurityScheme',
        value: { openIdConnectUrl: 'https://login.example.net/.well-known/openid-configuration', description: '' },
      },
      mtls: { $case: 'mtlsSecurityScheme', value: { description: 'Client certificate' } },
    });
  });

  describe.each(Object.keys(transports) as (keyof typeof transports)[])('over %s', (binding) => {
    it('sends a message to the SDK server and gets its reply', async () => {
      const client = await clientOver(binding, fetch).createFromUrl(url);
      const reply = (await client.sendMessage(userMessage(`where is order 1001 (${binding})`))) as Message;
      const content = reply.parts[0]?.content;
      expect(content).toEqual({ $case: 'text', value: `echo: where is order 1001 (${binding})` });
    });

    it('reads the extended card with credentials, the same card on both transports', async () => {
      const paths: string[] = [];
      const recording: typeof fetch = (input, init) => {
        paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
        return fetchWith({ 'x-api-key': API_KEY })(input, init);
      };
      const client = await clientOver(binding, recording).createFromUrl(url);
      seen.length = 0;
      const extended = await client.getAgentCard();
      expect(seen).toEqual(['partner']);
      expect(paths.at(-1)).toBe(binding === 'JSONRPC' ? '/a2a/jsonrpc' : '/a2a/rest/extendedAgentCard');
      expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
      expect(extended.securitySchemes.apiKey?.scheme?.$case).toBe('apiKeySecurityScheme');
      const other = binding === 'JSONRPC' ? 'HTTP+JSON' : 'JSONRPC';
      const viaOther = await (
        await clientOver(other, fetchWith({ 'x-api-key': API_KEY })).createFromUrl(url)
      ).getAgentCard();
      expect(extended).toEqual(viaOther);
    });

    it('is refused the extended card without credentials, or with a wrong key', async () => {
      for (const fetchImpl of [fetch, fetchWith({ 'x-api-key': `${API_KEY}-wrong` })]) {
        const client = await clientOver(binding, fetchImpl).createFromUrl(url);
        seen.length = 0;
        await expect(client.getAgentCard()).rejects.toThrow(
          /Authentication is required to read the extended agent card/,
        );
        expect(seen).toEqual(['anonymous']);
      }
    });
  });

  it('answers a raw JSON-RPC GetExtendedAgentCard without credentials with the -32000 error object', async () => {
    const response = await fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetExtendedAgentCard', params: {} }),
    });
    const body = (await response.json()) as { id: number; error?: { code: number; message: string }; result?: unknown };
    expect(body.id).toBe(7);
    expect(body.result).toBeUndefined();
    expect(body.error).toMatchObject({
      code: -32000,
      message: 'Authentication is required to read the extended agent card.',
    });
  });
});

describe('@a2a-js/sdk client verifying the signed extended card', () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const card = cardAt(url);
    const options: BridgeOptions = {
      card,
      profile: 'development',
      logger: { warn() {} },
      sign: { privateKey: key.privateKey, alg: 'ES256' },
      extended: {
        authenticate: (req) => (req.headers['x-api-key'] === API_KEY ? { partner: 'acme' } : undefined),
        card: [refund],
      },
    };
    const middleware = agentCard(options);
    app.use(middleware);
    const requestHandler = sdkHandler(card, middleware.responder);
    app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The SDK's verifier, taking keys from the JWK Set the middleware publishes, by kid. */
  const sdkVerifier = () =>
    verifyAgentCardSignature(async (kid) => {
      const { keys } = (await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: JsonWebKey[] };
      const jwk = keys.find((k) => k.kid === kid);
      if (jwk === undefined) throw new Error(`no key ${kid}`);
      return createPublicKey({ key: jwk, format: 'jwk' });
    });
  const quietly = async <T>(run: () => Promise<T>): Promise<T> => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    try {
      return await run();
    } finally {
      debug.mockRestore();
    }
  };

  describe.each(Object.keys(transports) as (keyof typeof transports)[])('over %s', (binding) => {
    const client = () => clientOver(binding, fetchWith({ 'x-api-key': API_KEY })).createFromUrl(url);

    it('getAgentCard(options, cardSignatureVerifier) accepts the extended card, verified with the published key set', async () => {
      const verify = cardSignatureVerifier({ jwksUrl: `${url}/.well-known/jwks.json`, allowInsecureJwksUrl: true });
      const extended = await (await client()).getAgentCard(undefined, verify);
      expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
      expect(extended.signatures.length).toBeGreaterThan(0);
    });

    it("getAgentCard(options, verifier) accepts it with the SDK's own verifier given the card as ProtoJSON", async () => {
      const verify = sdkVerifier();
      const extended = await quietly(async () =>
        (await client()).getAgentCard(undefined, (card) => verify(SdkAgentCardCodec.toJSON(card) as never)),
      );
      expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
    });

    it("the SDK's verifier given its in-memory card leaves securitySchemes out of the payload and refuses it", async () => {
      await expect(quietly(async () => (await client()).getAgentCard(undefined, sdkVerifier()))).rejects.toThrow(
        'No valid signatures found on agent card.',
      );
    });

    it('cardSignatureVerifier refuses the card with a key set that does not hold the signing key', async () => {
      const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
      const verify = cardSignatureVerifier({ jwks: { keys: [{ ...other.export({ format: 'jwk' }), kid: 'other' }] } });
      await expect((await client()).getAgentCard(undefined, verify)).rejects.toThrow(
        /^No signature of the agent card verifies: #0 \(kid [\w-]+\): unknown kid/,
      );
    });
  });
});

describe('extendedCardChallenge: HTTP 401 with WWW-Authenticate for a refused JSON-RPC GetExtendedAgentCard', () => {
  let server: Server;
  let url: string;
  let errors: unknown[];

  beforeAll(async () => {
    const app = express();
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const card = cardAt(url);
    errors = [];
    const options: BridgeOptions = {
      card,
      profile: 'development',
      logger: { warn() {} },
      onError: (error) => errors.push(error),
      extended: {
        authenticate: (req) => {
          if (req.headers['x-api-key'] === 'throws') throw new Error('key store down');
          return req.headers['x-api-key'] === API_KEY ? { partner: 'acme' } : undefined;
        },
        card: [refund],
      },
    };
    const middleware = agentCard(options);
    app.use(middleware);
    const requestHandler = sdkHandler(card, middleware.responder);
    app.use(
      '/a2a/jsonrpc',
      extendedCardChallenge(),
      jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const rpc = (method: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: {} }),
    });

  it("the SDK client's retry-on-401 helper retries with the key the challenge names, and reads the extended card", async () => {
    const challenges: string[] = [];
    const authFetch = createAuthenticatingFetchWithRetry(fetch, {
      headers: async () => ({}),
      shouldRetryWithHeaders: async (_req, res) => {
        const challenge = res.headers.get('www-authenticate');
        if (res.status !== 401 || challenge === null) return undefined;
        challenges.push(challenge);
        // The header the ApiKey challenge names is where the key goes.
        const name = /ApiKey [^,]*, in="header", name="([^"]+)"/.exec(challenge)?.[1];
        return name === undefined ? undefined : { [name]: API_KEY };
      },
    });
    const client = await clientOver('JSONRPC', authFetch).createFromUrl(url);
    const extended = await client.getAgentCard();
    expect(extended.skills.map((skill) => skill.id)).toEqual(['order-status', 'refund']);
    // One challenge, the one the REST route sends.
    const rest = await fetch(`${url}/a2a/rest/extendedAgentCard`);
    expect(rest.status).toBe(401);
    expect(challenges).toEqual([rest.headers.get('www-authenticate')]);
    expect(challenges[0]).toBe(
      'ApiKey realm="Orders Agent", in="header", name="x-api-key", Bearer realm="Orders Agent", MutualTLS realm="Orders Agent"',
    );
  });

  it('answers 401, WWW-Authenticate and the JSON-RPC error object (with the request id) without credentials', async () => {
    const attempts: Record<string, string>[] = [{}, { 'x-api-key': `${API_KEY}-wrong` }, { 'x-api-key': 'throws' }];
    for (const headers of attempts) {
      const response = await rpc('GetExtendedAgentCard', headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^ApiKey realm="Orders Agent", in="header"/);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32000, message: 'Authentication is required to read the extended agent card.' },
      });
    }
    expect(errors).toHaveLength(1);
  });

  it('keeps concurrent calls apart: each refused one gets 401, each authenticated one 200', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? API_KEY : `${API_KEY}-wrong`));
    const statuses = await Promise.all(
      keys.map(async (key) => (await rpc('GetExtendedAgentCard', { 'x-api-key': key })).status),
    );
    expect(statuses).toEqual(keys.map((key) => (key === API_KEY ? 200 : 401)));
  });

  it('leaves every other answer as the SDK sends it: the card with credentials, other methods and their errors', async () => {
    const ok = await rpc('GetExtendedAgentCard', { 'x-api-key': API_KEY });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('www-authenticate')).toBeNull();
    const unknown = await rpc('NoSuchMethod');
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('www-authenticate')).toBeNull();
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32601);
    const client = await clientOver('JSONRPC', fetch).createFromUrl(url);
    const reply = (await client.sendMessage(userMessage('still there?'))) as Message;
    expect(reply.parts[0]?.content).toEqual({ $case: 'text', value: 'echo: still there?' });
  });
});
