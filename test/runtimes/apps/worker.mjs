// A Cloudflare Worker (module syntax) serving the card through core's fetch handler.
import { app } from './card-app.mjs';

export default {
  fetch: (request) => app(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined }),
};
