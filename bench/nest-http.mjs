// Card requests on @nestjs/platform-express: AgentCardModule against a hand-written Nest route
// that returns a precomputed buffer with the same headers. Both apps (each with 10 controllers ×
// 5 @Skill() routes) run in one child process; autocannon drives them over 127.0.0.1, alternating
// A B, then B A, so drift on a shared machine hits both sides alike.
//
//   node bench/nest-http.mjs [--duration 5] [--rounds 2] [--warmup 1] [--connections 10] [--check] [--json]
//
// Target: AgentCardModule ≥ 0.95 × the hand-written route (requests per second). `--check` exits
// non-zero when it misses; errors and non-2xx answers always do. Needs `pnpm build`.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SELF = fileURLToPath(import.meta.url);

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await main();
}

/** Child process: starts both apps and reports their URLs to the parent. */
async function serve() {
  const { NestFactory } = await import('@nestjs/core');
  const { appModule, featureModules, handWrittenModule, CARD_PATH } = await import('./nest-apps.mjs');
  const features = featureModules(10, 5);
  const listen = async (module) => {
    const app = await NestFactory.create(module, { logger: false });
    await app.listen(0, '127.0.0.1');
    return { app, url: `http://127.0.0.1:${app.getHttpServer().address().port}` };
  };
  const candidate = await listen(appModule(features, true));
  // The hand-written route serves the very bytes and headers the module serves.
  const response = await fetch(candidate.url + CARD_PATH);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = {};
  for (const [name, value] of response.headers) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
  }
  const baseline = await listen(handWrittenModule(features, body, headers));
  process.send({ candidate: candidate.url, baseline: baseline.url, path: CARD_PATH });
  process.once('disconnect', async () => {
    await Promise.all([candidate.app.close(), baseline.app.close()]);
    process.exit(0);
  });
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      duration: { type: 'string', default: process.env.BENCH_DURATION ?? '5' },
      rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '2' },
      warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '1' },
      connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '10' },
      check: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const duration = Number(args.duration);
  const rounds = Number(args.rounds);
  const warmup = Number(args.warmup);
  const connections = Number(args.connections);
  const { default: autocannon } = await import('autocannon');

  const child = fork(SELF, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [urls] = await once(child, 'message');
  const targets = { module: urls.candidate + urls.path, handWritten: urls.baseline + urls.path };

  // Both must answer 200 with the same bytes before anything is measured.
  const [a, b] = await Promise.all(
    Object.values(targets).map((url) => fetch(url).then(async (r) => [r.status, await r.text()])),
  );
  if (a[0] !== 200 || b[0] !== 200 || a[1] !== b[1])
    throw new Error(`nest-http: the two apps do not serve the same card (${a[0]} vs ${b[0]}).`);

  const run = (url, seconds) => autocannon({ url, duration: seconds, connections, pipelining: 1 });
  let failed = false;
  const totals = { module: [], handWritten: [] };
  if (warmup > 0) for (const url of Object.values(targets)) await run(url, warmup);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['module', 'handWritten'] : ['handWritten', 'module'];
    for (const name of order) {
      const result = await run(targets[name], duration);
      if (result.non2xx + result.errors + result.timeouts > 0) {
        console.error(
          `nest-http: ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
        failed = true;
      }
      totals[name].push(result.requests.average);
    }
  }
  child.disconnect();

  const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const result = {
    duration,
    rounds,
    connections,
    moduleReqPerSec: Math.round(mean(totals.module)),
    handWrittenReqPerSec: Math.round(mean(totals.handWritten)),
  };
  result.ratio = Number((result.moduleReqPerSec / result.handWrittenReqPerSec).toFixed(3));
  result.target = '>= 0.95';
  result.pass = result.ratio >= 0.95;
  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `\nNest card requests on platform-express (${rounds} rounds × ${duration} s, ${connections} connections)`,
    );
    console.log(`  hand-written route (precomputed buffer)  ${result.handWrittenReqPerSec} req/s`);
    console.log(`  AgentCardModule                          ${result.moduleReqPerSec} req/s`);
    console.log(
      `  ratio                                    ${result.ratio.toFixed(3)}  (target ${result.target}) ${result.pass ? 'ok' : 'MISSED'}`,
    );
  }
  if (failed || (args.check && !result.pass)) process.exitCode = 1;
}
