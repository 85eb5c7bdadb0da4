// `watch` through the responder, as a server in a Kubernetes pod runs it: zero-config from the
// working directory, a ConfigMap's atomic swap, an invalid file that keeps the served card.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCardStatus, closeAgentCard } from '@agent-card/core';
import { createAgentCardResponder } from '@agent-card/core/http';

const definition = (version: string, extra: Record<string, unknown> = {}) => ({
  name: 'Fernhill assistant',
  description: 'Helps shoppers find groceries in the Fernhill Market catalogue and builds a basket.',
  version,
  url: 'https://assistant.fernhill-market.co.uk/a2a/v1',
  binding: 'HTTP+JSON',
  provider: { organization: 'Fernhill Market plc', url: 'https://www.fernhill-market.co.uk' },
  skills: [{ id: 'search', name: 'Search', description: 'Searches the catalogue.', tags: ['catalogue'] }],
  ...extra,
});

let root: string;
let cwd: string;
let n = 0;
let current: string;
function swap(content: unknown) {
  const next = `..2026_12_02_14_00_00.${++n}`;
  mkdirSync(join(root, next));
  writeFileSync(join(root, next, 'agent-card.json'), JSON.stringify(content));
  symlinkSync(next, join(root, '..data_tmp'));
  renameSync(join(root, '..data_tmp'), join(root, '..data'));
  if (current !== undefined) rmSync(join(root, current), { recursive: true });
  current = next;
}

beforeAll(() => {
  cwd = process.cwd();
  root = mkdtempSync(join(tmpdir(), 'agent-card-configmap-'));
  swap(definition('1.0.0'));
  symlinkSync('..data/agent-card.json', join(root, 'agent-card.json'));
  process.chdir(root);
});
afterAll(() => {
  process.chdir(cwd);
  rmSync(root, { recursive: true, force: true });
});

const until = async (check: () => boolean) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('watch: a replica gets the new card without a restart', () => {
  it('serves the swapped ConfigMap, keeps the card on an invalid one (logging why once), and says so in its status', async () => {
    const warnings: string[] = [];
    const responder = createAgentCardResponder({
      watch: { debounce: 20 },
      logger: { warn: (m: string) => warnings.push(m) },
    });
    const version = () => {
      const res = responder.respond({ method: 'GET', path: '/.well-known/agent-card.json', headers: {} });
      return JSON.parse(new TextDecoder().decode((res as { body: Uint8Array }).body)).version as string;
    };
    expect(version()).toBe('1.0.0');

    swap(definition('1.1.0'));
    await until(() => version() === '1.1.0');
    expect(agentCardStatus(responder).state).toBe('ok');

    swap(definition('1.2.0', { url: 'ftp://nope' }));
    await until(() => agentCardStatus(responder).state === 'stale');
    expect(version()).toBe('1.1.0');
    expect(warnings.filter((w) => w.includes('changed but is not served'))).toHaveLength(1);
    expect(warnings.at(-1)).toMatch(
      /^agent card: agent-card\.json changed but is not served; the card served before stays\. .*agent-card\.json: the agent card has \d+ error/,
    );
    expect(agentCardStatus(responder)).toMatchObject({ state: 'stale', ready: true });

    swap(definition('1.3.0'));
    await until(() => version() === '1.3.0');
    expect(agentCardStatus(responder).state).toBe('ok');

    closeAgentCard(responder);
    swap(definition('1.4.0'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(version()).toBe('1.3.0');
  });

  it('is refused at start-up next to a card, with the fix', () => {
    expect(() => createAgentCardResponder({ card: definition('1') as never, watch: true })).toThrow(
      /options\.watch: reloads agent-card\.json, so the card must come from that file \(card is set\) \(true\)\. Leave card out to serve agent-card\.json, or call update\(card\) when your card changes\./,
    );
  });
});
