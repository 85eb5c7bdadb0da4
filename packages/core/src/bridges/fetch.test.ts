import { describe, expect, it } from 'vitest';
import { createAgentCardResponder } from '../http';
import type { AgentCardRequest } from '../http';
import { CONFORMANCE_CARD, conformanceAgentCard } from '../testing/cards';
import { createAgentCardFetchBridge, createAgentCardFetchHandler } from './fetch';

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

describe('createAgentCardFetchBridge', () => {
  interface Raw {
    peer: string;
    target?: string;
    headers?: Record<string, string>;
  }

  it('hands core the raw value and what the settings read from it, and answers with a Response', async () => {
    const seen: AgentCardRequest<Raw>[] = [];
    const responder = createAgentCardResponder<Raw>({ card: CONFORMANCE_CARD, logger: quiet });
    const bridge = createAgentCardFetchBridge<Raw>(
      { respond: (request) => (seen.push(request), responder.respond(request)) },
      { remoteAddress: (raw) => raw.peer, target: (raw) => raw.target, headers: (raw) => raw.headers },
    );
    const raw: Raw = { peer: '192.0.2.1', headers: { host: 'node.example.org', 'x-own': '1' } };
    const res = await bridge(new Request('https://agent.example.org/.well-known/agent-card.json'), raw, () => 'next');
    expect((res as Response).status).toBe(200);
    expect(await (res as Response).json()).toEqual(CONFORMANCE_CARD);
    expect(seen[0]).toEqual({
      method: 'GET',
      path: '/.well-known/agent-card.json',
      headers: { host: 'node.example.org', 'x-own': '1' },
      raw,
      encrypted: true,
      remoteAddress: '192.0.2.1',
    });
  });

  it('builds the headers from the Request, host from the URL, when the host has no record', async () => {
    const seen: AgentCardRequest<Raw>[] = [];
    const bridge = createAgentCardFetchBridge<Raw>({ respond: (request) => (seen.push(request), undefined) });
    const request = new Request('http://agent.example.org:8080/x', { headers: { 'X-Key': 'k' } });
    expect(await bridge(request, { peer: '' }, () => 'next')).toBe('next');
    expect(seen[0]?.headers).toEqual({ 'x-key': 'k', host: 'agent.example.org:8080' });
    expect(seen[0]?.encrypted).toBe(false);
  });

  it.each([
    ['http://a.example.org/api/.well-known/agent-card.json', 200],
    ['http://a.example.org/.well-known/agent-card.json', 'next'],
    ['http://a.example.org/apiary/.well-known/agent-card.json', 'next'],
    ['http://a.example.org/api?x=1', 'next'],
  ])('basePath /api/: %s → %s', async (url, expected) => {
    const responder = createAgentCardResponder<Raw>({ card: CONFORMANCE_CARD, logger: quiet });
    const bridge = createAgentCardFetchBridge<Raw>(responder, { basePath: '/api/' });
    const res = await bridge(new Request(url), { peer: '' }, () => 'next');
    expect(res === 'next' ? res : (res as Response).status).toBe(expected);
  });

  it('a raw target that is not a card falls through to next(), as on every adapter', async () => {
    const responder = createAgentCardResponder<Raw>({ card: CONFORMANCE_CARD, logger: quiet });
    const bridge = createAgentCardFetchBridge<Raw>(responder, { target: (raw) => raw.target });
    const target = '/x/../.well-known/agent-card.json';
    const request = new Request(`http://a.example.org${target}`);
    expect(await bridge(request, { peer: '', target }, () => 'next')).toBe('next');
    expect(((await bridge(request, { peer: '' }, () => 'next')) as Response).status).toBe(200);
  });

  it('waits for an asynchronous answer and calls next() when it is undefined', async () => {
    const bridge = createAgentCardFetchBridge<Raw>({ respond: async () => undefined });
    expect(await bridge(new Request('http://a.example.org/x'), { peer: '' }, async () => 'next')).toBe('next');
  });

  it('carries the responder on the fetch handler', () => {
    const handler = createAgentCardFetchHandler({ card: CONFORMANCE_CARD, logger: quiet });
    expect(typeof handler.responder.respond).toBe('function');
  });
});
