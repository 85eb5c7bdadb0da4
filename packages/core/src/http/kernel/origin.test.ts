import { describe, expect, it } from 'vitest';
import { requestOrigin } from './origin';
import { resolveTrustProxy, type TrustProxySetting } from './trust';
import type { AgentCardRequestHeaders } from '../types';

const PROXY = '10.0.0.1';
const CLIENT = '203.0.113.7';

function origin(trustProxy: TrustProxySetting, headers: AgentCardRequestHeaders, remoteAddress = PROXY) {
  const { trust, problems } = resolveTrustProxy(trustProxy);
  expect(problems).toEqual([]);
  return requestOrigin(
    { method: 'GET', path: '/', headers: { host: 'internal:8080', ...headers }, remoteAddress },
    trust,
  );
}

describe('the origin behind proxies', () => {
  // Each row is what a hostile client sends through proxies that append to the headers.
  it.each<[string, TrustProxySetting, AgentCardRequestHeaders, string, string?]>([
    [
      'true: the client prepends its own X-Forwarded-Host; the peer appended the real one',
      true,
      { 'x-forwarded-host': 'evil.example, public.example', 'x-forwarded-proto': 'http, https' },
      'https://public.example',
    ],
    [
      'true: the client sends a whole Forwarded chain; the peer appended one element',
      true,
      {
        forwarded:
          'for=10.0.0.9;host=evil.example, for=10.0.0.8;host=evil2.example, for=198.51.100.1;host=public.example;proto=https',
      },
      'https://public.example',
    ],
    [
      'a list: the peer is trusted, the client address it appended is not, so the walk stops there',
      ['10.0.0.0/8'],
      {
        'x-forwarded-for': `10.9.9.9, ${CLIENT}`,
        'x-forwarded-host': 'evil.example, public.example',
      },
      'http://public.example',
    ],
    [
      'a list: two trusted proxies (CDN 10.0.0.2 → LB 10.0.0.1); the CDN element is the origin',
      ['10.0.0.0/8'],
      {
        'x-forwarded-for': `${CLIENT}, 10.0.0.2`,
        'x-forwarded-host': 'evil.example, public.example, lb.internal',
        'x-forwarded-proto': 'http, https, http',
      },
      'https://public.example',
    ],
    [
      'a list: a Forwarded chain is walked by its for= addresses',
      ['10.0.0.0/8'],
      {
        forwarded: `for=1.2.3.4;host=evil.example, for="${CLIENT}:4711";host=public.example;proto=https, for=10.0.0.2;host=lb.internal`,
      },
      'https://public.example',
    ],
    [
      'a list: the peer itself is not trusted, so every proxy header is the client’s',
      ['192.168.0.0/16'],
      { 'x-forwarded-host': 'evil.example', forwarded: 'host=evil2.example' },
      'http://internal:8080',
    ],
    [
      'a hop count of 2 with a client that sent extra X-Forwarded-For entries',
      2,
      {
        'x-forwarded-for': `6.6.6.6, 7.7.7.7, ${CLIENT}, 10.0.0.2`,
        'x-forwarded-host': 'evil.example, public.example, lb.internal',
      },
      'http://public.example',
    ],
    [
      'a function sees each hop with its index',
      (address: string, hop: number) => hop === 0 && address === PROXY,
      { 'x-forwarded-host': 'evil.example, public.example' },
      'http://public.example',
    ],
    [
      'a function that throws trusts nothing',
      () => {
        throw new Error('boom');
      },
      { 'x-forwarded-host': 'evil.example' },
      'http://internal:8080',
    ],
    [
      'an IPv6 peer in brackets with a port is compared without them',
      ['::1'],
      { 'x-forwarded-host': 'public.example' },
      'http://public.example',
      '[::1]:5000',
    ],
    [
      'the proxy writes X-Forwarded-Host; the client adds a Forwarded host of its own',
      true,
      { 'x-forwarded-host': 'public.example', forwarded: 'host=evil.example' },
      'http://internal:8080',
    ],
    [
      'true: the proxy appends to Forwarded; the client breaks it (for=") and sends its own X-Forwarded-Host',
      true,
      { forwarded: `for=", for=${CLIENT};host=public.example;proto=https`, 'x-forwarded-host': 'evil.example' },
      'http://internal:8080',
    ],
    [
      'a list: the client pads Forwarded past 4 KiB and sends its own X-Forwarded-Host / -Proto',
      ['10.0.0.0/8'],
      {
        forwarded: `for=6.6.6.6;host=${'a'.repeat(4096)}.example, for=${CLIENT};host=public.example`,
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      },
      'http://internal:8080',
    ],
  ])('%s', (_what, trustProxy, headers, expected, remoteAddress) => {
    expect(origin(trustProxy, headers, remoteAddress)).toBe(expected);
  });

  it('without a remote address, a list trusts nobody (the fetch handler without connection info)', () => {
    const { trust } = resolveTrustProxy(['10.0.0.0/8']);
    expect(
      requestOrigin(
        { method: 'GET', path: '/', headers: { host: 'internal', 'x-forwarded-host': 'evil.example' } },
        trust,
      ),
    ).toBe('http://internal');
  });

  it('reads a 16 KiB X-Forwarded-For chain of trusted addresses in linear time', () => {
    const { trust } = resolveTrustProxy(() => true);
    const chain = Array.from({ length: 2000 }, () => '10.0.0.1').join(', ');
    const started = performance.now();
    const got = requestOrigin(
      {
        method: 'GET',
        path: '/',
        headers: { host: 'internal', 'x-forwarded-for': chain, 'x-forwarded-host': 'public.example' },
        remoteAddress: PROXY,
      },
      trust,
    );
    expect(got).toBe('http://public.example');
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('trustProxy values', () => {
  it.each<[unknown, string[]]>([
    [-1, ['must be a whole number of hops']],
    [1.5, ['must be a whole number of hops']],
    [[], ['an empty list trusts nobody']],
    [
      ['10.0.0.0/8', 'not-an-ip', '10.0.0.0/99', 7],
      [
        '"not-an-ip" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
        '"10.0.0.0/99" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
        '7 is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
      ],
    ],
    [{}, ['must be true, a hop count, proxy addresses / CIDR ranges, or a function (address, hop) => boolean']],
  ])('%j is refused: %j', (value, problems) => {
    expect(resolveTrustProxy(value).problems).toEqual(problems);
  });

  it.each<[unknown]>([[true], [false], [0], [3], ['loopback, 10.0.0.0/8'], [['uniquelocal', '::1']], [() => true]])(
    '%j is accepted',
    (value) => {
      expect(resolveTrustProxy(value).problems).toEqual([]);
    },
  );
});
