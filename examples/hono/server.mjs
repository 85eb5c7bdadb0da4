// Runs the example: `node examples/hono/server.mjs` (after `pnpm build`).
// PORT (default 3000, 0 = any free port), HOST, PUBLIC_URL and API_TOKENS (comma-separated) are
// read from the environment.
import { start } from './app.mjs';

const { url, close } = await start();
console.log(`catalogue service (hono) listening on ${url}`);
console.log(`  card:     ${url}/.well-known/agent-card.json`);
console.log(`  extended: ${url}/a2a/extendedAgentCard (header authorization: Bearer …)`);

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => close().then(() => process.exit(0)));
