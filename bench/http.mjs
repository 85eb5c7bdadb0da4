// HTTP benchmarks: the middleware against hand-written equivalents, measured side by side in one
// run and reported as ratios. Servers run in child processes; autocannon drives them over
// 127.0.0.1 only. Baseline and candidate runs alternate (A B, then B A, ...) so that drift of a
// shared machine hits both sides alike.
//
//   node bench/http.mjs [--duration 5] [--rounds 2] [--warmup 1] [--connections 10]
//                       [--only store,store-fetch,store-304,express,koa,node,passthrough,catalog,ard,negotiation,viewer,viewer-passthrough,onserve,onserve-passthrough,sdk,fastify,fastify-passthrough,hono,hono-passthrough]
//                       [--soak [--soak-duration 60] [--soak-warmup 10]]
//                       [--restart] [--check] [--json]
//
// `--restart` starts both servers afresh (and warms them up) in every round instead of once per
// comparison: how well the JIT happened to compile one process then counts as noise of a round,
// resampled with the rest, rather than as a difference between the two sides. It takes longer.
// Every option can also be set through the environment (BENCH_DURATION, BENCH_ROUNDS,
// BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ONLY, BENCH_SOAK_DURATION, BENCH_SOAK_WARMUP). `--check` exits non-zero
// when a ratio misses its target; errors and unexpected statuses always do.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { pairedInterval } from './stats.mjs';
import { createAgentCardResponder } from '@agent-card/core/http';
import {
  AGENT_COUNT,
  API_KEY,
  API_PATH,
  CARD_PATH,
  EXTENDED_PATH,
  LAST_AGENT_CARD_PATH,
  agentsOptions,
  options as singleOptions,
} from './fixtures.mjs';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));
const MiB = 1024 * 1024;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '5' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '2' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '1' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '10' },
    only: { type: 'string', default: process.env.BENCH_ONLY ?? '' },
    soak: { type: 'boolean', default: false },
    'soak-duration': { type: 'string', default: process.env.BENCH_SOAK_DURATION ?? '60' },
    'soak-warmup': { type: 'string', default: process.env.BENCH_SOAK_WARMUP ?? '10' },
    restart: { type: 'boolean', default: process.env.BENCH_RESTART === '1' },
    check: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const settings = {
  duration: positive('duration'),
  rounds: positive('rounds'),
  warmup: Number(args.warmup),
  connections: positive('connections'),
  soakDuration: positive('soak-duration'),
  soakWarmup: positive('soak-warmup'),
};

function positive(name) {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`bench: --${name} must be a positive number (${args[name]}).`);
    process.exit(2);
  }
  return value;
}

