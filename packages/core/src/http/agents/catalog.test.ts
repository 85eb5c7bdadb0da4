// The AI Catalog a multi-agent host serves, to the current draft (0379c868) by default: entries by
// type, identifiers from configuration, the signed catalog and its digests, entries of other
// kinds and the MCP subset; and the previous draft, pinned, byte for byte as before.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { validateAiCatalog } from '../../catalog/validate';
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import { verifyAiCatalog } from '../../sign/catalog-signing';
import type { AgentCardRequest } from '../kernel/exchange';
import { type AgentCardResponder, servedPathsOf } from '../kernel/responder';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions } from '../types';

const quiet = { warn: () => {} };
const decoder = new TextDecoder();
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sign = { privateKey, alg: 'ES256' as const, kid: 'catalog-key' };

const card = (id: string, host = 'agents.acme.example'): AgentCard => ({
  name: `Acme ${id}`,
  description: `The ${id} agent.`,
  version: '1.2.0',
  supportedInterfaces: [
    { url: `https://${host}/agents/${id}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: `${id}-answer`, name: 'Answer', description: 'Answers.', tags: [id, 'qa'] }],
});

const MCP = {
  identifier: 'urn:air:acme.com:mcp:weather',
  type: 'application/mcp-server-card+json',
  url: 'https://mcp.acme.example/server-card',
};
const SKILLS = {
  identifier: 'urn:air:acme.com:skills:index',
  type: 'application/agent-skills+json',
  url: 'https://acme.example/.well-known/agent-skills/index.json',
  displayName: 'Acme skills',
};

function host(extra: Partial<AgentCardOptions> = {}, cardHost?: string): AgentCardResponder {
  return createAgentCardResponder({
    logger: quiet,
    agents: ['billing', 'support'].map((id) => ({ id, path: `/agents/${id}`, card: card(id, cardHost) })),
    catalog: { publisher: 'acme.com', host: { displayName: 'Acme' } },
    ...extra,
  });
}

async function get(r: AgentCardResponder, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const request: AgentCardRequest = { method, path, headers, raw: { headers } };
  return (await r.respond(request))!;
}
const text = async (r: AgentCardResponder, path: string) => decoder.decode((await get(r, path)).body);

function startupError(options: AgentCardOptions): string {
  try {
    createAgentCardResponder({ logger: quiet, ...options });
  } catch (error) {
    if (error instanceof AgentCardError) return error.message;
    throw error;
  }
  return 'no error';
}

describe('the AI Catalog, current draft (0379c868)', () => {
  it('lists each agent by type, url and tags, with a urn:air identifier, leaving name, description and version to the card', async () => {
    const catalog = JSON.parse(await text(host(), '/.well-known/ai-catalog.json'));
    expect(catalog).toEqual({
      specVersion: '1.0',
      host: { displayName: 'Acme' },
      entries: ['billing', 'support'].map((id) => ({
        identifier: `urn:air:acme.com:agent:${id}`,
        type: 'application/a2a-agent-card+json',
        url: `https://agents.acme.example/agents/${id}/.well-known/agent-card.json`,
        tags: [id, 'qa'],
      })),
    });
    const result = validateAiCatalog(catalog);
    expect([result.draft, result.findings]).toEqual(['0379c868', []]);
  });

  it('keeps identifiers when the host name changes (staging and production list the same identifiers)', async () => {
    const ids = async (r: AgentCardResponder) =>
      JSON.parse(await text(r, '/.well-known/ai-catalog.json')).entries.map(
        (e: { identifier: string }) => e.identifier,
      );
    expect(await ids(host({}, 'staging.acme.example'))).toEqual(await ids(host({}, 'agents.acme.example')));
  });

  it('never takes an identifier from the request: a dynamic card needs catalog.publisher', () => {
    const options: AgentCardOptions = {
      agents: [{ id: 'tenant', path: '/agents/tenant', card: (ctx) => card('tenant', new URL(ctx.origin).host) }],
      dynamic: { allowedOrigins: ['https://eu.acme.example'] },
    };
    expect(startupError(options)).toContain(
      `options.catalog.publisher: is needed to name agent "tenant"'s entry (urn:air:{publisher}:agent:tenant), and its card is a function, whose host comes from the request (none). Set catalog.publisher to your domain, e.g. 'acme.com', or give the agent catalogEntry.identifier.`,
    );
  });

  it('lists the same identifiers for every Host of a dynamic card', async () => {
    const r = createAgentCardResponder({
      logger: quiet,
      agents: [{ id: 'tenant', path: '/agents/tenant', card: (ctx) => card('tenant', new URL(ctx.origin).host) }],
      dynamic: { allowedOrigins: ['http://eu.acme.example', 'http://us.acme.example'] },
      catalog: { publisher: 'acme.com', namespace: 'finance:agent' },
    });
    const entry = async (h: string) =>
      JSON.parse(decoder.decode((await get(r, '/.well-known/ai-catalog.json', { host: h })).body)).entries[0];
    const [eu, us] = [await entry('eu.acme.example'), await entry('us.acme.example')];
    expect([eu.identifier, us.identifier]).toEqual([
      'urn:air:acme.com:finance:agent:tenant',
      'urn:air:acme.com:finance:agent:tenant',
    ]);
    expect(eu.url).not.toBe(us.url);
  });

  it('warns once at start-up when the publisher is taken from a host name', () => {
    const warn = vi.fn();
    createAgentCardResponder({
      logger: { warn },
      agents: [{ id: 'billing', path: '/agents/billing', card: card('billing') }],
    });
    expect(warn.mock.calls.map((c) => c[0]).filter((m) => m.includes('publisher'))).toEqual([
      "agent card: options.catalog.publisher is not set, so the AI Catalog identifiers take the host name agents.acme.example (urn:air:agents.acme.example:…) and change when it does. Set catalog.publisher to your domain, e.g. 'acme.com'.",
    ]);
  });

  it.each<[string, AgentCardOptions['catalog'], string]>([
    [
      'metadata (now extensions)',
      { publisher: 'acme.com', metadata: { region: 'eu' } },
      "options.catalog.metadata: the current AI Catalog draft (0379c868) calls it extensions (set). Rename metadata to extensions, keyed by a URL or a reverse-DNS name (com.example.region), or pin the previous draft with catalog.draft: '634a09d9'.",
    ],
    [
      'an entry with mediaType (now type)',
      {
        publisher: 'acme.com',
        entries: [
          {
            identifier: 'urn:air:acme.com:x:y',
            displayName: 'Y',
            mediaType: 'application/json',
            url: 'https://acme.example/y',
          },
        ],
      },
      'options.catalog.entries[0].mediaType: the current AI Catalog draft (0379c868) names it type ("application/json"). Rename mediaType to type, or pin the previous draft with catalog.draft: \'634a09d9\'.',
    ],
    [
      'extensions on the pinned draft',
      { draft: '634a09d9', extensions: { 'com.acme.region': 'eu' } },
      'options.catalog.extensions: belongs to the current AI Catalog draft (0379c868), not to the pinned 634a09d9 (set). Use metadata for the pinned draft, or remove draft to follow the current one.',
    ],
    [
      'an unknown draft',
      { draft: '2025-01-01' as never },
      "options.catalog.draft: is not a draft this version knows (\"2025-01-01\"). Use '0379c868' (current) or '634a09d9' (previous).",
    ],
    [
      'a publisher that is not a domain',
      { publisher: 'https://acme.com' },
      'options.catalog.publisher: must be a lowercase domain name you publish under ("https://acme.com"). Use e.g. \'acme.com\'.',
    ],
  ])('refuses %s at start-up with the new spelling', (_name, catalog, line) => {
    const message = startupError({
      agents: [{ id: 'billing', path: '/agents/billing', card: card('billing') }],
      catalog,
    });
    expect(message.split('\n').map((l) => l.replace(/^ {2}- /, ''))).toEqual(['Invalid agent card options:', line]);
  });
});

