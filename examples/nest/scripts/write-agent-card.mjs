// Build step: writes the card this service publishes to agent-card.json without starting a server,
// and exits non-zero (printing every problem) when the card is invalid, so CI stops before deploy.
// `pnpm --filter @agent-card/example-nest build && node examples/nest/scripts/write-agent-card.mjs`
// PUBLIC_URL (default https://shop.acme-corp.io) is the URL the card names.
import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { buildAgentCard } from '@agent-card/nest';
import { AppModule } from '../dist/app.module.js';

const target = new URL('../agent-card.json', import.meta.url);
try {
  const { json } = await buildAgentCard(AppModule.register({ PUBLIC_URL: 'https://shop.acme-corp.io' }));
  await writeFile(target, json);
  console.log(`wrote ${target.pathname}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
