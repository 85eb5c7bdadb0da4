// What a card and a key set chosen to be slow cost one verification, against one honest
// signature check measured in the same run. The checked host chooses both in `agent-card check`
// (its card and its /.well-known/jwks.json), so the worst ones within the documented limits
// (a 1 MiB card, a 256 KiB key set) must verify or fail in under 100 ms of CPU, or, for a card so
// large that canonicalizing it alone takes a good part of that, within 4 × one honest verification
// of the same card.
// Runs against the built package: `npx pnpm@12.4.2 build`, then `node bench/verify.mjs [--rounds 5]`.
import { generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import { AGENT_CARD_VERIFY_LIMITS, signAgentCard, verifyAgentCard } from '@agent-card/core';
import { median } from './stats.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const BUDGET_MS = 100;
const BUDGET_RATIO = 4;
const KiB = 1024;

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

function cpuMs(run) {
  const start = process.cpuUsage();
  return run().then((result) => {
    const used = process.cpuUsage(start);
    return { result, ms: (used.user + used.system) / 1000 };
  });
}

const signer = generateKeyPairSync('ec', { namedCurve: 'P-521' });
const honestJwk = { ...signer.publicKey.export({ format: 'jwk' }), kid, alg: 'ES512' };

async function scenario(name, cardBytes, signatureCount, jwksBytes) {
  // The signatures take their share of the card's bytes; ordinary skills fill the rest.
  const sample = await signAgentCard(base, { privateKey: signer.privateKey, kid, alg: 'ES512' });
  const card = padded(cardBytes - signatureCount * (JSON.stringify(sample.signatures.at(-1)).length + 1));
  const signed = await signAgentCard(card, { privateKey: signer.privateKey, kid, alg: 'ES512' });
  // The honest baseline: the same card, its own signature (pruned form), the one right key.
  const honest = { ...card, signatures: signed.signatures.slice(0, 1) };
  // The attack: the signature over the served form copied many times, all under the one kid,
  // against a key set full of other keys under that kid; the right key comes last.
  const forged = { ...card, signatures: Array.from({ length: signatureCount }, () => signed.signatures.at(-1)) };
  const jwks = keySet(jwksBytes, honestJwk);
  const text = { card: JSON.stringify(forged).length, jwks: JSON.stringify(jwks).length };
  await verifyAgentCard(honest, { jwks: { keys: [honestJwk] } });
  const honestMs = [];
  const worstMs = [];
  let outcome;
  for (let round = 0; round < rounds; round++) {
    const a = await cpuMs(() => verifyAgentCard(honest, { jwks: { keys: [honestJwk] } }));
    if (!a.result.valid) throw new Error('the honest signature does not verify');
    honestMs.push(a.ms);
    const b = await cpuMs(() => verifyAgentCard(forged, { jwks }));
    worstMs.push(b.ms);
    outcome = b.result;
  }
  return {
    name,
    text,
    signatureCount,
    keys: jwks.keys.length,
    honest: median(honestMs),
    worst: median(worstMs),
    outcome,
  };
}

const results = [
  await scenario('a small card with 200 signatures; a 16 KiB key set', 34 * KiB, 200, 16 * KiB),
  await scenario('a 1 MiB card with 2,000 signatures; a 256 KiB key set', 1020 * KiB, 2000, 256 * KiB),
];

console.log(
  `Verification cost chosen by the card and key set: ES512 (P-521), every key under one kid, CPU ms, median of ${rounds} rounds; ` +
    `limits ${JSON.stringify(AGENT_CARD_VERIFY_LIMITS)}; Node ${process.version}`,
);
console.log('| case | keys | honest verify | worst case | ratio | outcome |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
let failed = false;
for (const r of results) {
  const over = r.worst >= BUDGET_MS && r.worst >= BUDGET_RATIO * r.honest;
  failed ||= over;
  console.log(
    `| ${r.name} (${(r.text.card / KiB).toFixed(0)} KiB, ${(r.text.jwks / KiB).toFixed(0)} KiB) | ${r.keys} | ${r.honest.toFixed(1)} ms | ${r.worst.toFixed(1)} ms${over ? ` (over ${BUDGET_MS} ms and ${BUDGET_RATIO}×)` : ''} | ${(r.worst / r.honest).toFixed(1)}× | ${r.outcome.valid ? 'verified' : 'failed'}; ${(r.outcome.limits ?? []).join('; ')} |`,
  );
}
process.exitCode = failed ? 1 : 0;
