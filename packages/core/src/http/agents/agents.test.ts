import { describe, expect, it } from 'vitest';
import { AI_CATALOG_MEDIA_TYPE } from '../../catalog/format';
import { validateAiCatalog } from '../../catalog/validate';
import { AgentCardError } from '../../errors';
import type { AgentCard } from '../../model';
import { conformanceAgentCard, EXTENDED_ONLY_SKILL } from '../../testing/cards';
import { agentResponderOf } from '../multi-agent';
import { getExtendedAgentCard } from '../index';
import { createAgentCardResponder } from '../responder';
import type { AgentCardOptions, AgentCardRequest, AgentCardResponder, AgentCardResponse } from '../types';

const quiet = { warn: () => {} };
const billing = conformanceAgentCard('billing');
const support = conformanceAgentCard('support');
const decoder = new TextDecoder();
const json = (res: AgentCardResponse | undefined) => JSON.parse(decoder.decode(res!.body!));

type Raw = { headers: Record<string, string | undefined> };
/** An authenticate that accepts one bearer token only. */
const acceptToken = (token: string, sub: string) => (raw: unknown) =>
  (raw as Raw | undefined)?.headers.authorization === `Bearer ${token}` ? { sub } : undefined;

const billingSkill = { ...EXTENDED_ONLY_SKILL, id: 'billing-refunds', name: 'Refunds', tags: ['billing'] };
const supportSkill = { ...EXTENDED_ONLY_SKILL, id: 'support-escalation', name: 'Escalation', tags: ['support'] };

function twoAgents(extra: Partial<AgentCardOptions> = {}): AgentCardResponder {
  return createAgentCardResponder({
    logger: quiet,
    agents: [
      {
        id: 'billing',
        path: '/agents/billing',
        card: billing,
        extended: { authenticate: acceptToken('billing-token', 'b'), card: [billingSkill] },
      },
      {
        id: 'support',
        path: '/agents/support',
        card: support,
        extended: { authenticate: acceptToken('support-token', 's'), card: [supportSkill] },
      },
    ],
    default: 'support',
    // These cases pin the previous AI Catalog draft; catalog.test.ts covers the current one.
    catalog: { host: { displayName: 'Acme Corp' }, draft: '634a09d9' },
    ...extra,
  });
}

async function get(responder: AgentCardResponder, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const request: AgentCardRequest = { method, path, headers, raw: { headers } };
  return responder.respond(request);
}

