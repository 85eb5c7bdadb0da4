// Throwaway Redis and PostgreSQL servers for tests: each on a free loopback port with a data
// folder of its own under the temp directory, never a system service. `kill()` ends the process
// the hard way (an outage), `restart()` brings it back on the same port and data, `stop()` ends
// it and removes the folder. Where a binary is missing (scripts/ensure-redis.mjs and
// ensure-postgres.mjs install them as root), `redisMissing` / `postgresMissing` say why, and the
// tests that need them are skipped loudly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.AGENT_CARD_REDIS_SERVER ?? '/usr/bin/redis-server';
export const POSTGRES_BIN = process.env.AGENT_CARD_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

const loud = (what: string, why: string) => {
  const line = '!'.repeat(100);
  console.warn(`\n${line}\n!! ${what} tests SKIPPED: ${why}\n${line}\n`);
};

/** Why Redis cannot run here, or `undefined` when it can. */
export const redisMissing: string | undefined = existsSync(REDIS_SERVER)
  ? undefined
  : `${REDIS_SERVER} is missing: install Debian's redis-server (sudo apt-get install -y redis-server; the test command does it as root) or set AGENT_CARD_REDIS_SERVER`;

/** Why PostgreSQL cannot run here, or `undefined` when it can. */
export const postgresMissing: string | undefined = !existsSync(join(POSTGRES_BIN, 'postgres'))
  ? `${POSTGRES_BIN}/postgres is missing: install Debian's postgresql-15 (sudo apt-get install -y postgresql-15; the test command does it as root) or set AGENT_CARD_POSTGRES_BIN`
  : process.getuid?.() === 0 && postgresUser() === undefined
    ? 'PostgreSQL refuses to run as root and there is no postgres user to run it as'
    : undefined;

if (redisMissing !== undefined) loud('Redis store', redisMissing);
if (postgresMissing !== undefined) loud('PostgreSQL store', postgresMissing);

/** The uid and gid of the `postgres` user, to run the server as when the tests run as root. */
function postgresUser(): { uid: number; gid: number } | undefined {
  const result = spawnSync('id', ['postgres'], { encoding: 'utf8' });
  const uid = /uid=(\d+)/.exec(result.stdout ?? '')?.[1];
  const gid = /gid=(\d+)/.exec(result.stdout ?? '')?.[1];
  return uid === undefined || gid === undefined ? undefined : { uid: Number(uid), gid: Number(gid) };
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A test server: its URL, and the outage controls. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Ends the server process abruptly (Redis: SIGKILL; PostgreSQL: immediate shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  restart(): Promise<void>;
  /** Ends it and removes its data folder. */
  stop(): Promise<void>;
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

/** Servers still running: ended with this process, so a test run that fails leaves none behind. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function launch(command: string, args: string[], as?: { uid: number; gid: number }): Running {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...as });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-8000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-8000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return { child, exited, output: () => output };
}

async function waitFor(ready: () => Promise<boolean>, running: Running, what: string): Promise<void> {
  let gone = false;
  void running.exited.then(() => (gone = true));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (gone) throw new Error(`${what} exited before answering:\n${running.output()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer within 20 s:\n${running.output()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function redisPing(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy());
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      done(String(data).startsWith('+PONG'));
      socket.destroy();
    });
  });
}

/**
 * `redis-server` on a free port with a temp folder, no RDB snapshots (`--save ''`) and an
 * append-only file written before each reply, so that a killed and restarted server still has
 * every record it acknowledged.
 */
export async function startRedis(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-redis-'));
  const port = await freePort();
  let running: Running | undefined;
  const start = async () => {
    const r = launch(REDIS_SERVER, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      // Every acknowledged write is on disk before the reply: a killed server comes back with all
      // of them (with everysec, a write can wait behind a slow fsync and be lost with the process).
      '--appendfsync',
      'always',
      '--daemonize',
      'no',
    ]);
    running = r;
    await waitFor(() => redisPing(port), r, 'redis-server');
  };
  const kill = async () => {
    const r = running;
    running = undefined;
    if (r !== undefined && r.child.exitCode === null) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    kill,
    restart: start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The password of the test PostgreSQL's `postgres` user (tests check that it never leaks). */
export const POSTGRES_PASSWORD = 'pg-Secret-4711';

/**
 * A PostgreSQL cluster made with `initdb` in a temp folder (as the `postgres` user when the tests
 * run as root), password authentication on loopback, its socket in its own folder.
 */
export async function startPostgres(): Promise<TestServer & { readonly database: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-postgres-'));
  const as = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (as !== undefined) chownSync(dir, as.uid, as.gid);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${POSTGRES_PASSWORD}\n`);
  if (as !== undefined) chownSync(pwfile, as.uid, as.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(POSTGRES_BIN, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ],
    { encoding: 'utf8', ...as },
  );
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
  const port = await freePort();
  const url = `postgres://postgres:${POSTGRES_PASSWORD}@127.0.0.1:${port}/postgres`;
  let running: Running | undefined;
  const ready = async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } finally {
      await client.end().catch(() => {});
    }
  };
  const start = async () => {
    const r = launch(
      join(POSTGRES_BIN, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      as,
    );
    running = r;
    await waitFor(ready, r, 'postgres');
  };
  const kill = async () => {
    const r = running;
    running = undefined;
    if (r !== undefined && r.child.exitCode === null) {
      // SIGQUIT is PostgreSQL's immediate shutdown: every connection dropped, no checkpoint, as
      // in a crash, and the backends go with it (a SIGKILLed postmaster would leave them behind).
      r.child.kill('SIGQUIT');
      await r.exited;
    }
  };
  await start();
  return {
    url,
    port,
    dir,
    database: 'postgres',
    kill,
    restart: start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
