import { createHash, generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { computeEtag } from '../../http/kernel/etag';
import { verifyAiCatalog } from '../../sign/catalog-signing';
import { conformanceAgentCard } from '../cards';
import { type ConformanceCase, type ConformanceFeature, check } from '../runner';

const AGENT_IDS = ['billing', 'support'] as const;
const CATALOG_PATH = '/.well-known/ai-catalog.json';
const MCP_PATH = '/.well-known/mcp/catalog.json';
const MCP_ENTRY = {
  identifier: 'urn:air:conformance.dev:mcp:weather',
  type: 'application/mcp-server-card+json',
  url: 'https://mcp.conformance.dev/server-card',
};
const SKILLS_ENTRY = {
  identifier: 'urn:air:conformance.dev:skills:index',
  type: 'application/agent-skills+json',
  url: 'https://conformance.dev/.well-known/agent-skills/index.json',
  displayName: 'Conformance skills',
};

/** The HTTP behaviour every discovery document has: headers, ETag, 304, HEAD, CORS, 405, Vary. */
function documentCases(path: string, contentType: string, fixture = 'catalog'): ConformanceCase<CatalogKeys>[] {
  return [
    check(`${path}: GET → 200 ${contentType}, strong ETag of its bytes, Cache-Control, CORS, nosniff`, async (t) => {
      const res = await t.get(fixture, path);
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': contentType,
        etag: computeEtag(res.body),
        'cache-control': 'public, max-age=3600',
        'access-control-allow-origin': '*',
        'x-content-type-options': 'nosniff',
      });
    }),
    check(`${path}: HEAD → 200 without body; If-None-Match → 304 with the same ETag and Vary`, async (t) => {
      const ok = await t.get(fixture, path);
      const head = await t.get(fixture, path, { method: 'HEAD' });
      expect([head.status, head.body.byteLength, head.headers.etag]).toEqual([200, 0, ok.headers.etag]);
      const notModified = await t.get(fixture, `${path}?x=1`, { headers: { 'if-none-match': ok.headers.etag! } });
      expect([notModified.status, notModified.body.byteLength, notModified.headers.etag]).toEqual([
        304,
        0,
        ok.headers.etag,
      ]);
      expect([head.headers.vary, notModified.headers.vary]).toEqual([ok.headers.vary, ok.headers.vary]);
    }),
    check(`${path}: OPTIONS → 204 with CORS; POST → 405 with Allow`, async (t) => {
      const preflight = await t.get(fixture, path, {
        method: 'OPTIONS',
        headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
      });
      expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, '*']);
      const post = await t.get(fixture, path, { method: 'POST', body: '{}' });
      expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    }),
  ];
}

type CatalogKeys = ReturnType<typeof catalogKeys>;
const catalogKeys = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

/**
 * The AI Catalog to the current draft, signed: entries by `type` with `urn:air` identifiers from
 * `catalog.publisher`, a digest of each card's served bytes, a detached JWS over the catalog, the
 * declared MCP and Agent Skills entries, and the MCP subset at `/.well-known/mcp/catalog.json`.
 */
export const aiCatalog: ConformanceFeature<CatalogKeys> = {
  title: 'the AI Catalog (current draft, signed) and the MCP catalog',
  state: catalogKeys,
  fixtures: {
    catalog: (keys) => ({
      agents: AGENT_IDS.map((id) => ({ id, path: `/agents/${id}`, card: conformanceAgentCard(id) })),
      sign: { privateKey: keys.privateKey, alg: 'ES256', kid: 'catalog' },
      catalog: {
        publisher: 'conformance.dev',
        host: { displayName: 'Conformance Corp' },
        entries: [MCP_ENTRY, SKILLS_ENTRY],
      },
    }),
  },
  cases: [
    ...documentCases(CATALOG_PATH, 'application/ai-catalog+json'),
    ...documentCases(MCP_PATH, 'application/ai-catalog+json'),
    check('the catalog lists the agents by type with urn:air identifiers, then the declared entries', async (t) => {
      const catalog = JSON.parse((await t.get('catalog', CATALOG_PATH)).text);
      expect(catalog.entries.map((e: { identifier: string; type: string }) => [e.identifier, e.type])).toEqual([
        ['urn:air:conformance.dev:agent:billing', 'application/a2a-agent-card+json'],
        ['urn:air:conformance.dev:agent:support', 'application/a2a-agent-card+json'],
        [MCP_ENTRY.identifier, MCP_ENTRY.type],
        [SKILLS_ENTRY.identifier, SKILLS_ENTRY.type],
      ]);
      expect(catalog.entries[0].displayName).toBeUndefined();
      const mcp = JSON.parse((await t.get('catalog', MCP_PATH)).text);
      expect(mcp.entries).toEqual([MCP_ENTRY]);
    }),
    check("the signature verifies with the card's key and each digest is the SHA-256 of the card served", async (t) => {
      const catalog = JSON.parse((await t.get('catalog', CATALOG_PATH)).text);
      const artifacts: Record<string, Uint8Array> = {};
      for (const entry of catalog.entries.slice(0, 2)) {
        const card = await t.get('catalog', new URL(entry.url).pathname);
        expect(entry.digest).toBe(`sha256:${createHash('sha256').update(card.body).digest('hex')}`);
        artifacts[entry.url] = card.body;
      }
      const result = await verifyAiCatalog(catalog, {
        keys: { catalog: t.state.publicKey },
        artifacts,
        fetchArtifacts: false,
      });
      expect([result.valid, result.signature.valid, result.digests.length]).toEqual([true, true, 2]);
    }),
  ],
};

const DID_PATH = '/.well-known/did.json';
const DID_SIGNER = 'did:web:conformance.dev';

/**
 * The AI Catalog signed as a `did:web` signer (`catalog.signer`): the Signature object, and the
 * signer's DID document at `/.well-known/did.json`, which verifies it.
 */
export const aiCatalogDidWeb: ConformanceFeature<CatalogKeys> = {
  title: 'the AI Catalog signed as a did:web signer, and its DID document',
  state: catalogKeys,
  fixtures: {
    didCatalog: (keys) => ({
      agents: AGENT_IDS.map((id) => ({ id, path: `/agents/${id}`, card: conformanceAgentCard(id) })),
      sign: { privateKey: keys.privateKey, alg: 'ES256', kid: 'catalog' },
      catalog: {
        publisher: 'conformance.dev',
        host: { displayName: 'Conformance Corp' },
        signer: DID_SIGNER,
        issuedAt: '2026-12-01T09:00:00Z',
      },
    }),
  },
  cases: [
    ...documentCases(DID_PATH, 'application/did+json', 'didCatalog'),
    check('the catalog carries a did-web-v1 Signature object that the served DID document verifies', async (t) => {
      const catalog = JSON.parse((await t.get('didCatalog', CATALOG_PATH)).text);
      expect(catalog.signature).toMatchObject({ signer: DID_SIGNER, profile: 'did-web-v1' });
      const did = JSON.parse((await t.get('didCatalog', DID_PATH)).text);
      expect(did.assertionMethod).toEqual([`${DID_SIGNER}#catalog`]);
      const artifacts: Record<string, Uint8Array> = {};
      for (const entry of catalog.entries)
        artifacts[entry.url] = (await t.get('didCatalog', new URL(entry.url).pathname)).body;
      const result = await verifyAiCatalog(catalog, {
        didDocuments: { [DID_SIGNER]: did },
        artifacts,
        fetchArtifacts: false,
      });
      expect([result.valid, result.signature.valid, result.digests.length]).toEqual([true, true, 2]);
    }),
  ],
};
