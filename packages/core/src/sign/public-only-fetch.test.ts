// publicOnlyFetch as discovery uses it: a fetch-shaped answer (status, headers, body, methods,
// no redirect followed, abort), over a connection of its own. An address literal connects with
// no lookup (its caller checks it first), which is what lets a loopback server answer here.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicOnlyFetch } from './pinned-get';

let server: Server;
let base = '';
const seen: { method: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    if (req.url === '/moved') return void res.writeHead(302, { location: '/card' }).end();
    if (req.url === '/none') return void res.writeHead(204, { etag: '"n"' }).end();
    if (req.url === '/slow') return void res.writeHead(200, { 'content-type': 'application/json' }).write('{');
    const body = '{"name":"Card"}';
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      'set-cookie': ['a=1', 'b=2'],
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('publicOnlyFetch', () => {
  it('answers a GET with status, headers and body, sending the headers given', async () => {
    const response = await publicOnlyFetch(`${base}/card`, {
      headers: { accept: 'application/json', 'a2a-version': '1.0' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(await response.text()).toBe('{"name":"Card"}');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', headers: { accept: 'application/json', 'a2a-version': '1.0' } });
  });

  it('answers HEAD and 204 with no body, and a redirect as itself', async () => {
    const head = await publicOnlyFetch(`${base}/card`, { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('content-length')]).toEqual([200, null, '15']);
    const none = await publicOnlyFetch(`${base}/none`, { method: 'OPTIONS' });
    expect([none.status, none.body, none.headers.get('etag')]).toEqual([204, null, '"n"']);
    const moved = await publicOnlyFetch(`${base}/moved`);
    expect([moved.status, moved.headers.get('location')]).toEqual([302, '/card']);
    expect(seen.filter((r) => r.method === 'GET').length).toBe(2);
  });

  it('ends a body that never finishes when the signal aborts', async () => {
    const controller = new AbortController();
    const response = await publicOnlyFetch(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('no complete response within 50 ms')), 50);
    await expect(response.text()).rejects.toThrow();
  });
});
