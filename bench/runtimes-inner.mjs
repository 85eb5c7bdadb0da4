// One runtime's side of bench/runtimes.mjs, run by Node, Deno or Bun: requests/s of the card
// path and of the hand-written Response, alternating A B then B A, printed as one JSON line.
//   <runtime> bench/runtimes-inner.mjs <seconds per side> <rounds> <warmup seconds>
import { CARD_URL, createSides } from './runtimes-card.mjs';

const argv = globalThis.Deno ? Deno.args : process.argv.slice(2);
const [duration, rounds, warmup] = argv.map(Number);
const sides = await createSides();

/** Requests per second through `handler`, each building its `Request` and reading the body. */
async function rate(handler, seconds) {
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 256; i++) {
      const res = await handler(new Request(CARD_URL));
      await res.arrayBuffer();
    }
    n += 256;
  }
  return n / ((performance.now() - start) / 1000);
}

if (warmup > 0) {
  await rate(sides.baseline, warmup / 2);
  await rate(sides.card, warmup / 2);
}
const results = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['baseline', 'card'] : ['card', 'baseline'];
  const round = {};
  for (const side of order) round[side] = await rate(sides[side], duration);
  results.push(round);
}
const version = globalThis.Bun
  ? `bun ${Bun.version}`
  : globalThis.Deno
    ? `deno ${Deno.version.deno}`
    : `node ${process.version}`;
console.log(JSON.stringify({ version, bytes: sides.bytes, rounds: results }));
