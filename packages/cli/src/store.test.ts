// `agent-card store ...` against the three drivers users run: a folder, a real Redis and a real
// PostgreSQL (started for the test; skipped loudly where the Debian packages are missing).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceAgentCard } from '@agent-card/core/testing';
import { redisStore } from '@agent-card/store/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  postgresMissing,
  redisMissing,
  startPostgres,
  startRedis,
  type TestServer,
} from '../../store/src/test-servers';
import { createServer } from 'node:http';
import { cli, loopbackServers } from '../test/run-cli';

const work = mkdtempSync(join(tmpdir(), 'agent-card-store-cli-'));
const cardFile = (name: string, card: unknown) => {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(card, null, 2));
  return file;
};
const card = (id: string, description?: string) => ({
  ...conformanceAgentCard(id, 'https://acme.example'),
  ...(description ? { description } : {}),
});

/** The commands, on one store: the same behaviour on each driver. */
function storeSuite(name: string, location: () => string, extra: string[] = []) {
  describe(`agent-card store on ${name}`, () => {
    const store = () => ['--store', location(), ...extra];

    it('put validates like validate, writes, and get prints the stored body', async () => {
      const file = cardFile(`${name}-main.json`, card('main'));
      const put = await cli(['store', 'put', 'acme', 'main', file, ...store()]);
      expect(put.stderr).toBe('');
      expect(put.stdout).toContain('✔ valid');
      expect(put.stdout).toMatch(/Stored acme\/main version 1 in /);
      expect(put.code).toBe(0);
      const got = await cli(['store', 'get', 'acme', 'main', ...store()]);
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toEqual(card('main'));
    });

    it('put --key signs once, at the write: the stored card verifies with the public key', async () => {
      const key = join(work, `${name}-key.pem`);
      const generated = await cli(['keys', 'generate', '-o', key]);
      expect(generated.code).toBe(0);
      const jwk = join(work, `${name}-key.pub.jwk`);
      writeFileSync(jwk, generated.stdout);
      const file = cardFile(`${name}-signed.json`, card('signed'));
      const put = await cli(['store', 'put', 'acme', 'signed', file, '--key', key, ...store()]);
      expect(put.stdout).toContain('version 1, signed');
      expect(put.code).toBe(0);
      const got = await cli(['store', 'get', 'acme', 'signed', ...store()]);
      const stored = JSON.parse(got.stdout);
      expect(stored.signatures.length).toBeGreaterThan(0);
      const copy = cardFile(`${name}-stored.json`, stored);
      const verified = await cli(['verify', copy, '--key', jwk]);
      expect(verified.stdout + verified.stderr).not.toContain('✖');
      expect(verified.code).toBe(0);
    });

    it('put of an invalid card prints the findings of validate, exits 1 and writes nothing', async () => {
      const bad = cardFile(`${name}-bad.json`, { ...card('bad'), name: 7 });
      const put = await cli(['store', 'put', 'acme', 'bad', bad, ...store()]);
      const validate = await cli(['validate', bad]);
      expect(put.code).toBe(1);
      expect(validate.code).toBe(1);
      expect(put.stdout).toBe(validate.stdout);
      const got = await cli(['store', 'get', 'acme', 'bad', ...store()]);
      expect(got.code).toBe(1);
      expect(got.stderr).toContain('acme/bad: no such card');
    });

    it('put takes the rule settings of validate: --rule turns a warning into an error, exit 1', async () => {
      const file = cardFile(
        `${name}-placeholder.json`,
        conformanceAgentCard('placeholder', 'https://agents.example.com'),
      );
      const args = ['--rule', 'url-placeholder=error'];
      const put = await cli(['store', 'put', 'acme', 'placeholder', file, ...args, ...store()]);
      const validate = await cli(['validate', file, ...args]);
      expect(validate.code).toBe(1);
      expect(put.code).toBe(1);
      expect(put.stdout).toBe(validate.stdout);
      expect((await cli(['store', 'put', 'acme', 'placeholder', file, ...store()])).code).toBe(0);
    });

    it('put --version refuses an older version (exit 1) and writes a newer one', async () => {
      const file = cardFile(`${name}-v.json`, card('versioned'));
      expect((await cli(['store', 'put', 'acme', 'versioned', file, '--version', '5', ...store()])).code).toBe(0);
      const older = await cli(['store', 'put', 'acme', 'versioned', file, '--version', '4', ...store()]);
      expect(older.code).toBe(1);
      expect(older.stderr).toMatch(/version/);
      const next = await cli(['store', 'put', 'acme', 'versioned', file, ...store()]);
      expect(next.stdout).toContain('version 6');
    });

    it('import a folder for a tenant, list (paged through, --json), export a snapshot and a folder, rm', async () => {
      const dir = join(work, `${name}-folder`);
      mkdirSync(dir, { recursive: true });
      for (const id of ['alpha', 'beta', 'gamma']) writeFileSync(join(dir, `${id}.json`), JSON.stringify(card(id)));
      const imported = await cli(['store', 'import', dir, '--tenant', 'globex', ...store()]);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('Imported 3 cards');
      const list = await cli(['store', 'list', '--tenant', 'globex', ...store()]);
      expect(list.stdout).toBe('globex/alpha\nglobex/beta\nglobex/gamma\n');
      const json = await cli(['store', 'list', '--json', ...store()]);
      expect(JSON.parse(json.stdout)).toEqual(
        expect.arrayContaining([
          { tenant: 'acme', agent: 'main' },
          { tenant: 'globex', agent: 'gamma' },
        ]),
      );
      const snapshot = join(work, `${name}-snapshot.json`);
      expect((await cli(['store', 'export', snapshot, '--tenant', 'globex', ...store()])).code).toBe(0);
      const records = JSON.parse(readFileSync(snapshot, 'utf8')).records;
      expect(records.map((r: { agent: string }) => r.agent)).toEqual(['alpha', 'beta', 'gamma']);
      expect(JSON.parse(records[0].body)).toEqual(card('alpha'));
      expect(records[0].version).toBe(1);
      const out = join(work, `${name}-export`);
      expect((await cli(['store', 'export', out, ...store()])).code).toBe(0);
      expect(JSON.parse(readFileSync(join(out, 'globex', 'beta.json'), 'utf8'))).toEqual(card('beta'));
      const rm = await cli(['store', 'rm', 'globex', 'beta', ...store()]);
      expect(rm.code).toBe(0);
      expect((await cli(['store', 'list', '--tenant', 'globex', ...store()])).stdout).toBe(
        'globex/alpha\nglobex/gamma\n',
      );
      expect((await cli(['store', 'rm', 'globex', 'beta', ...store()])).code).toBe(1);
    });

    it('import with one invalid card writes none of them (exit 1)', async () => {
      const dir = join(work, `${name}-mixed`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'good.json'), JSON.stringify(card('good')));
      writeFileSync(join(dir, 'broken.json'), '{"name": ');
      const imported = await cli(['store', 'import', dir, '--tenant', 'initech', ...store()]);
      expect(imported.code).toBe(1);
      expect(imported.stdout).toContain('card-json-parse');
      expect(imported.stderr).toContain('nothing imported');
      expect((await cli(['store', 'list', '--tenant', 'initech', ...store()])).stdout).toBe('');
    });

    it('a tenant name that is a key pattern is refused before the store (exit 2)', async () => {
      const run = await cli(['store', 'get', 'acme*', 'main', ...store()]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('not a tenant name');
    });
  });
}