describe('several agents from one responder', () => {
  it.each([
    ['/agents/billing/.well-known/agent-card.json', 'Conformance billing'],
    ['/agents/support/.well-known/agent-card.json', 'Conformance support'],
    ['/agents/billing/.well-known/agent-card.json?x=1', 'Conformance billing'],
    ['/agents/billing/.well-known/agent-card.json/', 'Conformance billing'],
    ['/agents/billing/.well-known/agent.json', 'Conformance billing'],
    ['/.well-known/agent-card.json', 'Conformance support'],
    ['/.well-known/agent.json', 'Conformance support'],
  ])('GET %s serves %s', async (path, name) => {
    const res = await get(twoAgents(), path);
    expect(res?.status).toBe(200);
    expect(res?.headers['content-type']).toBe('application/a2a+json');
    expect(json(res).name).toBe(name);
  });

  it('serves the bytes and the ETag a single-card responder serves for the same card', async () => {
    const single = await get(
      createAgentCardResponder({ card: billing, logger: quiet }),
      '/.well-known/agent-card.json',
    );
    const multi = await get(twoAgents(), '/agents/billing/.well-known/agent-card.json');
    expect(decoder.decode(multi!.body)).toBe(decoder.decode(single!.body));
    expect(multi?.headers.etag).toBe(single?.headers.etag);
  });

  it.each([
    '/api/ping',
    '/agents/billing',
    '/agents/unknown/.well-known/agent-card.json',
    '/agents/billing/.well-known/other',
    '/agents/billing/../support/.well-known/agent-card.json',
    '/agents/%62illing/.well-known/agent-card.json',
    '/agents//billing/.well-known/agent-card.json',
    '/agents/billing/a2a/rest/other',
    '/agents/nobody/a2a/rest/extendedAgentCard',
  ])('leaves %s to the app', async (path) => {
    expect(await get(twoAgents(), path)).toBeUndefined();
  });

  it('without a default agent the root card path is left to the app', async () => {
    expect(await get(twoAgents({ default: undefined }), '/.well-known/agent-card.json')).toBeUndefined();
  });

  it('links the catalog from every card answer (200, HEAD, 304) and keeps the canonical link of the alias', async () => {
    const r = twoAgents();
    const ok = await get(r, '/agents/billing/.well-known/agent-card.json');
    expect(ok?.headers.link).toBe(
      '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    expect((await get(r, '/agents/billing/.well-known/agent-card.json', {}, 'HEAD'))?.headers.link).toBe(
      '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    const notModified = await get(r, '/agents/billing/.well-known/agent-card.json', {
      'if-none-match': ok!.headers.etag!,
    });
    expect(notModified?.status).toBe(304);
    expect(notModified?.headers.link).toBe(
      '</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    expect((await get(r, '/.well-known/agent.json'))?.headers.link).toBe(
      '</.well-known/agent-card.json>; rel="canonical", </.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    // The linked answer is prebuilt: the same frozen object every time.
    expect(await get(r, '/agents/billing/.well-known/agent-card.json')).toBe(ok);
    expect(Object.isFrozen(ok?.headers)).toBe(true);
  });

  it('with catalog: false (and ard: false) serves no catalog and sends no Link', async () => {
    const r = twoAgents({ catalog: false, ard: false });
    expect(await get(r, '/.well-known/ai-catalog.json')).toBeUndefined();
    expect((await get(r, '/agents/billing/.well-known/agent-card.json'))?.headers.link).toBeUndefined();
  });

  it('applies top-level options to every agent unless the agent sets its own', async () => {
    const r = createAgentCardResponder({
      logger: quiet,
      cacheControl: 'public, max-age=600',
      cors: ['https://app.example.com'],
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        { id: 'support', path: '/agents/support', card: support, cacheControl: 'no-cache' },
      ],
    });
    const origin = { origin: 'https://app.example.com' };
    const b = await get(r, '/agents/billing/.well-known/agent-card.json', origin);
    const s = await get(r, '/agents/support/.well-known/agent-card.json', origin);
    const c = await get(r, '/.well-known/ai-catalog.json', origin);
    expect([b, s, c].map((res) => res?.headers['cache-control'])).toEqual([
      'public, max-age=600',
      'no-cache',
      'public, max-age=600',
    ]);
    expect([b, s, c].map((res) => res?.headers['access-control-allow-origin'])).toEqual([
      'https://app.example.com',
      'https://app.example.com',
      'https://app.example.com',
    ]);
  });

  it('names the agent in warnings', () => {
    const warnings: string[] = [];
    createAgentCardResponder({
      logger: { warn: (m: string) => warnings.push(m) },
      agents: [{ id: 'billing', path: '/agents/billing', card: billing }],
    });
    expect(warnings[0]).toMatch(
      /^agent "billing": agent card: capabilities\.extendedAgentCard is true but no `extended` option is set/,
    );
  });
});

