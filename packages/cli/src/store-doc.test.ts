// packages/store/docs/store.md, run: its app code as three (then four) replicas in this process,
// and every `agent-card store` command it shows, against a real Redis and a real PostgreSQL. A
// change to the page that the product does not do (or the other way round) fails here.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeAgentCard } from '@agent-card/core';
import { conformanceAgentCard } from '@agent-card/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  freePort,
  postgresMissing,
  redisMissing,
  startPostgres,
  startRedis,
  type TestServer,
} from '../../store/src/test-servers';
import { cli, root } from '../test/run-cli';

const page = readFileSync(join(root, 'packages/store/docs/store.md'), 'utf8');

/** The text of a `## title` section of the page. */
function section(title: string): string {
  const start = page.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`store.md has no section "${title}"`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The lines of the `lang` code blocks of a text. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] ?? '');
}

/** The `npx @agent-card/cli store …` commands of a section, as argument lists. */
function storeCommands(title: string): string[][] {
  return blocks(section(title), 'sh')
    .flatMap((b) => b.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx @agent-card/cli store '))
    .map((line) => line.slice('npx @agent-card/cli '.length).split(/\s+/));
}

const app = blocks(section('Three replicas'), 'js')[0] ?? '';
const curl = /curl -s -H 'Host: ([^']+)' http:\/\/127\.0\.0\.1:\d+(\S+)/.exec(section('Three replicas'));
const host = curl?.[1] ?? '';
const path = curl?.[2] ?? '';

function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    req.end();
  });
}

interface Replica {
  port: number;
  server: Server;
  cards: unknown;
  store: { close(): Promise<void> };
}

function walkthrough(name: string, start: () => Promise<TestServer>, setup: string) {
  describe(`store.md with ${name}`, () => {
    let db: TestServer;
    let dir: string;
    const replicas: Replica[] = [];
    const card = (description: string) => ({
      ...conformanceAgentCard('support', `https://${host}`),
      description,
    });

    /** Starts one replica from the page's app code, with the page's environment variables. */
    async function replica(env: Record<string, string>): Promise<Replica> {
      const port = await freePort();
      const file = join(dir, `replica-${replicas.length + 1}.mjs`);
      writeFileSync(file, `${app}\nexport { server, cards, store };\n`);
      const saved = { ...process.env };
      Object.assign(process.env, { PORT: String(port), AGENT_CARD_STORE: db.url, ...env });
      try {
        const loaded = await import(pathToFileURL(file).href);
        const r = { port, ...loaded } as Replica;
        replicas.push(r);
        await new Promise((ok) => (r.server.listening ? ok(undefined) : r.server.once('listening', ok)));
        return r;
      } finally {
        for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
        Object.assign(process.env, saved);
      }
    }

    const run = (args: string[]) => cli(args, { cwd: dir, env: { AGENT_CARD_STORE: db.url }, timeoutMs: 20_000 });
    const descriptions = async () =>
      Promise.all(replicas.map(async (r) => JSON.parse((await get(r.port)).body).description as string));

    /** Waits until every replica serves `description`; the time it took. */
    async function converge(description: string, withinMs: number): Promise<number> {
      const started = performance.now();
      while (performance.now() - started < withinMs) {
        if ((await descriptions()).every((d) => d === description)) return performance.now() - started;
        await new Promise((ok) => setTimeout(ok, 50));
      }
      expect(await descriptions()).toEqual(replicas.map(() => description));
      return withinMs;
    }

    beforeAll(async () => {
      db = await start();
      // Inside the package, so that the replicas' imports (express, @agent-card/*) resolve.
      dir = mkdtempSync(join(root, 'packages/cli/.store-doc-'));
      mkdirSync(join(dir, 'cards'));
      writeFileSync(join(dir, 'cards/support.json'), JSON.stringify(card('Answers support questions.')));
      writeFileSync(
        join(dir, 'cards/billing.json'),
        JSON.stringify(conformanceAgentCard('billing', `https://${host}`)),
      );
    }, 60_000);
    afterAll(async () => {
      for (const r of replicas) {
        closeAgentCard(r.cards as Parameters<typeof closeAgentCard>[0]);
        r.server.closeAllConnections();
        await new Promise((ok) => r.server.close(ok));
        await r.store.close().catch(() => undefined);
      }
      await db?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the setup, the replicas, an update seen by all, and an outage', async () => {
      expect(app).toContain('agentCard({');
      expect(host).toBe('acme.agents.example.com');
      for (const args of storeCommands(setup)) {
        const done = await run(args);
        expect(done.stderr, args.join(' ')).toBe('');
        expect(done.code, args.join(' ')).toBe(0);
      }
      for (let i = 0; i < 3; i++) await replica({});
      for (const r of replicas) {
        const answer = await get(r.port);
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual(card('Answers support questions.'));
      }

      // "Update one card, see it everywhere": within a second.
      const update = storeCommands('Update one card, see it everywhere');
      expect(update).toEqual([['store', 'put', 'acme', 'support', 'support.json']]);
      writeFileSync(join(dir, 'support.json'), JSON.stringify(card('Answers support questions, day and night.')));
      expect((await run(update[0] ?? [])).code).toBe(0);
      expect(await converge('Answers support questions, day and night.', 1000)).toBeLessThan(1000);
      const bodies = await Promise.all(replicas.map((r) => get(r.port)));
      expect(new Set(bodies.map((b) => b.body)).size).toBe(1);

      // "When the store is down": the snapshot first, then the outage.
      const down = storeCommands('When the store is down');
      expect(down).toEqual([['store', 'export', 'snapshot.json', '--force']]);
      expect((await run(down[0] ?? [])).code).toBe(0);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        await db.kill();
        for (let i = 0; i < 10; i++) {
          for (const r of replicas) {
            const answer = await get(r.port);
            expect(answer.status).toBe(200);
            expect(answer.body).toBe(bodies[0]?.body);
          }
          await new Promise((ok) => setTimeout(ok, 100));
        }
        const lost = () => warn.mock.calls.filter((c) => String(c[0]).includes('cannot be reached'));
        await vi.waitFor(() => expect(lost().length).toBe(3), { timeout: 10_000 });
        expect(String(lost()[0]?.[0])).toContain('serving the cards held in memory until it is back');
        const refused = await run(update[0] ?? []);
        expect(refused.code).toBe(2);
        const password = new URL(db.url).password;
        if (password) expect(refused.stdout + refused.stderr).not.toContain(password);
        // A replica started during the outage serves the snapshot.
        const late = await replica({ AGENT_CARD_SNAPSHOT: join(dir, 'snapshot.json') });
        const fromSnapshot = await get(late.port);
        expect(fromSnapshot.status).toBe(200);
        expect(fromSnapshot.body).toBe(bodies[0]?.body);
        expect(lost().length).toBeLessThanOrEqual(4);

        await db.restart();
        writeFileSync(join(dir, 'support.json'), JSON.stringify(card('Back after the outage.')));
        await vi.waitFor(async () => expect((await run(update[0] ?? [])).code).toBe(0), { timeout: 15_000 });
        await converge('Back after the outage.', 15_000);
      } finally {
        warn.mockRestore();
      }
    }, 120_000);
  });
}

describe.skipIf(redisMissing !== undefined)('Redis', () => {
  walkthrough('Redis', startRedis, 'Redis');
});
describe.skipIf(postgresMissing !== undefined)('PostgreSQL', () => {
  walkthrough('PostgreSQL', startPostgres, 'PostgreSQL');
});
