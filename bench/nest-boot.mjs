// Boot time of a Nest application with 200 controllers × 5 routes, each with a `@Skill()` and
// documented for OpenAPI (`@ApiTags()`, `@ApiBearerAuth()`, `@ApiOperation()`, `@ApiOkResponse()`),
// booted three ways in one run: without anything more, with AgentCardModule (which collects the
// 1000 skills from those decorators, builds, validates with every core rule, serialises and hashes
// the card), and with `SwaggerModule.createDocument` (which builds the OpenAPI document of the same
// routes, what Nest users already accept at start-up). The controllers and their decorators are
// the same in all three; only what runs at start-up differs.
//
//   node bench/nest-boot.mjs [--runs 30] [--warmup 5] [--controllers 200] [--methods 5] [--plain] [--check] [--json]
//   node bench/nest-boot.mjs --cold 12 [--plain] [--json]
//
// Warm (the default): the three apps boot again and again in one process after warm-up boots,
// in rounds of one boot each, the order of a round going through the six permutations so each
// variant runs first, second and third alike. A boot is NestFactory.create (then createDocument,
// in the third variant, where a real app calls it) and app.init; app.close is not timed. The
// report also splits each boot into JavaScript time and garbage-collection pauses (from `gc`
// performance entries), and gives the time of the module's own start-up work
// (AgentCardModule.onModuleInit, also per skill) and of createDocument itself, and compares the
// CPU time of the boots (process.cpuUsage) the same way: on a loaded machine a boot also waits for
// a core, which wall time counts and CPU time does not.
//
// Cold (`--cold N`): N fresh processes per variant, in rounds as above, each booting once and
// listening on a port, as a deployed service does: the work then runs before the JIT has
// optimised it. Reports the create-to-listening time and the time from process start to
// listening.
//
// Added time: for each round, a variant's boot minus the round's boot without; the figure is the
// median over the rounds, and its 95% interval a bootstrap over whole rounds (bench/stats.mjs), so
// drift on a shared machine that hit a whole round cancels. The ratio of the module's added time
// to createDocument's is bootstrapped the same way.
//
// Target: the module adds at most 0.3 of what createDocument adds (ratio ≤ 0.3): met when the
// whole interval is at or below 0.3, not met when it is above, not shown when it straddles. The
// module validates every skill with every rule of core; createDocument validates nothing, and
// there is no second, lighter validation path for a boot to take.
// `--check` exits non-zero unless met, and runs 150 rounds unless `--runs` says otherwise: at 30
// the interval is about ±0.07 wide, so a ratio near the target cannot be shown either way. `--plain` boots routes without the OpenAPI decorators
// (`@Skill()` and `@AgentSkills()` then say everything). Needs the built packages (`pnpm build`).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median, medianDifference, pairedInterval } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '5' },
    controllers: { type: 'string', default: '200' },
    methods: { type: 'string', default: '5' },
    plain: { type: 'boolean', default: false },
    cold: { type: 'string' },
    child: { type: 'string' },
    check: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const controllers = Number(args.controllers);
const methods = Number(args.methods);
const openApi = !args.plain;
const skills = controllers * methods;

/** The three ways to boot the app, in the order they are reported. */
const VARIANTS = ['without', 'module', 'createDocument'];
const LABELS = {
  without: 'without either',
  module: 'with AgentCardModule',
  createDocument: 'with createDocument',
};
/** The six orders of a round, taken in turn. */
const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
  [0, 2, 1],
  [1, 0, 2],
].map((order) => order.map((i) => VARIANTS[i]));
const TARGET = 0.3;

const round = (value, digits = 1) => Number(value.toFixed(digits));
const formatInterval = ([low, high], digits = 1) => `${low.toFixed(digits)}–${high.toFixed(digits)}`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (args.child) await child(args.child);
else if (args.cold) await cold(Number(args.cold));
else await warm();

/** The app of a variant, and what runs between create and init. */
async function setup() {
  const { AgentCardModule } = await import('@agent-card/nest');
  const { SwaggerModule } = await import('@nestjs/swagger');
  const { appModule, cardOptions, featureModules, openApiCardOptions, openApiConfig } = await import('./nest-apps.mjs');
  const features = featureModules(controllers, methods, { openApi });
  const modules = {
    without: appModule(features, false),
    module: appModule(features, true, openApi ? openApiCardOptions : cardOptions),
    createDocument: appModule(features, false),
  };
  const config = openApiConfig();
  let documented;
  /** Builds the OpenAPI document as an app does before it listens; returns its own time. */
  const document = (app) => {
    const start = performance.now();
    documented = SwaggerModule.createDocument(app, config);
    return performance.now() - start;
  };
  return { AgentCardModule, modules, document, documentedPaths: () => Object.keys(documented?.paths ?? {}).length };
}

