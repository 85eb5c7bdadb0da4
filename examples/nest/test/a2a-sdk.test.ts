// The official JS SDK (@a2a-js/sdk 1.3.0) discovers the Nest example's card, built entirely from
// @Skill() decorators, and reads the extended card through the API-key guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { DEVELOPMENT_API_KEY, start } from '../src/main';

const publicSkills = ['search-products', 'product-details', 'place-order', 'track-order'];

const withHeaders =
  (headers: Record<string, string>): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } });

const client = (fetchImpl: typeof fetch, url: string) =>
  new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(url);

describe('@a2a-js/sdk discovers examples/nest', () => {
  let url = '';
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await start(0, '127.0.0.1'));
  });
  afterAll(() => close());

  it('resolves the card with the skills declared on the controllers', async () => {
    const card = await new DefaultAgentCardResolver().resolve(url);
    expect(card.name).toBe('Acme Shop');
    expect(card.skills.map((skill) => skill.id)).toEqual(publicSkills);
    expect(card.skills.map((skill) => skill.tags)).toEqual([
      ['catalog', 'search'],
      ['catalog'],
      ['orders'],
      ['orders', 'tracking'],
    ]);
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${url}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }),
    ]);
    expect(card.capabilities?.extendedAgentCard).toBe(true);
    expect(card.securitySchemes.apiKey?.scheme?.$case).toBe('apiKeySecurityScheme');
  });

  it('keeps the ordinary routes under the /api prefix', async () => {
    const res = await fetch(`${url}/api/products?q=mug`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(2);
    expect((await fetch(`${url}/api/orders/reports/daily`)).status).toBe(401);
  });

  it('reads the extended card, with the guarded skill, once the client sends the API key', async () => {
    const sdk = await client(withHeaders({ 'x-api-key': DEVELOPMENT_API_KEY }), url);
    const card = await sdk.getAgentCard();
    expect(card.skills.map((skill) => skill.id)).toEqual([...publicSkills, 'sales-report']);
  });

  it('gets an authentication error without the key', async () => {
    const sdk = await client(fetch, url);
    await expect(sdk.getAgentCard()).rejects.toThrow(/Authentication is required/);
  });
});