describe('extended cards of several agents', () => {
  const billingPath = '/agents/billing/a2a/rest/extendedAgentCard';
  const supportPath = '/agents/support/a2a/rest/extendedAgentCard';

  it("an agent's credentials read its own extended card, never another agent's", async () => {
    const r = twoAgents();
    const b = await get(r, billingPath, { authorization: 'Bearer billing-token' });
    expect(b?.status).toBe(200);
    expect(json(b).name).toBe('Conformance billing');
    expect(json(b).skills.map((s: { id: string }) => s.id)).toEqual(['billing-answer', 'billing-refunds']);
    const s = await get(r, supportPath, { authorization: 'Bearer support-token' });
    expect(json(s).skills.map((x: { id: string }) => x.id)).toEqual(['support-answer', 'support-escalation']);
  });

  it.each([
    [billingPath, 'Bearer support-token'],
    [supportPath, 'Bearer billing-token'],
    [billingPath, ''],
  ])('GET %s with %j is 401 and shows no card', async (path, authorization) => {
    const res = await get(twoAgents(), path, authorization ? { authorization } : {});
    expect(res?.status).toBe(401);
    const text = decoder.decode(res!.body);
    expect(text).not.toContain('refunds');
    expect(text).not.toContain('escalation');
  });

  it('getExtendedAgentCard runs on the agent picked with agentResponderOf', async () => {
    const r = twoAgents();
    const agent = agentResponderOf(r, 'billing')!;
    const result = await getExtendedAgentCard(agent, {
      headers: {},
      raw: { headers: { authorization: 'Bearer billing-token' } },
    });
    expect(result.card?.skills.map((s) => s.id)).toEqual(['billing-answer', 'billing-refunds']);
    const refused = await getExtendedAgentCard(agent, {
      headers: {},
      raw: { headers: { authorization: 'Bearer support-token' } },
    });
    expect(refused.card).toBeUndefined();
    expect(refused.error?.code).toBe(-32000);
    expect(agentResponderOf(r, 'nobody')).toBeUndefined();
  });

  it('agentResponderOf finds the agent through what carries the responder; an options object is a TypeError', () => {
    const r = twoAgents();
    const middleware = Object.assign(() => {}, { responder: r });
    expect(agentResponderOf(middleware, 'billing')).toBe(agentResponderOf(r, 'billing'));
    const options = { logger: quiet, agents: [{ id: 'billing', path: '/agents/billing', card: billing }] };
    createAgentCardResponder(options);
    expect(() => agentResponderOf(options as never, 'billing')).toThrow(TypeError);
    expect(() => agentResponderOf(options as never, 'billing')).toThrow(
      "agentResponderOf: expected the responder, or an adapter's middleware, plugin or handler (it carries its responder as `responder`) (got an options object). Pass what createAgentCardResponder(options) or the adapter returned; options objects are not looked up.",
    );
  });
});

