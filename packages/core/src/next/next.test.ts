// @agent-card/core/next: route handlers with the signature `next build` checks, and an answer for
// every request (the real `next build` and `next start` run in test/consumer/next.test.ts).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH } from '../testing/cards';
import { memoryStore } from '../store/memory';
import { agentCardRoute } from './index';

/** What Next 16 generates in `.next/types/validator.ts` for a route file (`RouteHandlerConfig`). */
interface NextRequestLike extends Request {
  readonly nextUrl: URL;
}
type RouteHandlerConfig<Params> = {
  [M in 'GET' | 'HEAD' | 'OPTIONS' | 'POST']?: (
    request: NextRequestLike,
    context: { params: Promise<Params> },
    // biome-ignore lint/suspicious/noConfusingVoidType: Next's own type, copied as it is.
  ) => Promise<Response | void> | Response | void;
};

const card = CONFORMANCE_CARD;
const origin = 'https://agent.conformance.dev';

describe('agentCardRoute', () => {
  it('exports GET, HEAD and OPTIONS that Next accepts for a static and a dynamic route', () => {
    const { GET, HEAD, OPTIONS } = agentCardRoute({ card, extended: { authenticate: () => null } });
    expectTypeOf({ GET, HEAD, OPTIONS }).toExtend<RouteHandlerConfig<Record<string, never>>>();
    expectTypeOf({ GET, HEAD, OPTIONS }).toExtend<RouteHandlerConfig<{ id: string }>>();
  });

  it("exports POST, which a store-backed host's registry search route answers", async () => {
    const { POST } = agentCardRoute({ card, extended: { authenticate: () => null } });
    expectTypeOf({ POST }).toExtend<RouteHandlerConfig<Record<string, never>>>();
    // A POST for the card is the card's 405.
    expect(
      (await POST(new Request(`${origin}/.well-known/agent-card.json`, { method: 'POST', body: '{}' }))).status,
    ).toBe(405);
  });

  it("answers a store-backed host's registry search with POST", async () => {
    const driver = memoryStore();
    const stored = {
      ...card,
      supportedInterfaces: [
        { url: 'https://api.example.com/t/acme/agents/main/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    await driver.put({ tenant: 'acme', agent: 'main' }, JSON.stringify(stored));
    const { POST } = agentCardRoute({
      store: { driver, registry: true },
      tenant: { from: 'path', prefix: '/t' },
      profile: 'development',
      logger: { warn() {} },
    });
    const res = await POST(
      new Request(`${origin}/t/acme/ard/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { text: card.name } }),
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: { identifier: string }[] }).results.map((r) => r.identifier)).toEqual([
      'urn:air:api.example.com:agent:main',
    ]);
  });

  it.each([
    ['GET', 200, true],
    ['HEAD', 200, false],
    ['OPTIONS', 204, false],
  ] as const)('%s of the card answers %i', async (method, status, body) => {
    const route = agentCardRoute({ card, extended: { authenticate: () => null } });
    const response = await route[method](new Request(`${origin}/.well-known/agent-card.json`, { method }), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(status);
    expect((await response.text()).length > 0).toBe(body);
  });

  it('answers 304 to the ETag it sent, and the extended card to whom authenticate admits', async () => {
    const { GET } = agentCardRoute({
      card,
      extended: { authenticate: (req) => (req.headers.get('authorization') === 'Bearer ok' ? { id: 'p' } : null) },
    });
    const first = await GET(new Request(`${origin}/.well-known/agent-card.json`));
    const etag = first.headers.get('etag')!;
    const again = await GET(
      new Request(`${origin}/.well-known/agent-card.json`, { headers: { 'if-none-match': etag } }),
    );
    expect(again.status).toBe(304);
    expect((await GET(new Request(origin + CONFORMANCE_EXTENDED_PATH))).status).toBe(401);
    const admitted = await GET(
      new Request(origin + CONFORMANCE_EXTENDED_PATH, { headers: { authorization: 'Bearer ok' } }),
    );
    expect(admitted.status).toBe(200);
  });

  it('answers 404 with a JSON error where the responder has no answer (an unknown agent, a path it does not serve)', async () => {
    const { GET, HEAD } = agentCardRoute({
      agents: [{ id: 'orders', path: '/agents/orders', card: { ...card, capabilities: {} } }],
      catalog: false,
    });
    const known = await GET(new Request(`${origin}/agents/orders/.well-known/agent-card.json`));
    expect(known.status).toBe(200);
    const unknown = await GET(new Request(`${origin}/agents/nobody/.well-known/agent-card.json`));
    expect([unknown.status, unknown.headers.get('content-type'), await unknown.json()]).toEqual([
      404,
      'application/json',
      { error: { code: 404, status: 'NOT_FOUND', message: 'Not found.' } },
    ]);
    const head = await HEAD(new Request(`${origin}/.well-known/agent-card.json`, { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([404, '']);
  });
});
