import { Writable } from 'node:stream';
import { agentCardStatus, type AgentCard } from '@agent-card/core';
import type { AgentCardServeEvent } from '@agent-card/core/http';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { describe, expect, it } from 'vitest';
import { agentCard } from './index';

// `iconUrl` on an example host: a url-placeholder warning the app should see in its log.
const card: AgentCard = {
  name: 'Orders Agent',
  description: 'Looks up and tracks customer orders, and answers delivery questions.',
  version: '1.0.0',
  iconUrl: 'http://x.example/icon.png',
  supportedInterfaces: [{ url: 'https://orders.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'order-status', name: 'Order status', description: 'Where an order is.', tags: ['orders'] }],
};

/** A pino logger writing JSON lines into `lines`. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, next) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      next();
    },
  });
  return { lines, logger: { level: 'warn', stream } };
}

const versions = { 'Fastify 5': fastify5, 'Fastify 4': fastify4 as unknown as typeof fastify5 };

describe.each(Object.entries(versions))('%s plugin: logging, serve hook, status', (_version, fastify) => {
  it('logs each finding to fastify.log with its rule, path, severity and hint as fields', async () => {
    const { lines, logger } = capture();
    const app = fastify({ logger });
    await app.register(agentCard, { card, profile: 'development' });
    await app.ready();
    const finding = lines.find((l) => l.rule === 'url-placeholder');
    expect(finding).toMatchObject({
      level: 40,
      rule: 'url-placeholder',
      path: '/iconUrl',
      severity: 'warning',
      hint: expect.any(String),
      msg: expect.stringMatching(/^agent card: iconUrl: /),
    });
    await app.close();
  });

  it('a logger given in the options wins over fastify.log', async () => {
    const { lines, logger } = capture();
    const warned: string[] = [];
    const app = fastify({ logger });
    await app.register(agentCard, { card, profile: 'development', logger: { warn: (m: string) => warned.push(m) } });
    await app.ready();
    expect(lines.filter((l) => l.rule !== undefined)).toEqual([]);
    expect(warned.join('\n')).toMatch(/\[url-placeholder\] \/iconUrl/);
    await app.close();
  });

  it('tells onServe what it served, and a throwing hook leaves the answer whole', async () => {
    const events: AgentCardServeEvent[] = [];
    const app = fastify();
    await app.register(agentCard, {
      card,
      profile: 'development',
      logger: { warn() {} },
      onServe: (e) => {
        events.push(e);
        throw new Error('hook broke');
      },
    });
    const res = await app.inject({ url: '/.well-known/agent.json', headers: { 'user-agent': 'curl/8.5.0' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe(card.name);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toMatchObject([{ kind: 'alias', status: 200, client: 'http-library' }]);
    expect(agentCardStatus(app.agentCard).state).toBe('ok');
    await app.close();
  });
});