describe('the AI catalog', () => {
  it('lists every agent with an absolute card URL, its name, description, version and skill tags', async () => {
    const res = await get(twoAgents(), '/.well-known/ai-catalog.json');
    expect(res?.status).toBe(200);
    expect(res?.headers['content-type']).toBe(AI_CATALOG_MEDIA_TYPE);
    expect(res?.headers['access-control-allow-origin']).toBe('*');
    expect(res?.headers['cache-control']).toBe('public, max-age=3600');
    expect(res?.headers.etag).toMatch(/^"[^W]/);
    expect(json(res)).toEqual({
      specVersion: '1.0',
      host: { displayName: 'Acme Corp' },
      entries: [
        {
          identifier: 'urn:agent-card:agent.conformance.dev:billing',
          displayName: 'Conformance billing',
          mediaType: 'application/a2a-agent-card+json',
          url: 'https://agent.conformance.dev/agents/billing/.well-known/agent-card.json',
          description: 'The billing agent of the multi-agent conformance host.',
          version: '1.2.0',
          tags: ['billing', 'qa'],
        },
        {
          identifier: 'urn:agent-card:agent.conformance.dev:support',
          displayName: 'Conformance support',
          mediaType: 'application/a2a-agent-card+json',
          url: 'https://agent.conformance.dev/agents/support/.well-known/agent-card.json',
          description: 'The support agent of the multi-agent conformance host.',
          version: '1.2.0',
          tags: ['support', 'qa'],
        },
      ],
    });
    expect(validateAiCatalog(json(res), { draft: '634a09d9' }).findings).toEqual([]);
  });

  it("each entry's URL resolves to the card served there, with the entry's name and version", async () => {
    const r = twoAgents();
    const catalog = json(await get(r, '/.well-known/ai-catalog.json'));
    for (const entry of catalog.entries) {
      const card = await get(r, new URL(entry.url).pathname);
      expect(card?.status).toBe(200);
      expect(json(card)).toMatchObject({ name: entry.displayName, version: entry.version });
    }
  });

  it('answers like a card: 304 on a matching If-None-Match, HEAD without body, 204 preflight, 405', async () => {
    const r = twoAgents();
    const ok = await get(r, '/.well-known/ai-catalog.json');
    expect((await get(r, '/.well-known/ai-catalog.json', { 'if-none-match': ok!.headers.etag! }))?.status).toBe(304);
    const head = await get(r, '/.well-known/ai-catalog.json', {}, 'HEAD');
    expect([head?.status, head?.body]).toEqual([200, undefined]);
    expect((await get(r, '/.well-known/ai-catalog.json?x=1', {}, 'OPTIONS'))?.status).toBe(204);
    expect((await get(r, '/.well-known/ai-catalog.json', {}, 'POST'))?.status).toBe(405);
  });

  it('uses catalog.baseUrl for entry URLs and the Link, lists extra entries, and honours per-agent entries', async () => {
    const r = createAgentCardResponder({
      logger: quiet,
      agents: [
        {
          id: 'billing',
          path: '/agents/billing',
          card: billing,
          catalogEntry: { identifier: 'urn:acme:billing', displayName: 'Billing' },
        },
        { id: 'support', path: '/agents/support', card: support, catalogEntry: false },
      ],
      catalog: {
        draft: '634a09d9',
        baseUrl: 'https://acme.example/api/',
        entries: [
          {
            identifier: 'urn:acme:catalog:eu',
            displayName: 'EU agents',
            mediaType: AI_CATALOG_MEDIA_TYPE,
            url: 'https://eu.acme.example/.well-known/ai-catalog.json',
          },
        ],
      },
    });
    const catalog = json(await get(r, '/.well-known/ai-catalog.json'));
    expect(catalog.entries.map((e: { identifier: string; url: string }) => [e.identifier, e.url])).toEqual([
      ['urn:acme:billing', 'https://acme.example/api/agents/billing/.well-known/agent-card.json'],
      ['urn:acme:catalog:eu', 'https://eu.acme.example/.well-known/ai-catalog.json'],
    ]);
    expect(catalog.entries[0].displayName).toBe('Billing');
    expect((await get(r, '/agents/billing/.well-known/agent-card.json'))?.headers.link).toBe(
      '<https://acme.example/api/.well-known/ai-catalog.json>; rel="ai-catalog", <https://acme.example/api/.well-known/ard.json>; rel="ard"',
    );
  });

  it('builds one catalog per variant of a dynamic card, from the request origin', async () => {
    let calls = 0;
    const r = createAgentCardResponder({
      logger: quiet,
      // Inherited by the dynamic agent only (a static card rejects it).
      dynamic: { allowedOrigins: ['http://eu.acme.example', 'http://us.acme.example'] },
      catalog: { draft: '634a09d9' },
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        {
          id: 'tenant',
          path: '/agents/tenant',
          card: (ctx) => {
            calls++;
            return {
              ...conformanceAgentCard('tenant', ctx.origin),
              version: ctx.origin.includes('eu') ? '2.0.0' : '1.0.0',
            };
          },
        },
      ],
    });
    const eu = await get(r, '/.well-known/ai-catalog.json', { host: 'eu.acme.example' });
    const us = await get(r, '/.well-known/ai-catalog.json', { host: 'us.acme.example' });
    expect(json(eu).entries[1]).toMatchObject({
      url: 'http://eu.acme.example/agents/tenant/.well-known/agent-card.json',
      version: '2.0.0',
    });
    expect(json(us).entries[1]).toMatchObject({
      url: 'http://us.acme.example/agents/tenant/.well-known/agent-card.json',
      version: '1.0.0',
    });
    expect(eu?.headers.etag).not.toBe(us?.headers.etag);
    const again = await get(r, '/.well-known/ai-catalog.json', {
      host: 'eu.acme.example',
      'if-none-match': eu!.headers.etag!,
    });
    expect(again?.status).toBe(304);
    expect(calls).toBe(2);
    // A Host the agent does not serve gets the agent's refusal, not a catalog listing it.
    const evil = await get(r, '/.well-known/ai-catalog.json', { host: 'evil.example' });
    expect(evil?.status).not.toBe(200);
    expect(decoder.decode(evil!.body)).not.toContain('evil.example');
    // The dynamic agent's card links the catalog too.
    expect(
      (await get(r, '/agents/tenant/.well-known/agent-card.json', { host: 'eu.acme.example' }))?.headers.link,
    ).toBe('</.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"');
  });

  it('answers 503 (never a stack trace) when a dynamic card cannot be built', async () => {
    const r = createAgentCardResponder({
      logger: quiet,
      catalog: { draft: '634a09d9' },
      agents: [
        {
          id: 'broken',
          path: '/agents/broken',
          dynamic: { cacheKey: () => 'one' },
          card: () => {
            throw new Error('secret database password in stack');
          },
        },
      ],
    });
    const res = await get(r, '/.well-known/ai-catalog.json', { host: 'acme.example' });
    expect(res?.status).toBe(503);
    expect(res?.headers['retry-after']).toBe('30');
    expect(decoder.decode(res!.body)).not.toContain('secret');
  });
});

