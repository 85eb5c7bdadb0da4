import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CARD, conformanceAgentCard } from '../testing/cards';
import { createAgentCardFetchHandler } from './fetch';

const quiet = { warn: () => {} };

describe('createAgentCardFetchHandler', () => {
  const handler = createAgentCardFetchHandler({ card: CONFORMANCE_CARD, logger: quiet });

  it('answers GET with a web Response carrying the same bytes and headers', async () => {
    const res = await handler(new Request('https://agent.example.org/.well-known/agent-card.json?x=1'));
    expect(res?.status).toBe(200);
    expect(res?.headers.get('content-type')).toBe('application/a2a+json');
    expect(res?.headers.get('etag')).toMatch(/^"/);
    expect(await res?.json()).toEqual(CONFORMANCE_CARD);
  });

  it.each([
    ['HEAD', {}, 200],
    ['GET', { 'if-none-match': '*' }, 304],
    ['OPTIONS', {}, 204],
    ['POST', {}, 405],
  ])('%s %j → %i', async (method, headers, status) => {
    const res = await handler(
      new Request('https://agent.example.org/.well-known/agent-card.json', { method, headers }),
    );
    expect(res?.status).toBe(status);
    if (status !== 405) expect(await res?.text()).toBe('');
  });

  it('returns undefined for other paths', async () => {
    expect(await handler(new Request('https://agent.example.org/api/ping'))).toBeUndefined();
  });

  it('basePath strips a prefix and leaves other requests alone', async () => {
    const mounted = createAgentCardFetchHandler({ card: CONFORMANCE_CARD, logger: quiet }, { basePath: '/api' });
    expect((await mounted(new Request('https://a.example.org/api/.well-known/agent-card.json')))?.status).toBe(200);
    expect(await mounted(new Request('https://a.example.org/.well-known/agent-card.json'))).toBeUndefined();
    expect(await mounted(new Request('https://a.example.org/apix/.well-known/agent-card.json'))).toBeUndefined();
  });

  it('a dynamic card sees the origin from the request URL', async () => {
    const dyn = createAgentCardFetchHandler({
      card: (ctx) => ({
        ...CONFORMANCE_CARD,
        supportedInterfaces: [{ url: `${ctx.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
      dynamic: { allowedOrigins: ['https://tenant.example.org'] },
      logger: quiet,
    });
    const res = await dyn(new Request('https://tenant.example.org/.well-known/agent-card.json'));
    expect(((await res?.json()) as { supportedInterfaces: { url: string }[] }).supportedInterfaces[0]?.url).toBe(
      'https://tenant.example.org/a2a',
    );
  });

  describe('the request target as sent (connection.target)', () => {
    const agents = createAgentCardFetchHandler({
      logger: quiet,
      agents: [
        { id: 'billing', path: '/agents/billing', card: conformanceAgentCard('billing') },
        { id: 'support', path: '/agents/support', card: conformanceAgentCard('support') },
      ],
    });
    // What a runtime hands over for each target: a `Request` whose URL the URL parser has normalised.
    it.each([
      '/agents/support/../billing/.well-known/agent-card.json',
      '/agents/support/%2e%2e/billing/.well-known/agent-card.json',
      '/agents/billing/.well-known/agent-card.json#x',
      'http://a.example.org/agents/billing/.well-known/agent-card.json',
    ])('%s falls through, not to the card the runtime made of it', async (target) => {
      const request = new Request(new URL(target, 'http://a.example.org').href);
      expect((await agents(request))?.status).toBe(200);
      expect(await agents(request, { target })).toBeUndefined();
    });

    it('is compared under basePath too, and ignored when it is not the target of this Request', async () => {
      const mounted = createAgentCardFetchHandler({ card: CONFORMANCE_CARD, logger: quiet }, { basePath: '/api' });
      const request = new Request('http://a.example.org/api/.well-known/agent-card.json');
      expect(await mounted(request, { target: '/api/x/../.well-known/agent-card.json' })).toBeUndefined();
      expect((await mounted(request, { target: '/api/.well-known/agent-card.json' }))?.status).toBe(200);
      // A Request the app rewrote (served under /v1 by a front route) is matched by its own URL.
      expect((await mounted(request, { target: '/v1/.well-known/agent-card.json' }))?.status).toBe(200);
    });
  });
});
