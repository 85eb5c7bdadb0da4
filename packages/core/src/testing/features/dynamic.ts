import { expect } from 'vitest';
import type { AgentCardContext } from '../../http/types';
import { CONFORMANCE_EXTENDED_PATH, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { authenticate, CARD_PATH, cardFor, conformanceOrigins, dynamicOptions } from './shared';

/** What the card functions of one run share: a failure switch, a call count, a gate to hold a build. */
interface Provider {
  fail: boolean;
  calls: number;
  gate: Promise<void> | undefined;
  entered: () => void;
}

/** The headers of a proxy in front of the host that was asked for `https://{host}`. */
const viaProxy = (host: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-host': host });

/** The origin of the card's first interface. */
const interfaceUrl = (text: string): string => JSON.parse(text).supportedInterfaces[0].url;

/** Cards built per request by a card function: origins, proxies, failures and the bounds on builds. */
export const dynamicCard: ConformanceFeature<Provider> = {
  title: 'dynamic card',
  state: () => ({ fail: false, calls: 0, gate: undefined, entered: () => {} }),
  fixtures: {
    dynamic: (provider) => ({
      card: (ctx: AgentCardContext) => {
        provider.calls++;
        return cardFor(ctx);
      },
      ...dynamicOptions({ trustProxy: true, allowedOrigins: conformanceOrigins }),
      extended: { authenticate, card: [EXTENDED_ONLY_SKILL], path: CONFORMANCE_EXTENDED_PATH },
    }),
    // The test client connects from 127.0.0.1: `loopback` trusts it, 10.0.0.0/8 does not.
    trustLoopback: () => ({
      card: cardFor,
      ...dynamicOptions({ trustProxy: ['loopback'], allowedOrigins: conformanceOrigins }),
    }),
    trustOther: () => ({
      card: cardFor,
      ...dynamicOptions({ trustProxy: ['10.0.0.0/8'], allowedOrigins: conformanceOrigins }),
    }),
    oneBuild: (provider) => ({
      card: async (ctx: AgentCardContext) => {
        provider.calls++;
        provider.entered();
        await provider.gate;
        return cardFor(ctx);
      },
      ...dynamicOptions({
        trustProxy: true,
        allowedOrigins: conformanceOrigins,
        maxConcurrentBuilds: 1,
        retryAfter: 9,
      }),
    }),
    failing: () => ({
      card: () => {
        throw new Error('provider failure with a secret detail');
      },
      ...dynamicOptions({ allowedOrigins: conformanceOrigins, retryAfter: 17 }),
    }),
    stale: (provider) => ({
      card: (ctx: AgentCardContext) => {
        if (provider.fail) throw new Error('provider failure');
        return cardFor(ctx);
      },
      ...dynamicOptions({ allowedOrigins: conformanceOrigins, staleIfError: true, variantMaxAge: 0.05 }),
    }),
  },
  cases: [
    check('builds a card per origin (X-Forwarded-* with trustProxy)', async (t) => {
      const a = await t.get('dynamic', CARD_PATH, { headers: viaProxy('a.conformance.dev') });
      const b = await t.get('dynamic', CARD_PATH, { headers: viaProxy('b.conformance.dev') });
      expect(interfaceUrl(a.text)).toBe('https://a.conformance.dev/a2a/rest');
      expect(interfaceUrl(b.text)).toBe('https://b.conformance.dev/a2a/rest');
      expect(a.headers.etag).not.toBe(b.headers.etag);
      const again = await t.get('dynamic', CARD_PATH, {
        headers: { ...viaProxy('a.conformance.dev'), 'if-none-match': a.headers.etag! },
      });
      expect(again.status).toBe(304);
    }),
    check('extended card of a dynamic variant', async (t) => {
      const headers = viaProxy('a.conformance.dev');
      expect((await t.get('dynamic', CONFORMANCE_EXTENDED_PATH, { headers })).status).toBe(401);
      const ok = await t.get('dynamic', CONFORMANCE_EXTENDED_PATH, {
        headers: { ...headers, authorization: `Bearer ${CONFORMANCE_TOKEN}` },
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain(EXTENDED_ONLY_SKILL.id);
    }),
    check('a failing provider → 503 with Retry-After and a fixed body, no stack trace', async (t) => {
      const res = await t.get('failing', CARD_PATH);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('17');
      expect(JSON.parse(res.text)).toEqual({
        error: {
          code: 503,
          status: 'UNAVAILABLE',
          message: 'The agent card is temporarily unavailable. Retry later.',
        },
      });
      expect(res.text).not.toMatch(/secret|Error|\bat\b/);
      expect((await t.get('failing', '/api/ping')).text).toBe('pong');
    }),
    check('trustProxy: true reads the element the proxy appended, not the one the client sent', async (t) => {
      // A proxy that appends: the client's own value comes first, the proxy's last.
      const xf = await t.get('dynamic', CARD_PATH, {
        headers: {
          'x-forwarded-proto': 'http, https',
          'x-forwarded-host': 'evil.conformance.dev, a.conformance.dev',
        },
      });
      expect(xf.status).toBe(200);
      expect(interfaceUrl(xf.text)).toBe('https://a.conformance.dev/a2a/rest');
      const fwd = await t.get('dynamic', CARD_PATH, {
        headers: {
          forwarded: 'host=evil.conformance.dev;proto=http, for=192.0.2.1;host=b.conformance.dev;proto=https',
        },
      });
      expect(interfaceUrl(fwd.text)).toBe('https://b.conformance.dev/a2a/rest');
    }),
    check(
      'a client that breaks the Forwarded header the proxy appends to gets the Host origin, not its X-Forwarded-Host',
      async (t) => {
        const url = await t.url('dynamic');
        for (const broken of ['for="', `for=192.0.2.9;host=${'x'.repeat(4100)}.example`]) {
          const res = await t.get('dynamic', CARD_PATH, {
            headers: {
              forwarded: `${broken}, for=192.0.2.1;host=b.conformance.dev;proto=https`,
              ...viaProxy('a.conformance.dev'),
            },
          });
          expect(res.status).toBe(200);
          expect(interfaceUrl(res.text)).toBe(`${new URL(url).origin}/a2a/rest`);
        }
      },
    ),
    check('a dynamic card varies on the headers its origin comes from, on 200 and 304', async (t) => {
      const headers = viaProxy('a.conformance.dev');
      const ok = await t.get('dynamic', CARD_PATH, { headers });
      const vary = (ok.headers.vary ?? '').split(/\s*,\s*/).map((v) => v.toLowerCase());
      expect(vary).toEqual(expect.arrayContaining(['host', 'forwarded', 'x-forwarded-host', 'x-forwarded-proto']));
      const again = await t.get('dynamic', CARD_PATH, { headers: { ...headers, 'if-none-match': ok.headers.etag! } });
      expect(again.status).toBe(304);
      expect(again.headers.vary).toBe(ok.headers.vary);
      // A static card varies on nothing of the origin; only on Accept (its media type).
      expect((await t.get('default', CARD_PATH)).headers.vary).toBe('Accept');
    }),
    check('a host outside allowedOrigins gets a fixed 400 and never reaches the provider', async (t) => {
      await t.get('dynamic', CARD_PATH);
      const before = t.state.calls;
      for (let i = 0; i < 20; i++) {
        const res = await t.get('dynamic', CARD_PATH, { headers: viaProxy(`t${i}.attacker.example`) });
        expect(res.status).toBe(400);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(JSON.parse(res.text)).toEqual({
          error: { code: 400, status: 'INVALID_ARGUMENT', message: 'No agent card is served for this host.' },
        });
      }
      expect(t.state.calls).toBe(before);
    }),
    check('an app route ending in /extendedAgentCard is left to the app and builds nothing', async (t) => {
      const before = t.state.calls;
      const res = await t.get('dynamic', '/api/extendedAgentCard', { headers: viaProxy('b.conformance.dev') });
      expect(res.status).toBe(404);
      expect(t.state.calls).toBe(before);
    }),
    check('trustProxy as a list checks the peer address of the socket', async (t) => {
      const headers = viaProxy('a.conformance.dev');
      const trusted = await t.get('trustLoopback', CARD_PATH, { headers });
      expect(interfaceUrl(trusted.text)).toBe('https://a.conformance.dev/a2a/rest');
      const untrusted = await t.get('trustOther', CARD_PATH, { headers });
      expect(untrusted.status).toBe(200);
      expect(interfaceUrl(untrusted.text)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/rest$/);
    }),
    check('beyond maxConcurrentBuilds a new variant gets 503 with Retry-After, without a provider call', async (t) => {
      const provider = t.state;
      let release!: () => void;
      provider.gate = new Promise<void>((r) => (release = r));
      const entered = new Promise<void>((r) => (provider.entered = r));
      const before = provider.calls;
      const first = t.get('oneBuild', CARD_PATH, { headers: viaProxy('a.conformance.dev') });
      // Bounded, so a host that never calls the provider fails here rather than hanging.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the provider was never called')), 5000);
      });
      await Promise.race([entered, late]).finally(() => clearTimeout(timer));
      const second = await t.get('oneBuild', CARD_PATH, { headers: viaProxy('b.conformance.dev') });
      expect(second.status).toBe(503);
      expect(second.headers['retry-after']).toBe('9');
      expect(provider.calls).toBe(before + 1);
      release();
      expect((await first).status).toBe(200);
      provider.gate = undefined;
    }),
    check('staleIfError serves the last good bytes when the provider fails', async (t) => {
      const provider = t.state;
      provider.fail = false;
      const good = await t.get('stale', CARD_PATH);
      expect(good.status).toBe(200);
      provider.fail = true;
      await new Promise((r) => setTimeout(r, 80));
      const stale = await t.get('stale', CARD_PATH);
      provider.fail = false;
      expect(stale.status).toBe(200);
      expect(stale.headers.etag).toBe(good.headers.etag);
      expect(Buffer.from(stale.body).equals(Buffer.from(good.body))).toBe(true);
    }),
  ],
};
