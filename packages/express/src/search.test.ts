import express5 from 'express';
import express4 from 'express4';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectDuplicateRefused, expectSearchWithinBound, searchHostOptions } from '../../../test/search-host';
import { agentCard } from './index';

/** POST /t/acme/ard/search on `server`, as JSON. */
const search = (server: Parameters<typeof request>[0]) => (body: unknown) =>
  request(server)
    .post('/t/acme/ard/search')
    .type('json')
    .send(body as object);

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
    // Within express.json()'s 100 kB, past the registry's 256 bytes.
    await expectSearchWithinBound(search(server));
    const shape = await search(server)({ query: { text: 'a' }, limit: 1 });
    expect(shape.status).toBe(400);
    // The app's own routes still get their parsed body.
    const other = await request(server).post('/t/acme/ard/other').send({ a: 1 });
    expect(other.body).toEqual({ got: { a: 1 } });
  });

  it('reads the stream itself when it comes first, and refuses a member named twice', async () => {
    const server = app(express, false);
    await expectDuplicateRefused(search(server));
    const found = await search(server)({ query: { text: 'travel' } });
    expect(found.body.results).toHaveLength(1);
  });
});
