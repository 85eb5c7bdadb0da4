// Validation throughput for the spec §8.5 sample card, side by side in one process:
//   validateAgentCard (every rule of the catalogue), AgentCardSchema.safeParse (zod, structure
//   only), and Ajv 2020 on the derived JSON Schema oracle (structure only) — plus Ajv on the schema
//   generated from our zod model.
// Then validates hostile 1 MiB cards (the shapes of issue 11 and those the pattern timings found,
// then cards made of tens of thousands of small items each of which a rule reports), each of which
// must take under 200 ms.
// Runs against the built package: `npx pnpm@12.4.2 build` (or `cd packages/core && npx tsdown`),
// then `node bench/validate.mjs [--iterations 3000] [--rounds 5] [--profile production] [--hostile-only]
// [--against packages/core/dist-before]`.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './stats.mjs';
import Ajv2020 from 'ajv/dist/2020.js';
import { AgentCardSchema, agentCardJsonSchema, validateAgentCard } from '@agent-card/core';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1000' },
    profile: { type: 'string', default: 'production' },
    'hostile-rounds': { type: 'string', default: '5' },
    'hostile-only': { type: 'boolean', default: false },
    // Another build of core (its dist directory, copied inside packages/core so that it finds
    // core's dependencies), timed alternately with this one on the same card.
    against: { type: 'string' },
  },
});
const iterations = Number(values.iterations);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const profile = values.profile;

const fixture = (path) => JSON.parse(readFileSync(new URL(`../test/fixtures/spec/${path}`, import.meta.url), 'utf8'));
const card = fixture('examples/spec-8.5-sample-agent-card.main-16ba5269.json');
const oracle = new Ajv2020({ strict: true, allErrors: true }).compile(fixture('agent-card.v1.0.1.derived.schema.json'));
const generated = new Ajv2020({ strict: true, allErrors: true }).compile(agentCardJsonSchema());

// Every contender returns whether the card is acceptable, so the work cannot be optimised away
// and the verdicts can be compared before timing anything.
const contenders = [
  { name: 'Ajv 2020, derived oracle schema', run: (c) => oracle(c), baseline: true },
  { name: 'Ajv 2020, agentCardJsonSchema()', run: (c) => generated(c) },
  { name: 'AgentCardSchema.safeParse (zod)', run: (c) => AgentCardSchema.safeParse(c).success },
  { name: `validateAgentCard (all rules, ${profile})`, run: (c) => validateAgentCard(c, { profile }).valid },
];
if (values.against) {
  const other = await import(pathToFileURL(join(resolve(values.against), 'index.mjs')).href);
  contenders.push({
    name: `validateAgentCard (all rules, ${profile}), ${values.against}`,
    run: (c) => other.validateAgentCard(c, { profile }).valid,
  });
}

for (const contender of contenders) {
  if (contender.run(card) !== true) {
    console.error(`bench: ${contender.name} rejects the §8.5 sample; the comparison would be meaningless.`);
    process.exit(1);
  }
}

function measure(run, count) {
  let accepted = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) if (run(card)) accepted++;
  const nanoseconds = Number(process.hrtime.bigint() - start);
  if (accepted !== count) throw new Error('a verdict changed during the run');
  return nanoseconds;
}

for (const contender of contenders) measure(contender.run, values['hostile-only'] ? 0 : warmup);

// Rounds interleave the contenders so that a noisy moment on a shared machine hits all of them;
// the median round is reported.
const samples = new Map(contenders.map((c) => [c, []]));
for (let round = 0; round < (values['hostile-only'] ? 0 : rounds); round++) {
  for (const contender of contenders) samples.get(contender).push(measure(contender.run, iterations));
}

const results = (values['hostile-only'] ? [] : contenders).map((contender) => {
  const ns = median(samples.get(contender));
  return { contender, perSecond: (iterations / ns) * 1e9, microseconds: ns / iterations / 1e3 };
});
const baseline = results.find((r) => r.contender.baseline);

const rows = [
  ['validator', 'cards/s', 'µs/card', 'vs Ajv (oracle)'],
  ...results.map((r) => [
    r.contender.name,
    Math.round(r.perSecond).toLocaleString('en-US'),
    r.microseconds.toFixed(2),
    r === baseline
      ? '1.00×'
      : `${(r.perSecond / baseline.perSecond).toFixed(r.perSecond / baseline.perSecond < 0.1 ? 3 : 2)}×`,
  ]),
];
const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
const line = (row) =>
  `| ${row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join(' | ')} |`;

