// Boot time of a Nest application with 200 controllers × 5 @Skill() routes, with and without
// AgentCardModule (which collects the 1000 skills, builds, validates and serialises the card).
// Runs alternate (with, without, without, with, ...) in one process, after warm-up runs.
//
//   node bench/nest-boot.mjs [--runs 10] [--warmup 2] [--controllers 200] [--methods 5] [--check] [--json]
//
// Target: the module adds less than 10% (median with / median without < 1.10). `--check` exits
// non-zero when it does not. Needs the built packages (`pnpm build`).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { appModule, featureModules } from './nest-apps.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.BENCH_BOOT_RUNS ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '2' },
    controllers: { type: 'string', default: '200' },
    methods: { type: 'string', default: '5' },
    check: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const warmup = Number(args.warmup);
const features = featureModules(Number(args.controllers), Number(args.methods));
const variants = { with: appModule(features, true), without: appModule(features, false) };

/** Creates and initialises the app (routes registered, card built), then closes it. */
async function boot(module) {
  const start = performance.now();
  const app = await NestFactory.create(module, { logger: false });
  await app.init();
  const elapsed = performance.now() - start;
  await app.close();
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

for (let i = 0; i < warmup; i++) {
  await boot(variants.with);
  await boot(variants.without);
}
const times = { with: [], without: [] };
for (let i = 0; i < runs; i++) {
  // Alternate the order so drift on a shared machine hits both sides alike.
  const order = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
  for (const name of order) times[name].push(await boot(variants[name]));
}

const result = {
  controllers: Number(args.controllers),
  methods: Number(args.methods),
  runs,
  medianWithMs: Number(median(times.with).toFixed(1)),
  medianWithoutMs: Number(median(times.without).toFixed(1)),
};
result.ratio = Number((result.medianWithMs / result.medianWithoutMs).toFixed(3));
result.target = '< 1.10';
result.pass = result.ratio < 1.1;

if (args.json) console.log(JSON.stringify(result));
else {
  console.log(`\nNest boot, ${result.controllers} controllers × ${result.methods} @Skill() routes, ${runs} runs each (median)`);
  console.log(`  without AgentCardModule  ${result.medianWithoutMs.toFixed(1)} ms`);
  console.log(`  with AgentCardModule     ${result.medianWithMs.toFixed(1)} ms`);
  console.log(`  ratio with/without       ${result.ratio.toFixed(3)}  (target ${result.target}) ${result.pass ? 'ok' : 'MISSED'}`);
}
if (args.check && !result.pass) process.exitCode = 1;