describe('the previous draft, pinned (634a09d9)', () => {
  it('serves the bytes it served before the current draft, ETag included', async () => {
    const r = host({
      catalog: {
        draft: '634a09d9',
        host: { displayName: 'Acme' },
        metadata: { region: 'eu' },
        entries: [
          {
            identifier: 'urn:acme:eu',
            displayName: 'EU',
            mediaType: 'application/ai-catalog+json',
            url: 'https://eu.acme.example/.well-known/ai-catalog.json',
          },
        ],
      },
    });
    const res = await get(r, '/.well-known/ai-catalog.json');
    // Taken from the release before the current draft, with the same options.
    expect(decoder.decode(res.body)).toBe(
      '{"specVersion":"1.0","host":{"displayName":"Acme"},"entries":[{"identifier":"urn:agent-card:agents.acme.example:billing","displayName":"Acme billing","mediaType":"application/a2a-agent-card+json","url":"https://agents.acme.example/agents/billing/.well-known/agent-card.json","description":"The billing agent.","version":"1.2.0","tags":["billing","qa"]},{"identifier":"urn:agent-card:agents.acme.example:support","displayName":"Acme support","mediaType":"application/a2a-agent-card+json","url":"https://agents.acme.example/agents/support/.well-known/agent-card.json","description":"The support agent.","version":"1.2.0","tags":["support","qa"]},{"identifier":"urn:acme:eu","displayName":"EU","mediaType":"application/ai-catalog+json","url":"https://eu.acme.example/.well-known/ai-catalog.json"}],"metadata":{"region":"eu"}}',
    );
    expect(res.headers.etag).toBe('"jufBZDFJkFdAMKixtKVLHP4b6giy4B9RtERyUT3c0C8"');
  });

  it('is not signed even with sign set: the previous draft has no signature member', async () => {
    const catalog = JSON.parse(
      await text(host({ sign, catalog: { draft: '634a09d9' } }), '/.well-known/ai-catalog.json'),
    );
    expect(catalog.signature).toBeUndefined();
    expect(catalog.entries[0].digest).toBeUndefined();
  });
});