if (!values['hostile-only']) {
  console.log(
    `Validation throughput, spec §8.5 sample card (${JSON.stringify(card).length} bytes, parsed object), ` +
      `${iterations.toLocaleString('en-US')} iterations × ${rounds} rounds (median), ${warmup.toLocaleString('en-US')} warm-up; ` +
      `Node ${process.version}`,
  );
  console.log(line(rows[0]));
  console.log(`|${widths.map((w, col) => (col === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

// --- hostile cards ---------------------------------------------------------------------------

const MiB = 1024 * 1024;
const BUDGET_MS = 200;
const base = () => structuredClone(card);
const skill = (i, description) => ({ id: `s${i}`, name: `Skill ${i}`, description, tags: ['t'] });
const hostile = [
  ['skill description "=" + "a." × 512 Ki', () => ({ ...base(), skills: [skill(0, `=${'a.'.repeat(MiB / 2)}`)] })],
  [
    'ten such skills (100 KiB each)',
    () => ({ ...base(), skills: Array.from({ length: 10 }, (_, i) => skill(i, `=${'a.'.repeat(MiB / 20)}`)) }),
  ],
  [
    '120 interface URLs with 8,000-slash paths',
    () => ({
      ...base(),
      supportedInterfaces: Array.from({ length: 120 }, (_, i) => ({
        url: `https://api${i}.acme.io/${'/'.repeat(8000)}a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      })),
    }),
  ],
  [
    'provider URL host ending in 1 Mi dots',
    () => ({ ...base(), provider: { organization: 'Acme', url: `https://acme${'.'.repeat(MiB)}x/` } }),
  ],
  ['description "ai " × 350 Ki', () => ({ ...base(), description: `${'ai '.repeat(MiB / 3)}x` })],
  [
    'skill name "<a" + 1 Mi spaces',
    () => ({ ...base(), skills: [skill(0, 'Looks up orders.'), { ...skill(1, 'x'), name: `<a${' '.repeat(MiB)}` }] }),
  ],
  [
    'media type with 200 Ki parameters',
    () => ({ ...base(), defaultInputModes: [`text/plain${'; a=b'.repeat(MiB / 5)};`] }),
  ],
  ['description "a://b:" + 1 Mi "c"', () => ({ ...base(), description: `a://b:${'c'.repeat(MiB)}` })],
];

// Cards made of many small items, each of which a rule reports: the findings, not the bytes, are
// the cost. Every shape is built at a given size, so the same shape at half the size shows how
// the time grows (linear: about 0.5×).
const filler = (bytes, sample, place) => {
  const room = bytes - JSON.stringify(base()).length;
  const n = Math.max(1, Math.floor(room / (JSON.stringify(sample(99_999)).length + 1)));
  return place(Array.from({ length: n }, (_, i) => sample(i)));
};
const keyed = (bytes, sample, place) =>
  filler(
    bytes,
    (i) => [`x${i}`, sample(i)],
    (pairs) => place(Object.fromEntries(pairs)),
  );