describe('start-up errors', () => {
  function startupError(options: AgentCardOptions): AgentCardError {
    try {
      createAgentCardResponder({ logger: quiet, ...options });
    } catch (error) {
      if (error instanceof AgentCardError) return error;
      throw error;
    }
    throw new Error('expected an AgentCardError');
  }

  it('lists every problem together, each naming the agent and the fix', () => {
    const broken = { ...support, name: '' } as AgentCard;
    const error = startupError({
      card: billing,
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        { id: 'billing', path: '/agents/other', card: support },
        { id: 'support', path: '/agents/billing', card: support },
        { id: 'bad id!', path: '/x', card: support },
        { id: 'nopath', path: '/agents/nopath/', card: support },
        { id: 'broken', path: '/agents/broken', card: broken },
      ],
      default: 'nobody',
    });
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    const lines = error.message
      .split('\n')
      .slice(1)
      .map((l) => l.replace(/^ {2}- /, ''));
    expect(lines.slice(0, 5)).toEqual([
      'options.card: cannot be used together with options.agents (set). Move the card into one agent, e.g. agents: [{ id, path, card }], and make it the default.',
      'options.agents[1] (agent "billing").id: repeats options.agents[0] ("billing"). Give each agent its own id.',
      'options.agents[2] (agent "support").path: is also the path of agent "billing" ("/agents/billing"). Give each agent its own path.',
      `options.agents[3].id: must be 1-64 letters, digits, '.', '_' or '-' ("bad id!"). Use e.g. 'billing'.`,
      `options.agents[4] (agent "nopath").path: must start with '/', have no trailing slash, query, empty or dot segment, and no /.well-known ("/agents/nopath/"). Use e.g. '/agents/nopath'.`,
    ]);
    expect(lines[5]).toMatch(
      /^options\.agents\[5\] \(agent "broken"\): card: the Agent Card has 1 validation error\(s\)/,
    );
    expect(lines.at(-1)).toBe('options.default: names no agent ("nobody"). Use one of the agent ids: billing.');
    expect(error.findings.map((f) => [f.rule, f.message.slice(0, 17)])).toContainEqual([
      'field-types',
      'agent "broken": n',
    ]);
  });

  it('rejects two agents whose extended card paths or interface URLs collide', () => {
    const error = startupError({
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing, extended: { authenticate: () => undefined } },
        { id: 'copy', path: '/agents/copy', card: billing, extended: { authenticate: () => undefined } },
      ],
    });
    expect(error.message).toContain(
      `options.agents[1] (agent "copy").extended: its extended card path is also agent "billing"'s ("/agents/billing/a2a/rest/extendedAgentCard"). Give the agents distinct HTTP+JSON interface URLs, or set extended.path.`,
    );
    expect(error.message).toContain(
      `options.agents[1] (agent "copy").card.supportedInterfaces: its interface URL is also agent "billing"'s ("https://agent.conformance.dev/agents/billing/a2a/jsonrpc"). Give each agent its own endpoint URL, e.g. under its path.`,
    );
  });

  it.each([
    [{ agents: [] }, 'options.agents: must be a non-empty array of { id, path, card } ([]). List at least one agent.'],
    [
      { agents: [{ id: 'a', path: '/a', card: billing }], extended: { authenticate: () => undefined } },
      'options.extended: is per agent when options.agents is set (set). Move it into the agent whose card it extends.',
    ],
    [
      { agents: [{ id: 'a', path: '/a/.well-known/x', card: billing }] },
      `options.agents[0] (agent "a").path: must start with '/', have no trailing slash, query, empty or dot segment, and no /.well-known ("/a/.well-known/x"). Use e.g. '/agents/a'.`,
    ],
    [
      { agents: [{ id: 'a', path: '/a', card: billing }], catalog: { baseUrl: 'ftp://x', hosts: 1 } },
      'options.catalog.hosts: unknown option. Did you mean "host"?',
    ],
    [
      { agents: [{ id: 'a', path: '/a', card: billing }], catalog: { baseUrl: 'https://u:p@x.example' } },
      'options.catalog.baseUrl: must be an absolute http(s) URL without query, fragment or credentials ("https://u:p@x.example"). Use e.g. \'https://api.example.com\'.',
    ],
    [
      { agents: [{ id: 'a', path: '/a', card: billing }], catalog: { host: {} } },
      'options.catalog.host.displayName: is required. Add a non-empty string displayName.',
    ],
  ] as const)('fails at start-up with: $1', (options, line) => {
    expect(startupError(options as AgentCardOptions).message).toContain(line);
  });
});