/** One boot in this fresh process, listening on a port; prints its timings as JSON. */
async function child(variant) {
  const { NestFactory } = await import('@nestjs/core');
  const { modules, document } = await setup();
  const start = performance.now();
  const app = await NestFactory.create(modules[variant], { logger: false });
  if (variant === 'createDocument') document(app);
  await app.listen(0, '127.0.0.1');
  const end = performance.now();
  await app.close();
  // performance.now() counts from the start of the process.
  process.stdout.write(JSON.stringify({ boot: end - start, sinceStart: end }));
}

function runChild(variant) {
  return new Promise((resolve, reject) => {
    const flags = ['--child', variant, '--controllers', String(controllers), '--methods', String(methods)];
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), ...flags, ...(openApi ? [] : ['--plain'])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`nest-boot: the ${variant} child exited with ${code}`)),
    );
  });
}

/**
 * What the rounds say about the added times: each variant's median, the module's and
 * createDocument's added time (median of the within-round differences) with 95% intervals, their
 * ratio with its interval, and the verdict on the target.
 */
function compare(times) {
  const { without, module, createDocument } = times;
  const added = (side) => {
    const interval = pairedInterval([side, without], ([a, b]) => medianDifference(a, b));
    return { ms: round(medianDifference(side, without), 2), interval: interval.map((v) => round(v, 2)) };
  };
  const ratio = ([m, d, w]) => medianDifference(m, w) / medianDifference(d, w);
  const share = round(ratio([module, createDocument, without]), 3);
  const interval = pairedInterval([module, createDocument, without], ratio).map((v) => round(v, 3));
  const verdict = interval[1] <= TARGET ? 'met' : interval[0] > TARGET ? 'not met' : 'not shown';
  return {
    medianMs: Object.fromEntries(VARIANTS.map((v) => [v, round(median(times[v]))])),
    moduleAdded: added(module),
    createDocumentAdded: added(createDocument),
    share: { ratio: share, interval, target: `≤ ${TARGET}`, verdict },
  };
}

function printComparison(result, unit) {
  const { moduleAdded: m, createDocumentAdded: d, share } = result;
  console.log(
    `  ${unit}: ${VARIANTS.map((v) => `${LABELS[v]} ${result.medianMs[v].toFixed(1)} ms`).join('   ')} (median)`,
  );
  console.log(`    AgentCardModule adds   ${m.ms.toFixed(2)} ms (95% ${formatInterval(m.interval, 2)})`);
  console.log(`    createDocument adds    ${d.ms.toFixed(2)} ms (95% ${formatInterval(d.interval, 2)})`);
  console.log(
    `    module / createDocument ${share.ratio.toFixed(3)} (95% ${formatInterval(share.interval, 3)})  target ${share.target}: ${share.verdict}`,
  );
}

async function cold(runs) {
  const times = { without: [], module: [], createDocument: [] };
  const loadBefore = load();
  for (let i = 0; i < runs; i++) {
    for (const variant of ORDERS[i % ORDERS.length]) times[variant].push(await runChild(variant));
  }
  const result = { mode: 'cold', controllers, methods, openApi, runs, load: { before: loadBefore, after: load() } };
  for (const key of ['boot', 'sinceStart']) {
    const side = Object.fromEntries(VARIANTS.map((v) => [v, times[v].map((t) => t[key])]));
    result[key] = compare(side);
    result[key].listeningRatio = Object.fromEntries(
      ['module', 'createDocument'].map((v) => [
        v,
        {
          ratio: round(median(side[v]) / median(side.without), 3),
          interval: pairedInterval([side[v], side.without], ([a, b]) => median(a) / median(b)).map((r) => round(r, 3)),
        },
      ]),
    );
  }
  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `\nNest cold boot, ${controllers} controllers × ${methods} routes${openApi ? ' documented for OpenAPI' : ''}, ${runs} fresh processes per variant (load average ${result.load.before} → ${result.load.after})`,
    );
    printComparison(result.boot, 'create to listening');
    printComparison(result.sinceStart, 'process start to listening');
    const r = result.sinceStart.listeningRatio;
    console.log(
      `    process start to listening, ratio to without: AgentCardModule ${r.module.ratio.toFixed(3)} (95% ${formatInterval(r.module.interval, 3)}), createDocument ${r.createDocument.ratio.toFixed(3)} (95% ${formatInterval(r.createDocument.interval, 3)})`,
    );
  }
  if (args.check && result.boot.share.verdict !== 'met') process.exitCode = 1;
}

