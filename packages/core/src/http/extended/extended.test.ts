import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../../model';
import {
  CONFORMANCE_CARD,
  CONFORMANCE_EXTENDED_PATH,
  CONFORMANCE_TOKEN,
  EXTENDED_ONLY_SKILL,
} from '../../testing/cards';
import { getExtendedAgentCard } from './get';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponse } from '../types';

const quiet = { warn: () => {} };
type Raw = { headers: Record<string, string | undefined> };

const authenticate = (raw: unknown) => {
  const auth = (raw as Raw | undefined)?.headers.authorization;
  return auth === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'tester' } : undefined;
};

function responderWith(options: Partial<AgentCardOptions> = {}) {
  return createAgentCardResponder({
    card: CONFORMANCE_CARD,
    logger: quiet,
    extended: { authenticate, card: [EXTENDED_ONLY_SKILL] },
    ...options,
  });
}

async function call(
  options: Partial<AgentCardOptions>,
  request: Partial<AgentCardRequest>,
): Promise<AgentCardResponse | undefined> {
  const headers = request.headers ?? {};
  return responderWith(options).respond({
    method: 'GET',
    path: CONFORMANCE_EXTENDED_PATH,
    headers,
    raw: { headers },
    ...request,
  });
}

const json = (res: AgentCardResponse | undefined) => JSON.parse(new TextDecoder().decode(res!.body!));
const authorized = { authorization: `Bearer ${CONFORMANCE_TOKEN}` };

