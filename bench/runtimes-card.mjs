// The fetch handler's card path and a hand-written `Response` with the same bytes and headers,
// for bench/runtimes.mjs: shared by the in-process runs (Node, Deno, Bun) and the Worker.
import { createAgentCardFetchHandler } from '@agent-card/core';

export const CARD_URL = 'http://127.0.0.1/.well-known/agent-card.json';

const CARD = {
  name: 'Bench Agent',
  description: 'Measures the fetch handler against a hand-written Response.',
  supportedInterfaces: [
    { url: 'https://bench.agent-card.dev/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  version: '1.0.0',
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'answer', name: 'Answers', description: 'Answers questions.', tags: ['qa'] }],
};

const CARD_PATH = new URL(CARD_URL).pathname;

/**
 * The two sides: `card` is core's handler, `baseline` a hand-written route answering with the same
 * bytes and headers. As a route, the baseline looks at the request's path, as every handler that
 * shares a host with other paths must (the card's handler decides the same); `route: false` leaves
 * that to the caller, where a dispatcher in front of both sides has routed already (the Worker).
 */
export async function createSides({ route = true } = {}) {
  const card = createAgentCardFetchHandler({ card: CARD });
  const first = await card(new Request(CARD_URL));
  const bytes = new Uint8Array(await first.arrayBuffer());
  const headers = [...first.headers];
  const respond = () => new Response(bytes, { status: 200, headers });
  const baseline = route
    ? async (request) =>
        new URL(request.url).pathname === CARD_PATH ? respond() : new Response('Not Found', { status: 404 })
    : async () => respond();
  return { card, baseline, bytes: bytes.byteLength };
}