const iface = (url) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
const many = [
  [
    '40 k unknown members at top level',
    (b) =>
      keyed(
        b,
        () => 0,
        (extra) => ({ ...base(), ...extra }),
      ),
  ],
  [
    'unknown members in capabilities',
    (b) =>
      keyed(
        b,
        () => 0,
        (extra) => ({ ...base(), capabilities: { ...base().capabilities, ...extra } }),
      ),
  ],
  [
    'skills with an unknown member each',
    (b) =>
      filler(
        b,
        (i) => ({ ...skill(i, 'Looks up orders.'), extra: 1 }),
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'identical interfaces',
    (b) =>
      filler(
        b,
        () => iface('https://api.acme.io/a2a'),
        (supportedInterfaces) => ({ ...base(), supportedInterfaces }),
      ),
  ],
  [
    'legacy input modes',
    (b) =>
      filler(
        b,
        () => 'text',
        (defaultInputModes) => ({ ...base(), defaultInputModes }),
      ),
  ],
  [
    'skills with a blank tag',
    (b) =>
      filler(
        b,
        (i) => ({ ...skill(i, 'Looks up orders.'), tags: [' '] }),
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'requirements naming unknown schemes',
    (b) =>
      filler(
        b,
        (i) => ({ schemes: { [`nope${i}`]: { list: [] } } }),
        (securityRequirements) => ({ ...base(), securityRequirements }),
      ),
  ],
  [
    'skills sharing one id',
    (b) =>
      filler(
        b,
        () => ({ ...skill(0, 'Looks up orders.') }),
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'interfaces with bad URLs',
    (b) =>
      filler(
        b,
        (i) => iface(`not a url ${i}`),
        (supportedInterfaces) => ({ ...base(), supportedInterfaces }),
      ),
  ],
  [
    'http interfaces on private hosts',
    (b) =>
      filler(
        b,
        (i) => iface(`http://10.0.${i % 250}.1/a2a`),
        (supportedInterfaces) => ({ ...base(), supportedInterfaces }),
      ),
  ],
  [
    'extensions with relative URIs',
    (b) =>
      filler(
        b,
        (i) => ({ uri: `ext${i}`, required: false }),
        (extensions) => ({ ...base(), capabilities: { ...base().capabilities, extensions } }),
      ),
  ],
  [
    'skills that are not objects',
    (b) =>
      filler(
        b,
        (i) => i,
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'empty skills',
    (b) =>
      filler(
        b,
        () => ({}),
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'schemes with no wrapper',
    (b) =>
      keyed(
        b,
        () => ({}),
        (securitySchemes) => ({ ...base(), securitySchemes }),
      ),
  ],
  [
    'skills with v0.3 security',
    (b) =>
      filler(
        b,
        (i) => ({ ...skill(i, 'Looks up orders.'), security: [{ [`s${i}`]: [] }] }),
        (skills) => ({ ...base(), skills }),
      ),
  ],
  [
    'signatures that are not base64url',
    (b) =>
      filler(
        b,
        () => ({ protected: '!', signature: '!' }),
        (signatures) => ({ ...base(), signatures }),
      ),
  ],
];
// Repeated members exist only in JSON text: the same member 40 k times at the top level.
const repeated = (b) => {
  const text = JSON.stringify(base());
  return `${text.slice(0, -1)}${',"x":0'.repeat(Math.floor((b - text.length) / 6))}}`;
};

console.log();
console.log(
  `Hostile 1 MiB cards, JSON text, profile ${profile}, fastest of ${values['hostile-rounds']} runs (budget ${BUDGET_MS} ms each)`,
);
const hostileRows = [['card', 'bytes', 'ms', 'verdict']];
let over = 0;
for (const [name, make] of hostile) {
  const text = JSON.stringify(make());
  let best = Number.POSITIVE_INFINITY;
  let valid;
  for (let r = 0; r < Number(values['hostile-rounds']); r++) {
    const start = process.hrtime.bigint();
    valid = validateAgentCard(text, { profile }).valid;
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (best >= BUDGET_MS) over++;
  hostileRows.push([
    name,
    text.length.toLocaleString('en-US'),
    best.toFixed(1),
    `${valid ? 'valid' : 'invalid'}${best >= BUDGET_MS ? ', OVER BUDGET' : ''}`,
  ]);
}
const hw = hostileRows[0].map((_, col) => Math.max(...hostileRows.map((row) => row[col].length)));
const hline = (row) =>
  `| ${row.map((cell, col) => (col === 0 || col === 3 ? cell.padEnd(hw[col]) : cell.padStart(hw[col]))).join(' | ')} |`;
console.log(hline(hostileRows[0]));
console.log(
  `|${hw.map((w, col) => (col === 0 || col === 3 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
);
for (const row of hostileRows.slice(1)) console.log(hline(row));

// The many-items shapes, against the §8.5 sample as JSON text measured in the same run.
const timeText = (text, rounds = Number(values['hostile-rounds'])) => {
  let best = Number.POSITIVE_INFINITY;
  let result;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    result = validateAgentCard(text, { profile });
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { best, result };
};
const honest = timeText(JSON.stringify(card)).best;
console.log();
console.log(
  `Hostile 1 MiB cards of many small items, JSON text, profile ${profile}, fastest of ${values['hostile-rounds']} runs ` +
    `(budget ${BUDGET_MS} ms each; the §8.5 sample takes ${honest.toFixed(3)} ms; "× JSON.parse" compares with parsing the ` +
    'same text, which no validator can skip; "½ MiB" is the same shape at half the size)',
);
const parseTime = (text) => {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < Number(values['hostile-rounds']); r++) {
    const start = process.hrtime.bigint();
    JSON.parse(text);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
};
const manyRows = [['card', 'bytes', 'findings', 'ms', '× sample', '× JSON.parse', '½ MiB ms', 'growth', 'verdict']];
for (const [name, make] of [...many, ['40 k repeated members at top level', repeated]]) {
  const text = (bytes) => {
    const made = make(bytes);
    return typeof made === 'string' ? made : JSON.stringify(made);
  };
  const full = text(MiB);
  const halfText = text(MiB / 2);
  // The two sizes take turns, so that a warmer or quieter moment favours neither.
  let best = Number.POSITIVE_INFINITY;
  let half = Number.POSITIVE_INFINITY;
  let result;
  for (let r = 0; r < Number(values['hostile-rounds']); r++) {
    half = Math.min(half, timeText(halfText, 1).best);
    const run = timeText(full, 1);
    best = Math.min(best, run.best);
    result = run.result;
  }
  if (best >= BUDGET_MS) over++;
  manyRows.push([
    name,
    full.length.toLocaleString('en-US'),
    result.findings.length.toLocaleString('en-US'),
    best.toFixed(1),
    `${Math.round(best / honest).toLocaleString('en-US')}×`,
    `${(best / parseTime(full)).toFixed(1)}×`,
    half.toFixed(1),
    `${(best / half).toFixed(1)}×`,
    `${result.valid ? 'valid' : 'invalid'}${best >= BUDGET_MS ? ', OVER BUDGET' : ''}`,
  ]);
}
const mw = manyRows[0].map((_, col) => Math.max(...manyRows.map((row) => row[col].length)));
const left = (col) => col === 0 || col === 8;
const mline = (row) =>
  `| ${row.map((cell, col) => (left(col) ? cell.padEnd(mw[col]) : cell.padStart(mw[col]))).join(' | ')} |`;
console.log(mline(manyRows[0]));
console.log(`|${mw.map((w, col) => (left(col) ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const row of manyRows.slice(1)) console.log(mline(row));
if (over > 0) {
  console.error(`bench: ${over} hostile card(s) took ${BUDGET_MS} ms or more.`);
  process.exitCode = 1;
}
