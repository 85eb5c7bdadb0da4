// The watch of agent-card.json on a real file system: a ConfigMap volume's layout and its atomic
// swap of the `..data` link, an editor's save, an invalid file, a storm of events.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCard } from './model';
import { loadZeroConfigCard, watchZeroConfigCard } from './zero-config';

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
let closers: (() => void)[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agent-card-watch-'));
});
afterEach(() => {
  for (const close of closers) close();
  closers = [];
  rmSync(root, { recursive: true, force: true });
});

/** A ConfigMap volume as the kubelet writes it: a timestamped directory, `..data`, and links. */
function configMap(dir: string, version: string): { swap(content: unknown): void } {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const write = (content: unknown) => {
    const data = `..2026_12_02_14_00_00.${++n}`;
    mkdirSync(join(dir, data));
    writeFileSync(join(dir, data, 'agent-card.json'), typeof content === 'string' ? content : JSON.stringify(content));
    return data;
  };
  let current = write(definition(version));
  symlinkSync(current, join(dir, '..data'));
  symlinkSync('..data/agent-card.json', join(dir, 'agent-card.json'));
  return {
    swap(content) {
      const next = write(content);
      // The kubelet's atomic update: a new link renamed over `..data`, then the old data removed.
      symlinkSync(next, join(dir, '..data_tmp'));
      renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
      rmSync(join(dir, current), { recursive: true });
      current = next;
    },
  };
}

/** Starts a watch of `cwd` and records what it serves and what fails. */
function watch(cwd: string, debounce = 20) {
  const cards: AgentCard[] = [];
  const failures: { error: unknown; repeated: boolean }[] = [];
  const initial = loadZeroConfigCard('development', cwd);
  const w = watchZeroConfigCard(initial, {
    profile: 'development',
    debounce,
    cwd,
    onCard: (card) => cards.push(card),
    onFailure: (error, repeated) => failures.push({ error, repeated }),
  });
  closers.push(() => w.close());
  return { cards, failures, close: () => w.close() };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch: agent-card.json served again when it changes', () => {
  it("serves the new card after a ConfigMap's atomic swap of its ..data link", async () => {
    const mount = join(root, 'config');
    const volume = configMap(mount, '1.0.0');
    const w = watch(mount);
    volume.swap(definition('1.1.0'));
    await until(() => w.cards.length === 1);
    expect(w.cards[0]!.version).toBe('1.1.0');
    volume.swap(definition('1.2.0'));
    await until(() => w.cards.length === 2);
    expect(w.cards[1]!.version).toBe('1.2.0');
    expect(w.failures).toEqual([]);
  });

  it('follows a link from the working directory into a mounted ConfigMap', async () => {
    const mount = join(root, 'etc', 'agent-card');
    const volume = configMap(mount, '1.0.0');
    const app = join(root, 'app');
    mkdirSync(app);
    symlinkSync(join(mount, 'agent-card.json'), join(app, 'agent-card.json'));
    const w = watch(app);
    volume.swap(definition('2.0.0'));
    await until(() => w.cards.length === 1);
    expect(w.cards[0]!.version).toBe('2.0.0');
  });

  it('an invalid file is a failure, reported once however often it is seen, and the next good one is served', async () => {
    const mount = join(root, 'config');
    const volume = configMap(mount, '1.0.0');
    const w = watch(mount);
    volume.swap(definition('1.1.0', { url: 'not a url' }));
    await until(() => w.failures.length === 1);
    volume.swap(definition('1.1.0', { url: 'not a url' }));
    await until(() => w.failures.length === 2);
    expect(w.failures.map((f) => f.repeated)).toEqual([false, true]);
    expect(String(w.failures[0]!.error)).toMatch(/agent-card\.json: the agent card has 1 error/);
    expect(w.cards).toEqual([]);
    volume.swap('{ "name": ');
    await until(() => w.failures.length === 3);
    expect(w.failures[2]).toMatchObject({ repeated: false });
    expect(String(w.failures[2]!.error)).toMatch(/invalid JSON at line 1/);
    volume.swap(definition('1.2.0'));
    await until(() => w.cards.length === 1);
    expect(w.cards[0]!.version).toBe('1.2.0');
  });

  it('a storm of writes makes one reload, and a write that changes nothing makes none', async () => {
    const file = join(root, 'agent-card.json');
    writeFileSync(file, JSON.stringify(definition('1.0.0')));
    const w = watch(root, 100);
    for (let i = 0; i < 50; i++) writeFileSync(file, JSON.stringify(definition(`1.0.${i % 2 === 0 ? 1 : 0}`)));
    writeFileSync(file, JSON.stringify(definition('3.0.0')));
    await until(() => w.cards.length >= 1);
    await settle(250);
    expect(w.cards.map((c) => c.version)).toEqual(['3.0.0']);
    writeFileSync(file, JSON.stringify(definition('3.0.0')));
    await settle(250);
    expect(w.cards).toHaveLength(1);
  });

  it('reads package.json again when it changes', async () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
    const { version: _v, ...rest } = definition('');
    writeFileSync(join(root, 'agent-card.json'), JSON.stringify(rest));
    const w = watch(root);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '1.5.0' }));
    await until(() => w.cards.length === 1);
    expect(w.cards[0]!.version).toBe('1.5.0');
  });

  it('ignores other files of the directory (a log being written)', async () => {
    writeFileSync(join(root, 'agent-card.json'), JSON.stringify(definition('1.0.0')));
    let reads = 0;
    const initial = loadZeroConfigCard('development', root);
    const w = watchZeroConfigCard(initial, {
      profile: 'development',
      debounce: 10,
      cwd: root,
      onCard: () => reads++,
      onFailure: () => reads++,
    });
    closers.push(() => w.close());
    for (let i = 0; i < 20; i++) {
      writeFileSync(join(root, 'app.log'), `line ${i}\n`, { flag: 'a' });
      await settle(5);
    }
    writeFileSync(join(root, 'agent-card.json'), '{');
    await until(() => reads === 1);
    await settle(100);
    expect(reads).toBe(1);
  });

  it('close() stops it: a change after it is not served', async () => {
    const mount = join(root, 'config');
    const volume = configMap(mount, '1.0.0');
    const w = watch(mount);
    w.close();
    volume.swap(definition('9.0.0'));
    await settle(200);
    expect(w.cards).toEqual([]);
  });
});
