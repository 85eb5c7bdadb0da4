// The example services: their cards are valid, their own API still works next to the card, and
// the public URL the card advertises follows the address they listen on (or PUBLIC_URL).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentCard, validateAgentCard } from '@agent-card/core';
import * as expressExample from '../examples/express/app.mjs';
import * as fastifyExample from '../examples/fastify/app.mjs';
import * as honoExample from '../examples/hono/app.mjs';
import * as koaExample from '../examples/koa/app.mjs';

const examples = {
  'examples/express': { ...expressExample, ownRoute: '/api/orders/1001', ownBody: { id: '1001', customer: 'c-42' } },
  'examples/koa': { ...koaExample, ownRoute: '/api/rooms/aurora', ownBody: { id: 'aurora', seats: 8 } },
  'examples/fastify': {
    ...fastifyExample,
    ownRoute: '/api/shipments/NW-501',
    ownBody: { id: 'NW-501', order: '1001' },
  },
  'examples/hono': { ...honoExample, ownRoute: '/api/products/p-7', ownBody: { id: 'p-7', category: 'tea' } },
};

describe.each(Object.entries(examples))('%s', (_name, example) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
    delete process.env.PUBLIC_URL;
  });

  it('declares a card with no errors under the development profile', () => {
    const result = validateAgentCard(example.createCard('http://127.0.0.1:3000'), { profile: 'development' });
    expect(result.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares a card ready for production once its public URL is https', () => {
    const result = validateAgentCard(example.createCard('https://agents.northwind-traders.com'), {
      profile: 'production',
    });
    expect(result.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('serves its own API next to the card, and advertises the address it listens on', async () => {
    const started = await example.start(0, '127.0.0.1');
    close = started.close;
    const own = await fetch(started.url + example.ownRoute);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject(example.ownBody);
    const card = (await (await fetch(`${started.url}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(card.supportedInterfaces[0]?.url).toBe(`${started.url}/a2a`);
  });

  it('serves the card as a page for people, as pnpm demo checks', async () => {
    const started = await example.start(0, '127.0.0.1');
    close = started.close;
    const card = (await (await fetch(`${started.url}/.well-known/agent-card.json`)).json()) as AgentCard;
    const page = await fetch(`${started.url}/.well-known/agent-card.html`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(await page.text()).toContain(`<h1>${card.name}</h1>`);
  });

  it('advertises PUBLIC_URL when it is set', async () => {
    process.env.PUBLIC_URL = 'https://agents.northwind-traders.com';
    const started = await example.start(0, '127.0.0.1');
    close = started.close;
    const card = (await (await fetch(`${started.url}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(card.supportedInterfaces[0]?.url).toBe('https://agents.northwind-traders.com/a2a');
  });
});

describe('examples/multi-agent', () => {
  it('starts without a warning, as a user who copies it runs it (node server.mjs)', async () => {
    const server = spawn(process.execPath, ['server.mjs'], {
      cwd: fileURLToPath(new URL('../examples/multi-agent/', import.meta.url)),
      env: { PATH: process.env.PATH, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (chunk) => (stdout += chunk));
    server.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((done) => server.once('exit', done));
    try {
      const end = Date.now() + 15_000;
      while (!/listening on (\S+)/.test(stdout) && server.exitCode === null && Date.now() < end)
        await new Promise((done) => setTimeout(done, 20));
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      expect(url, stderr).toBeDefined();
      expect((await fetch(`${url}/.well-known/ard.json`)).status).toBe(200);
      expect(stderr).toBe('');
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  }, 20_000);
});
