// What a card and a key set chosen to be slow cost one verification, against one honest
// signature check measured in the same run. The checked host chooses both in `agent-card check`
// (its card and its /.well-known/jwks.json), and two rules hold:
//
// 1. At the default card size limit (256 KiB, `maxCardBytes` / `--max-card-bytes`; a 256 KiB key
//    set, `maxJwksBytes`), the worst card and key set verify or fail in under 100 ms of CPU, warm.
// 2. For a card of 256 KiB and for one of 1 MiB (the limit raised), the worst case stays within
//    4 × one honest verification of the same card, warm: canonicalizing a large card alone takes a
//    good part of 100 ms, so what the host chooses is held to what its own card costs. (A small
//    card's worst case is the cost of the eight public-key checks a verification allows, many
//    times its one honest check and far under 100 ms: rule 1 holds it.)
//
// Cold runs (a fresh process each, the first verification of the process) are held to the rule of
// either: under 100 ms, or within 4 × an honest verification of the same card in a fresh process.
//
// Warm figures are medians of `--rounds` runs in this process, with a 95% bootstrap interval of the
// median. Cold figures are medians of `--cold` fresh processes that each verify once: the first
// verification of a process, with `jose` still to load (it is imported on first use), and with
// `jose` already loaded.
// `--check` exits 1 when a rule does not hold (what `pnpm bench` runs); without it the figures are
// printed only. `--against <dir>` measures another build of core (its dist directory, e.g. a copy
// made before a change) alternately with this one, warm and cold, so the two are compared in the
// same conditions; the rules are held by this build only.
// Runs against the built package: `npx pnpm@12.4.2 build`, then `node bench/verify.mjs --check [--rounds 9]`.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, pairedInterval } from './stats.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    check: { type: 'boolean', default: false },
    cold: { type: 'string', default: '5' },
    against: { type: 'string' },
    // Internal: one cold verification in this fresh process.
    child: { type: 'string' },
    core: { type: 'string' },
    'preload-jose': { type: 'boolean', default: false },
  },
});

const cpuMs = (start) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

if (values.child) {
  // One verification in a process that has read the card and key set and loaded core, nothing else.
  const { verifyAgentCard } = await import(values.core);
  // The jose that core imports on first use, loaded beforehand.
  if (values['preload-jose']) await import(createRequire(fileURLToPath(values.core)).resolve('jose'));
  const { card, jwks } = JSON.parse(readFileSync(values.child, 'utf8'));
  const start = process.cpuUsage();
  const result = await verifyAgentCard(card, { jwks });
  process.stdout.write(JSON.stringify({ ms: cpuMs(start), valid: result.valid }));
  process.exit(0);
}

const rounds = Number(values.rounds);
const coldRuns = Number(values.cold);
const BUDGET_MS = 100;
const BUDGET_RATIO = 4;
const KiB = 1024;
/** The default card size limit of discovery, `check` and `verify`. */
const DEFAULT_LIMIT = 256 * KiB;
const here = fileURLToPath(new URL('.', import.meta.url));
const builds = [{ name: 'this build', url: import.meta.resolve('@agent-card/core') }];
if (values.against) {
  builds.push({ name: values.against, url: pathToFileURL(join(resolve(values.against), 'index.mjs')).href });
}
for (const build of builds) build.core = await import(build.url);
const { signAgentCard, AGENT_CARD_VERIFY_LIMITS } = builds[0].core;

const base = {
  name: 'Recipe Agent',
  description: 'Finds recipes.',
  supportedInterfaces: [{ url: 'https://recipes.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  // Default-valued members, so the two canonical forms differ and both are tried.
  capabilities: { streaming: true, extensions: [{ uri: 'https://x.example/ext', required: false }] },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'find', name: 'Find', description: 'Finds a recipe.', tags: ['cooking'] }],
};
/** The card padded with ordinary skills to about `bytes`. */
const padded = (bytes) => {
  const skills = [];
  let size = JSON.stringify(base).length;
  for (let i = 0; size < bytes; i++) {
    const skill = {
      id: `s${i}`,
      name: `Skill ${i}`,
      description: `Handles request type ${i}, start to finish.`,
      tags: ['t'],
    };
    skills.push(skill);
    size += JSON.stringify(skill).length + 1;
  }
  return { ...base, skills: [...base.skills, ...skills] };
};

const kid = 'card-key';
/** A key set of P-521 public keys (the slowest check) under one kid, up to `bytes` of JSON. */
function keySet(bytes, honest) {
  const stranger = {
    ...generateKeyPairSync('ec', { namedCurve: 'P-521' }).publicKey.export({ format: 'jwk' }),
    kid,
    alg: 'ES512',
  };
  const keys = [];
  const each = JSON.stringify(stranger).length + 1;
  for (let size = 12; size + each < bytes; size += each) keys.push(stranger);
  if (honest) keys[keys.length - 1] = honest;
  return { keys };
}

