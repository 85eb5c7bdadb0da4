// Boot time of a Nest application with 200 controllers × 5 @Skill() routes, with and without
// AgentCardModule (which collects the 1000 skills, builds, validates, serialises and hashes the
// card). The controllers and their decorators are the same in both apps; only the module differs.
//
//   node bench/nest-boot.mjs [--runs 30] [--warmup 5] [--controllers 200] [--methods 5] [--check] [--json]
//   node bench/nest-boot.mjs --cold 12 [--json]
//
// Warm (the default): both apps boot again and again in one process, alternating (with, without,
// without, with, ...) after warm-up boots; the ratio is median with / median without. Each boot
// is NestFactory.create + app.init, then app.close (not timed). The report also splits each boot
// into JavaScript time and garbage-collection pauses (from `gc` performance entries), and gives
// the time spent in the module's own start-up work (AgentCardService.onModuleInit).
//
// Cold (`--cold N`): N fresh processes per app, alternating, each booting once, as a deployed
// service does: the module's work then runs before the JIT has optimised it. Reports the median
// create + init time and the median time from process start to an initialised app.
//
// Each with-boot is paired with the without-boot next to it, and the report gives a 95% bootstrap
// interval of the ratio over those pairs: on a shared machine one garbage-collection pause more
// or less moves a median by several percent, and the interval shows how far.
//
// Target: the module adds less than 10% to a warm boot (ratio < 1.10). `--check` exits non-zero
// when it does not. Needs the built packages (`pnpm build`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median, pairedRatioInterval } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.BENCH_BOOT_RUNS ?? '30' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '5' },
    controllers: { type: 'string', default: '200' },
    methods: { type: 'string', default: '5' },
    cold: { type: 'string' },
    child: { type: 'string' },
    check: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const controllers = Number(args.controllers);
const methods = Number(args.methods);

const round = (value, digits = 1) => Number(value.toFixed(digits));
const formatInterval = ([low, high]) => `${low.toFixed(3)}–${high.toFixed(3)}`;

if (args.child) await child(args.child);
else if (args.cold) await cold(Number(args.cold));
else await warm();

/** One boot in this fresh process; prints its timings as JSON. */
async function child(variant) {
  const { NestFactory } = await import('@nestjs/core');
  const { appModule, featureModules } = await import('./nest-apps.mjs');
  const module = appModule(featureModules(controllers, methods), variant === 'with');
  const start = performance.now();
  const app = await NestFactory.create(module, { logger: false });
  await app.init();
  const end = performance.now();
  await app.close();
  process.stdout.write(JSON.stringify({ boot: end - start, sinceStart: end }));
}

function runChild(variant) {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        fileURLToPath(import.meta.url),
        '--child',
        variant,
        '--controllers',
        String(controllers),
        '--methods',
        String(methods),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`nest-boot: the ${variant} child exited with ${code}`)),
    );
  });
}

async function cold(runs) {
  const times = { with: [], without: [] };
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
    for (const variant of order) times[variant].push(await runChild(variant));
  }
  const result = { mode: 'cold', controllers, methods, runs };
  for (const key of ['boot', 'sinceStart']) {
    const withMs = median(times.with.map((t) => t[key]));
    const withoutMs = median(times.without.map((t) => t[key]));
    const interval = pairedRatioInterval(
      times.with.map((t) => t[key]),
      times.without.map((t) => t[key]),
    );
    result[key] = {
      withMs: round(withMs),
      withoutMs: round(withoutMs),
      ratio: round(withMs / withoutMs, 3),
      interval: interval.map((r) => round(r, 3)),
    };
  }
  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `\nNest cold boot, ${controllers} controllers × ${methods} @Skill() routes, ${runs} fresh processes each (median)`,
    );
    const line = (label, r) =>
      `  ${label}  without ${r.withoutMs.toFixed(1)} ms   with ${r.withMs.toFixed(1)} ms   ratio ${r.ratio.toFixed(3)} (95% ${formatInterval(r.interval)})`;
    console.log(line('create + init        ', result.boot));
    console.log(line('process start to init', result.sinceStart));
  }
}

