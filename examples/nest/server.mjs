// Runs the example: `node examples/nest/server.mjs` (after `pnpm build` and
// `pnpm --filter @agent-card/example-nest build`). PORT (default 3000, 0 = any free port), HOST,
// PUBLIC_URL and API_KEYS (comma-separated) are read from the environment.
import { start } from './dist/main.js';

const { url, close } = await start();
console.log(`shop service (nest) listening on ${url}`);
console.log(`  card:     ${url}/.well-known/agent-card.json`);
console.log(`  page:     ${url}/.well-known/agent-card.html (the card for people, in a browser)`);
console.log(`  routes:   ${url}/api/products, ${url}/api/orders/:id`);
console.log(`  extended: ${url}/a2a/extendedAgentCard (header x-api-key)`);

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => close().then(() => process.exit(0)));
