import express5 from 'express';
import express4 from 'express4';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { searchHostOptions } from '../../../test/search-host';
import { agentCard } from './index';

function app(express: typeof express5, parseFirst: boolean) {
  const server = express();
  if (parseFirst) server.use(express.json());
  server.use(agentCard(searchHostOptions()));
  server.post('/t/acme/ard/other', (req, res) => void res.json({ got: req.body }));
  return server;
}

const versions = { 'Express 5': express5, 'Express 4': express4 } as unknown as Record<string, typeof express5>;

describe.each(Object.entries(versions))('%s: the registry search after express.json()', (_version, express) => {
  it('searches the value express.json() parsed, held to the same byte bound, and leaves other bodies to the app', async () => {
    const server = app(express, true);
    const found = await request(server)
      .post('/t/acme/ard/search')
      .send({ query: { text: 'billing' } });
    expect(found.status).toBe(200);
    expect(found.body.results.map((r: { identifier: string }) => r.identifier)).toEqual([
      'urn:air:api.example.com:agent:billing',
    ]);
    // Within express.json()'s 100 kB, past the registry's 256 bytes.
    const big = await request(server)
      .post('/t/acme/ard/search')
      .send({ query: { text: 'a', filter: { tags: ['x'.repeat(300)] } } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ errorCode: 'PAYLOAD_TOO_LARGE', message: 'A search request is at most 256 bytes.' });
    const shape = await request(server)
      .post('/t/acme/ard/search')
      .send({ query: { text: 'a' }, limit: 1 });
    expect(shape.status).toBe(400);
    // The app's own routes still get their parsed body.
    const other = await request(server).post('/t/acme/ard/other').send({ a: 1 });
    expect(other.body).toEqual({ got: { a: 1 } });
  });

  it('reads the stream itself when it comes first, and refuses a member named twice', async () => {
    const server = app(express, false);
    const twice = await request(server)
      .post('/t/acme/ard/search')
      .set('content-type', 'application/json')
      .send('{"query":{"text":"zzz","text":"billing"}}');
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('The body names a member twice in one object.');
    const found = await request(server)
      .post('/t/acme/ard/search')
      .send({ query: { text: 'travel' } });
    expect(found.body.results).toHaveLength(1);
  });
});