const files = join(work, 'cards');
storeSuite('a folder', () => files);

describe('agent-card store, the store option', () => {
  it('comes from AGENT_CARD_STORE, and a relative folder is read from the working directory', async () => {
    const file = cardFile('env.json', card('env'));
    const put = await cli(['store', 'put', 'acme', 'env', file], { env: { AGENT_CARD_STORE: 'env-cards' }, cwd: work });
    expect(put.code).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'env-cards', 'acme', 'env.json'), 'utf8'))).toEqual(card('env'));
  });

  it('is required: without it, a usage error that says how to give one', async () => {
    const run = await cli(['store', 'list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('AGENT_CARD_STORE');
  });

  it('--create-table is for PostgreSQL only', async () => {
    const run = await cli(['store', 'list', '--store', files, '--create-table']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--create-table: only for a PostgreSQL store');
  });

  it('never prints the password of an unreachable store', async () => {
    const port = await freePort();
    for (const url of [
      `redis://cards:Sup3r-Secret-pw@127.0.0.1:${port}`,
      `postgres://cards:Sup3r-Secret-pw@127.0.0.1:${port}/cards`,
    ]) {
      const run = await cli(['store', 'list', '--store', url], { timeoutMs: 20_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`127.0.0.1:${port}`);
      expect(run.stdout + run.stderr).not.toContain('Sup3r-Secret-pw');
      const env = await cli(['store', 'get', 'acme', 'main'], { env: { AGENT_CARD_STORE: url }, timeoutMs: 20_000 });
      expect(env.code).toBe(2);
      expect(env.stdout + env.stderr).not.toContain('Sup3r-Secret-pw');
    }
  }, 60_000);
});

describe('agent-card store import of an AI Catalog', () => {
  const servers = loopbackServers();
  afterAll(() => servers.close());
  const entry = (id: string, url: string) => ({
    identifier: `urn:air:acme.example:agent:${id}`,
    type: 'application/a2a-agent-card+json',
    url,
  });

  it('fetches each card of a catalog URL from its origin, and refuses another origin unless --follow any', async () => {
    const requests: string[] = [];
    let other = '';
    const base = await servers.listen(
      createServer((req, res) => {
        requests.push(req.url ?? '');
        const id = /^\/agents\/(\w+)\.json$/.exec(req.url ?? '')?.[1];
        if (req.url === '/catalog.json' || req.url === '/mixed.json') {
          const entries = [entry('billing', '/agents/billing.json'), entry('support', '/agents/support.json')];
          if (req.url === '/mixed.json') entries.push(entry('elsewhere', `${other}/agents/elsewhere.json`));
          res.end(JSON.stringify({ specVersion: '1.0', entries }));
        } else if (id) res.end(JSON.stringify(card(id)));
        else res.writeHead(404).end();
      }),
    );
    let otherConnections = 0;
    other = (
      await servers.listen(
        createServer((_req, res) => {
          otherConnections++;
          res.end(JSON.stringify(card('elsewhere')));
        }),
      )
    ).replace('127.0.0.1', 'localhost');
    const store = join(work, 'catalog-cards');
    const run = await cli([
      'store',
      'import',
      `${base}/catalog.json`,
      '--tenant',
      'acme',
      '--allow-http',
      '--store',
      store,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(requests).toEqual(['/catalog.json', '/agents/billing.json', '/agents/support.json']);
    expect((await cli(['store', 'list', '--store', store])).stdout).toBe('acme/billing\nacme/support\n');
    // The mixed catalog into tenant `other`, with `flags` added.
    const importMixed = (...flags: string[]) =>
      cli(['store', 'import', `${base}/mixed.json`, '--tenant', 'other', '--allow-http', ...flags, '--store', store]);
    const mixed = await importMixed();
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('is on another origin');
    expect((await cli(['store', 'list', '--tenant', 'other', '--store', store])).stdout).toBe('');
    const any = await importMixed('--follow', 'any');
    // The catalog chose a loopback host on another origin: refused before any connection.
    expect(any.code).toBe(2);
    expect(any.stderr).toContain('not fetched: another origin on a non-public address');
    expect(any.stderr).toContain('localhost is a loopback name');
    expect(otherConnections).toBe(0);
    expect((await cli(['store', 'list', '--tenant', 'other', '--store', store])).stdout).toBe('');
    const allowed = await importMixed('--follow', 'any', '--allow-private-targets');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('Imported 3 cards');
    expect(otherConnections).toBe(1);
  });

  it('fetches what a catalog names on another origin from public addresses only, whatever the name resolves to', async () => {
    // Counted when a socket opens, before any byte of TLS or HTTP.
    let connections = 0;
    const server = createServer((_req, res) => res.end(JSON.stringify(card('inside'))));
    server.on('connection', () => connections++);
    const counting = await servers.listen(server);
    const port = new URL(counting).port;
    const targets = [
      `https://127.0.0.2:${port}/agents/inside.json`,
      `https://[::ffff:127.0.0.1]:${port}/agents/inside.json`,
      'https://169.254.169.254/latest/meta-data/card.json',
      'https://10.0.0.1/agents/inside.json',
      `https://localhost:${port}/agents/inside.json`,
    ];
    const base = await servers.listen(
      createServer((req, res) => {
        const i = Number(/^\/catalog-(\d)\.json$/.exec(req.url ?? '')?.[1]);
        if (Number.isInteger(i))
          res.end(JSON.stringify({ specVersion: '1.0', entries: [entry('inside', targets[i]!)] }));
        else res.writeHead(404).end();
      }),
    );
    for (const [i, target] of targets.entries()) {
      const run = await cli([
        'store',
        'import',
        `${base}/catalog-${i}.json`,
        '--tenant',
        'acme',
        '--allow-http',
        '--follow',
        'any',
        '--timeout',
        '2000',
        '--store',
        join(work, 'private-targets'),
      ]);
      expect(run.code, target).toBe(2);
      expect(run.stderr, target).toContain('not fetched: another origin on a non-public address');
    }
    expect(connections).toBe(0);
  });

  it('refuses a catalog of more entries than --max-agents before fetching any card', async () => {
    const dir = join(work, 'catalog-big');
    mkdirSync(dir, { recursive: true });
    const entries = Array.from({ length: 5 }, (_, i) => entry(`a${i}`, `agents/a${i}.json`));
    writeFileSync(join(dir, 'ai-catalog.json'), JSON.stringify({ specVersion: '1.0', entries }));
    const store = join(work, 'catalog-big-cards');
    const args = ['store', 'import', join(dir, 'ai-catalog.json'), '--tenant', 'acme', '--store', store];
    const run = await cli([...args, '--max-agents', '4']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('5 entries, more than --max-agents (4)');
  });

  it('reads a catalog file with the cards beside it', async () => {
    const dir = join(work, 'catalog-file');
    mkdirSync(join(dir, 'agents'), { recursive: true });
    writeFileSync(join(dir, 'agents', 'billing.json'), JSON.stringify(card('billing')));
    writeFileSync(
      join(dir, 'ai-catalog.json'),
      JSON.stringify({ specVersion: '1.0', entries: [entry('billing', 'agents/billing.json')] }),
    );
    const store = join(work, 'catalog-file-cards');
    const run = await cli(['store', 'import', join(dir, 'ai-catalog.json'), '--tenant', 'acme', '--store', store]);
    expect(run.code).toBe(0);
    expect(JSON.parse((await cli(['store', 'get', 'acme', 'billing', '--store', store])).stdout)).toEqual(
      card('billing'),
    );
  });
});

describe.skipIf(redisMissing !== undefined)('Redis', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startRedis();
  }, 60_000);
  afterAll(async () => server?.stop());
  storeSuite('Redis', () => server.url);

  it('get of a record another tool wrote with terminal escapes never prints them raw', async () => {
    const url = `${server.url}/4`;
    const driver = redisStore({ url });
    await driver.put({ tenant: 'acme', agent: 'loud' }, '{"name":"\u001b]8;;https://evil.example\u0007x\u001b[2J"}');
    await driver.close();
    const run = await cli(['store', 'get', 'acme', 'loud', '--store', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(run.stdout).toContain('\\u001b');
  });

  it('export leaves out a record another tool wrote under a name that would leave the folder (exit 1)', async () => {
    const url = `${server.url}/3`;
    const driver = redisStore({ url });
    await driver.put({ tenant: '..', agent: 'escape' }, JSON.stringify(card('escape')));
    await driver.put({ tenant: 'acme', agent: 'fine' }, JSON.stringify(card('fine')));
    await driver.close();
    const out = join(work, 'hostile', 'export');
    const run = await cli(['store', 'export', out, '--store', url]);
    expect(run.stderr).toContain('../escape: not a tenant and agent name; not exported');
    expect(run.code).toBe(1);
    expect(existsSync(join(work, 'hostile', 'escape.json'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'acme', 'fine.json'), 'utf8'))).toEqual(card('fine'));
  });
});

describe.skipIf(postgresMissing !== undefined)('PostgreSQL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => server?.stop());

  it('without --create-table, a store with no tables is an error that names the fix, never a silent create', async () => {
    const run = await cli(['store', 'list', '--store', server.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/createTable|create/i);
    expect(run.stdout + run.stderr).not.toContain(new URL(server.url).password);
    const created = await cli(['store', 'list', '--store', server.url, '--create-table']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
  });
  storeSuite('PostgreSQL', () => server.url);
});