/** The same signature with a protected header that names no canonical form. */
function namingNoForm(signature) {
  const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString());
  delete header.agentCardForm;
  return { ...signature, protected: Buffer.from(JSON.stringify(header)).toString('base64url') };
}

async function timed(verify, card, options) {
  const start = process.cpuUsage();
  const result = await verify(card, options);
  return { result, ms: cpuMs(start) };
}

const signer = generateKeyPairSync('ec', { namedCurve: 'P-521' });
const honestJwk = { ...signer.publicKey.export({ format: 'jwk' }), kid, alg: 'ES512' };
const scratch = mkdtempSync(join(tmpdir(), 'agent-card-verify-'));

/** CPU ms of one fresh process verifying `file` once with `build`. */
function cold(file, build, preloadJose) {
  const args = [fileURLToPath(import.meta.url), '--child', file, '--core', build.url];
  if (preloadJose) args.push('--preload-jose');
  return JSON.parse(execFileSync(process.execPath, args, { cwd: here, encoding: 'utf8' })).ms;
}

/**
 * `signatureCount` forged signatures in a card of about `cardBytes`, against a key set of about
 * `jwksBytes` full of other keys under their kid. `namedForm: false` strips the form from their
 * headers, so that both forms are computed and tried.
 */
async function scenario(name, cardBytes, signatureCount, jwksBytes, { namedForm = true, coldCase = false } = {}) {
  // The signatures take their share of the card's bytes; ordinary skills fill the rest.
  const sample = await signAgentCard(base, { privateKey: signer.privateKey, kid, alg: 'ES512' });
  const card = padded(cardBytes - signatureCount * (JSON.stringify(sample.signatures.at(-1)).length + 1));
  const signed = await signAgentCard(card, { privateKey: signer.privateKey, kid, alg: 'ES512' });
  // The honest baseline: the same card, its own signature (pruned form), the one right key.
  const honest = { ...card, signatures: signed.signatures.slice(0, 1) };
  // The attack: the signature over the served form copied many times, all under the one kid,
  // against a key set full of other keys under that kid; the right key comes last.
  const copied = namedForm ? signed.signatures.at(-1) : namingNoForm(signed.signatures.at(-1));
  const forged = { ...card, signatures: Array.from({ length: signatureCount }, () => copied) };
  const jwks = keySet(jwksBytes, honestJwk);
  const text = { card: JSON.stringify(forged).length, jwks: JSON.stringify(jwks).length };
  const file = join(scratch, `${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ card: forged, jwks }));
  const honestFile = join(scratch, `${name.replace(/\W+/g, '-')}-honest.json`);
  writeFileSync(honestFile, JSON.stringify({ card: honest, jwks: { keys: [honestJwk] } }));
  const measured = builds.map(() => ({ honest: [], worst: [] }));
  const outcomes = [];
  for (const build of builds) await build.core.verifyAgentCard(honest, { jwks: { keys: [honestJwk] } });
  for (let round = 0; round < rounds; round++) {
    for (const [i, build] of builds.entries()) {
      const a = await timed(build.core.verifyAgentCard, honest, { jwks: { keys: [honestJwk] } });
      if (!a.result.valid) throw new Error('the honest signature does not verify');
      measured[i].honest.push(a.ms);
      const b = await timed(build.core.verifyAgentCard, forged, { jwks });
      measured[i].worst.push(b.ms);
      outcomes[i] = b.result;
    }
  }
  return builds.map((build, i) => {
    const coldMs = coldCase ? { first: [], loaded: [], honestFirst: [], honestLoaded: [] } : undefined;
    return {
      name,
      build: build.name,
      text,
      keys: jwks.keys.length,
      honest: median(measured[i].honest),
      worst: median(measured[i].worst),
      honestInterval: pairedInterval([measured[i].honest], ([x]) => median(x)),
      worstInterval: pairedInterval([measured[i].worst], ([x]) => median(x)),
      ratioInterval: pairedInterval([measured[i].worst, measured[i].honest], ([w, h]) => median(w) / median(h)),
      outcome: outcomes[i],
      file,
      honestFile,
      coldMs,
    };
  });
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadBefore = load();
const results = [
  ...(await scenario('a small card with 200 signatures; a 16 KiB key set', 34 * KiB, 200, 16 * KiB)),
  ...(await scenario('a 256 KiB card with 500 signatures; a 256 KiB key set', 255 * KiB, 500, 256 * KiB, {
    coldCase: true,
  })),
  ...(await scenario('a 256 KiB card with 8 signatures naming no form; a 256 KiB key set', 255 * KiB, 8, 256 * KiB, {
    namedForm: false,
    coldCase: true,
  })),
  ...(await scenario('a 1 MiB card with 2,000 signatures; a 256 KiB key set', 1020 * KiB, 2000, 256 * KiB, {
    coldCase: true,
  })),
  ...(await scenario('a 1 MiB card with 8 signatures naming no form; a 256 KiB key set', 1020 * KiB, 8, 256 * KiB, {
    namedForm: false,
    coldCase: true,
  })),
];
// Cold runs alternate between the builds and the two ways, one process at a time.
for (let i = 0; i < coldRuns; i++) {
  for (const r of results) {
    if (!r.coldMs) continue;
    const build = builds.find((b) => b.name === r.build);
    r.coldMs.first.push(cold(r.file, build, false));
    r.coldMs.loaded.push(cold(r.file, build, true));
    r.coldMs.honestFirst.push(cold(r.honestFile, build, false));
    r.coldMs.honestLoaded.push(cold(r.honestFile, build, true));
  }
}
for (const r of results) {
  if (!r.coldMs) continue;
  r.coldFirst = median(r.coldMs.first);
  r.coldLoaded = median(r.coldMs.loaded);
  r.coldHonestFirst = median(r.coldMs.honestFirst);
  r.coldHonestLoaded = median(r.coldMs.honestLoaded);
}
rmSync(scratch, { recursive: true, force: true });

const ms = (n) => n.toFixed(1);
const interval = ([low, high], unit = ' ms') => `[${ms(low)}–${ms(high)}]${unit}`;
console.log(
  `Verification cost chosen by the card and key set: ES512 (P-521), every key under one kid, CPU ms, median of ${rounds} rounds with a 95% bootstrap interval (warm) and median of ${coldRuns} fresh processes (cold); ` +
    `limits ${JSON.stringify(AGENT_CARD_VERIFY_LIMITS)}; Node ${process.version}; load average ${loadBefore} before, ${load()} after`,
);
console.log(
  `| case | build | keys | honest verify | worst case | ratio | cold, first in process: honest → worst | cold, jose loaded: honest → worst | outcome |`,
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
// Cold, either rule against an honest verification of the same card in a fresh process.
const coldOver = (honest, worst) => worst !== undefined && worst >= BUDGET_MS && worst >= BUDGET_RATIO * honest;
for (const r of results) {
  const coldCell = (honest, worst) =>
    worst === undefined
      ? ''
      : `${ms(honest)} → ${ms(worst)} ms (${(worst / honest).toFixed(1)}×)${coldOver(honest, worst) ? ` (over ${BUDGET_MS} ms and ${BUDGET_RATIO}×)` : ''}`;
  console.log(
    `| ${r.name} (${(r.text.card / KiB).toFixed(0)} KiB, ${(r.text.jwks / KiB).toFixed(0)} KiB) | ${r.build} | ${r.keys} | ${ms(r.honest)} ms ${interval(r.honestInterval, '')} | ${ms(r.worst)} ms ${interval(r.worstInterval, '')} | ${(r.worst / r.honest).toFixed(1)}× ${interval(r.ratioInterval, '')} | ${coldCell(r.coldHonestFirst, r.coldFirst)} | ${coldCell(r.coldHonestLoaded, r.coldLoaded)} | ${r.outcome.valid ? 'verified' : 'failed'}; ${(r.outcome.limits ?? []).join('; ')} |`,
  );
}

// The rules, held by this build.
const rules = [];
for (const r of results.filter((x) => x.build === builds[0].name)) {
  const size = `${(r.text.card / KiB).toFixed(0)} KiB card`;
  if (r.text.card <= DEFAULT_LIMIT) {
    rules.push({
      rule: `1. at the default limit, under ${BUDGET_MS} ms warm`,
      what: `${r.name}: ${ms(r.worst)} ms`,
      ok: r.worst < BUDGET_MS,
    });
  }
  if (r.text.card > 64 * KiB) {
    rules.push({
      rule: `2. within ${BUDGET_RATIO}× the honest verification, warm`,
      what: `${r.name} (${size}): ${ms(r.worst)} / ${ms(r.honest)} ms = ${(r.worst / r.honest).toFixed(2)}×`,
      ok: r.worst <= BUDGET_RATIO * r.honest,
    });
  }
  if (r.coldMs) {
    rules.push({
      rule: `cold: under ${BUDGET_MS} ms or within ${BUDGET_RATIO}×`,
      what: `${r.name}: ${ms(r.coldHonestFirst)} → ${ms(r.coldFirst)} ms (jose to load), ${ms(r.coldHonestLoaded)} → ${ms(r.coldLoaded)} ms (jose loaded)`,
      ok: !coldOver(r.coldHonestFirst, r.coldFirst) && !coldOver(r.coldHonestLoaded, r.coldLoaded),
    });
  }
}
console.log('');
for (const { rule, what, ok } of rules) console.log(`${ok ? 'holds' : 'FAILS'}  ${rule}: ${what}`);
const failed = rules.some((r) => !r.ok);
process.exitCode = values.check && failed ? 1 : 0;