/** The comparisons: candidate vs baseline on the same path, with the ratio the issue asks for. */
const comparisons = [
  {
    id: 'store',
    title: "Express: GET a warm tenant's card from a store-backed host vs the same card from a static host",
    candidate: 'express-store',
    baseline: 'express-static-main',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'store-fetch',
    title: "Hono (fetch bridge): GET a warm tenant's card from a store-backed host vs a static host",
    candidate: 'hono-store',
    baseline: 'hono-static-main',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'store-304',
    title: 'Express: 304 for tenant #9,999 of 10,000 cached tenants (store) vs the 304 of a static host',
    candidate: 'express-store-10k',
    baseline: 'express-static-main',
    path: CARD_PATH,
    candidatePath: `/t/t9998${CARD_PATH}`,
    conditional: true,
    target: 0.95,
  },
  {
    id: 'express',
    title: 'Express: GET card, middleware vs hand-written route',
    candidate: 'express-ours',
    baseline: 'express-baseline',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'koa',
    title: 'Koa: GET card, middleware vs hand-written middleware',
    candidate: 'koa-ours',
    baseline: 'koa-baseline',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'node',
    title: 'node:http: core responder vs res.end(buffer)',
    candidate: 'node-ours',
    baseline: 'node-baseline',
    path: CARD_PATH,
    target: 0.9,
  },
  {
    id: 'passthrough',
    title: 'Express app route, middleware in front vs absent',
    candidate: 'passthrough-with',
    baseline: 'passthrough-without',
    path: API_PATH,
    target: 0.97,
  },
  {
    id: 'agents',
    title: `Express: GET the ${AGENT_COUNT}th agent's card of ${AGENT_COUNT} vs the single card`,
    candidate: 'express-agents',
    baseline: 'express-ours',
    path: CARD_PATH,
    candidatePath: LAST_AGENT_CARD_PATH,
    target: 0.95,
  },
  {
    id: 'catalog',
    title: 'Express: GET the AI Catalog of two agents vs the single card',
    candidate: 'express-catalog',
    baseline: 'express-ours',
    path: CARD_PATH,
    candidatePath: '/.well-known/ai-catalog.json',
    target: 0.95,
  },
  {
    id: 'ard',
    title: 'Express: GET the ARD manifest of two agents vs the single card',
    candidate: 'express-catalog',
    baseline: 'express-ours',
    path: CARD_PATH,
    candidatePath: '/.well-known/ard.json',
    target: 0.95,
  },
  {
    id: 'negotiation',
    title: 'Express: GET card asking for application/a2a-agent-card+json vs no Accept',
    candidate: 'express-ours',
    baseline: 'express-ours',
    path: CARD_PATH,
    candidateHeaders: { accept: 'application/a2a-agent-card+json' },
    target: 0.97,
  },
  {
    id: 'agents-passthrough',
    title: `Express app route, ${AGENT_COUNT} agents in front vs one card`,
    candidate: 'passthrough-agents',
    baseline: 'passthrough-with',
    path: API_PATH,
    target: 0.95,
  },
  {
    id: 'viewer',
    title: 'Express: GET card with the viewer page on vs off',
    candidate: 'express-viewer',
    baseline: 'express-ours',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'viewer-passthrough',
    title: 'Express app route, middleware with the viewer page on vs off',
    candidate: 'passthrough-viewer',
    baseline: 'passthrough-with',
    path: API_PATH,
    target: 0.95,
  },
  {
    id: 'onserve',
    title: 'Express: GET card with an onServe hook vs without (reported, no target)',
    candidate: 'express-onserve',
    baseline: 'express-ours',
    path: CARD_PATH,
    target: undefined,
  },
  {
    id: 'onserve-passthrough',
    title: 'Express app route, middleware with an onServe hook vs without (reported, no target)',
    candidate: 'passthrough-onserve',
    baseline: 'passthrough-with',
    path: API_PATH,
    target: undefined,
  },
  {
    id: 'fastify',
    title: 'Fastify 5: GET card, plugin vs hand-written route',
    candidate: 'fastify-ours',
    baseline: 'fastify-baseline',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'fastify-passthrough',
    title: 'Fastify 5 app route, plugin vs an empty onRequest hook',
    candidate: 'fastify-passthrough-with',
    baseline: 'fastify-passthrough-without',
    path: API_PATH,
    target: 0.97,
  },
  {
    id: 'hono',
    title: 'Hono 4 (@hono/node-server): GET card, middleware vs hand-written route',
    candidate: 'hono-ours',
    baseline: 'hono-baseline',
    path: CARD_PATH,
    target: 0.95,
  },
  {
    id: 'hono-passthrough',
    title: 'Hono 4 app route, middleware vs an empty middleware',
    candidate: 'hono-passthrough-with',
    baseline: 'hono-passthrough-without',
    path: API_PATH,
    target: 0.97,
  },
  {
    id: 'sdk',
    title: 'Express: GET card, middleware vs @a2a-js/sdk agentCardHandler',
    candidate: 'express-ours',
    baseline: 'sdk-a2a-js',
    path: CARD_PATH,
    target: undefined,
  },
];

