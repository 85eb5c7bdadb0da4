// `watch` when the card file is a link that a deploy retargets (`agent-card.json -> v1/card.json`,
// swapped atomically to `v2/card.json`): the new target's directory is watched from then on, so
// an edit of v2/card.json is served, and the old one's edits are not.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentCardStatus, closeAgentCard } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';

const definition = (version: string) => ({
  name: 'Fernhill assistant',
  description: 'Helps shoppers find groceries in the Fernhill Market catalogue and builds a basket.',
  version,
  url: 'https://assistant.fernhill-market.co.uk/a2a/v1',
  binding: 'HTTP+JSON',
  provider: { organization: 'Fernhill Market plc', url: 'https://www.fernhill-market.co.uk' },
  skills: [{ id: 'search', name: 'Search', description: 'Searches the catalogue.', tags: ['catalogue'] }],
});

let root: string;
let cwd: string;
const write = (release: string, version: string) => {
  mkdirSync(join(root, release), { recursive: true });
  writeFileSync(join(root, release, 'card.json'), JSON.stringify(definition(version)));
};
/** Points agent-card.json at `release`/card.json in one rename, as a deploy tool swaps a link. */
const retarget = (release: string) => {
  symlinkSync(`${release}/card.json`, join(root, 'agent-card.json.next'));
  renameSync(join(root, 'agent-card.json.next'), join(root, 'agent-card.json'));
};

beforeAll(() => {
  cwd = process.cwd();
  root = mkdtempSync(join(tmpdir(), 'agent-card-link-'));
  write('v1', '1.0.0');
  write('v2', '2.0.0');
  symlinkSync('v1/card.json', join(root, 'agent-card.json'));
  process.chdir(root);
});
afterAll(() => {
  process.chdir(cwd);
  rmSync(root, { recursive: true, force: true });
});

const until = async (check: () => boolean, what: string) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

it('serves edits of the new target after the link is retargeted, and no longer those of the old one', async () => {
  const responder = createAgentCardResponder({ watch: { debounce: 20 }, logger: { warn: () => {} } });
  const version = () => {
    const res = responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: {} });
    return JSON.parse(new TextDecoder().decode((res as { body: Uint8Array }).body)).version as string;
  };
  try {
    expect(version()).toBe('1.0.0');
    write('v1', '1.1.0');
    await until(() => version() === '1.1.0', 'an edit of v1/card.json');

    retarget('v2');
    await until(() => version() === '2.0.0', 'the link swap');

    write('v2', '2.1.0');
    await until(() => version() === '2.1.0', 'an edit of v2/card.json after the swap');
    expect(agentCardStatus(responder).state).toBe('ok');

    write('v1', '1.2.0');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(version()).toBe('2.1.0');
  } finally {
    closeAgentCard(responder);
  }
});
