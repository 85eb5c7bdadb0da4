// The fetch handler's card path against a hand-written route answering a `Response` with the same
// bytes and headers (it checks the request's path, as the handler does), in the same runtime, side by side in one run, reported as ratios (target ≥ 0.95): in process on
// Node, Deno and Bun (bench/runtimes-inner.mjs), and over loopback on workerd through wrangler's
// local mode (bench/runtimes-worker.mjs, driven by autocannon), where a Worker's clock does not
// advance while it computes.
//
//   node bench/runtimes.mjs [--duration 2] [--rounds 2] [--warmup 1] [--only node,deno,bun,workerd]
//                           [--check] [--json]
//
// Deno, Bun and wrangler are the ones the runtime tests install into .cache/runtimes (run
// `npx vitest run test/runtimes` once); a runtime that is not there is reported as skipped.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const bin = (tool) => here(`../.cache/runtimes/node_modules/.bin/${tool}`);
const TARGET = 0.95;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '2' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '2' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '1' },
    only: { type: 'string', default: process.env.BENCH_ONLY ?? 'node,deno,bun,workerd' },
    check: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);
const only = new Set(args.only.split(',').map((s) => s.trim()));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A runtime's in-process run: requests/s of each side per round. */
function inProcess(name, command, prefix) {
  if (command !== process.execPath && !existsSync(command)) return { name, skipped: `${command} is missing` };
  const run = spawnSync(
    command,
    [...prefix, here('runtimes-inner.mjs'), String(duration), String(rounds), String(warmup)],
    {
      cwd: here('.'),
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      timeout: (warmup + duration * 2 * rounds) * 1000 + 120_000,
    },
  );
  if (run.status !== 0)
    return { name, skipped: `exited ${run.status}: ${run.stderr.trim().split('\n').slice(-3).join(' ')}` };
  const line = run.stdout.trim().split('\n').at(-1);
  const { version, bytes, rounds: measured } = JSON.parse(line);
  return { name, version, bytes, mode: 'in process', rounds: measured };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const load = (url, seconds) =>
  autocannon({ url, connections: 10, duration: seconds }).then((result) => {
    if (result.errors || result.non2xx) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    return result.requests.average;
  });

/** workerd through `wrangler dev` (local, no compatibility flags), loaded over loopback. */
async function workerd() {
  const name = 'workerd';
  if (!existsSync(bin('wrangler'))) return { name, skipped: `${bin('wrangler')} is missing` };
  const dir = mkdtempSync(join(tmpdir(), 'agent-card-bench-workerd-'));
  const [port, inspector] = [await freePort(), await freePort()];
  const child = spawn(
    bin('wrangler'),
    [
      'dev',
      here('runtimes-worker.mjs'),
      '--name',
      'agent-card-bench',
      '--compatibility-date',
      '2026-04-01',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      join(dir, 'state'),
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: dir,
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        XDG_CONFIG_HOME: join(dir, 'config'),
        WRANGLER_LOG_PATH: join(dir, 'logs'),
        CI: '1',
      },
    },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    while (
      !(await fetch(`${base}/baseline`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || child.exitCode !== null) return { name, skipped: 'wrangler dev did not answer' };
      await new Promise((r) => setTimeout(r, 300));
    }
    const card = `${base}/.well-known/agent-card.json`;
    if (warmup > 0) {
      await load(`${base}/baseline`, Math.max(1, Math.round(warmup / 2)));
      await load(card, Math.max(1, Math.round(warmup / 2)));
    }
    const measured = [];
    for (let r = 0; r < rounds; r++) {
      const round = {};
      for (const side of r % 2 === 0 ? ['baseline', 'card'] : ['card', 'baseline']) {
        round[side] = await load(side === 'card' ? card : `${base}/baseline`, duration);
      }
      measured.push(round);
    }
    const version = spawnSync(bin('wrangler'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    return {
      name,
      version: `wrangler ${version}`,
      mode: 'over loopback (autocannon, 10 connections)',
      rounds: measured,
    };
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
if (only.has('node')) results.push(inProcess('node', process.execPath, []));
if (only.has('deno')) results.push(inProcess('deno', bin('deno'), ['run', '--allow-read', '--allow-env']));
if (only.has('bun')) results.push(inProcess('bun', bin('bun'), []));
if (only.has('workerd')) results.push(await workerd());

let missed = false;
for (const result of results) {
  if (result.skipped) continue;
  result.ratio = median(result.rounds.map((round) => round.card / round.baseline));
  if (result.ratio < TARGET) missed = true;
}

if (args.json) console.log(JSON.stringify({ date: new Date().toISOString(), duration, rounds, results }, null, 2));
else {
  console.log(
    `fetch handler card path vs a hand-written route answering the same bytes, ${rounds} rounds of ${duration}s per side, ${new Date().toISOString()}`,
  );
  for (const r of results) {
    if (r.skipped) {
      console.log(`  ${r.name.padEnd(8)} skipped: ${r.skipped}`);
      continue;
    }
    const card = median(r.rounds.map((x) => x.card));
    const base = median(r.rounds.map((x) => x.baseline));
    console.log(
      `  ${r.name.padEnd(8)} ${r.version.padEnd(22)} card ${Math.round(card).toLocaleString('en').padStart(9)} req/s   Response ${Math.round(base).toLocaleString('en').padStart(9)} req/s   ratio ${r.ratio.toFixed(3)}   (${r.mode})`,
    );
  }
}
process.exitCode = args.check && missed ? 1 : 0;
