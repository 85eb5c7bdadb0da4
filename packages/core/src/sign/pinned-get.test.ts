// DNS rebinding, as an attacker runs it: a name whose DNS server answers a public address to the
// first query (the check) and 127.0.0.1 to the next (the connection). A DNS server over UDP
// answers for the test (`dns.setServers`), and a server on 127.0.0.1 counts every TCP connection
// it gets: the verification must get 0 of them, and say why.
import { generateKeyPairSync } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import dns from 'node:dns';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DidWebResolver } from './catalog-did-web';
import { sha256Digest, signAiCatalog, verifyAiCatalog } from './catalog-signing';
import { publicOnlyLookup } from './fetch-target';

/** An address ipaddr.js calls unicast, that nothing in these tests connects to. */
const PUBLIC = '93.184.215.14';

/** The A records the server answers for the nth A query (from 0) of a name. */
type Script = (name: string, nth: number) => string[];

let script: Script = () => [];
const asked = new Map<string, number>();
let udp: Socket;
let connections = 0;
let tcp: Server;
let port = 0;
let servers: string[] = [];

/** The question section's end: labels up to the root, then QTYPE and QCLASS. */
function questionEnd(query: Buffer): number {
  let at = 12;
  while (at < query.length && query[at] !== 0) at += query[at]! + 1;
  return at + 5;
}

function answer(query: Buffer): Buffer {
  const end = questionEnd(query);
  const labels: string[] = [];
  for (let at = 12; query[at] !== 0; at += query[at]! + 1)
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('latin1'));
  const name = labels.join('.').toLowerCase();
  const type = query.readUInt16BE(end - 4);
  let records: string[] = [];
  if (type === 1) {
    const nth = asked.get(name) ?? 0;
    asked.set(name, nth + 1);
    records = script(name, nth);
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8580, 2); // a response, authoritative, recursion desired and available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((address) => {
    const rr = Buffer.alloc(16);
    rr.writeUInt16BE(0xc00c, 0); // the name of the question
    rr.writeUInt16BE(1, 2); // A
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL 0: every query is answered afresh, as a rebinding server does
    rr.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet), 12 + i));
    return rr;
  });
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

beforeAll(async () => {
  udp = createSocket('udp4');
  udp.on('message', (query, from) => udp.send(answer(query), from.port, from.address));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  servers = dns.getServers();
  dns.setServers([`127.0.0.1:${udp.address().port}`]);
  tcp = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  port = (tcp.address() as AddressInfo).port;
});
afterAll(async () => {
  dns.setServers(servers);
  udp.close();
  await new Promise((resolve) => tcp.close(resolve));
});
beforeEach(() => {
  connections = 0;
  asked.clear();
});

/** Public to the first query of a name, this machine to every later one. */
const rebinding: Script = (_name, nth) => (nth === 0 ? [PUBLIC] : ['127.0.0.1']);

const owner = generateKeyPairSync('ec', { namedCurve: 'P-256' });

describe('a verification connects only to the address it checked (DNS rebinding)', () => {
  it('an entry URL whose name turns to 127.0.0.1 after the check: 0 connections, the reason in the digest result', async () => {
    script = rebinding;
    const url = `https://rebind.test:${port}/agents/a0.json`;
    const catalog = signAiCatalog(
      {
        specVersion: '1.0',
        entries: [
          {
            identifier: 'urn:air:acme.example:agent:a0',
            type: 'application/a2a-agent-card+json',
            url,
            digest: sha256Digest('card'),
          },
        ],
      },
      { privateKey: owner.privateKey, alg: 'ES256', kid: 'catalog-key' },
    );
    const result = await verifyAiCatalog(catalog, {
      keys: { 'catalog-key': owner.publicKey },
      artifactTimeoutMs: 3_000,
    });
    expect(result.signature.valid).toBe(true);
    expect(result.digests.map((d) => d.reason)).toEqual([
      `"${url}" was not fetched: rebind.test:${port} resolves to 127.0.0.1 is a loopback address`,
    ]);
    expect(result.valid).toBe(false);
    expect(asked.get('rebind.test')).toBe(2);
    expect(connections).toBe(0);
  });

  it("a signer's DID document whose name turns to 127.0.0.1 after the check: 0 connections, the reason", async () => {
    script = rebinding;
    const resolver = new DidWebResolver({
      deadline: Date.now() + 3_000,
      allowPrivateTargets: false,
      allowInsecureLoopback: false,
    });
    const reason = await resolver.resolve(`did:web:rebind.test%3A${port}`);
    expect(reason).toBe(
      `the DID document of did:web:rebind.test%3A${port} could not be read: "https://rebind.test:${port}/.well-known/did.json" was not fetched: rebind.test:${port} resolves to 127.0.0.1 is a loopback address`,
    );
    expect(connections).toBe(0);
  });

  it.each([
    {
      name: 'a public and a loopback address in one answer',
      records: [PUBLIC, '127.0.0.1'],
      problem: '127.0.0.1 is a loopback address',
    },
    { name: 'a private address', records: ['10.1.2.3'], problem: '10.1.2.3 is a private address' },
    {
      name: 'the cloud metadata address',
      records: ['169.254.169.254'],
      problem: '169.254.169.254 is a link-local address',
    },
  ])('a connection whose name resolves to $name fails, whatever the check saw', async ({ records, problem }) => {
    script = () => records;
    const lookup = publicOnlyLookup(dns);
    const failure = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('rebind.test', { all: true }, (error) => resolve(error)),
    );
    expect(failure).toMatchObject({
      code: 'ERR_AGENT_CARD_NON_PUBLIC_TARGET',
      message: `rebind.test resolves to ${problem}`,
    });
  });

  it('a connection is handed exactly the addresses that were checked, in the form it asks for', async () => {
    script = () => [PUBLIC, '93.184.215.15'];
    const lookup = publicOnlyLookup(dns);
    const all = await new Promise<unknown[]>((resolve) =>
      lookup('public.test', { all: true }, (_e, a) => resolve([a])),
    );
    expect(all).toEqual([
      [
        { address: PUBLIC, family: 4 },
        { address: '93.184.215.15', family: 4 },
      ],
    ]);
    const one = await new Promise<unknown[]>((resolve) => lookup('public.test', {}, (e, a, f) => resolve([e, a, f])));
    expect(one).toEqual([null, PUBLIC, 4]);
    expect(asked.get('public.test')).toBe(2);
  });

  it('a name with no address fails the connection as DNS does', async () => {
    script = () => [];
    const lookup = publicOnlyLookup(dns);
    const failure = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('nowhere.test', { all: true }, (error) => resolve(error)),
    );
    expect(failure?.code).toBe('ENODATA');
  });
});
