import { describe, expect, it, vi } from 'vitest';
import { createAgentCardResponder } from '../http';
import type { AgentCardRequest, AgentCardResponse } from '../http';
import { CONFORMANCE_CARD } from '../testing/cards';
import { createAgentCardNodeHandler } from './node';
import type { AgentCardNodeRequest } from './node';

const quiet = { warn: () => {} };
const CARD = '/.well-known/agent-card.json';

function nodeRequest(url: string, extra: Partial<AgentCardNodeRequest> = {}): AgentCardNodeRequest {
  return {
    method: 'GET',
    url,
    headers: { host: 'agent.example.org' },
    socket: { remoteAddress: '10.0.0.7' },
    ...extra,
  };
}

/** A `ServerResponse` stand-in recording what the bridge writes. */
function recorder() {
  const written: { status?: number; headers?: Readonly<Record<string, string>>; body?: Uint8Array; ended: number } = {
    ended: 0,
  };
  return {
    written,
    writeHead(status: number, headers: Readonly<Record<string, string>>) {
      written.status = status;
      written.headers = headers;
    },
    end(body?: Uint8Array) {
      written.body = body;
      written.ended++;
    },
  };
}

describe('createAgentCardNodeHandler', () => {
  const responder = createAgentCardResponder({ card: CONFORMANCE_CARD, logger: quiet });

  it('writes a static card with writeHead + end in the same tick, with no promise', () => {
    const handle = createAgentCardNodeHandler(responder);
    const res = recorder();
    const next = vi.fn();
    const returned = handle(nodeRequest(`${CARD}?x=1`), res, next);
    expect(returned).toBeUndefined();
    expect(next).not.toHaveBeenCalled();
    expect(res.written.status).toBe(200);
    expect(res.written.headers?.['content-type']).toBe('application/a2a+json');
    expect(JSON.parse(new TextDecoder().decode(res.written.body))).toEqual(CONFORMANCE_CARD);
    expect(res.written.ended).toBe(1);
  });

  it('HEAD ends without a body and keeps the headers', () => {
    const res = recorder();
    createAgentCardNodeHandler(responder)(nodeRequest(CARD, { method: 'HEAD' }), res, vi.fn());
    expect(res.written.status).toBe(200);
    expect(res.written.headers?.etag).toMatch(/^"/);
    expect(res.written.body).toBeUndefined();
  });

  it('passes every other request to next() untouched', () => {
    const res = recorder();
    const next = vi.fn();
    createAgentCardNodeHandler(responder)(nodeRequest('/api/ping'), res, next);
    expect(next).toHaveBeenCalledWith();
    expect(res.written.ended).toBe(0);
  });

  it.each([
    ['/api/.well-known/agent-card.json', 200],
    ['/api/.well-known/agent-card.json?x=1', 200],
    ['/.well-known/agent-card.json', 'next'],
    ['/apiary/.well-known/agent-card.json', 'next'],
    ['/api', 'next'],
    ['/api?x=1', 'next'],
  ])('basePath /api/ strips the mount prefix: %s → %s', (url, expected) => {
    const res = recorder();
    const next = vi.fn();
    createAgentCardNodeHandler(responder, { basePath: '/api/' })(nodeRequest(url), res, next);
    if (expected === 'next') {
      expect(next).toHaveBeenCalledWith();
      expect(res.written.ended).toBe(0);
    } else {
      expect(next).not.toHaveBeenCalled();
      expect(res.written.status).toBe(expected);
    }
  });

  it('hands core the method, the relative path, headers, the connection and the request itself as raw', () => {
    const seen: { request?: AgentCardRequest<AgentCardNodeRequest>; out?: unknown } = {};
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest, string, string>(
      {
        respond(request, out) {
          seen.request = request;
          seen.out = out;
          return undefined;
        },
      },
      { basePath: '/api' },
    );
    const req = nodeRequest('/api/x?y', { method: 'POST', socket: { encrypted: true, remoteAddress: '192.0.2.1' } });
    expect(handle(req, 'the response', () => 'next')).toBe('next');
    expect(seen.request).toEqual({
      method: 'POST',
      path: '/x?y',
      headers: { host: 'agent.example.org' },
      raw: req,
      encrypted: true,
      remoteAddress: '192.0.2.1',
      // A POST may carry a body a route reads (the registry's search): read only when asked.
      readBody: expect.any(Function),
    });
    // Own data properties only: core may copy the request to route it to one agent.
    expect(Object.keys({ ...seen.request })).toHaveLength(7);
    expect(seen.out).toBe('the response');
  });

  it('waits for an asynchronous answer, then writes it, or calls next() when there is none', async () => {
    const answer: AgentCardResponse = {
      status: 200,
      headers: { 'content-length': '2' },
      body: new Uint8Array([123, 125]),
    };
    let respond: AgentCardResponse | undefined = answer;
    const handle = createAgentCardNodeHandler({ respond: async () => respond });
    const res = recorder();
    const next = vi.fn();
    handle(nodeRequest(CARD), res, next);
    expect(res.written.ended).toBe(0);
    await vi.waitFor(() => expect(res.written.ended).toBe(1));
    expect(res.written.status).toBe(200);
    respond = undefined;
    handle(nodeRequest(CARD), recorder(), next);
    await vi.waitFor(() => expect(next).toHaveBeenCalledWith());
  });

  it('reports a failed asynchronous answer to next(error), or returns it rejected with errors: return', async () => {
    const failure = new Error('authenticate failed');
    const failing = { respond: () => Promise.reject(failure) };
    const next = vi.fn();
    expect(createAgentCardNodeHandler(failing)(nodeRequest(CARD), recorder(), next)).toBeUndefined();
    await vi.waitFor(() => expect(next).toHaveBeenCalledWith(failure));

    const returned = createAgentCardNodeHandler(failing, { errors: 'return' })(nodeRequest(CARD), recorder(), vi.fn());
    await expect(returned).rejects.toBe(failure);
  });

  it('lets a synchronous throw of the responder reach the framework, as from any middleware', () => {
    const failure = new Error('boom');
    const handle = createAgentCardNodeHandler({
      respond: () => {
        throw failure;
      },
    });
    expect(() => handle(nodeRequest(CARD), recorder(), vi.fn())).toThrow(failure);
  });

  it('writes through a custom writer and returns what it returns', () => {
    const handle = createAgentCardNodeHandler<AgentCardNodeRequest, string[], string>(responder, {
      write: (out, response) => {
        out.push(String(response.status));
        return 'written';
      },
    });
    const out: string[] = [];
    expect(handle(nodeRequest(CARD, { method: 'POST' }), out, () => 'next')).toBe('written');
    expect(out).toEqual(['405']);
  });
});
