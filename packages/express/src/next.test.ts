// How the middleware hands control back to Express for each shape `respond()` can take. The
// responder is replaced so that the rare shapes (a rejected promise, a synchronous throw) can be
// produced on demand; the real responder is exercised by express.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import express5 from 'express';
import express4 from 'express4';
import type { AgentCardRequest, AgentCardResponse } from '@agent-card/core/http';

const respond =
  vi.fn<(request: AgentCardRequest) => AgentCardResponse | undefined | Promise<AgentCardResponse | undefined>>();

vi.mock('@agent-card/core/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@agent-card/core/http')>()),
  createAgentCardResponder: () => ({ respond }),
}));

const { agentCard } = await import('./index');

const ok: AgentCardResponse = Object.freeze({
  status: 200,
  headers: Object.freeze({ 'content-type': 'application/a2a+json', 'content-length': '2', etag: '"e"' }),
  body: new TextEncoder().encode('{}'),
});

const versions = { 'Express 5': express5, 'Express 4': express4 } as unknown as Record<string, typeof express5>;

describe.each(Object.entries(versions))('%s: respond() → Express', (_version, express) => {
  let errors: unknown[];
  const app = () => {
    const a = express();
    a.use('/base', agentCard());
    a.use((_req, res) => void res.status(404).send('app'));
    a.use((error: unknown, _req: unknown, res: express5.Response, _next: unknown) => {
      errors.push(error);
      res.status(502).send('app error handler');
    });
    return a;
  };
  beforeEach(() => {
    errors = [];
    respond.mockReset();
  });

  it('passes the request as core expects it: method, mount-relative path with query, headers, raw, encrypted', async () => {
    respond.mockReturnValue(undefined);
    await request(app()).get('/base/x/y?q=1').set('x-test', 'yes').expect(404, 'app');
    const seen = respond.mock.calls[0]![0];
    expect(seen).toMatchObject({ method: 'GET', path: '/x/y?q=1', encrypted: false });
    expect(seen.headers['x-test']).toBe('yes');
    expect((seen.raw as express5.Request).originalUrl).toBe('/base/x/y?q=1');
  });

  it('writes a synchronous response as is', async () => {
    respond.mockReturnValue(ok);
    const response = await request(app()).get('/base/card').expect(200);
    expect(response.text).toBe('{}');
    expect(response.headers).toMatchObject({
      'content-type': 'application/a2a+json',
      etag: '"e"',
      'content-length': '2',
    });
  });

  it('writes an asynchronous response as is', async () => {
    respond.mockResolvedValue(ok);
    await request(app()).get('/base/card').expect(200, '{}');
  });

  it('calls next() when an asynchronous respond() resolves to undefined', async () => {
    respond.mockResolvedValue(undefined);
    await request(app()).get('/base/card').expect(404, 'app');
  });

  it('calls next(err) when respond() rejects', async () => {
    const failure = new Error('provider exploded');
    respond.mockRejectedValue(failure);
    await request(app()).get('/base/card').expect(502, 'app error handler');
    expect(errors).toEqual([failure]);
  });

  it('lets Express route a synchronous throw to the error handler', async () => {
    const failure = new Error('bug');
    respond.mockImplementation(() => {
      throw failure;
    });
    await request(app()).get('/base/card').expect(502, 'app error handler');
    expect(errors).toEqual([failure]);
  });

  it('does not touch the shared headers object', async () => {
    respond.mockReturnValue(ok);
    await request(app()).get('/base/card').expect(200);
    await request(app()).head('/base/card').expect(200);
    expect(Object.keys(ok.headers)).toEqual(['content-type', 'content-length', 'etag']);
  });
});
