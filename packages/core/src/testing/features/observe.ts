import { expect } from 'vitest';
import type { AgentCardServeEvent } from '../../http/observe/hook';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { authenticate, CARD_PATH, LEGACY_PATH } from './shared';

/** The events the observed host's hook was told, in order. */
interface Observed {
  events: AgentCardServeEvent[];
}

/** The events told since `from`, once the hook's microtask has run. */
async function told(t: { state: Observed }, from: number): Promise<AgentCardServeEvent[]> {
  await new Promise((resolve) => setTimeout(resolve, 10));
  return t.state.events.slice(from);
}

/** `onServe`: each answered request is told to the hook, the same on every host. */
export const serveEvents: ConformanceFeature<Observed> = {
  title: 'onServe',
  state: () => ({ events: [] }),
  fixtures: {
    observed: (state) => ({
      card: CONFORMANCE_CARD,
      extended: { authenticate },
      onServe: (event) => void state.events.push(event),
    }),
    throwingHook: () => ({
      card: CONFORMANCE_CARD,
      onServe: () => {
        throw new Error('a broken hook');
      },
    }),
  },
  cases: [
    check('GET, If-None-Match, POST, the alias and the extended card are each told with kind and status', async (t) => {
      const from = t.state.events.length;
      const crawler = {
        'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        'a2a-version': '1.0',
      };
      const first = await t.get('observed', CARD_PATH, { headers: crawler });
      await t.get('observed', CARD_PATH, {
        headers: { 'if-none-match': first.headers.etag!, 'user-agent': 'curl/8.5.0' },
      });
      await t.get('observed', CARD_PATH, { method: 'POST' });
      await t.get('observed', LEGACY_PATH);
      await t.get('observed', CONFORMANCE_EXTENDED_PATH);
      const events = await told(t, from);
      expect(events.map((e) => [e.kind, e.status, e.method])).toEqual([
        ['card', 200, 'GET'],
        ['card', 304, 'GET'],
        ['card', 405, 'POST'],
        ['alias', 200, 'GET'],
        ['extended', 401, 'GET'],
      ]);
      expect(events[0]).toMatchObject({ agent: undefined, a2aVersion: '1.0', client: 'agent-crawler' });
      expect(events[1]).toMatchObject({ a2aVersion: undefined, client: 'http-library' });
    }),
    check("the app's own routes are not told", async (t) => {
      const from = t.state.events.length;
      expect((await t.get('observed', '/api/ping')).status).toBe(200);
      expect(await told(t, from)).toEqual([]);
    }),
    check('a hook that throws leaves the answer whole', async (t) => {
      const r = await t.get('throwingHook', CARD_PATH);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text).name).toBe(CONFORMANCE_CARD.name);
      expect((await t.get('throwingHook', CARD_PATH)).status).toBe(200);
    }),
  ],
};
