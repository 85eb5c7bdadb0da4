import { describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../../model';
import { CONFORMANCE_CARD } from '../../testing/cards';
import { createAgentCardResponder } from '../responder';
import type { AgentCardContext, AgentCardOptions, AgentCardResponse } from '../types';

const quiet = { warn: () => {} };
/** These tests are about variants, not the allow-list: every origin may have one. */
const anyOrigin = () => true;
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
  const responder = createAgentCardResponder({
    card: provider,
    logger: quiet,
    onError: () => {},
    ...options,
    dynamic: { allowedOrigins: anyOrigin, ...options.dynamic },
  });
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
    const responder = createAgentCardResponder({
      card: provider,
      logger: quiet,
      dynamic: { allowedOrigins: anyOrigin },
    });
    const all = Array.from({ length: 20 }, () =>
      responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'x.example.org' } }),
    );
    release();
    const results = await Promise.all(all);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(new Set(results).size).toBe(1);
  });

  it('ignores X-Forwarded-* unless trustProxy is set; then the value the proxy appended wins', async () => {
    const headers = {
      host: 'internal:8080',
      'x-forwarded-proto': 'http, https',
      'x-forwarded-host': 'evil.example, public.example.org',
    };
    expect(body(await dynamic().get(headers)).supportedInterfaces[0].url).toBe('http://internal:8080/a2a/rest');
    expect(body(await dynamic({ dynamic: { trustProxy: true } }).get(headers)).supportedInterfaces[0].url).toBe(
      'https://public.example.org/a2a/rest',
    );
  });

  it('reads the Forwarded element (RFC 7239) the trusted proxy appended, before X-Forwarded-*', async () => {
    const url = async (headers: Record<string, string>, trustProxy = true) =>
      body(await dynamic({ dynamic: { trustProxy } }).get(headers)).supportedInterfaces[0].url;
    const proxied = {
      host: 'internal:8080',
      forwarded: 'for=10.0.0.1;proto=http;host=evil.example, for=192.0.2.60;proto=https;host=public.example.org',
    };
    expect(await url(proxied)).toBe('https://public.example.org/a2a/rest');
    expect(await url(proxied, false)).toBe('http://internal:8080/a2a/rest');
    // Quoted values, an IPv6 literal with a port, parameter names in any case.
    expect(await url({ host: 'internal', forwarded: 'Proto=HTTPS;Host="[2001:db8::1]:8443"' })).toBe(
      'https://[2001:db8::1]:8443/a2a/rest',
    );
    // A parameter Forwarded leaves out comes from X-Forwarded-*.
    expect(await url({ host: 'internal', forwarded: 'host=public.example.org', 'x-forwarded-proto': 'https' })).toBe(
      'https://public.example.org/a2a/rest',
    );
    // When they disagree, one came from the client (the proxy writes one family and passes the
    // other through): neither is used.
    expect(
      await url({
        host: 'internal',
        forwarded: 'host=evil.example',
        'x-forwarded-host': 'public.example.org',
        'x-forwarded-proto': 'https',
      }),
    ).toBe('http://internal/a2a/rest');
    // A header that does not parse may hide what the proxy appended: like a disagreement,
    // neither is used.
    expect(
      await url({ host: 'internal', forwarded: 'host="unterminated', 'x-forwarded-host': 'fallback.example' }),
    ).toBe('http://internal/a2a/rest');
    expect(await url({ host: 'internal', forwarded: 'proto=gopher;host=a b' })).toBe('http://internal/a2a/rest');
  });

  it('answers 400 when a trusted Forwarded host is not a host name', async () => {
    const res = await dynamic({ dynamic: { trustProxy: true } }).get({
      host: 'internal',
      forwarded: 'host="evil/path"',
    });
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
      dynamic: {
        allowedOrigins: anyOrigin,
        tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
        allowedTenants: ['acme', 'globex'],
      },
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
    const { get, provider } = dynamic({ dynamic: { maxVariants: 2 } });
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
      dynamic: { allowedOrigins: anyOrigin, retryAfter: 7 },
    });
    const res = await responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } });
    expect(res?.status).toBe(503);
    expect(res?.headers['retry-after']).toBe('7');
    expect(res?.headers['cache-control']).toBe('no-store');
    expect(new TextDecoder().decode(res!.body!)).not.toContain('secret');
    expect(onError).toHaveBeenCalledWith(boom);
  });

  it('a provider that throws before its first await is asked again and never keeps a build slot', async () => {
    const provider = vi.fn((ctx: AgentCardContext) => {
      if (ctx.tenant !== 'acme') throw new Error('unknown tenant');
      return cardFor(ctx.origin);
    });
    const { get } = dynamic({
      card: provider,
      dynamic: {
        maxConcurrentBuilds: 2,
        tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
        allowedTenants: () => true,
      },
    });
    for (const tenant of ['x0', 'x1', 'x2', 'x0'])
      expect((await get({ host: 'a.example.org', 'x-tenant': tenant }))?.status).toBe(503);
    expect(provider).toHaveBeenCalledTimes(4);
    expect((await get({ host: 'a.example.org', 'x-tenant': 'acme' }))?.status).toBe(200);
  });

  it('concurrent requests that wait for one failing build report the error once', async () => {
    const onError = vi.fn();
    const responder = createAgentCardResponder({
      card: async () => Promise.reject(new Error('down')),
      logger: quiet,
      onError,
      dynamic: { allowedOrigins: anyOrigin },
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
      dynamic: { allowedOrigins: anyOrigin },
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
      dynamic: { allowedOrigins: anyOrigin, staleIfError: true, variantMaxAge: 0.001 },
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
      dynamic: { allowedOrigins: anyOrigin, variantMaxAge: 0.001 },
    });
    const get = () =>
      Promise.resolve(responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'a.example.org' } }));
    expect((await get())?.status).toBe(200);
    fail = true;
    await new Promise((r) => setTimeout(r, 5));
    expect((await get())?.status).toBe(503);
  });

  it('only the declared extended.path builds a variant; an app route ending in /extendedAgentCard does not', async () => {
    const { get, provider } = dynamic({
      extended: { authenticate: () => undefined, path: '/a2a/rest/extendedAgentCard' },
    });
    for (const path of ['/other/extendedAgentCard', '/api/v1/extendedAgentCard', '/extendedAgentCard'])
      expect(await get({ host: 'a.example.org' }, { path })).toBeUndefined();
    expect(provider).not.toHaveBeenCalled();
    expect((await get({ host: 'a.example.org' }, { path: '/a2a/rest/extendedAgentCard' }))?.status).toBe(401);
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('dynamic-only options on a static card fail at start-up', () => {
    expect(() =>
      createAgentCardResponder({ card: CONFORMANCE_CARD, dynamic: { staleIfError: true }, logger: quiet }),
    ).toThrow(/options\.dynamic\.staleIfError/);
  });
});

