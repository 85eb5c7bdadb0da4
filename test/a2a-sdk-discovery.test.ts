// Interoperability: the official JS SDK (`@a2a-js/sdk` 1.3.0) discovers the card of each example
// service the way a real client would, and sees the skills and security schemes we declared,
// including the extended card once it authenticates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import * as expressExample from '../examples/express/app.mjs';
import * as koaExample from '../examples/koa/app.mjs';

interface Example {
  start: typeof expressExample.start;
  createCard: typeof expressExample.createCard;
  extendedSkills: typeof expressExample.extendedSkills;
  /** Headers that authenticate for the extended card. */
  credentials: Record<string, string>;
  /** The security scheme the card declares, as the SDK parses it. */
  scheme: { name: string; $case: string; value: Record<string, unknown> };
}

const examples: Record<string, Example> = {
  'examples/express': {
    ...expressExample,
    credentials: { 'x-api-key': expressExample.DEVELOPMENT_API_KEY },
    scheme: { name: 'apiKey', $case: 'apiKeySecurityScheme', value: { location: 'header', name: 'x-api-key' } },
  },
  'examples/koa': {
    ...koaExample,
    credentials: { authorization: `Bearer ${koaExample.DEVELOPMENT_TOKEN}` },
    scheme: { name: 'bearer', $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } },
  },
};

/** A fetch that adds headers, as an SDK user plugs credentials in. */
const fetchWith =
  (headers: Record<string, string>): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } });

const clientFactory = (fetchImpl: typeof fetch) =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl })],
    }),
  );

describe.each(Object.entries(examples))('@a2a-js/sdk discovers %s', (_name, example) => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ url, close } = await example.start(0, '127.0.0.1'));
  });
  afterAll(() => close());

  it('resolves the card from the well-known path with its skills and security schemes', async () => {
    const card = await new DefaultAgentCardResolver().resolve(url);
    const declared = example.createCard(url);

    expect(card.name).toBe(declared.name);
    expect(card.skills.map((skill) => skill.id)).toEqual(declared.skills.map((skill) => skill.id));
    expect(card.skills.map((skill) => skill.tags)).toEqual(declared.skills.map((skill) => skill.tags));
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${url}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }),
    ]);
    expect(card.capabilities?.extendedAgentCard).toBe(true);
    expect(Object.keys(card.securitySchemes)).toEqual([example.scheme.name]);
    expect(card.securitySchemes[example.scheme.name]?.scheme).toEqual({
      $case: example.scheme.$case,
      value: expect.objectContaining(example.scheme.value),
    });
    expect(card.securityRequirements).toEqual([{ schemes: { [example.scheme.name]: { list: [] } } }]);
  });

  it('does not show extended-only skills in the public card', async () => {
    const card = await new DefaultAgentCardResolver().resolve(url);
    const ids = card.skills.map((skill) => skill.id);
    for (const skill of example.extendedSkills) expect(ids).not.toContain(skill.id);
  });

  it('reads the extended card through the SDK client once it sends credentials', async () => {
    const client = await clientFactory(fetchWith(example.credentials)).createFromUrl(url);
    const card = await client.getAgentCard();
    const ids = card.skills.map((skill) => skill.id);
    expect(ids).toEqual([...example.createCard(url).skills, ...example.extendedSkills].map((skill) => skill.id));
    expect(card.securitySchemes[example.scheme.name]?.scheme?.$case).toBe(example.scheme.$case);
  });

  it('gets an error, not the extended card, from the SDK client without credentials', async () => {
    const client = await clientFactory(fetch).createFromUrl(url);
    await expect(client.getAgentCard()).rejects.toThrow(/Authentication is required/);
  });
});

// An HTTP+JSON interface that names a tenant: the SDK's client then asks for the extended card at
// `{url}/{tenant}/extendedAgentCard` (its TenantTransportDecorator fills the tenant in).
describe('@a2a-js/sdk reads the extended card of an interface with a tenant', () => {
  const TOKEN = 'tenant-test-token';
  let url: string;
  let server: import('node:http').Server;

  beforeAll(async () => {
    const { default: express } = await import('express');
    const { agentCard } = await import('@agent-card/express');
    const { createServer } = await import('node:http');
    const app = express();
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    url = `http://127.0.0.1:${port}`;
    app.use(
      agentCard({
        profile: 'development',
        logger: { warn: () => {} },
        card: {
          name: 'Tenant Agent',
          description: 'Answers questions for the Acme tenant of a shared deployment.',
          version: '1.0.0',
          supportedInterfaces: [
            { url: `${url}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' },
          ],
          capabilities: { extendedAgentCard: true },
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'answer', name: 'Answer', description: 'Answers a question about the tenant.', tags: ['qa'] }],
        },
        extended: {
          authenticate: (req) =>
            (req as { headers: Record<string, string | undefined> }).headers.authorization === `Bearer ${TOKEN}`
              ? { sub: 'acme-admin' }
              : undefined,
          card: [
            { id: 'audit', name: 'Audit', description: 'Lists what the tenant changed this week.', tags: ['admin'] },
          ],
        },
      }),
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the tenant path with the extended skills once the client sends credentials', async () => {
    const requested: string[] = [];
    const recording: typeof fetch = (input, init) => {
      requested.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return fetchWith({ authorization: `Bearer ${TOKEN}` })(input, init);
    };
    const client = await clientFactory(recording).createFromUrl(url);
    const card = await client.getAgentCard();
    expect(card.skills.map((skill) => skill.id)).toEqual(['answer', 'audit']);
    expect(requested).toContain('/a2a/acme/extendedAgentCard');
  });
});
