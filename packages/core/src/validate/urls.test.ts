import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyHost,
  hostOf,
  isHttpsUrl,
  parseAbsoluteUrl,
  parseHostPort,
  parseIPv4,
  parseIPv6,
  redactUrl,
  type HostKind,
} from './urls';

describe('classifyHost', () => {
  it.each<[string, HostKind]>([
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['api.localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.255.10.3', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[::]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['[fe80::1%25eth0]', 'private'],
    ['[febf::1]', 'private'],
    ['[fd12:3456::1]', 'private'],
    ['[fc00::1]', 'private'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['keycloak', 'private'],
    ['api', 'private'],
    ['auth.internal', 'private'],
    ['printer.local', 'private'],
    ['router.lan', 'private'],
    ['agent.default.svc', 'private'],
    ['agent.default.svc.cluster.local', 'private'],
    ['nas.home.arpa', 'private'],
    ['example.com', 'placeholder'],
    ['georoute-agent.example.com', 'placeholder'],
    ['api.example.net', 'placeholder'],
    ['example.org', 'placeholder'],
    ['agent.test', 'placeholder'],
    ['agent.invalid', 'placeholder'],
    ['acme.example', 'placeholder'],
    ['192.0.2.10', 'placeholder'],
    ['[2001:db8::5]', 'placeholder'],
    ['api.acme.io', 'public'],
    ['examplegeoservices.com', 'public'],
    ['notexample.com', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['[2606:4700::1111]', 'public'],
    ['[::ffff:8.8.8.8]', 'public'],
    ['localhost.acme.io', 'public'],
  ])('%s is %s', (host, kind) => {
    expect(classifyHost(host).kind).toBe(kind);
  });

  it('classifies hosts as the URL parser normalises them (decimal, hex, IPv4-mapped)', () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://LocalHost:8080/',
    ]) {
      expect(classifyHost(parseAbsoluteUrl(url)?.hostname ?? '').kind, url).toBe('loopback');
    }
  });

  it('gives a reason that names the range', () => {
    expect(classifyHost('10.0.0.1').reason).toContain('RFC 1918');
    expect(classifyHost('keycloak').reason).toContain('single-label');
    expect(classifyHost('[fd00::1]').reason).toContain('fc00::/7');
  });
});

describe('parseIPv4 / parseIPv6', () => {
  it.each([
    ['1.2.3.4', [1, 2, 3, 4]],
    ['255.255.255.255', [255, 255, 255, 255]],
    ['256.1.1.1', undefined],
    ['1.2.3', undefined],
    ['a.b.c.d', undefined],
  ])('parseIPv4(%s)', (input, expected) => {
    expect(parseIPv4(input)).toEqual(expected);
  });

  it.each([
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['[2001:db8::8:800:200c:417a]', [0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]],
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
    ['1:2:3:4:5:6:7:8:9', undefined],
    ['1::2::3', undefined],
    ['12345::', undefined],
    ['::1.2.3', undefined],
    ['', undefined],
  ])('parseIPv6(%s)', (input, expected) => {
    expect(parseIPv6(input)).toEqual(expected);
  });
});

describe('URL helpers', () => {
  it.each([
    ['grpc.acme.io:443', { host: 'grpc.acme.io', port: 443 }],
    ['[::1]:50051', { host: '[::1]', port: 50051 }],
    ['127.0.0.1:50051', { host: '127.0.0.1', port: 50051 }],
    ['GRPC.Acme.io:8443', { host: 'grpc.acme.io', port: 8443 }],
    ['grpc.acme.io', undefined],
    ['grpc.acme.io:0', undefined],
    ['grpc.acme.io:70000', undefined],
    ['https://grpc.acme.io:443', undefined],
    ['user@grpc.acme.io:443', undefined],
  ])('parseHostPort(%s)', (input, expected) => {
    expect(parseHostPort(input)).toEqual(expected);
  });

  it.each([
    ['https://api.acme.io/a2a', true],
    ['HTTPS://api.acme.io', true],
    ['http://api.acme.io/a2a', false],
    ['wss://api.acme.io', false],
    ['api.acme.io/a2a', false],
    ['/a2a', false],
    ['', false],
  ])('isHttpsUrl(%s) is %s', (input, expected) => {
    expect(isHttpsUrl(input)).toBe(expected);
  });

  it('hostOf reads absolute URLs and host:port', () => {
    expect(hostOf('https://API.acme.io/a2a')).toBe('api.acme.io');
    expect(hostOf('grpc.acme.io:443')).toBe('grpc.acme.io');
    expect(hostOf('not a url')).toBeUndefined();
  });

  it('redactUrl hides the password but keeps the rest', () => {
    expect(redactUrl('https://bob:hunter2@api.acme.io/a2a')).toBe('https://bob:***@api.acme.io/a2a');
    expect(redactUrl('https://api.acme.io/a@b')).toBe('https://api.acme.io/a@b');
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        classifyHost(s);
        parseHostPort(s);
        parseIPv6(s);
        parseAbsoluteUrl(s);
        isHttpsUrl(s);
        redactUrl(s);
        hostOf(s);
      }),
    );
  });
});
