import { describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../model';
import { CONFORMANCE_CARD } from '../testing/cards';
import { createAgentCardResponder } from './responder';
import type { AgentCardContext, AgentCardOptions, AgentCardResponse } from './types';

const quiet = { warn: () => {} };
const CARD_PATH = '/.well-known/agent-card.json';

function cardFor(origin: string): AgentCard {
  return {
    ...CONFORMANCE_CARD,
    supportedInterfaces: [{ url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  };
}

const body = (res: AgentCardResponse | undefined) => JSON.parse(new TextDecoder().decode(res!.body!));

function dynamic(options: Partial<AgentCardOptions> & { card?: AgentCardOptions['card'] } = {}) {
  const provider = vi.fn((ctx: AgentCardContext) => cardFor(ctx.origin));
  const responder = createAgentCardResponder({ card: provider, logger: quiet, onError: () => {}, ...options });
  const get = (headers: Record<string, string>, extra: { encrypted?: boolean; path?: string } = {}) =>
    Promise.resolve(
      responder.respond({ method: 'GET', path: extra.path ?? CARD_PATH, headers, encrypted: extra.encrypted }),
    );
  return { provider, responder, get };
}

describe('dynamic cards', () => {
  it('builds one variant per origin and serves each from cache afterwards', async () => {
    const { provider, get, responder } = dynamic();
    const a = await get({ host: 'a.example.org' }, { encrypted: true });
    const b = await get({ host: 'b.example.org:8443' }, { encrypted: true });
    expect(body(a).supportedInterfaces[0].url).toBe('https://a.example.org/a2a/rest');
    expect(body(b).supportedInterfaces[0].url).toBe('https://b.example.org:8443/a2a/rest');
    expect(a?.headers.etag).not.toBe(b?.headers.etag);
    const again = responder.respond({
      method: 'GET',
      path: CARD_PATH,
      headers: { host: 'A.example.org:443' },
      encrypted: true,
    });
    // A cached variant answers synchronously with the very same object.
    expect(again).toBe(a);
    expect(provider).toHaveBeenCalledTimes(2);
  });

  it('concurrent first requests share one build', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const provider = vi.fn(async (ctx: AgentCardContext) => {
      await gate;
      return cardFor(ctx.origin);
    });
    const responder = createAgentCardResponder({ card: provider, logger: quiet });
    const all = Array.from({ length: 20 }, () =>
      responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'x.example.org' } }),
    );
    release();
    const results = await Promise.all(all);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(new Set(results).size).toBe(1);
  });

  it('ignores X-Forwarded-* unless trustProxy is set; then the first value wins', async () => {
    const headers = {
      host: 'internal:8080',
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'public.example.org, evil.example',
    };
    expect(body(await dynamic().get(headers)).supportedInterfaces[0].url).toBe('http://internal:8080/a2a/rest');
    expect(body(await dynamic({ trustProxy: true }).get(headers)).supportedInterfaces[0].url).toBe(
      'https://public.example.org/a2a/rest',
    );
  });

  it('reads the first Forwarded element (RFC 7239) with trustProxy, before X-Forwarded-*', async () => {
    const url = async (headers: Record<string, string>, trustProxy = true) =>
      body(await dynamic({ trustProxy }).get(headers)).supportedInterfaces[0].url;
    const proxied = {
      host: 'internal:8080',
      forwarded: 'for=192.0.2.60;proto=https;host=public.example.org, for=10.0.0.1;proto=http;host=evil.example',
    };
    expect(await url(proxied)).toBe('https://public.example.org/a2a/rest');
    expect(await url(proxied, false)).toBe('http://internal:8080/a2a/rest');
    // Quoted values, an IPv6 literal with a port, parameter names in any case.
    expect(await url({ host: 'internal', forwarded: 'Proto=HTTPS;Host="[2001:db8::1]:8443"' })).toBe(
      'https://[2001:db8::1]:8443/a2a/rest',
    );
    // Forwarded wins over X-Forwarded-*; a parameter it leaves out comes from them.
    expect(
      await url({
        host: 'internal',
        forwarded: 'host=public.example.org',
        'x-forwarded-host': 'other.example',
        'x-forwarded-proto': 'https',
      }),
    ).toBe('https://public.example.org/a2a/rest');
    // A header that does not parse is ignored as a whole.
    expect(
      await url({ host: 'internal', forwarded: 'host="unterminated', 'x-forwarded-host': 'fallback.example' }),
    ).toBe('http://fallback.example/a2a/rest');
    expect(await url({ host: 'internal', forwarded: 'proto=gopher;host=a b' })).toBe('http://internal/a2a/rest');
  });

  it('answers 400 when a trusted Forwarded host is not a host name', async () => {
    const res = await dynamic({ trustProxy: true }).get({ host: 'internal', forwarded: 'host="evil/path"' });
    expect(res?.status).toBe(400);
  });

  it.each([
    [{}],
    [{ host: '' }],
    [{ host: 'a b' }],
    [{ host: 'x'.repeat(300) }],
    [{ host: 'evil/path' }],
    [{ host: 'a.example:99999999' }],
  ])('a missing or garbage Host (%j) gets 400 with a fixed JSON body, never 5xx', async (headers) => {
    const { get, provider } = dynamic();
    const res = await get(headers as Record<string, string>);
    expect(res?.status).toBe(400);
    expect(body(res)).toEqual({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Missing or invalid Host header.' },
    });
    expect(provider).not.toHaveBeenCalled();
  });

  it('cacheKey and tenant shape the variant', async () => {
    const provider = vi.fn((ctx: AgentCardContext) => ({ ...cardFor(ctx.origin), name: `Agent for ${ctx.tenant}` }));
    const responder = createAgentCardResponder({
      card: provider,
      logger: quiet,
      tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
    });
    const get = async (tenant: string) =>
      body(
        await responder.respond({
          method: 'GET',
          path: CARD_PATH,
          headers: { host: 'h.example.org', 'x-tenant': tenant },
        }),
      );
    expect((await get('acme')).name).toBe('Agent for acme');
    expect((await get('globex')).name).toBe('Agent for globex');
    expect((await get('acme')).name).toBe('Agent for acme');
    expect(provider).toHaveBeenCalledTimes(2);
  });

  it('maxVariants bounds the cache (least recently used is rebuilt)', async () => {
    const { get, provider } = dynamic({ maxVariants: 2 });
    for (const host of [
      'a.example.org',
      'b.example.org',
      'a.example.org',
      'c.example.org',
      'a.example.org',
      'b.example.org',
    ])
      await get({ host });
    // a, b, (a hit), c evicts b, (a hit), b rebuilt.
    expect(provider).toHaveBeenCalledTimes(4);
  });

  it('a throwing provider gives 503 with Retry-After and a fixed body; onError gets the error', async () => {
    const onError = vi.fn();
    const boom = new Error('secret stack detail');
    const responder = createAgentCardResponder({
      card: () => Promise.reject(boom),
      logger: quiet,
      onError,
      retryAfter: 7,
    });
    const res = await responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } });
    expect(res?.status).toBe(503);
    expect(res?.headers['retry-after']).toBe('7');
    expect(res?.headers['cache-control']).toBe('no-store');
    expect(new TextDecoder().decode(res!.body!)).not.toContain('secret');
    expect(onError).toHaveBeenCalledWith(boom);
  });

  it('concurrent requests that wait for one failing build report the error once', async () => {
    const onError = vi.fn();
    const responder = createAgentCardResponder({
      card: async () => Promise.reject(new Error('down')),
      logger: quiet,
      onError,
    });
    const all = await Promise.all(
      Array.from({ length: 10 }, () =>
        responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } }),
      ),
    );
    expect(all.map((r) => r?.status)).toEqual(Array(10).fill(503));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('an invalid variant is never served', async () => {
    const onError = vi.fn();
    const responder = createAgentCardResponder({
      card: () => ({ ...CONFORMANCE_CARD, skills: [] }),
      logger: quiet,
      onError,
    });
    const res = await responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } });
    expect(res?.status).toBe(503);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'ERR_AGENT_CARD_INVALID' }));
  });

  it('staleIfError serves the last good bytes when a rebuild fails', async () => {
    let fail = false;
    const onError = vi.fn();
    const responder = createAgentCardResponder({
      card: (ctx) => {
        if (fail) throw new Error('backend down');
        return cardFor(ctx.origin);
      },
      logger: quiet,
      onError,
      staleIfError: true,
      variantMaxAge: 0.001,
    });
    const get = () =>
      Promise.resolve(responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } }));
    const good = await get();
    fail = true;
    await new Promise((r) => setTimeout(r, 5));
    const stale = await get();
    expect(stale?.status).toBe(200);
    expect(stale?.body).toEqual(good?.body);
    expect(stale?.headers.etag).toBe(good?.headers.etag);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('without staleIfError an expired variant whose rebuild fails gives 503', async () => {
    let fail = false;
    const responder = createAgentCardResponder({
      card: (ctx) => {
        if (fail) throw new Error('backend down');
        return cardFor(ctx.origin);
      },
      logger: quiet,
      onError: () => {},
      variantMaxAge: 0.001,
    });
    const get = () =>
      Promise.resolve(responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } }));
    expect((await get())?.status).toBe(200);
    fail = true;
    await new Promise((r) => setTimeout(r, 5));
    expect((await get())?.status).toBe(503);
  });

  it('the REST extended path of each variant comes from its HTTP+JSON interface', async () => {
    const { get } = dynamic({ extended: { authenticate: () => undefined } });
    expect((await get({ host: 'a.example.org' }, { path: '/a2a/rest/extendedAgentCard' }))?.status).toBe(401);
    // An app's own …/extendedAgentCard elsewhere is not ours.
    expect(await get({ host: 'a.example.org' }, { path: '/other/extendedAgentCard' })).toBeUndefined();
    // Without a usable Host the path is left to the app rather than answered with 400.
    expect(await get({}, { path: '/a2a/rest/extendedAgentCard' })).toBeUndefined();
  });

  it('dynamic-only options on a static card fail at start-up', () => {
    expect(() => createAgentCardResponder({ card: CONFORMANCE_CARD, staleIfError: true, logger: quiet })).toThrow(
      /options.staleIfError/,
    );
  });
});
