// A Hono app on Cloudflare Workers with @agent-card/hono.
import { agentCard } from '@agent-card/hono';
import { Hono } from 'hono';
import { CARD, EXTENDED_SKILL, TOKEN } from './card.mjs';

const app = new Hono();
app.use(
  agentCard({
    card: CARD,
    extended: {
      authenticate: (c) => (c.req.header('authorization') === `Bearer ${TOKEN}` ? { sub: 'runtime-test' } : undefined),
      card: [EXTENDED_SKILL],
    },
  }),
);
app.get('/hello', (c) => c.text('hello from hono'));

export default app;
