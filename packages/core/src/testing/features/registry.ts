import { expect } from 'vitest';
import type { AgentCard } from '../../model';
import { memoryStore } from '../../store/memory';
import type { CardStoreDriver } from '../../store/types';
import { type ConformanceFeature, check } from '../runner';

/** The bounds the fixture sets: small, so the attacks below cross them quickly. */
const MAX_BYTES = 512;
const TIMEOUT_MS = 300;
const encoder = new TextEncoder();

function storeCard(tenant: string, agent: string, name: string, tags: string[]): AgentCard {
  return {
    name,
    description: `The ${name} of ${tenant}.`,
    supportedInterfaces: [
      {
        url: `https://api.conformance.dev/t/${tenant}/agents/${agent}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
    ],
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: `${agent}-answer`, name: 'Answer', description: 'Answers questions.', tags }],
  } as AgentCard;
}

/** Two tenants, each with agents of the same names, in a memory store (written before any request). */
function seededStore(): CardStoreDriver {
  const driver = memoryStore();
  for (const tenant of ['acme', 'globex'])
    for (const [agent, name, tags] of [
      ['billing', 'Billing Assistant', ['invoices']],
      ['travel', 'Straße Café Guide', ['Flights']],
      ['helper-1', 'Helper One', ['support']],
      ['helper-2', 'Helper Two', ['support']],
      ['helper-3', 'Helper Three', ['support']],
    ] as const)
      void driver.put({ tenant, agent }, JSON.stringify(storeCard(tenant, agent, name, [...tags])));
  return driver;
}

const SEARCH = '/t/acme/ard/search';
const json = { 'content-type': 'application/json' };
const postJson = (body: string, headers: Record<string, string> = json): RequestInit => ({
  method: 'POST',
  headers,
  body,
});
const ids = (text: string) =>
  (JSON.parse(text) as { results: { identifier: string }[] }).results.map((r) => r.identifier);

/** A request body sent as a stream (no Content-Length): `chunks`, then the end unless `endless`. */
function streamed(chunks: readonly string[], endless: boolean, signal: AbortSignal): RequestInit {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!endless) controller.close();
    },
  });
  return { method: 'POST', headers: json, body, signal, duplex: 'half' } as RequestInit;
}

/**
 * `store.registry`: the ARD registry's `POST {base}/search` on a store-backed host, over real
 * sockets: the body is read within its byte and time bounds, whatever the framework, and a
 * tenant's search holds its own agents only.
 */
export const registrySearch: ConformanceFeature<CardStoreDriver> = {
  title: 'ARD registry search (store.registry)',
  state: seededStore,
  fixtures: {
    registry: (driver) => ({
      store: { driver, registry: { maxSearchBytes: MAX_BYTES, searchTimeoutMs: TIMEOUT_MS } },
      tenant: { from: 'path', prefix: '/t' },
      profile: 'development',
    }),
  },
  cases: [
    check("POST search → 200 application/json, the tenant's matches only, ranked, no-store", async (t) => {
      const res = await t.get('registry', SEARCH, postJson('{"query":{"text":"billing"}}'));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(ids(res.text)).toEqual(['urn:air:api.conformance.dev:agent:billing']);
      const theirs = await t.get('registry', '/t/globex/ard/search', postJson('{"query":{"text":"helper"}}'));
      expect(ids(theirs.text)).toHaveLength(3);
      for (const id of ids(theirs.text)) expect(id).toMatch(/^urn:air:api\.conformance\.dev:agent:helper-/);
      const folded = await t.get('registry', SEARCH, postJson('{"query":{"text":"STRASSE CAFE"}}'));
      expect(ids(folded.text)).toEqual(['urn:air:api.conformance.dev:agent:travel']);
    }),
    check('pages with sealed tokens; a forged token → 400 INVALID_ARGUMENT', async (t) => {
      const first = await t.get('registry', SEARCH, postJson('{"query":{"text":"helper"},"pageSize":2}'));
      const token = (JSON.parse(first.text) as { pageToken: string }).pageToken;
      expect(ids(first.text)).toHaveLength(2);
      const next = await t.get(
        'registry',
        SEARCH,
        postJson(JSON.stringify({ query: { text: 'helper' }, pageSize: 2, pageToken: token })),
      );
      expect(ids(next.text)).toHaveLength(1);
      const forged = await t.get(
        'registry',
        SEARCH,
        postJson(JSON.stringify({ query: { text: 'helper' }, pageToken: `1.${'A'.repeat(16)}` })),
      );
      expect(forged.status).toBe(400);
      expect(JSON.parse(forged.text).errorCode).toBe('INVALID_ARGUMENT');
    }),
    check(
      "GET agents walks every page once with sealed tokens; a forged or another tenant's token → 400",
      async (t) => {
        const refused = {
          errorCode: 'INVALID_ARGUMENT',
          message:
            'pageToken is not one this registry gave, or the listing changed since. Start again without pageToken.',
        };
        const walk = async (tenant: string) => {
          const seen: string[] = [];
          const tokens: string[] = [];
          let path: string | undefined = `/t/${tenant}/ard/agents?pageSize=2`;
          while (path !== undefined && tokens.length < 10) {
            const res = await t.get('registry', path);
            expect(res.status).toBe(200);
            const page = JSON.parse(res.text) as { items: { url: string }[]; pageToken?: string };
            seen.push(...page.items.map((i) => i.url));
            path =
              page.pageToken === undefined
                ? undefined
                : `/t/${tenant}/ard/agents?pageSize=2&pageToken=${page.pageToken}`;
            if (page.pageToken !== undefined) tokens.push(page.pageToken);
          }
          return { seen, tokens };
        };
        const ours = await walk('acme');
        expect(ours.tokens).toHaveLength(2);
        expect(ours.seen).toEqual(
          ['billing', 'helper-1', 'helper-2', 'helper-3', 'travel'].map(
            (a) => `https://api.conformance.dev/t/acme/agents/${a}/.well-known/agent-card.json`,
          ),
        );
        const theirs = await walk('globex');
        for (const token of [theirs.tokens[0]!, `2.${'A'.repeat(16)}`, ours.tokens[0]!.slice(0, -1)]) {
          const res = await t.get('registry', `/t/acme/ard/agents?pageSize=2&pageToken=${encodeURIComponent(token)}`);
          expect(res.status, token).toBe(400);
          expect(JSON.parse(res.text), token).toEqual(refused);
        }
      },
    ),
    check('a body past the byte bound → 413, declared or streamed', async (t) => {
      const big = JSON.stringify({ query: { text: 'a', filter: { tags: ['x'.repeat(MAX_BYTES)] } } });
      const declared = await t.get('registry', SEARCH, postJson(big));
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.text)).toEqual({
        errorCode: 'PAYLOAD_TOO_LARGE',
        message: `A search request is at most ${MAX_BYTES} bytes.`,
      });
      const abort = new AbortController();
      try {
        const chunk = 'x'.repeat(1024);
        const res = await t.get(
          'registry',
          SEARCH,
          streamed(['{"query":{"text":"', chunk, chunk, chunk], false, abort.signal),
        );
        expect(res.status).toBe(413);
      } finally {
        abort.abort();
      }
    }),
    check('a body that never ends → 408 within the time bound, not a hang', async (t) => {
      const abort = new AbortController();
      const started = Date.now();
      try {
        const res = await t.get('registry', SEARCH, streamed(['{"query":'], true, abort.signal));
        expect(res.status).toBe(408);
        expect(JSON.parse(res.text).errorCode).toBe('REQUEST_TIMEOUT');
      } finally {
        abort.abort();
      }
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 4000);
    }),
    check(
      'a member named twice, deep nesting, another shape → 400; another type → 415; GET → 405 with Allow',
      async (t) => {
        for (const body of [
          '{"query":{"text":"a","text":"billing"}}',
          `{"query":{"text":"a","filter":{"tags":${'['.repeat(20)}${']'.repeat(20)}}}}`,
          '{"query":{"text":"a"},"limit":1}',
          '{"query":',
        ]) {
          const res = await t.get('registry', SEARCH, postJson(body));
          expect(res.status, body).toBe(400);
          expect(JSON.parse(res.text).errorCode, body).toBe('INVALID_ARGUMENT');
        }
        const form = await t.get('registry', SEARCH, postJson('query=a', { 'content-type': 'text/plain' }));
        expect(form.status).toBe(415);
        const get = await t.get('registry', SEARCH);
        expect([get.status, get.headers.allow]).toEqual([405, 'POST, OPTIONS']);
      },
    ),
  ],
};
