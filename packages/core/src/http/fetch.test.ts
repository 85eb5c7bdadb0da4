import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CARD } from '../testing/cards';
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
      allowedOrigins: ['https://tenant.example.org'],
      logger: quiet,
    });
    const res = await dyn(new Request('https://tenant.example.org/.well-known/agent-card.json'));
    expect(((await res?.json()) as { supportedInterfaces: { url: string }[] }).supportedInterfaces[0]?.url).toBe(
      'https://tenant.example.org/a2a',
    );
  });
});