describe('dynamic cards under attack', () => {
  it('50,000 distinct Host headers never reach the provider and never evict the real variant', async () => {
    const { get, provider } = dynamic({ dynamic: { allowedOrigins: ['https://agent.example.org'], maxVariants: 2 } });
    const real = await get({ host: 'agent.example.org' }, { encrypted: true });
    expect(real?.status).toBe(200);
    for (let i = 0; i < 50_000; i++) {
      const res = await get({ host: `h${i}.attacker.example` }, { encrypted: true });
      if (res?.status !== 400) throw new Error(`host ${i} got ${res?.status}`);
    }
    expect(provider).toHaveBeenCalledTimes(1);
    // Still cached: answered synchronously with the very same object.
    expect(await get({ host: 'agent.example.org' }, { encrypted: true })).toBe(real);
  });

  it("a cacheKey that leaves the origin out never hands the first client's Host to the next client", async () => {
    const onError = vi.fn();
    const warn = vi.fn();
    const { get } = dynamic({
      dynamic: {
        allowedOrigins: undefined,
        tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
        allowedTenants: ['acme'],
        cacheKey: (ctx) => ctx.tenant ?? 'default',
      },
      onError,
      logger: { warn },
    });
    const attacker = await get({ host: 'evil.example', 'x-tenant': 'acme' }, { encrypted: true });
    const client = await get({ host: 'agent.example.org', 'x-tenant': 'acme' }, { encrypted: true });
    for (const res of [attacker, client]) {
      expect(res?.status).toBe(503);
      expect(new TextDecoder().decode(res!.body)).not.toContain('evil.example');
    }
    const message =
      'card: ctx.origin is not available with cacheKey and no allowedOrigins, it is the Host header of whichever client asked first and the variant is served to every request with the same key. List the origins that serve the card in allowedOrigins, or build the URLs from configuration.';
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'ERR_AGENT_CARD_OPTIONS', message });
    // The default onError is silent: the mistake also goes where start-up warnings go, once.
    expect(warn.mock.calls).toEqual([[`agent card: ${message}`]]);
  });

  it('a cacheKey built from ctx.origin needs allowedOrigins too; with it, card and cacheKey read the origin', async () => {
    const onError = vi.fn();
    const byOrigin = { dynamic: { cacheKey: (ctx: AgentCardContext) => ctx.origin }, onError };
    const open = dynamic({ ...byOrigin, dynamic: { ...byOrigin.dynamic, allowedOrigins: undefined } });
    expect((await open.get({ host: 'evil.example' }))?.status).toBe(503);
    expect(open.provider).not.toHaveBeenCalled();
    expect((onError.mock.calls[0]![0] as Error).message).toMatch(
      /^cacheKey: ctx\.origin is not available with cacheKey and no allowedOrigins, /,
    );
    const listed = dynamic({
      ...byOrigin,
      dynamic: { ...byOrigin.dynamic, allowedOrigins: ['https://agent.example.org'] },
    });
    const res = await listed.get({ host: 'agent.example.org' }, { encrypted: true });
    expect(body(res).supportedInterfaces[0].url).toBe('https://agent.example.org/a2a/rest');
  });

  it('a client that breaks the Forwarded header its proxy appends to never gets its X-Forwarded-Host served', async () => {
    const { get, provider } = dynamic({ dynamic: { trustProxy: true } });
    for (const forwarded of ['for="', `for=1.2.3.4;host=${'x'.repeat(5000)}.example`]) {
      const res = await get({
        host: 'internal.example:8080',
        forwarded: `${forwarded}, for=203.0.113.7;host=public.example;proto=https`,
        'x-forwarded-host': 'evil.example',
      });
      expect(res?.status).toBe(200);
      expect(body(res).supportedInterfaces[0].url).toBe('http://internal.example:8080/a2a/rest');
    }
    expect(provider.mock.calls.map(([ctx]) => ctx.origin)).toEqual(['http://internal.example:8080']);
  });

  it('5,000 client-chosen tenants never reach the provider and never evict the real tenant', async () => {
    const provider = vi.fn((ctx: AgentCardContext) => ({ ...cardFor(ctx.origin), name: `Agent for ${ctx.tenant}` }));
    const { get } = dynamic({
      card: provider,
      dynamic: {
        maxVariants: 10,
        tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
        allowedTenants: ['acme', 'globex'],
      },
    });
    const real = await get({ host: 'agent.example.org', 'x-tenant': 'acme' });
    expect(body(real).name).toBe('Agent for acme');
    for (let i = 0; i < 5_000; i++) {
      const res = await get({ host: 'agent.example.org', 'x-tenant': `t${i}` });
      if (res?.status !== 400) throw new Error(`tenant ${i} got ${res?.status}`);
    }
    const rejected = await get({ host: 'agent.example.org', 'x-tenant': 'evil' });
    expect(body(rejected)).toEqual({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'No agent card is served for this tenant.' },
    });
    expect(provider).toHaveBeenCalledTimes(1);
    // Still cached: answered synchronously with the very same object.
    expect(await get({ host: 'agent.example.org', 'x-tenant': 'acme' })).toBe(real);
    // No tenant at all is the default variant, as before.
    expect((await get({ host: 'agent.example.org' }))?.status).toBe(200);
  });

  it('allowedTenants as a predicate: only true admits; a throw is reported and answers 503', async () => {
    const onError = vi.fn();
    const { get, provider } = dynamic({
      onError,
      dynamic: {
        tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined),
        allowedTenants: (tenant) => {
          if (tenant === 'boom') throw new Error('tenant store down');
          return (tenant === 'acme' || (tenant === 'truthy' && 1)) as boolean;
        },
      },
    });
    const status = async (tenant: string) => (await get({ host: 'agent.example.org', 'x-tenant': tenant }))?.status;
    expect(await status('acme')).toBe(200);
    expect(await status('truthy')).toBe(400);
    expect(await status('boom')).toBe(503);
    expect((onError.mock.calls[0]![0] as Error).message).toBe('tenant store down');
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('allowedOrigins: an origin entry is exact, a host entry takes either scheme, default ports match', async () => {
    const { get } = dynamic({
      dynamic: { allowedOrigins: ['https://a.example.org:443', 'b.example.org:8080', 'c.example.org:80'] },
    });
    const status = async (host: string, encrypted: boolean) => (await get({ host }, { encrypted }))?.status;
    expect(await status('a.example.org', true)).toBe(200);
    expect(await status('a.example.org', false)).toBe(400);
    expect(await status('b.example.org:8080', true)).toBe(200);
    expect(await status('b.example.org:8080', false)).toBe(200);
    expect(await status('b.example.org', false)).toBe(400);
    expect(await status('c.example.org', false)).toBe(200);
    expect(await status('c.example.org', true)).toBe(400);
  });

  it('500 concurrent distinct allowed hosts start at most maxConcurrentBuilds builds; the rest get 503', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const provider = vi.fn(async (ctx: AgentCardContext) => {
      await gate;
      return cardFor(ctx.origin);
    });
    const responder = createAgentCardResponder({
      card: provider,
      logger: quiet,
      dynamic: { allowedOrigins: anyOrigin, maxConcurrentBuilds: 4, retryAfter: 3 },
    });
    const all = Array.from({ length: 500 }, (_, i) =>
      responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: `t${i}.example.org` } }),
    );
    expect(provider).toHaveBeenCalledTimes(4);
    release();
    const results = await Promise.all(all);
    expect(results.filter((r) => r?.status === 200)).toHaveLength(4);
    const busy = results.filter((r) => r?.status === 503);
    expect(busy).toHaveLength(496);
    expect(busy[0]?.headers['retry-after']).toBe('3');
    // Once the builds are done, a new variant can be built again.
    expect(
      (await responder.respond({ method: 'GET', path: CARD_PATH, headers: { host: 'late.example.org' } }))?.status,
    ).toBe(200);
  });

  it('a full build queue serves a stale variant with staleIfError instead of 503', async () => {
    let gate: Promise<void> | undefined;
    const responder = createAgentCardResponder({
      card: async (ctx) => {
        await gate;
        return cardFor(ctx.origin);
      },
      logger: quiet,
      dynamic: { allowedOrigins: anyOrigin, maxConcurrentBuilds: 1, staleIfError: true, variantMaxAge: 0.001 },
    });
    const get = (host: string) =>
      Promise.resolve(responder.respond({ method: 'GET', path: CARD_PATH, headers: { host } }));
    const good = await get('a.example.org');
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    await new Promise((r) => setTimeout(r, 5));
    const blocking = get('b.example.org');
    const stale = await get('a.example.org');
    expect(stale?.headers.etag).toBe(good?.headers.etag);
    release();
    await blocking;
  });

  it('Vary names Host without trustProxy, the proxy headers with it, X-Forwarded-For when its length matters', async () => {
    const vary = async (options: Partial<AgentCardOptions>) =>
      (await dynamic(options).get({ host: 'a.example.org' }))?.headers.vary;
    // Accept: the card path negotiates its media type too.
    expect(await vary({})).toBe('Host, Accept');
    expect(await vary({ dynamic: { trustProxy: true } })).toBe(
      'Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto, Accept',
    );
    expect(await vary({ dynamic: { trustProxy: 2 } })).toBe(
      'Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-For, Accept',
    );
    expect(await vary({ dynamic: { trustProxy: ['loopback'] }, cors: ['https://app.example.org'] })).toBe(
      'Origin, Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-For, Accept',
    );
  });

  it('bad options fail at start-up, every problem in one error', () => {
    let error: unknown;
    try {
      createAgentCardResponder({
        card: () => CONFORMANCE_CARD,
        logger: quiet,
        dynamic: { trustProxy: ['10.0.0.0/8', 'proxy.internal'], maxConcurrentBuilds: 0 },
        extended: { authenticate: () => undefined },
      });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect((error as Error).message.split('\n').slice(1)).toEqual([
      `  - options.dynamic.trustProxy: "proxy.internal" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal (["10.0.0.0/8","proxy.internal"]). Use true (the peer is the proxy), a hop count such as 2, addresses or CIDR ranges such as ['loopback', '10.0.0.0/8'], or (address, hop) => boolean.`,
      '  - options.dynamic.maxConcurrentBuilds: must be a positive integer (0). Use e.g. 10.',
      `  - options.dynamic.allowedOrigins: is required with a card function keyed by origin, otherwise every new Host header costs a call to card and a validation ("not set"). List the origins that serve the card, e.g. ['https://agent.example.com'], pass (origin) => boolean, or set cacheKey.`,
      `  - options.extended.path: is required with a card function, the REST path of a variant is not known before it is built ("not set"). Set it to the path of your HTTP+JSON interface plus /extendedAgentCard, e.g. '/a2a/extendedAgentCard' (a list for several), or false to answer only through getExtendedAgentCard().`,
    ]);
  });

  it('the dynamic-card options written at the top level fail at start-up, showing where they go now', () => {
    let error: unknown;
    try {
      createAgentCardResponder({
        card: () => CONFORMANCE_CARD,
        logger: quiet,
        allowedOrigins: ['https://agent.example.org'],
        maxVariants: 0,
        cahceControl: 'no-store',
      } as unknown as AgentCardOptions);
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect((error as Error).message.split('\n').slice(1)).toEqual([
      '  - options.cahceControl: unknown option. Did you mean "cacheControl"?',
      '  - options.allowedOrigins: moved into dynamic (["https://agent.example.org"]). Write dynamic: { allowedOrigins: … } instead, next to the other dynamic-card options.',
      '  - options.maxVariants: moved into dynamic (0). Write dynamic: { maxVariants: … } instead, next to the other dynamic-card options.',
      `  - options.dynamic.allowedOrigins: is required with a card function keyed by origin, otherwise every new Host header costs a call to card and a validation ("not set"). List the origins that serve the card, e.g. ['https://agent.example.com'], pass (origin) => boolean, or set cacheKey.`,
    ]);
  });

  it('a tenant function without allowedTenants fails at start-up; so do a bad list and allowedTenants alone', () => {
    const tenant = (req: { headers: Record<string, unknown> }) => String(req.headers['x-tenant']);
    const startUp = (options: Partial<AgentCardOptions>) => () =>
      createAgentCardResponder({
        card: () => CONFORMANCE_CARD,
        logger: quiet,
        ...options,
        dynamic: { allowedOrigins: anyOrigin, ...options.dynamic },
      });
    expect(startUp({ dynamic: { tenant } })).toThrow(
      `options.dynamic.allowedTenants: is required with tenant, otherwise every tenant value a client sends costs a call to card and a validation, and evicts cached variants ("not set"). List the tenants, e.g. ['acme', 'globex'], or pass (tenant) => boolean that checks them.`,
    );
    expect(startUp({ dynamic: { tenant, allowedTenants: ['acme', '', 7] as never } })).toThrow(
      `options.dynamic.allowedTenants: must be a non-empty list of non-empty strings, or a function (["",7]). Use e.g. ['acme', 'globex'], or (tenant) => boolean.`,
    );
    expect(startUp({ dynamic: { allowedTenants: ['acme'] } })).toThrow(
      `options.dynamic.allowedTenants: only applies with tenant ("set"). Add tenant: (request) => string | undefined, or remove allowedTenants.`,
    );
  });

  it.each<[unknown, string]>([
    [[], 'must be a non-empty list of origins or hosts, or a function ([])'],
    [
      ['https://a.example.org/path'],
      'entries must be scheme://host[:port] or host[:port], without a path ("https://a.example.org/path")',
    ],
    ['a.example.org', 'must be a non-empty list of origins or hosts, or a function ("a.example.org")'],
  ])('allowedOrigins %j is refused', (allowedOrigins, message) => {
    expect(() =>
      createAgentCardResponder({
        card: () => CONFORMANCE_CARD,
        logger: quiet,
        dynamic: { allowedOrigins },
      } as AgentCardOptions),
    ).toThrow(`options.dynamic.allowedOrigins: ${message}.`);
  });
});