async function warm() {
  const { NestFactory } = await import('@nestjs/core');
  const { AgentCardModule, modules, document, documentedPaths } = await setup();
  const runs = Number(args.runs ?? process.env.BENCH_BOOT_RUNS ?? (args.check ? 150 : 30));
  const warmup = Number(args.warmup);

  // Where the time goes: garbage-collection pauses, the module's own start-up work, createDocument.
  const pauses = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const moduleInit = [];
  const documentTimes = [];
  const onModuleInit = AgentCardModule.prototype.onModuleInit;
  const moduleInitCpu = [];
  AgentCardModule.prototype.onModuleInit = async function timedOnModuleInit() {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    try {
      return await onModuleInit.call(this);
    } finally {
      moduleInit.push(performance.now() - start);
      const { user, system } = process.cpuUsage(cpuStart);
      moduleInitCpu.push((user + system) / 1000);
    }
  };

  /** Creates and initialises the app (routes registered, card or document built), then closes it. */
  async function boot(variant) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const app = await NestFactory.create(modules[variant], { logger: false });
    if (variant === 'createDocument') documentTimes.push(document(app));
    await app.init();
    const end = performance.now();
    const { user, system } = process.cpuUsage(cpuStart);
    await app.close();
    return { start, end, cpu: (user + system) / 1000 };
  }

  for (let i = 0; i < warmup; i++) for (const variant of ORDERS[i % ORDERS.length]) await boot(variant);
  moduleInit.length = 0;
  moduleInitCpu.length = 0;
  documentTimes.length = 0;
  const loadBefore = load();
  const boots = { without: [], module: [], createDocument: [] };
  for (let i = 0; i < runs; i++) {
    for (const variant of ORDERS[i % ORDERS.length]) boots[variant].push(await boot(variant));
  }
  // gc entries arrive asynchronously; let the last ones in before reading them.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  AgentCardModule.prototype.onModuleInit = onModuleInit;

  const split = (list) =>
    list.map(({ start, end, cpu }) => {
      let gc = 0;
      let count = 0;
      for (const [at, duration] of pauses) {
        if (at >= start && at < end) {
          gc += duration;
          count++;
        }
      }
      return { total: end - start, gc, count, cpu };
    });
  const sides = Object.fromEntries(VARIANTS.map((v) => [v, split(boots[v])]));
  const summary = (list) => ({
    medianMs: round(median(list.map((b) => b.total))),
    medianJsMs: round(median(list.map((b) => b.total - b.gc))),
    meanGcMs: round(list.reduce((sum, b) => sum + b.gc, 0) / list.length),
    gcPerBoot: round(list.reduce((sum, b) => sum + b.count, 0) / list.length, 2),
  });
  const moduleInitMs = median(moduleInit);
  const result = {
    mode: 'warm',
    controllers,
    methods,
    openApi,
    runs,
    load: { before: loadBefore, after: load() },
    ...compare(Object.fromEntries(VARIANTS.map((v) => [v, sides[v].map((b) => b.total)]))),
    js: compare(Object.fromEntries(VARIANTS.map((v) => [v, sides[v].map((b) => b.total - b.gc)]))).share,
    cpu: compare(Object.fromEntries(VARIANTS.map((v) => [v, sides[v].map((b) => b.cpu)]))),
    sides: Object.fromEntries(VARIANTS.map((v) => [v, summary(sides[v])])),
    moduleInitMedianMs: round(moduleInitMs, 2),
    moduleInitPerSkillUs: round((moduleInitMs / skills) * 1000, 2),
    moduleInitCpuMedianMs: round(median(moduleInitCpu), 2),
    createDocumentMedianMs: round(median(documentTimes), 2),
    documentedPaths: documentedPaths(),
  };

  if (args.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `\nNest warm boot, ${controllers} controllers × ${methods} routes${openApi ? ' documented for OpenAPI' : ''}, ${runs} rounds of three boots (load average ${result.load.before} → ${result.load.after})`,
    );
    for (const v of VARIANTS) {
      const s = result.sides[v];
      console.log(
        `  ${LABELS[v].padEnd(22)} ${s.medianMs.toFixed(1)} ms  (JS ${s.medianJsMs.toFixed(1)} ms; GC ${s.meanGcMs.toFixed(1)} ms mean, ${s.gcPerBoot} pauses)`,
      );
    }
    console.log(
      `  module start-up work   ${result.moduleInitMedianMs.toFixed(2)} ms, ${result.moduleInitPerSkillUs.toFixed(2)} µs per skill; CPU ${result.moduleInitCpuMedianMs.toFixed(2)} ms (AgentCardModule.onModuleInit, median)`,
    );
    console.log(
      `  createDocument itself  ${result.createDocumentMedianMs.toFixed(2)} ms (median; ${result.documentedPaths} paths)`,
    );
    printComparison(result, 'create + init');
    console.log(
      `    JS time alone: module / createDocument ${result.js.ratio.toFixed(3)} (95% ${formatInterval(result.js.interval, 3)})`,
    );
    printComparison(result.cpu, 'CPU time of create + init');
  }
  if (args.check && result.share.verdict !== 'met') process.exitCode = 1;
}
