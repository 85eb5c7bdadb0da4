import { describe, expect, it, vi } from 'vitest';
import type { AgentCard } from '../../model';
import { memoryStore } from '../../store/memory';
import { openCardStore } from '../../store/writer';
import type { RequestBodyRead } from '../kernel/body';
import type { AgentCardRequest, AgentCardResponse } from '../kernel/exchange';
import { searchIndexBuilds } from '../host/search';
import { agentCardStore } from '../index';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions } from '../types';
import { tenantCard } from './test-cards';

const quiet = { warn: () => {} };

interface Skill {
  id: string;
  name: string;
  description: string;
  tags: string[];
}

function cardOf(tenant: string, agent: string, name: string, description: string, skills: Skill[]): AgentCard {
  return tenantCard(tenant, agent, { name, description, skills });
}

const skill = (id: string, name: string, description: string, tags: string[]): Skill => ({
  id,
  name,
  description,
  tags,
});

/** Two tenants with agents of the same names: a search of one never sees the other's. */
async function written() {
  const driver = memoryStore();
  const cards = openCardStore(driver, { profile: 'development', logger: quiet });
  for (const tenant of ['acme', 'globex']) {
    await cards.put(
      tenant,
      'billing',
      cardOf(tenant, 'billing', 'Billing Assistant', 'Answers invoice and payment questions.', [
        skill('invoice-lookup', 'Invoice lookup', 'Finds an invoice by number.', ['finance', 'invoices']),
      ]),
    );
    await cards.put(
      tenant,
      'travel',
      cardOf(tenant, 'travel', 'Straße Café Guide', 'Finds cafés on any STRASSE; books a ΟΔΟΣ tour.', [
        skill('book-flight', 'Book flight', 'Books flights and hotels.', ['Travel', 'Flights']),
      ]),
    );
    for (const n of [1, 2, 3, 4, 5])
      await cards.put(
        tenant,
        `helper-${n}`,
        cardOf(tenant, `helper-${n}`, `Helper ${n}`, 'A general helper for payments.', [
          skill(`help-${n}`, 'Help', 'Helps.', ['support']),
        ]),
      );
  }
  return driver;
}

const options = (driver: ReturnType<typeof memoryStore>, registry: unknown = true): AgentCardOptions => ({
  store: { driver, registry } as AgentCardOptions['store'],
  tenant: { from: 'host', hosts: ['{tenant}.agents.example.com'] },
  profile: 'development',
  logger: quiet,
});

/** A POST as a bridge hands it over: its body read as `body` says. */
function post(
  tenant: string,
  body: unknown,
  headers: Record<string, string> = {},
  read?: RequestBodyRead,
): AgentCardRequest {
  const bytes = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    method: 'POST',
    path: '/ard/search',
    headers: { host: `${tenant}.agents.example.com`, 'content-type': 'application/json', ...headers },
    readBody: async () => read ?? { kind: 'bytes', bytes },
  };
}
const text = (res: AgentCardResponse | undefined) => new TextDecoder().decode(res?.body);
interface Result {
  identifier: string;
  displayName: string;
  score: number;
  source: string;
  url: string;
  representativeQueries?: unknown;
}
type Results = { results: Result[]; pageToken?: string; referrals?: unknown[] };
const results = (res: AgentCardResponse | undefined) => JSON.parse(text(res)) as Results;
const names = (res: AgentCardResponse | undefined) => results(res).results.map((r) => r.identifier);

