// The verifier matrix of packages/core/docs/signing.md, measured: an Express app serves a card
// signed with an ES256 and an Ed25519 key (the middleware's `sign` option with both), and each
// verifier that runs here checks each signature of the card it fetched, alone, with the key set
// the app serves. The table between the markers of signing.md is what this test measures: it fails
// while the committed table differs; `UPDATE_VERIFIER_MATRIX=1` writes it.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { type AgentCard, verifyAgentCard } from '@agent-card/core';
import { discoverAgentCard } from '@agent-card/discovery';
import { agentCard } from '@agent-card/express';
import jcs from 'canonicalize';
import express from 'express';
import { base64url, flattenedVerify, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const DOC = new URL('../packages/core/docs/signing.md', import.meta.url);
const START =
  '<!-- verifier-matrix:start (written by test/verifier-matrix.test.ts; UPDATE_VERIFIER_MATRIX=1 rewrites it) -->';
const END = '<!-- verifier-matrix:end -->';

type Signature = { protected: string; signature: string };
type Header = { alg: string; kid: string; agentCardForm?: string };
/** A verifier: of one signature alone (the card with that signature only), and of the card as served. */
interface Verifier {
  name: string;
  one(signature: Signature, header: Header): Promise<boolean>;
  whole(): Promise<boolean>;
}

let server: Server;
let origin = '';
let card: AgentCard;
let jwks: { keys: (JWK & { kid: string })[] };

const headerOf = (s: Signature): Header => JSON.parse(Buffer.from(s.protected, 'base64url').toString());
const only = (signature: Signature): AgentCard => ({ ...card, signatures: [signature] }) as AgentCard;
const keyOf = (kid: string) => {
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`unknown kid ${kid}`);
  return jwk;
};

