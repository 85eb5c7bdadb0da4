// Settings come from the environment when it has them, and from the development defaults otherwise.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCard } from '@agent-card/core';
import { DEVELOPMENT_API_KEY, start } from '../src/main';

describe('examples/nest settings', () => {
  const saved = { ...process.env };
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    process.env = { ...saved };
  });

  const extended = (url: string, key: string) =>
    fetch(`${url}/a2a/extendedAgentCard`, { headers: { 'x-api-key': key } });

  it('uses API_KEYS and PUBLIC_URL from the environment over the defaults', async () => {
    process.env.API_KEYS = 'ops-key-from-env';
    process.env.PUBLIC_URL = 'https://shop.acme-corp.io';
    const app = await start(0, '127.0.0.1');
    close = app.close;
    expect((await extended(app.url, 'ops-key-from-env')).status).toBe(200);
    expect((await extended(app.url, DEVELOPMENT_API_KEY)).status).toBe(401);
    const card = (await (await fetch(`${app.url}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(card.supportedInterfaces[0]!.url).toBe('https://shop.acme-corp.io/a2a');
  });

  it('falls back to the development key and the listening URL', async () => {
    delete process.env.API_KEYS;
    delete process.env.PUBLIC_URL;
    const app = await start(0, '127.0.0.1');
    close = app.close;
    expect((await extended(app.url, DEVELOPMENT_API_KEY)).status).toBe(200);
    const card = (await (await fetch(`${app.url}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(card.supportedInterfaces[0]!.url).toBe(`${app.url}/a2a`);
  });
});