async function warm() {
  const { NestFactory } = await import('@nestjs/core');
  const { AgentCardService } = await import('@agent-card/nest');
  const { appModule, featureModules } = await import('./nest-apps.mjs');
  const runs = Number(args.runs);
  const warmup = Number(args.warmup);
  const features = featureModules(controllers, methods);
  const variants = { with: appModule(features, true), without: appModule(features, false) };

  // Where the time goes: garbage-collection pauses, and the module's own start-up work.
  const pauses = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const moduleInit = [];
  const onModuleInit = AgentCardService.prototype.onModuleInit;
  AgentCardService.prototype.onModuleInit = async function timedOnModuleInit() {
    const start = performance.now();
    try {
      return await onModuleInit.call(this);
    } finally {
      moduleInit.push(performance.now() - start);
    }
  };

  /** Creates and initialises the app (routes registered, card built), then closes it. */
  async function boot(module) {
    const start = performance.now();
    const app = await NestFactory.create(module, { logger: false });
    await app.init();
    const end = performance.now();
    await app.close();
    return { start, end };
  }

  for (let i = 0; i < warmup; i++) {
    await boot(variants.with);
    await boot(variants.without);
  }
  moduleInit.length = 0;
  const boots = { with: [], without: [] };
  for (let i = 0; i < runs; i++) {
    // Alternate the order so drift on a shared machine hits both sides alike.
    const order = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
    for (const name of order) boots[name].push(await boot(variants[name]));
  }
  // gc entries arrive asynchronously; let the last ones in before reading them.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  AgentCardService.prototype.onModuleInit = onModuleInit;

  const split = (list) =>
    list.map(({ start, end }) => {
      let gc = 0;
      let count = 0;
      for (const [at, duration] of pauses) {
        if (at >= start && at < end) {
          gc += duration;
          count++;
        }
      }
      return { total: end - start, gc, count };
    });
  const sides = { with: split(boots.with), without: split(boots.without) };
  const summary = (list) => ({
    medianMs: round(median(list.map((b) => b.total))),
    medianJsMs: round(median(list.map((b) => b.total - b.gc))),
    meanGcMs: round(list.reduce((sum, b) => sum + b.gc, 0) / list.length),
    gcPerBoot: round(list.reduce((sum, b) => sum + b.count, 0) / list.length, 2),
  });
  const withSide = summary(sides.with);
  const withoutSide = summary(sides.without);

  const result = {
    controllers,
    methods,
    runs,
    medianWithMs: withSide.medianMs,
    medianWithoutMs: withoutSide.medianMs,
    ratio: round(withSide.medianMs / withoutSide.medianMs, 3),
    interval: pairedRatioInterval(
      sides.with.map((b) => b.total),
      sides.without.map((b) => b.total),
    ).map((r) => round(r, 3)),
    jsRatio: round(withSide.medianJsMs / withoutSide.medianJsMs, 3),
    target: '< 1.10',
    with: withSide,
    without: withoutSide,
    moduleInitMedianMs: round(median(moduleInit), 2),
  };
  result.pass = result.ratio < 1.1;

  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `\nNest boot, ${controllers} controllers × ${methods} @Skill() routes, ${runs} warm boots each (median)`,
    );
    console.log(
      `  without AgentCardModule  ${withoutSide.medianMs.toFixed(1)} ms  (JS ${withoutSide.medianJsMs.toFixed(1)} ms; GC ${withoutSide.meanGcMs.toFixed(1)} ms mean, ${withoutSide.gcPerBoot} pauses)`,
    );
    console.log(
      `  with AgentCardModule     ${withSide.medianMs.toFixed(1)} ms  (JS ${withSide.medianJsMs.toFixed(1)} ms; GC ${withSide.meanGcMs.toFixed(1)} ms mean, ${withSide.gcPerBoot} pauses)`,
    );
    console.log(
      `  module start-up work     ${result.moduleInitMedianMs.toFixed(2)} ms (AgentCardService.onModuleInit, median)`,
    );
    console.log(
      `  ratio with/without       ${result.ratio.toFixed(3)}  (95% ${formatInterval(result.interval)}; JS time alone ${result.jsRatio.toFixed(3)})  target ${result.target}: ${result.pass ? 'ok' : 'MISSED'}`,
    );
  }
  if (args.check && !result.pass) process.exitCode = 1;
}