describe("an agent's legacy alias", () => {
  it("names the agent's own card as canonical, not the root card", async () => {
    const r = twoAgents();
    expect((await get(r, '/agents/billing/.well-known/agent.json'))?.headers.link).toBe(
      '</agents/billing/.well-known/agent-card.json>; rel="canonical", </.well-known/ai-catalog.json>; rel="ai-catalog", </.well-known/ard.json>; rel="ard"',
    );
    expect(
      (await get(twoAgents({ catalog: false, ard: false }), '/agents/billing/.well-known/agent.json'))?.headers.link,
    ).toBe('</agents/billing/.well-known/agent-card.json>; rel="canonical"');
  });

  it('names it under catalog.baseUrl when the host is mounted under a base path', async () => {
    const r = twoAgents({ catalog: { baseUrl: 'https://acme.example/api' } });
    expect((await get(r, '/agents/billing/.well-known/agent.json'))?.headers.link).toBe(
      '<https://acme.example/api/agents/billing/.well-known/agent-card.json>; rel="canonical", <https://acme.example/api/.well-known/ai-catalog.json>; rel="ai-catalog", <https://acme.example/api/.well-known/ard.json>; rel="ard"',
    );
    expect((await get(r, '/.well-known/agent.json'))?.headers.link).toBe(
      '<https://acme.example/api/.well-known/agent-card.json>; rel="canonical", <https://acme.example/api/.well-known/ai-catalog.json>; rel="ai-catalog", <https://acme.example/api/.well-known/ard.json>; rel="ard"',
    );
  });
});

