// How the middleware hands control back to Koa for each shape `respond()` can take. The
// responder is replaced so that the rare shapes (a rejected promise, a synchronous throw) can be
// produced on demand; the real responder is exercised by koa.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import type { AgentCardRequest, AgentCardResponse } from '@agent-card/core/http';

const respond =
  vi.fn<(request: AgentCardRequest) => AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>>();

vi.mock('@agent-card/core/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@agent-card/core/http')>()),
  createAgentCardResponder: () => ({ respond }),
}));

const { agentCard } = await import('./index');

const json = (status: number, body?: string): AgentCardResponse =>
  Object.freeze({
    status,
    headers: Object.freeze({
      'content-type': 'application/a2a+json',
      'content-length': String(body?.length ?? 2),
      etag: '"e"',
    }),
    ...(body === undefined ? {} : { body: new TextEncoder().encode(body) }),
  });

const versions = { 'Koa 3': Koa3, 'Koa 2': Koa2 } as unknown as Record<string, typeof Koa3>;

describe.each(Object.entries(versions))('%s: respond() → Koa', (_version, Koa) => {
  let errors: unknown[];
  const app = () => {
    const a = new Koa();
    a.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        errors.push(error);
        ctx.status = 502;
        ctx.body = 'app error handler';
      }
    });
    a.use(agentCard());
    a.use((ctx) => {
      ctx.body = 'app';
    });
    return a.callback();
  };
  beforeEach(() => {
    errors = [];
    respond.mockReset();
  });

  it('passes the request as core expects it: method, path with query, headers, the context as raw', async () => {
    respond.mockReturnValue(undefined);
    await request(app()).get('/x/y?q=1').set('x-test', 'yes').expect(200, 'app');
    const seen = respond.mock.calls[0]![0];
    expect(seen).toMatchObject({ method: 'GET', path: '/x/y?q=1', encrypted: false });
    expect(seen.headers['x-test']).toBe('yes');
    expect((seen.raw as Koa3.Context).get('x-test')).toBe('yes');
  });

  it('writes a synchronous response with its own headers only', async () => {
    respond.mockReturnValue(json(200, '{}'));
    const response = await request(app()).get('/card').expect(200, '{}');
    expect(response.headers).toMatchObject({
      'content-type': 'application/a2a+json',
      etag: '"e"',
      'content-length': '2',
    });
  });

  it('writes an asynchronous response', async () => {
    respond.mockResolvedValue(json(200, '{"a":1}'));
    await request(app()).get('/card').expect(200, '{"a":1}');
  });

  it('keeps Content-Type and Content-Length on a bodiless HEAD answer', async () => {
    respond.mockReturnValue({
      status: 200,
      headers: { 'content-type': 'application/a2a+json', 'content-length': '1234' },
    });
    const response = await request(app()).head('/card').expect(200);
    expect(response.headers['content-type']).toBe('application/a2a+json');
    expect(response.headers['content-length']).toBe('1234');
  });

  it('sends 304 and 204 without a body', async () => {
    respond.mockReturnValue({ status: 304, headers: { etag: '"e"', 'cache-control': 'public, max-age=60' } });
    const notModified = await request(app()).get('/card').expect(304);
    expect(notModified.headers).toMatchObject({ etag: '"e"', 'cache-control': 'public, max-age=60' });
    expect(notModified.text).toBeFalsy();
    respond.mockReturnValue({ status: 204, headers: { 'access-control-allow-methods': 'GET, HEAD, OPTIONS' } });
    const preflight = await request(app()).options('/card').expect(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  });

  it('calls next() when an asynchronous respond() resolves to undefined', async () => {
    respond.mockResolvedValue(undefined);
    await request(app()).get('/card').expect(200, 'app');
  });

  it("rejects into the app's error handling when respond() rejects", async () => {
    const failure = new Error('provider exploded');
    respond.mockRejectedValue(failure);
    await request(app()).get('/card').expect(502, 'app error handler');
    expect(errors).toEqual([failure]);
  });

  it("throws into the app's error handling when respond() throws", async () => {
    const failure = new Error('bug');
    respond.mockImplementation(() => {
      throw failure;
    });
    await request(app()).get('/card').expect(502, 'app error handler');
    expect(errors).toEqual([failure]);
  });
});