describe('a signed catalog', () => {
  const keys = { 'catalog-key': publicKey };

  it('carries a detached JWS over its RFC 8785 form and the SHA-256 of each card it points to', async () => {
    const r = host({ sign });
    const catalog = JSON.parse(await text(r, '/.well-known/ai-catalog.json'));
    expect(catalog.signature).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    for (const entry of catalog.entries) {
      const bytes = (await get(r, new URL(entry.url).pathname)).body!;
      expect(entry.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
    const cards = Object.fromEntries(
      await Promise.all(
        catalog.entries.map(async (e: { url: string }) => [e.url, (await get(r, new URL(e.url).pathname)).body!]),
      ),
    );
    expect(await verifyAiCatalog(catalog, { keys, artifacts: cards, fetchArtifacts: false })).toMatchObject({
      valid: true,
      signature: { valid: true, kid: 'catalog-key', alg: 'ES256', key: 'keys["catalog-key"]' },
      digests: [{ valid: true }, { valid: true }],
    });
    // Without a did:web signer the catalog keeps the earlier form, which readers are told about.
    expect(validateAiCatalog(catalog).findings.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['catalog-signature-previous-form', 'warning', '/signature'],
    ]);
  });

  it('is the same bytes on every replica (signed once, deterministically)', async () => {
    const [a, b] = [host({ sign }), host({ sign })];
    const [ra, rb] = [await get(a, '/.well-known/ai-catalog.json'), await get(b, '/.well-known/ai-catalog.json')];
    expect(decoder.decode(ra.body)).toBe(decoder.decode(rb.body));
    expect(ra.headers.etag).toBe(rb.headers.etag);
    // Prepared at start-up: every request gets the same frozen answer.
    expect(await get(a, '/.well-known/ai-catalog.json')).toBe(ra);
  });

  it('refuses at start-up a key set no catalog may be signed with', () => {
    const { privateKey: p521 } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
    expect(
      startupError({
        agents: [{ id: 'billing', path: '/agents/billing', card: card('billing') }],
        catalog: { publisher: 'acme.com' },
        sign: { privateKey: p521, alg: 'ES512' },
      }),
    ).toContain(
      'options.sign: no key uses an algorithm the AI Catalog draft allows for the catalog signature ("ES512"). Add a key signed with one of ES256, ES384, EdDSA, PS256, PS384, RS256, or set catalog.sign: false.',
    );
  });
});

describe('entries of other kinds', () => {
  it('lists declared MCP and Agent Skills entries after the agents, and serves the MCP subset', async () => {
    const r = host({ catalog: { publisher: 'acme.com', host: { displayName: 'Acme' }, entries: [MCP, SKILLS] } });
    const catalog = JSON.parse(await text(r, '/.well-known/ai-catalog.json'));
    expect(catalog.entries.map((e: { type: string }) => e.type)).toEqual([
      'application/a2a-agent-card+json',
      'application/a2a-agent-card+json',
      'application/mcp-server-card+json',
      'application/agent-skills+json',
    ]);
    const mcp = await get(r, '/.well-known/mcp/catalog.json');
    expect([mcp.status, mcp.headers['content-type']]).toEqual([200, 'application/ai-catalog+json']);
    expect(JSON.parse(decoder.decode(mcp.body))).toEqual({
      specVersion: '1.0',
      host: { displayName: 'Acme' },
      entries: [MCP],
    });
  });

  it('serves no MCP subset when no MCP entry is declared', async () => {
    expect(await host().respond({ method: 'GET', path: '/.well-known/mcp/catalog.json', headers: {} })).toBeUndefined();
  });
});

describe('a catalog signed with a did:web signer (catalog.signer)', () => {
  const SIGNER = 'did:web:agents.acme.example';
  const RELEASED_AT = '2026-12-01T09:00:00Z';
  const didHost = (extra: Partial<AgentCardOptions> = {}) =>
    createAgentCardResponder({
      logger: quiet,
      sign,
      agents: [
        {
          id: 'billing',
          path: '/agents/billing',
          card: card('billing'),
          catalogEntry: {
            trustManifests: [
              {
                contributor: SIGNER,
                provenance: [{ relation: 'publishedFrom', sourceId: 'https://github.com/acme/billing' }],
              },
            ],
          },
        },
        { id: 'support', path: '/agents/support', card: card('support') },
      ],
      catalog: {
        publisher: 'agents.acme.example',
        host: { displayName: 'Acme' },
        signer: SIGNER,
        issuedAt: RELEASED_AT,
      },
      ...extra,
    });

  it('serves the signer DID document at /.well-known/did.json, prebuilt with an ETag and CORS', async () => {
    const r = didHost();
    const res = await get(r, '/.well-known/did.json', { origin: 'https://elsewhere.example' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/did+json');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(decoder.decode(res.body))).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: SIGNER,
      verificationMethod: [
        {
          id: `${SIGNER}#catalog-key`,
          type: 'JsonWebKey2020',
          controller: SIGNER,
          publicKeyJwk: { ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' },
        },
      ],
      assertionMethod: [`${SIGNER}#catalog-key`],
    });
    expect((await get(r, '/.well-known/did.json', { 'if-none-match': res.headers.etag! })).status).toBe(304);
    // Static hosts get it too (agent-card build writes every served path).
    expect(servedPathsOf(r)).toContain('/.well-known/did.json');
  });

  it('signs the catalog and the Trust Manifest in the Signature object form; a reader verifies both from what the host serves', async () => {
    const r = didHost();
    const catalog = JSON.parse(await text(r, '/.well-known/ai-catalog.json'));
    expect(catalog.host).toEqual({ displayName: 'Acme', identifier: SIGNER });
    expect(catalog.signature).toMatchObject({ signer: SIGNER, profile: 'did-web-v1' });
    const [billing] = catalog.entries;
    expect(billing.trustManifests[0]).toMatchObject({
      contributor: SIGNER,
      subject: { identifier: billing.identifier, type: billing.type, digest: billing.digest, url: billing.url },
      signature: { signer: SIGNER, profile: 'did-web-v1' },
    });
    // The reader resolves did:web:agents.acme.example to this host's /.well-known/did.json.
    const fetch = async (url: URL | string | Request) => {
      const u = new URL(String(url));
      const res = await get(r, u.pathname);
      return new Response(res.body, { status: res.status });
    };
    const result = await verifyAiCatalog(catalog, {
      fetch,
      catalogUrl: 'https://agents.acme.example/.well-known/ai-catalog.json',
    });
    expect(result).toMatchObject({
      valid: true,
      signature: { valid: true, signer: SIGNER, kid: `${SIGNER}#catalog-key` },
      manifests: [{ entry: 0, index: 0, valid: true, publisher: true }],
      digests: [{ valid: true }, { valid: true }],
    });
    expect(validateAiCatalog(catalog).findings).toEqual([]);
  });

  it('refuses a signer that is not a root did:web DID, or one without sign, at start-up', () => {
    expect(startupError({ ...baseOptions(), sign, catalog: { signer: 'did:web:Acme.example:path' } })).toContain(
      'options.catalog.signer: signer "did:web:Acme.example:path" is not a root did:web DID',
    );
    expect(startupError({ ...baseOptions(), catalog: { signer: SIGNER, issuedAt: RELEASED_AT } })).toContain(
      'options.catalog.signer: signs with the keys of the sign option, which is not set.',
    );
    expect(
      startupError({
        ...baseOptions(),
        sign,
        catalog: {
          publisher: 'acme.com',
          host: { displayName: 'Acme', identifier: 'did:web:acme.com' },
          signer: SIGNER,
          issuedAt: RELEASED_AT,
        },
      }),
    ).toContain('options.catalog.host.identifier: must be the signer (did:web:agents.acme.example)');
  });

  it('refuses a signer without issuedAt, and a bad issuedAt, at start-up: every replica signs the same bytes', () => {
    expect(startupError({ ...baseOptions(), sign, catalog: { signer: SIGNER } })).toContain(
      'options.catalog.issuedAt: is required with signer (missing). Set it to when this catalog was released, the same on every replica',
    );
    expect(startupError({ ...baseOptions(), sign, catalog: { signer: SIGNER, issuedAt: 'yesterday' } })).toContain(
      'options.catalog.signer: issuedAt: "yesterday" is not a date. Pass a Date or an RFC 3339 date-time.',
    );
    expect(startupError({ ...baseOptions(), sign, catalog: { issuedAt: RELEASED_AT } })).toContain(
      'options.catalog.issuedAt: only dates a did:web signature',
    );
  });

  it('signs the same catalog bytes in responders created at different times (two replicas)', async () => {
    const first = await get(didHost(), '/.well-known/ai-catalog.json');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await get(didHost(), '/.well-known/ai-catalog.json');
    expect(decoder.decode(second.body)).toBe(decoder.decode(first.body));
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(JSON.parse(decoder.decode(first.body)).signature.issuedAt).toBe(RELEASED_AT);
  });
});

function baseOptions(): AgentCardOptions {
  return {
    logger: quiet,
    agents: ['billing', 'support'].map((id) => ({ id, path: `/agents/${id}`, card: card(id) })),
  };
}