describe("update() of one agent's responder", () => {
  function updateError(run: () => void): AgentCardError {
    try {
      run();
    } catch (error) {
      if (error instanceof AgentCardError) return error;
      throw error;
    }
    throw new Error('expected an AgentCardError');
  }
  const movedTo = (card: AgentCard, url: string): AgentCard => ({
    ...card,
    supportedInterfaces: card.supportedInterfaces.map((i) => ({ ...i, url })),
  });

  it("refuses a card that takes another agent's interface URL, with the start-up error, and changes nothing", async () => {
    const r = twoAgents();
    const before = await get(r, '/agents/billing/.well-known/agent-card.json');
    const catalogBefore = json(await get(r, '/.well-known/ai-catalog.json'));
    const taken = support.supportedInterfaces[0]!.url;
    const error = updateError(() => agentResponderOf(r, 'billing')!.update(movedTo(billing, taken)));
    expect(error.code).toBe('ERR_AGENT_CARD_OPTIONS');
    expect(error.message).toContain(
      `options.agents[1] (agent "support").card.supportedInterfaces: its interface URL is also agent "billing"'s (${JSON.stringify(taken)}). Give each agent its own endpoint URL, e.g. under its path.`,
    );
    const after = await get(r, '/agents/billing/.well-known/agent-card.json');
    expect(decoder.decode(after!.body)).toBe(decoder.decode(before!.body));
    expect(json(await get(r, '/.well-known/ai-catalog.json'))).toEqual(catalogBefore);
    expect(
      json(
        await agentResponderOf(r, 'billing')!.respond({
          method: 'GET',
          path: '/.well-known/agent-card.json',
          headers: {},
        }),
      ),
    ).toEqual(json(before));
  });

  it('is reflected in the AI catalog and in routing (the extended card follows the moved interface)', async () => {
    const r = twoAgents();
    const moved = {
      ...movedTo(billing, 'https://agent.conformance.dev/agents/billing/v2'),
      supportedInterfaces: [
        {
          url: 'https://agent.conformance.dev/agents/billing/v2',
          protocolBinding: 'HTTP+JSON',
          protocolVersion: '1.0',
        },
      ],
      version: '2.0.0',
      name: 'Billing v2',
    } as AgentCard;
    agentResponderOf(r, 'billing')!.update(moved);
    const card = await get(r, '/agents/billing/.well-known/agent-card.json');
    expect(json(card).name).toBe('Billing v2');
    const entry = json(await get(r, '/.well-known/ai-catalog.json')).entries[0];
    expect([entry.displayName, entry.version]).toEqual(['Billing v2', '2.0.0']);
    const extended = await get(r, '/agents/billing/v2/extendedAgentCard', { authorization: 'Bearer billing-token' });
    expect(extended?.status).toBe(200);
    expect(json(extended).name).toBe('Billing v2');
    expect(await get(r, '/agents/billing/a2a/rest/extendedAgentCard')).toBeUndefined();
  });

  it.each([
    ['null', null],
    ['a function', () => billing],
  ])('refuses %s as the card, as a single card does, and serves what it served', async (_, value) => {
    const r = twoAgents();
    const before = await get(r, '/agents/billing/.well-known/agent-card.json');
    const error = updateError(() => agentResponderOf(r, 'billing')!.update(value as unknown as AgentCard));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.findings.map((f) => f.rule)).toEqual(['card-root-object']);
    expect(await get(r, '/agents/billing/.well-known/agent-card.json')).toBe(before);
  });

  it('keeps the extended card a later update gives', async () => {
    const r = twoAgents();
    const skill = { ...billingSkill, id: 'billing-disputes', name: 'Disputes' };
    agentResponderOf(r, 'billing')!.update(billing, { extendedCard: [skill] });
    const extended = await getExtendedAgentCard(agentResponderOf(r, 'billing')!, {
      headers: { authorization: 'Bearer billing-token' },
      raw: { headers: { authorization: 'Bearer billing-token' } },
    });
    expect(extended.card?.skills.map((s) => s.id)).toContain('billing-disputes');
  });
});

