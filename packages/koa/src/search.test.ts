// The ARD registry's `POST /search` on Koa 2 and 3 with @koa/bodyparser mounted before the card:
// the bytes the parser kept (`ctx.request.rawBody`) are read again under the registry's own
// bounds, so a member named twice is still refused; other routes keep their parsed body.
import { bodyParser } from '@koa/bodyparser';
import Koa3 from 'koa';
import Koa2 from 'koa2';
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

function app(Koa: typeof Koa3, parseFirst: boolean) {
  const server = new Koa();
  if (parseFirst) server.use(bodyParser());
  server.use(agentCard(searchHostOptions()));
  if (!parseFirst) server.use(bodyParser());
  server.use((ctx) => {
    if (ctx.method === 'POST' && ctx.path === '/t/acme/ard/other')
      ctx.body = { got: (ctx.request as { body?: unknown }).body };
  });
  return server.callback();
}

const versions = { 'Koa 3': Koa3, 'Koa 2': Koa2 } as unknown as Record<string, typeof Koa3>;

describe.each(Object.entries(versions))('%s: the registry search with @koa/bodyparser', (_version, Koa) => {
  for (const parseFirst of [true, false]) {
    const where = parseFirst ? 'mounted before the card' : 'mounted after the card';
    it(`searches, holds the byte bound, refuses a member named twice, and leaves other bodies to the app (parser ${where})`, async () => {
      const server = app(Koa, parseFirst);
      // Within the parser's 1 MB, past the registry's 256 bytes.
      await expectSearchWithinBound(search(server));
      await expectDuplicateRefused(search(server));
      const other = await request(server).post('/t/acme/ard/other').send({ a: 1 });
      expect(other.body).toEqual({ got: { a: 1 } });
    });
  }
});