/** Starts a bench server in a child process; resolves once it listens. */
async function startServer(kind) {
  const child = fork(SERVER, [kind], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`bench server ${kind} exited with ${code} before listening`);
    }),
  ]);
  const url = `http://127.0.0.1:${message.port}`;
  // One memory question at a time, so every reply is matched with its own question.
  let queue = Promise.resolve();
  return {
    kind,
    url,
    /** `{ rss, heapUsed }` of the server, after a full GC when `gc` is set. */
    memory({ gc = false } = {}) {
      const ask = async () => {
        child.send({ rss: true, gc });
        const [reply] = await once(child, 'message');
        return reply;
      };
      const answer = queue.then(ask);
      queue = answer.catch(() => {});
      return answer;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}

const sum = (values) => values.reduce((total, value) => total + value, 0);

function load(url, seconds, extra = {}) {
  return autocannon({ url, duration: seconds, connections: settings.connections, pipelining: 1, ...extra });
}

/** Fails early, with a readable reason, when a server does not answer what the bench expects. */
async function probe(server, path) {
  const response = await fetch(server.url + path);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${server.kind}: GET ${path} answered ${response.status}, expected 200`);
  return response.headers.get('etag');
}

/** A conditional comparison expects every answer to be a 304; any other, a 200 among them, is a problem. */
function problems(result, conditional = false) {
  const unexpected = conditional
    ? result.requests.total - result['3xx'] + result.errors + result.timeouts
    : result.non2xx + result.errors + result.timeouts;
  return unexpected === 0
    ? undefined
    : conditional
      ? `${result.requests.total - result['3xx']} answers not 304, ${result.errors} errors, ${result.timeouts} timeouts`
      : `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`;
}

async function compare(comparison) {
  // A comparison may fetch another path on the candidate (the 100th agent's card).
  const pathOf = (isCandidate) => (isCandidate ? (comparison.candidatePath ?? comparison.path) : comparison.path);
  /** Both servers, started, probed and warmed up. */
  // With `conditional`, each side is asked with its own ETag (If-None-Match), for a 304.
  const conditionalHeaders = {};
  const headersOf = (isCandidate) =>
    comparison.conditional
      ? {
          ...(isCandidate ? comparison.candidateHeaders : {}),
          ...conditionalHeaders[isCandidate ? 'candidate' : 'baseline'],
        }
      : isCandidate
        ? comparison.candidateHeaders
        : undefined;
  const start = async () => {
    const servers = await Promise.all([startServer(comparison.candidate), startServer(comparison.baseline)]);
    for (const [index, server] of servers.entries()) {
      const etag = await probe(server, pathOf(index === 0));
      if (comparison.conditional) {
        if (!etag) throw new Error(`${server.kind}: GET ${pathOf(index === 0)} sent no ETag`);
        conditionalHeaders[index === 0 ? 'candidate' : 'baseline'] = { 'if-none-match': etag };
      }
      const headers = headersOf(index === 0);
      if (settings.warmup > 0)
        await load(server.url + pathOf(index === 0), settings.warmup, headers ? { headers } : {});
    }
    return servers;
  };
  let [candidate, baseline] = await start();
  try {
    const totals = { candidate: 0, baseline: 0, seconds: { candidate: 0, baseline: 0 } };
    // Requests per second of each side in each round, for the interval of the ratio.
    const perRound = { candidate: [], baseline: [] };
    const failures = [];
    for (let round = 0; round < settings.rounds; round++) {
      if (args.restart && round > 0) {
        await Promise.all([candidate.stop(), baseline.stop()]);
        [candidate, baseline] = await start();
      }
      const order = round % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
      for (const side of order) {
        const server = side === 'candidate' ? candidate : baseline;
        const headers = headersOf(side === 'candidate');
        const result = await load(
          server.url + pathOf(side === 'candidate'),
          settings.duration,
          headers ? { headers } : {},
        );
        const problem = problems(result, comparison.conditional);
        if (problem) failures.push(`${server.kind}: ${problem}`);
        totals[side] += result.requests.total;
        totals.seconds[side] += result.duration;
        perRound[side].push(result.requests.total / result.duration);
      }
    }
    const candidateRps = totals.candidate / totals.seconds.candidate;
    const baselineRps = totals.baseline / totals.seconds.baseline;
    const ratio = candidateRps / baselineRps;
    // Rounds are resampled whole, so drift that hit both sides of a round stays cancelled.
    const interval = pairedInterval([perRound.candidate, perRound.baseline], ([c, b]) => sum(c) / sum(b));
    return {
      ...comparison,
      candidateRps,
      baselineRps,
      ratio,
      interval,
      pass: failures.length === 0 && (comparison.target === undefined || ratio >= comparison.target),
      failures,
    };
  } finally {
    await Promise.all([candidate.stop(), baseline.stop()]);
  }
}

/**
 * Sustained load on one app mixing every kind of request it answers, each checked against its
 * own expected status, while the server's RSS is sampled. Growth is measured between two
 * collected heaps: after a warm-up under the same load (V8 sizes its young generation to the
 * allocation rate first; that is not a leak) and at the end.
 */
async function soak() {
  const server = await startServer('soak');
  try {
    // No HEAD: autocannon's parser would wait for the body a HEAD answer's Content-Length
    // announces. The bad-request corpus and the conformance suite cover HEAD.
    const requests = [
      { method: 'GET', path: CARD_PATH, expect: 200 },
      { method: 'GET', path: '/.well-known/agent.json', expect: 200 },
      {
        method: 'OPTIONS',
        path: CARD_PATH,
        headers: { origin: 'https://a.test', 'access-control-request-method': 'GET' },
        expect: 204,
      },
      { method: 'POST', path: CARD_PATH, expect: 405 },
      { method: 'GET', path: EXTENDED_PATH, headers: { 'x-api-key': API_KEY }, expect: 200 },
      { method: 'GET', path: EXTENDED_PATH, expect: 401 },
      { method: 'GET', path: API_PATH, expect: 200 },
    ];
    const first = await fetch(server.url + CARD_PATH);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    if (!etag) throw new Error('soak: the card has no ETag');
    requests.push({ method: 'GET', path: CARD_PATH, headers: { 'if-none-match': etag }, expect: 304 });

    const mismatches = new Map();
    const withChecks = requests.map(({ expect, ...request }) => ({
      ...request,
      onResponse(status) {
        if (status !== expect) {
          const key = `${request.method} ${request.path} → ${status} (expected ${expect})`;
          mismatches.set(key, (mismatches.get(key) ?? 0) + 1);
        }
      },
    }));

    await load(server.url, settings.soakWarmup, { requests: withChecks });
    mismatches.clear();
    const { rss: before, heapUsed: heapBefore } = await server.memory({ gc: true });
    const samples = [];
    const sampler = setInterval(() => void server.memory().then(({ rss }) => samples.push(rss)), 1000);
    const result = await load(server.url, settings.soakDuration, { requests: withChecks });
    clearInterval(sampler);
    const { rss: after, heapUsed: heapAfter } = await server.memory({ gc: true });
    const growth = after - before;
    const failures = [...mismatches].map(([what, count]) => `${count} × ${what}`);
    const problem =
      result.errors + result.timeouts > 0 ? `${result.errors} errors, ${result.timeouts} timeouts` : undefined;
    if (problem) failures.push(problem);
    if (growth >= 20 * MiB) failures.push(`RSS grew by ${(growth / MiB).toFixed(1)} MiB (limit 20 MiB)`);
    return {
      id: 'soak',
      title: `Sustained mixed load, ${settings.soakDuration} s`,
      rps: result.requests.total / result.duration,
      requests: result.requests.total,
      rssBefore: before,
      rssAfter: after,
      rssPeak: Math.max(before, after, ...samples),
      growth,
      heapGrowth: heapAfter - heapBefore,
      errors: result.errors + result.timeouts,
      unexpected: [...mismatches.values()].reduce((sum, count) => sum + count, 0),
      pass: failures.length === 0,
      failures,
    };
  } finally {
    await server.stop();
  }
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

function print(results) {
  console.log(
    `\nHTTP benchmarks (${settings.connections} connections, ${settings.rounds} × ${settings.duration} s per side, node ${process.version})\n`,
  );
  console.log('| case | baseline req/s | ours req/s | ratio | 95% interval | target | |');
  console.log('| --- | ---: | ---: | ---: | :---: | ---: | --- |');
  for (const r of results.filter((r) => r.id !== 'soak' && r.id !== 'startup')) {
    const verdict = r.failures.length ? 'ERROR' : r.target === undefined ? '' : r.pass ? 'ok' : 'MISS';
    console.log(
      `| ${r.title} | ${fmt(r.baselineRps)} | ${fmt(r.candidateRps)} | ${r.ratio.toFixed(3)} | ${r.interval.map((v) => v.toFixed(3)).join('–')} | ${r.target === undefined ? 'report' : `≥ ${r.target}`} | ${verdict} |`,
    );
  }
  const up = results.find((r) => r.id === 'startup');
  if (up) console.log(`\n${up.title}: ${up.single.toFixed(1)} ms vs ${up.agents.toFixed(1)} ms`);
  const s = results.find((r) => r.id === 'soak');
  if (s) {
    console.log(
      `\n${s.title}: ${fmt(s.requests)} requests (${fmt(s.rps)} req/s), ${fmt(s.errors)} errors, ${fmt(s.unexpected)} unexpected statuses, RSS ${(s.rssBefore / MiB).toFixed(1)} → ${(s.rssAfter / MiB).toFixed(1)} MiB ` +
        `(growth ${(s.growth / MiB).toFixed(1)} MiB, peak ${(s.rssPeak / MiB).toFixed(1)} MiB; heap after GC ${(s.heapGrowth / MiB).toFixed(2)} MiB): ${s.pass ? 'ok' : 'FAIL'}`,
    );
  }
  for (const r of results) for (const failure of r.failures) console.log(`  ${r.id}: ${failure}`);
}

/** Median start-up time (ms) of the responder for one card and for AGENT_COUNT agents, in this process. */
function startup(runs = 7) {
  const median = (build) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      build();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
  };
  const single = median(() => createAgentCardResponder(singleOptions));
  const agents = median(() => createAgentCardResponder(agentsOptions()));
  return {
    id: 'startup',
    title: `start-up, 1 card vs ${AGENT_COUNT} agents (median of ${runs})`,
    single,
    agents,
    failures: [],
    pass: true,
  };
}

const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : undefined;
const results = [];
if (!only || only.has('agents') || only.has('startup')) results.push(startup());
for (const comparison of comparisons) {
  if (only && !only.has(comparison.id)) continue;
  if (!args.json) process.stderr.write(`running ${comparison.id}…\n`);
  results.push(await compare(comparison));
}
if (args.soak) {
  if (!args.json) process.stderr.write(`running soak (${settings.soakDuration} s)…\n`);
  results.push(await soak());
}

if (args.json) console.log(JSON.stringify({ settings, node: process.version, results }, null, 2));
else print(results);

const errored = results.some((r) => r.failures.length > 0);
const missed = results.some((r) => !r.pass);
process.exitCode = errored || (args.check && missed) ? 1 : 0;