beforeAll(async () => {
  const shopping = JSON.parse(
    readFileSync(new URL('../examples/cards/shopping.json', import.meta.url), 'utf8'),
  ) as AgentCard;
  const app = express();
  app.use(
    agentCard({
      card: shopping,
      profile: 'development',
      logger: { warn() {} },
      sign: [
        { privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, alg: 'ES256' },
        { privateKey: generateKeyPairSync('ed25519').privateKey, alg: 'EdDSA' },
      ],
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as AgentCard;
  jwks = (await (await fetch(`${origin}/.well-known/jwks.json`)).json()) as typeof jwks;
});
afterAll(() => new Promise((done) => server.close(done)));

/** `agent-card check`'s verdict on a host: its card verified with the host's own key set. */
async function discoveryVerifies(host: string): Promise<boolean> {
  const report = await discoverAgentCard(host, {
    hostKeys: true,
    allowHttp: true,
    profile: 'development',
    followCatalog: false,
    probeHttp: false,
  });
  return report.primary.signature?.status === 'verified';
}

/** @a2a-js/sdk throws when no signature verifies; this turns that into a boolean. */
async function sdkVerifies(c: AgentCard): Promise<boolean> {
  const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
  try {
    await verifyAgentCardSignature(async (kid) => createPublicKey({ key: keyOf(kid) as never, format: 'jwk' }))(
      c as never,
    );
    return true;
  } catch {
    return false;
  } finally {
    debug.mockRestore();
  }
}

/** A JOSE library alone: one JWS, its payload the RFC 8785 form of the card as served without signatures. */
async function joseVerifies(signature: Signature, header: Header): Promise<boolean> {
  const { signatures: _, ...rest } = card as AgentCard & { signatures?: unknown };
  try {
    await flattenedVerify(
      { ...signature, payload: base64url.encode(jcs(rest) as string) },
      await importJWK(keyOf(header.kid), header.alg),
    );
    return true;
  } catch {
    return false;
  }
}

/** Each verifier, by the name the table gives it. */
const VERIFIERS: Verifier[] = [
  {
    name: '`verifyAgentCard` (this package), the key set as `jwks`',
    one: async (s) => (await verifyAgentCard(only(s), { jwks: jwks as never })).valid,
    whole: async () => (await verifyAgentCard(card, { jwks: jwks as never })).valid,
  },
  {
    name: "`agent-card check` (discovery), the host's own `/.well-known/jwks.json`",
    one: async (signature) => {
      // A host that serves the card with this signature alone, and the same key set.
      const one = express();
      one.get('/.well-known/agent-card.json', (_req, res) => void res.json(only(signature)));
      one.get('/.well-known/jwks.json', (_req, res) => void res.json(jwks));
      const s = one.listen(0, '127.0.0.1');
      await new Promise((done) => s.once('listening', done));
      try {
        return await discoveryVerifies(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
      } finally {
        await new Promise((done) => s.close(done));
      }
    },
    whole: () => discoveryVerifies(origin),
  },
  {
    name: '@a2a-js/sdk 1.3.0 `verifyAgentCardSignature`',
    one: (s) => sdkVerifies(only(s)),
    whole: () => sdkVerifies(card),
  },
  {
    name: 'jose 6 `flattenedVerify`, payload: RFC 8785 (`canonicalize`) of the card as served',
    one: joseVerifies,
    // A JOSE library checks one JWS at a time: the card passes when one of its signatures does.
    whole: async () => {
      for (const s of (card.signatures ?? []) as Signature[]) if (await joseVerifies(s, headerOf(s))) return true;
      return false;
    },
  },
];

/** The table the verifiers make: one row per verifier, one column per signature of the card. */
async function measure(): Promise<string> {
  const signatures = (card.signatures ?? []) as Signature[];
  const columns = signatures.map((s) => {
    const h = headerOf(s);
    return `${h.alg === 'EdDSA' ? 'Ed25519 (EdDSA)' : h.alg}, ${h.agentCardForm ?? 'both forms'}`;
  });
  const rows = [
    `| verifier | ${columns.join(' | ')} | the card as served |`,
    `| --- | ${columns.map(() => ':---:').join(' | ')} | :---: |`,
  ];
  for (const verifier of VERIFIERS) {
    const cells: string[] = [];
    for (const s of signatures) cells.push((await verifier.one(s, headerOf(s))) ? 'verifies' : '—');
    rows.push(`| ${verifier.name} | ${cells.join(' | ')} | ${(await verifier.whole()) ? 'passes' : 'fails'} |`);
  }
  return rows.join('\n');
}

describe('the verifier matrix of docs/signing.md', () => {
  it('the card carries one signature per key and canonical form, and the key set lists both keys', () => {
    const headers = ((card.signatures ?? []) as Signature[]).map(headerOf);
    expect(headers.map((h) => [h.alg, h.agentCardForm])).toEqual([
      ['ES256', 'pruned'],
      ['ES256', 'served-as-is'],
      ['EdDSA', 'pruned'],
      ['EdDSA', 'served-as-is'],
    ]);
    expect(jwks.keys.map((k) => [k.kty, k.crv, k.alg])).toEqual([
      ['EC', 'P-256', 'ES256'],
      ['OKP', 'Ed25519', 'EdDSA'],
    ]);
  });

  it('every verifier verifies the card as served, and the committed table is what they measure', async () => {
    const table = await measure();
    expect(table.split('\n').filter((row) => row.endsWith('| passes |'))).toHaveLength(VERIFIERS.length);
    const doc = readFileSync(DOC, 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from, `signing.md has the markers ${START} … ${END}`).toBeGreaterThan(-1);
    expect(to).toBeGreaterThan(from);
    const committed = doc.slice(from + START.length, to).trim();
    if (process.env.UPDATE_VERIFIER_MATRIX === '1' && committed !== table) {
      writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n${table}\n${doc.slice(to)}`);
      return;
    }
    expect(committed, 'run UPDATE_VERIFIER_MATRIX=1 npx vitest run test/verifier-matrix.test.ts').toBe(table);
  }, 30_000);
});