describe('extra catalog entries', () => {
  const entry = (url: string) => ({
    identifier: 'urn:acme:other',
    displayName: 'Other',
    mediaType: 'application/a2a-agent-card+json',
    url,
  });
  function catalogError(url: string, profile: 'production' | 'strict' | 'development' = 'production') {
    try {
      createAgentCardResponder({
        logger: quiet,
        profile,
        agents: [{ id: 'billing', path: '/agents/billing', card: billing }],
        catalog: { entries: [entry(url)], draft: '634a09d9' },
      });
    } catch (error) {
      if (error instanceof AgentCardError) return error.message;
      throw error;
    }
    return undefined;
  }

  it.each([
    [
      'javascript:alert(1)',
      'options.catalog.entries[0].url: uses the javascript scheme; catalog readers follow http(s) URLs only ("javascript:alert(1)"). Use an https:// URL.',
    ],
    [
      'data:application/json,{}',
      'options.catalog.entries[0].url: uses the data scheme; catalog readers follow http(s) URLs only ("data:application/json,{}"). Use an https:// URL.',
    ],
    [
      'file:///etc/passwd',
      'options.catalog.entries[0].url: uses the file scheme; catalog readers follow http(s) URLs only ("file:///etc/passwd"). Use an https:// URL.',
    ],
    [
      'https://bob:hunter2@agents.acme.io/.well-known/agent-card.json',
      'options.catalog.entries[0].url: carries credentials in the URL userinfo ("https://bob:***@agents.acme.io/.well-known/agent-card.json"). Remove "user:password@"; the catalog is public.',
    ],
    [
      'http://169.254.169.254/latest/meta-data',
      'options.catalog.entries[0].url: host is a link-local address (169.254.0.0/16), which no client outside the machine\'s link reaches ("169.254.169.254"). Use the public host name of the agent.',
    ],
    [
      'https://[fe80::1]/.well-known/agent-card.json',
      'options.catalog.entries[0].url: host is an IPv6 link-local address (fe80::/10), which no client outside the machine\'s link reaches ("[fe80::1]"). Use the public host name of the agent.',
    ],
  ])('refuses %s at start-up in production and strict', (url, line) => {
    expect(catalogError(url)).toContain(line);
    expect(catalogError(url, 'strict')).toContain(line);
  });

  it('refuses credentials in every profile, and lists every bad entry together', () => {
    expect(catalogError('https://bob:hunter2@agents.acme.io/x', 'development')).toContain('carries credentials');
    try {
      createAgentCardResponder({
        logger: quiet,
        profile: 'production',
        agents: [{ id: 'billing', path: '/agents/billing', card: billing }],
        catalog: {
          draft: '634a09d9',
          host: { displayName: 'Acme', logoUrl: 'javascript:alert(1)' },
          entries: [entry('javascript:alert(1)'), { ...entry('file:///x'), identifier: 'urn:acme:x' }],
        },
      });
      expect.unreachable();
    } catch (error) {
      const lines = (error as AgentCardError).message.split('\n').slice(1);
      expect(lines.map((l) => l.replace(/^ {2}- /, '').split(':')[0])).toEqual([
        'options.catalog.host.logoUrl',
        'options.catalog.entries[0].url',
        'options.catalog.entries[1].url',
      ]);
    }
  });

  it('accepts http(s) entries on public hosts', () => {
    expect(catalogError('https://eu.acme.io/.well-known/ai-catalog.json')).toBeUndefined();
    expect(catalogError('http://eu.acme.io/.well-known/ai-catalog.json')).toBeUndefined();
  });
});
