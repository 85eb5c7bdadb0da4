// Runs the example: `node examples/multi-agent/server.mjs` (after `pnpm build`).
// PORT (default 3000, 0 = any free port), HOST, PUBLIC_URL, API_KEYS (comma-separated) and
// SIGNING_KEY (a PKCS#8 PEM that signs the cards and the catalog) are read from the environment.
import { start } from './app.mjs';

const { url, close } = await start();
console.log(`acme agents (express, two agents) listening on ${url}`);
console.log(`  catalog:  ${url}/.well-known/ai-catalog.json (signed with SIGNING_KEY set)`);
console.log(`  mcp:      ${url}/.well-known/mcp/catalog.json (the MCP entries of the catalog)`);
console.log(`  page:     ${url}/.well-known/ai-catalog.html (every agent, for people, in a browser)`);
console.log(`  billing:  ${url}/agents/billing/.well-known/agent-card.json`);
console.log(`  support:  ${url}/agents/support/.well-known/agent-card.json (also at /.well-known/agent-card.json)`);

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => close().then(() => process.exit(0)));
