// The Worker of bench/runtimes.mjs: the card through core's fetch handler, and `/baseline`, a
// hand-written Response with the same bytes and headers; this dispatcher routes for both sides.
import { createSides } from './runtimes-card.mjs';

let sides;
export default {
  async fetch(request) {
    sides ??= await createSides({ route: false });
    return new URL(request.url).pathname === '/baseline' ? sides.baseline(request) : sides.card(request);
  },
};
