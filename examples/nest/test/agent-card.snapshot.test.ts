// The card this service publishes, built without a server and kept next to the code: a change to a
// @Skill() shows up in review as a change to agent-card.snapshot.json (`vitest -u` accepts it), and
// an invalid card fails here, before anything is deployed.
import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgentCard } from '@agent-card/nest';
import { AppModule } from '../src/app.module';

describe('examples/nest agent card', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    // The snapshot is of the production settings, whatever the shell running the tests has set.
    delete process.env.PUBLIC_URL;
    delete process.env.API_KEYS;
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it('publishes the card in the snapshot', async () => {
    const { json } = await buildAgentCard(AppModule.register({ PUBLIC_URL: 'https://shop.acme-corp.io' }));
    // Indented so a review shows which field changed; the key order is the served one.
    await expect(`${JSON.stringify(JSON.parse(json), null, 2)}\n`).toMatchFileSnapshot('./agent-card.snapshot.json');
  });

  it('lists the extended skill only in the extended card', async () => {
    const { card, extendedCard } = await buildAgentCard(
      AppModule.register({ PUBLIC_URL: 'https://shop.acme-corp.io' }),
    );
    expect(card.skills.map((s) => s.id)).not.toContain('sales-report');
    expect(extendedCard?.skills.map((s) => s.id)).toContain('sales-report');
  });
});