describe('REST GetExtendedAgentCard', () => {
  it('401 with WWW-Authenticate from every declared scheme and a google.rpc.Status body', async () => {
    const res = await call({}, {});
    expect(res?.status).toBe(401);
    expect(res?.headers['www-authenticate']).toBe(
      'Bearer realm="Conformance Agent", ApiKey realm="Conformance Agent", in="header", name="X-API-Key"',
    );
    expect(res?.headers['cache-control']).toBe('no-store');
    expect(res?.headers.vary).toBe('Authorization, X-API-Key');
    expect(json(res)).toEqual({
      error: {
        code: 401,
        status: 'UNAUTHENTICATED',
        message: 'Authentication is required to read the extended agent card.',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'UNAUTHENTICATED',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    });
  });

  it('200 with the extended skills, private caching and Vary: Authorization', async () => {
    const res = await call({}, { headers: authorized });
    expect(res?.status).toBe(200);
    expect(res?.headers).toMatchObject({
      'content-type': 'application/a2a+json',
      'cache-control': 'private, no-store',
      vary: 'Authorization, X-API-Key',
    });
    expect(json(res).skills.map((s: { id: string }) => s.id)).toEqual(['public-answer', 'private-audit']);
    const again = await call({}, { headers: { ...authorized, 'if-none-match': res!.headers.etag! } });
    expect(again?.status).toBe(304);
    expect(again?.headers['cache-control']).toBe('private, no-store');
  });

  it('the extended card may depend on the principal; each is validated', async () => {
    const onError = vi.fn();
    const responder = responderWith({
      onError,
      extended: {
        authenticate: (raw) => (raw as Raw).headers.authorization?.slice(7) || undefined,
        card: (who: string) =>
          who === 'bad'
            ? [{ id: '', name: '', description: '', tags: [] }]
            : { description: `Extended card for ${who}.` },
      },
    });
    const get = (token: string) =>
      responder.respond({
        method: 'GET',
        path: CONFORMANCE_EXTENDED_PATH,
        headers: {},
        raw: { headers: { authorization: `Bearer ${token}` } },
      });
    expect(json(await get('alice')).description).toBe('Extended card for alice.');
    expect(json(await get('bob')).description).toBe('Extended card for bob.');
    const bad = await get('bad');
    expect(bad?.status).toBe(503);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'ERR_AGENT_CARD_INVALID' }));
    expect(new TextDecoder().decode(bad!.body!)).not.toMatch(/at |Error:/);
  });

  it.each([
    [
      'not declared',
      { ...CONFORMANCE_CARD, capabilities: {} },
      { extended: { authenticate } },
      400,
      'UNSUPPORTED_OPERATION',
    ],
    ['declared, not configured', CONFORMANCE_CARD, { extended: undefined }, 400, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
  ])('%s → $3 $4', async (_name, card, options, status, reason) => {
    const res = await call({ card: card as AgentCard, ...options }, { headers: authorized });
    expect(res?.status).toBe(status);
    expect(json(res).error.details[0].reason).toBe(reason);
  });

  it('neither declared nor configured: the path belongs to the app', async () => {
    const res = await call(
      { card: { ...CONFORMANCE_CARD, capabilities: {} }, extended: undefined },
      { headers: authorized },
    );
    expect(res).toBeUndefined();
  });

  it.each([
    ['POST', 405],
    ['OPTIONS', 204],
    ['HEAD', 401],
  ])('%s → %i', async (method, status) => {
    expect((await call({}, { method }))?.status).toBe(status);
  });

  it('extended.path moves the endpoint; false turns it off', async () => {
    expect((await call({ extended: { authenticate, path: '/private/card' } }, { path: '/private/card' }))?.status).toBe(
      401,
    );
    expect(await call({ extended: { authenticate, path: '/private/card' } }, {})).toBeUndefined();
    expect(await call({ extended: { authenticate, path: false } }, {})).toBeUndefined();
  });

  describe('an HTTP+JSON interface with a tenant', () => {
    const tenantCard: AgentCard = {
      ...CONFORMANCE_CARD,
      supportedInterfaces: [
        {
          url: 'https://agent.example.com/rest',
          protocolBinding: 'HTTP+JSON',
          protocolVersion: '1.0',
          tenant: 'acme corp',
        },
        { url: 'https://agent.example.com/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    const dynamic = () => tenantCard;
    const options = {
      dynamic: {
        card: dynamic,
        dynamic: { cacheKey: () => 'one' },
        extended: {
          authenticate,
          card: [EXTENDED_ONLY_SKILL],
          path: ['/rest/extendedAgentCard', '/rest/acme%20corp/extendedAgentCard'],
        },
      },
      static: { card: tenantCard },
    };

    it.each(['static', 'dynamic'] as const)(
      '%s card: answers /{tenant}/extendedAgentCard, percent-encoded as clients send it, and the plain path',
      async (kind) => {
        const responder = responderWith(options[kind] as Partial<AgentCardOptions>);
        // A per-request card is built for the request's host.
        const get = (path: string, extra: Record<string, string> = {}) => {
          const headers = { host: 'agent.example.com', ...extra };
          return responder.respond({ method: 'GET', path, headers, raw: { headers } });
        };
        const withTenant = await get('/rest/acme%20corp/extendedAgentCard', authorized);
        expect(withTenant?.status).toBe(200);
        expect(json(withTenant).skills.map((s: { id: string }) => s.id)).toContain('private-audit');
        expect((await get('/rest/acme%20corp/extendedAgentCard'))?.status).toBe(401);
        expect((await get('/rest/extendedAgentCard', authorized))?.status).toBe(200);
        // Another tenant, or the tenant under another base, is not this card's endpoint.
        expect(await get('/rest/other/extendedAgentCard', authorized)).toBeUndefined();
        expect(await get('/rpc/acme%20corp/extendedAgentCard', authorized)).toBeUndefined();
      },
    );

    it('an explicit extended.path is the only path served', async () => {
      const responder = responderWith({ card: tenantCard, extended: { authenticate, path: '/private/card' } });
      const get = (path: string) =>
        responder.respond({ method: 'GET', path, headers: authorized, raw: { headers: authorized } });
      expect((await get('/private/card'))?.status).toBe(200);
      expect(await get('/rest/acme%20corp/extendedAgentCard')).toBeUndefined();
    });
  });

  it('an authenticate that throws is a 401, and the error goes to onError', async () => {
    const onError = vi.fn();
    const boom = new Error('db down');
    const res = await call(
      { onError, extended: { authenticate: () => Promise.reject(boom), card: [EXTENDED_ONLY_SKILL] } },
      { headers: authorized },
    );
    expect(res?.status).toBe(401);
    expect(onError).toHaveBeenCalledWith(boom);
  });
});

describe('getExtendedAgentCard (JSON-RPC)', () => {
  it('returns the card for an authenticated request', async () => {
    const responder = responderWith();
    const result = await getExtendedAgentCard(responder, { headers: {}, raw: { headers: authorized } });
    expect(result.error).toBeUndefined();
    expect(result.card?.skills.map((s) => s.id)).toContain('private-audit');
  });

  it.each([
    ['unauthenticated', {}, { headers: {} }, -32000, 401, 'UNAUTHENTICATED'],
    [
      'not declared',
      { card: { ...CONFORMANCE_CARD, capabilities: {} } },
      { headers: authorized },
      -32004,
      400,
      'UNSUPPORTED_OPERATION',
    ],
    [
      'not configured',
      { extended: undefined },
      { headers: authorized },
      -32007,
      400,
      'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    ],
  ])('%s → $3 $4 $5', async (_name, options, raw, code, status, reason) => {
    const result = await getExtendedAgentCard(responderWith(options as Partial<AgentCardOptions>), {
      headers: {},
      raw,
    });
    expect(result.card).toBeUndefined();
    expect(result.error?.code).toBe(code);
    expect(result.error?.data[0]?.reason).toBe(reason);
    if (result.error) expect(result.status).toBe(status);
  });

  it('401 result carries the WWW-Authenticate header', async () => {
    const result = await getExtendedAgentCard(responderWith(), { headers: {}, raw: { headers: {} } });
    expect(result.error && result.headers['www-authenticate']).toMatch(/^Bearer realm=/);
  });

  it("accepts what carries the responder as `responder` (an adapter's middleware, plugin or handler)", async () => {
    const options: AgentCardOptions = {
      card: CONFORMANCE_CARD,
      logger: quiet,
      extended: { authenticate, card: [EXTENDED_ONLY_SKILL] },
    };
    const middleware = Object.assign(() => {}, { responder: createAgentCardResponder(options) });
    const result = await getExtendedAgentCard(middleware, { headers: {}, raw: { headers: authorized } });
    expect(result.card?.skills).toHaveLength(2);
  });

  it('an options object is a TypeError that says what to pass, and nothing is built from it', () => {
    const options = {
      card: CONFORMANCE_CARD,
      logger: quiet,
      extended: { authenticate, card: [EXTENDED_ONLY_SKILL] },
    };
    const call = () => getExtendedAgentCard(options as never, { headers: {}, raw: { headers: authorized } });
    expect(call).toThrow(TypeError);
    expect(call).toThrow(
      "getExtendedAgentCard: expected the responder, or an adapter's middleware, plugin or handler (it carries its responder as `responder`) (got an options object). Pass what createAgentCardResponder(options) or the adapter returned; options objects are not looked up.",
    );
  });

  it('a multi-agent responder is a TypeError that points to agentResponderOf', () => {
    const responder = createAgentCardResponder({
      logger: quiet,
      agents: [{ id: 'one', path: '/one', card: CONFORMANCE_CARD }],
    });
    expect(() => getExtendedAgentCard(responder, { headers: {} })).toThrow(
      /^getExtendedAgentCard: the responder serves several agents \(agents\), each with its own extended card\. Pass agentResponderOf\(responder, id\)/,
    );
  });
});

describe('property: a rejected principal never sees an extended-only skill', () => {
  const rejections = fc.oneof(
    fc.constantFrom(undefined, null, false, 0, '', 0n, Number.NaN).map((v) => ({ kind: 'value' as const, v })),
    fc.anything().map((v) => ({ kind: 'throw' as const, v })),
  );
  const requests = fc.record({
    method: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', 'X'),
    path: fc.constantFrom(
      CONFORMANCE_EXTENDED_PATH,
      `${CONFORMANCE_EXTENDED_PATH}/`,
      `${CONFORMANCE_EXTENDED_PATH}?x=1`,
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
      '/a2a/rest/extendedagentcard',
    ),
    headers: fc.dictionary(
      fc.constantFrom('authorization', 'x-api-key', 'if-none-match', 'origin', 'cookie'),
      fc.string(),
    ),
  });

  it('holds for any falsy or throwing authenticate, any method, path and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        rejections,
        requests,
        fc.constantFrom(true, 'v0.3' as const),
        async (rejection, request, legacy) => {
          const responder = createAgentCardResponder({
            card: CONFORMANCE_CARD,
            logger: quiet,
            legacy,
            onError: () => {},
            extended: {
              authenticate: () => {
                if (rejection.kind === 'throw') throw rejection.v;
                return rejection.v as undefined;
              },
              card: (principal: unknown) => [
                EXTENDED_ONLY_SKILL,
                { ...EXTENDED_ONLY_SKILL, id: `private-${String(principal)}` },
              ],
            },
          });
          const res = await responder.respond({ ...request, raw: request });
          const seen =
            res === undefined ? '' : JSON.stringify(res.headers) + (res.body ? new TextDecoder().decode(res.body) : '');
          expect(seen).not.toContain(EXTENDED_ONLY_SKILL.id);
          const rpc = await getExtendedAgentCard(responder, { headers: request.headers, raw: request });
          expect(JSON.stringify(rpc)).not.toContain(EXTENDED_ONLY_SKILL.id);
        },
      ),
      { numRuns: 300 },
    );
  });
});