describe('POST /search of the ARD registry of a store tenant', () => {
  it("finds a tenant's agents by name, description, skill and tag, ranked, and never another tenant's", async () => {
    const responder = createAgentCardResponder(options(await written()));
    const res = await responder.respond(post('acme', { query: { text: 'invoice' } }));
    expect(res?.status).toBe(200);
    expect(res?.headers['content-type']).toBe('application/json');
    expect(res?.headers['cache-control']).toBe('no-store');
    expect(res?.headers['access-control-allow-origin']).toBe('*');
    const body = results(res);
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({
      identifier: 'urn:air:acme.agents.example.com:agent:billing',
      displayName: 'Billing Assistant',
      type: 'application/a2a-agent-card+json',
      url: 'https://acme.agents.example.com/agents/billing/.well-known/agent-card.json',
      source: 'https://acme.agents.example.com/ard',
    });
    expect(body.results[0]!.score).toBeGreaterThan(0);
    expect(body.results[0]!.score).toBeLessThanOrEqual(100);
    expect(body.results[0]!.representativeQueries).toBeUndefined();
    expect(body.pageToken).toBeUndefined();
    // By skill tag, by skill name, by a word's beginning; the name outranks a description.
    expect(names(await responder.respond(post('acme', { query: { text: 'finance' } })))).toEqual([
      'urn:air:acme.agents.example.com:agent:billing',
    ]);
    expect(names(await responder.respond(post('acme', { query: { text: 'flight' } })))).toEqual([
      'urn:air:acme.agents.example.com:agent:travel',
    ]);
    const payments = names(await responder.respond(post('acme', { query: { text: 'pay' } })));
    expect(payments).toHaveLength(6);
    // Every word must be found: AND, not OR.
    expect(names(await responder.respond(post('acme', { query: { text: 'invoice flights' } })))).toEqual([]);
    // Another tenant's search holds only its own agents, by its own identifiers.
    for (const text of ['invoice', 'pay', 'helper', 'straße'])
      for (const id of names(await responder.respond(post('globex', { query: { text } }))))
        expect(id).toMatch(/^urn:air:globex\.agents\.example\.com:/);
  });

  it('folds case, accents and compatibility forms alike in the index and the query', async () => {
    const responder = createAgentCardResponder(options(await written()));
    const travel = ['urn:air:acme.agents.example.com:agent:travel'];
    for (const text of [
      'STRASSE',
      'strasse',
      'Straße',
      'CAFE',
      'café',
      'cafe\u0301',
      'ｃａｆｅ',
      'οδος',
      'ΟΔΟΣ',
      'ὁδός',
    ])
      expect(names(await responder.respond(post('acme', { query: { text } }))), text).toEqual(travel);
    expect(names(await responder.respond(post('acme', { query: { text: 'TRAVEL' } })))).toEqual(travel);
  });

  it('pages with pageSize and sealed tokens: the same on two replicas, a forged, altered or foreign token refused', async () => {
    const driver = await written();
    const one = createAgentCardResponder(options(driver));
    const two = createAgentCardResponder(options(driver));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const body = { query: { text: 'helper' }, pageSize: 2, ...(token === undefined ? {} : { pageToken: token }) };
      const a = await one.respond(post('acme', body));
      const b = await two.respond(post('acme', body));
      expect(a?.status).toBe(200);
      expect(text(a)).toBe(text(b));
      seen.push(...names(a));
      token = results(a).pageToken;
      pages++;
    } while (token !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual([1, 2, 3, 4, 5].map((n) => `urn:air:acme.agents.example.com:agent:helper-${n}`));

    const first = results(await one.respond(post('acme', { query: { text: 'helper' }, pageSize: 2 }))).pageToken!;
    const theirs = results(await one.respond(post('globex', { query: { text: 'helper' }, pageSize: 2 }))).pageToken!;
    expect(theirs).not.toBe(first);
    const [offset, seal] = first.split('.') as [string, string];
    const flipped = `${seal.slice(0, -1)}${seal.endsWith('A') ? 'B' : 'A'}`;
    for (const [why, body] of [
      ["another tenant's token", { query: { text: 'helper' }, pageToken: theirs }],
      ['the token of another query', { query: { text: 'help' }, pageToken: first }],
      ['another offset under the same seal', { query: { text: 'helper' }, pageToken: `4.${seal}` }],
      ['an altered seal', { query: { text: 'helper' }, pageToken: `${offset}.${flipped}` }],
      ['a made-up token', { query: { text: 'helper' }, pageToken: '2.AAAAAAAAAAAAAAAA' }],
      ['control characters', { query: { text: 'helper' }, pageToken: '\u001b[31m' }],
    ] as const) {
      const res = await one.respond(post('acme', body));
      expect(res?.status, why).toBe(400);
      expect(JSON.parse(text(res)), why).toEqual({
        errorCode: 'INVALID_ARGUMENT',
        message:
          'pageToken is not one this registry gave for this query, or the listing changed since. Search again without pageToken.',
      });
    }
    // The same words in other case and spacing are the same query: its token holds.
    const again = await one.respond(post('acme', { query: { text: '  HELPER ' }, pageSize: 2, pageToken: first }));
    expect(names(again)).toEqual([3, 4].map((n) => `urn:air:acme.agents.example.com:agent:helper-${n}`));
  });

  it("builds a tenant's index at its first search, never for a tenant only browsed, and anew after a change", async () => {
    const responder = createAgentCardResponder(options(await written()));
    const before = searchIndexBuilds();
    const browse = async (tenant: string) =>
      JSON.parse(text(await responder.respond({ ...post(tenant, ''), method: 'GET', path: '/ard/agents' }))) as {
        total: number;
      };
    expect((await browse('globex')).total).toBe(7);
    expect((await browse('acme')).total).toBe(7);
    expect(searchIndexBuilds()).toBe(before);
    // Invalid searches are answered without an index.
    expect((await responder.respond(post('acme', { query: { text: '?!' } })))?.status).toBe(400);
    expect(searchIndexBuilds()).toBe(before);
    const first = await responder.respond(post('acme', { query: { text: 'helper' }, pageSize: 2 }));
    expect(names(first)).toHaveLength(2);
    expect(names(await responder.respond(post('acme', { query: { text: 'invoice' } })))).toHaveLength(1);
    expect(searchIndexBuilds()).toBe(before + 1);
    expect((await browse('globex')).total).toBe(7);
    expect(searchIndexBuilds()).toBe(before + 1);

    await agentCardStore(responder).put(
      'acme',
      'helper-6',
      cardOf('acme', 'helper-6', 'Helper 6', 'A general helper for payments.', [
        skill('help-6', 'Help', 'Helps.', ['support']),
      ]),
    );
    await vi.waitFor(async () => expect((await browse('acme')).total).toBe(8));
    expect(searchIndexBuilds()).toBe(before + 1);
    const all = await responder.respond(post('acme', { query: { text: 'helper' } }));
    expect(names(all)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `urn:air:acme.agents.example.com:agent:helper-${n}`));
    expect(searchIndexBuilds()).toBe(before + 2);
    // A token of the listing before the change is refused.
    const stale = await responder.respond(
      post('acme', { query: { text: 'helper' }, pageSize: 2, pageToken: results(first).pageToken }),
    );
    expect(stale?.status).toBe(400);
    expect(JSON.parse(text(stale))).toEqual({
      errorCode: 'INVALID_ARGUMENT',
      message:
        'pageToken is not one this registry gave for this query, or the listing changed since. Search again without pageToken.',
    });
  });

  it('filters on type, tags, capabilities and publisher, and refuses a filter it does not support', async () => {
    const responder = createAgentCardResponder(options(await written()));
    const search = async (filter: unknown) =>
      names(await responder.respond(post('acme', { query: { text: 'helper pay', filter } })));
    expect(await search({ type: ['application/a2a-agent-card+json'] })).toHaveLength(5);
    expect(await search({ type: 'application/mcp-server-card+json' })).toEqual([]);
    expect(await search({ tags: ['SUPPORT'] })).toHaveLength(5);
    expect(await search({ capabilities: ['help-2', 'help-4'] })).toEqual([
      'urn:air:acme.agents.example.com:agent:helper-2',
      'urn:air:acme.agents.example.com:agent:helper-4',
    ]);
    expect(await search({ publisher: 'globex.agents.example.com' })).toEqual([]);
    const res = await responder.respond(post('acme', { query: { text: 'x', filter: { 'okf:taxonomy': ['x'] } } }));
    expect(res?.status).toBe(400);
    expect(JSON.parse(text(res))).toEqual({
      errorCode: 'INVALID_ARGUMENT',
      message: 'query.filter supports only type, tags, capabilities, publisher.',
    });
    const referrals = results(
      await responder.respond(post('acme', { query: { text: 'invoice' }, federation: 'referrals' })),
    );
    expect(referrals.referrals).toEqual([]);
  });

  it.each([
    ['not JSON', '{"query":', 'The body is not JSON.'],
    ['not UTF-8', '', 'The body is not JSON.'],
    ['a member named twice', '{"query":{"text":"a","text":"b"}}', 'The body names a member twice in one object.'],
    [
      'nesting deeper than a search request',
      `{"query":{"text":"a","filter":{"tags":${'['.repeat(40)}${']'.repeat(40)}}}}`,
      'The body nests deeper than a search request does (6).',
    ],
    ['an array', '[]', 'The body must be a JSON object: { "query": { "text": "…" } }.'],
    ['no query', '{}', 'query is required: an object with text, and optionally filter and @context.'],
    ['no text', '{"query":{}}', 'query.text is required: a string of 1 to 256 characters.'],
    ['an empty text', '{"query":{"text":""}}', 'query.text is required: a string of 1 to 256 characters.'],
    [
      'a text too long',
      JSON.stringify({ query: { text: 'a'.repeat(257) } }),
      'query.text is required: a string of 1 to 256 characters.',
    ],
    ['a text with no word', '{"query":{"text":"?!"}}', 'query.text has no word to search for (letters or digits).'],
    [
      'a member of its own',
      '{"query":{"text":"a"},"limit":5}',
      'A search request takes only query, federation, pageSize and pageToken.',
    ],
    ['a query member of its own', '{"query":{"text":"a","q":1}}', 'query takes only @context, text and filter.'],
    [
      'a filter of objects',
      '{"query":{"text":"a","filter":{"tags":[{}]}}}',
      'query.filter must map each term to a string or a list of at most 32 strings of at most 256 characters.',
    ],
    ['pageSize 0', '{"query":{"text":"a"},"pageSize":0}', 'pageSize must be a whole number from 1 to 100.'],
    ['pageSize 101', '{"query":{"text":"a"},"pageSize":101}', 'pageSize must be a whole number from 1 to 100.'],
    ['pageSize 1.5', '{"query":{"text":"a"},"pageSize":1.5}', 'pageSize must be a whole number from 1 to 100.'],
    [
      'an unknown federation',
      '{"query":{"text":"a"},"federation":"all"}',
      'federation must be auto, referrals or none.',
    ],
  ])('answers 400 INVALID_ARGUMENT to %s', async (_why, body, message) => {
    const responder = createAgentCardResponder(options(await written()));
    const read: RequestBodyRead | undefined =
      body === '' ? { kind: 'bytes', bytes: new Uint8Array([0x7b, 0xff, 0x7d]) } : undefined;
    const res = await responder.respond(post('acme', body, {}, read));
    expect(res?.status).toBe(400);
    expect(res?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(text(res))).toEqual({ errorCode: 'INVALID_ARGUMENT', message });
  });

  it('answers 413 past the byte bound (declared, read or parsed), 408 to a body too slow, 415 to another type', async () => {
    const driver = await written();
    const responder = createAgentCardResponder(options(driver, { maxSearchBytes: 256 }));
    const big = { query: { text: 'a', filter: { tags: Array.from({ length: 30 }, () => 'x'.repeat(20)) } } };
    const tooLarge = { errorCode: 'PAYLOAD_TOO_LARGE', message: 'A search request is at most 256 bytes.' };
    for (const [why, request] of [
      ['read', post('acme', big)],
      ['declared', post('acme', { query: { text: 'a' } }, { 'content-length': '257' })],
      ['read past the bound', post('acme', big, {}, { kind: 'too-large', closeConnection: true })],
      ['parsed by a framework', post('acme', '', {}, { kind: 'parsed', value: big })],
    ] as const) {
      const res = await responder.respond(request);
      expect(res?.status, why).toBe(413);
      expect(JSON.parse(text(res)), why).toEqual(tooLarge);
    }
    expect(
      (await responder.respond(post('acme', big, {}, { kind: 'too-large', closeConnection: true })))?.headers
        .connection,
    ).toBe('close');
    const slow = await responder.respond(post('acme', '', {}, { kind: 'timeout', closeConnection: true }));
    expect(slow?.status).toBe(408);
    expect(JSON.parse(text(slow))).toEqual({
      errorCode: 'REQUEST_TIMEOUT',
      message: 'The request body did not arrive within 5000 ms.',
    });
    // A parsed value within the bound is searched like bytes.
    const parsed = await responder.respond(
      post('acme', '', {}, { kind: 'parsed', value: { query: { text: 'invoice' } } }),
    );
    expect(names(parsed)).toEqual(['urn:air:acme.agents.example.com:agent:billing']);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''])
      expect(
        (await responder.respond(post('acme', { query: { text: 'a' } }, { 'content-type': type })))?.status,
        type,
      ).toBe(415);
    expect(
      (
        await responder.respond(
          post('acme', { query: { text: 'invoice' } }, { 'content-type': 'application/json; charset=UTF-8' }),
        )
      )?.status,
    ).toBe(200);
  });

  it('answers 405 with Allow to other methods, and a CORS preflight that allows POST', async () => {
    const responder = createAgentCardResponder(options(await written()));
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
      const res = await responder.respond({ ...post('acme', {}), method });
      expect(res?.status, method).toBe(405);
      expect(res?.headers.allow).toBe('POST, OPTIONS');
    }
    const preflight = await responder.respond({
      ...post('acme', {}),
      method: 'OPTIONS',
      headers: {
        host: 'acme.agents.example.com',
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
      },
    });
    expect(preflight?.status).toBe(204);
    expect(preflight?.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(preflight?.headers['access-control-allow-headers']).toBe('Accept, Content-Type');
    // An unknown tenant is a 404, and is not searched.
    const unknown = await responder.respond(post('nobody', { query: { text: 'invoice' } }));
    expect(unknown?.status).toBe(404);
  });

  it('checks its bounds at start-up, naming each option', async () => {
    const driver = await written();
    expect(() =>
      createAgentCardResponder(options(driver, { maxSearchBytes: 10, searchTimeoutMs: 0, maxResults: 3 })),
    ).toThrow(
      /store\.registry\.maxResults: is not an option of store\.registry[\s\S]*store\.registry\.maxSearchBytes: must be a whole number from 64 to 1048576[\s\S]*store\.registry\.searchTimeoutMs: must be a whole number from 10 to 60000/,
    );
  });
});
