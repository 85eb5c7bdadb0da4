// The public signature and canonicalization corpora (a2a-card-sign-v01, a2a-jcs-v01), copied into
// test/fixtures/spec/vectors with their manifests: every vector gets an asserted verdict.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type AgentCard, AgentCardError, canonicalizeAgentCard, verifyAgentCard } from '@agent-card/core';
import type { JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';

const root = new URL('./fixtures/spec/vectors/', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

interface Manifest {
  vectors: { path: string; sha256: string }[];
}

function checkManifest(corpus: string): void {
  const manifest = readJson(`${corpus}/MANIFEST.json`) as Manifest;
  for (const { path, sha256 } of manifest.vectors) {
    const digest = createHash('sha256')
      .update(readFileSync(new URL(`${corpus}/${path}`, root)))
      .digest('hex');
    expect(digest, `${corpus}/${path}`).toBe(sha256);
  }
}

function vectorsOf(corpus: string): { file: string; vector: Record<string, unknown> }[] {
  const out: { file: string; vector: Record<string, unknown> }[] = [];
  for (const group of readdirSync(new URL(`${corpus}/`, root), { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    for (const name of readdirSync(new URL(`${corpus}/${group.name}/`, root)).sort()) {
      out.push({ file: `${group.name}/${name}`, vector: readJson(`${corpus}/${group.name}/${name}`) });
    }
  }
  return out;
}

const DUAL_NAME = /names a field twice, under its JSON name and its proto name/;
const CHANGED = /does not match the card/;
const MODEL_ONLY = /the signature does not cover \/.*: it matches the card only as the v1\.0 model reads it/;

/**
 * Our reading on each axis: a signature over the served-as-is form or over the pruned form
 * (default-valued members removed) of the JSON as received; unknown members are retained (no
 * form drops a member for being outside v1.0); a field named twice is refused.
 */
const VERDICTS: Record<string, { accept: boolean; form?: 'pruned' | 'served-as-is'; reason?: RegExp | RegExp[] }> = {
  'S0-001': { accept: true, form: 'pruned' },
  'S0-002': { accept: true, form: 'pruned' },
  'S0-003': { accept: true, form: 'pruned' },
  'S0-004': { accept: true, form: 'pruned' },
  'S0-REJECT-005': { accept: false, reason: CHANGED },
  // A default-valued member (description "", skills [], tags [], extensions []): both a
  // signature that keeps it (served as is) and one that prunes it verify.
  'S1-001': { accept: true, form: 'served-as-is' },
  'S1-002': { accept: true, form: 'pruned' },
  'S1-003': { accept: true, form: 'served-as-is' },
  'S1-004': { accept: true, form: 'pruned' },
  'S1-005': { accept: true, form: 'served-as-is' },
  'S1-006': { accept: true, form: 'pruned' },
  'S1-007': { accept: true, form: 'pruned' },
  'S1-008': { accept: true, form: 'served-as-is' },
  // An absent REQUIRED member: a signature over what was served verifies; one over the card
  // with the member filled in at its default (the descriptor scope) covers bytes nobody served.
  'S2-001': { accept: true, form: 'pruned' },
  'S2-002': { accept: false, reason: CHANGED },
  'S2-003': { accept: true, form: 'pruned' },
  'S2-004': { accept: false, reason: CHANGED },
  'S2-005': { accept: true, form: 'pruned' },
  'S2-006': { accept: false, reason: CHANGED },
  'S2-007': { accept: true, form: 'pruned' },
  'S2-008': { accept: false, reason: CHANGED },
  'S2-009': { accept: true, form: 'pruned' },
  'S2-010': { accept: false, reason: CHANGED },
  'S2-WE-011': { accept: false, reason: CHANGED },
  // Unknown members are covered: a signature that leaves them out fails, and says which.
  'S3-001': { accept: true, form: 'pruned' },
  'S3-002': { accept: false, reason: MODEL_ONLY },
  'S3-003': { accept: true, form: 'pruned' },
  'S3-004': { accept: false, reason: MODEL_ONLY },
  'S3-005': { accept: true, form: 'pruned' },
  'S3-006': { accept: false, reason: MODEL_ONLY },
  'S3-007': { accept: true, form: 'pruned' },
  'S3-008': { accept: false, reason: MODEL_ONLY },
  'S3-009': { accept: true, form: 'served-as-is' },
  // x-reserved is [], a default value the pruned form may drop: nothing a reader sees is uncovered.
  'S3-010': { accept: true, form: 'pruned' },
  'S3-T-011': { accept: false, reason: MODEL_ONLY },
  'S3-D-012': { accept: true, form: 'pruned' },
  // One signature per form: the model-read one leaves url out, the other no longer matches.
  'S3-D-013': { accept: false, reason: [MODEL_ONLY, CHANGED] },
  'S4-001': { accept: false, reason: DUAL_NAME },
  'S4-002': { accept: false, reason: DUAL_NAME },
  'S4-003': { accept: false, reason: DUAL_NAME },
  'S4-004': { accept: true, form: 'pruned' },
  'S4-REJECT-005': { accept: false, reason: DUAL_NAME },
};

describe('a2a-card-sign-v01', () => {
  const corpus = 'a2a-card-sign-v01';
  const jwks = readJson(`${corpus}/testkey_jwks.json`) as JSONWebKeySet;
  const vectors = vectorsOf(corpus);

  it('is the published corpus: every vector matches the manifest sha256, and every vector has a verdict', () => {
    checkManifest(corpus);
    expect(vectors.map(({ vector }) => vector.id).sort()).toEqual(Object.keys(VERDICTS).sort());
  });

  it.each(vectors.map(({ file, vector }) => [vector.id as string, file, vector] as const))(
    '%s (%s) gets its verdict',
    async (id, _, vector) => {
      const expected = VERDICTS[id]!;
      const result = await verifyAgentCard(vector.served_card as AgentCard, { jwks });
      expect(result.valid).toBe(expected.accept);
      if (expected.accept) {
        expect(result.signatures.find((s) => s.valid)?.form).toBe(expected.form);
      } else {
        for (const check of result.signatures) {
          const reason = Array.isArray(expected.reason) ? expected.reason[check.index] : expected.reason;
          expect(check.reason).toMatch(reason as RegExp);
        }
      }
    },
  );

  it('names both spellings of a dual-named field, and the members a model-read signature leaves out', async () => {
    const dual = vectors.find(({ vector }) => vector.id === 'S4-001')?.vector.served_card as AgentCard;
    const dualResult = await verifyAgentCard(dual, { jwks });
    expect(dualResult.reason).toContain('/defaultInputModes and /default_input_modes');
    expect(dualResult.signatures[0]?.uncovered).toEqual(['/defaultInputModes', '/default_input_modes']);

    const legacy = vectors.find(({ vector }) => vector.id === 'S3-002')?.vector.served_card as AgentCard;
    const legacyResult = await verifyAgentCard(legacy, { jwks });
    expect(legacyResult.signatures[0]?.uncovered).toEqual(['/preferredTransport', '/protocolVersion', '/url']);
  });

  it('refuses the pruned form when the caller asks for served-as-is only', async () => {
    const pruned = vectors.find(({ vector }) => vector.id === 'S1-002')?.vector.served_card as AgentCard;
    expect((await verifyAgentCard(pruned, { jwks, forms: ['served-as-is'] })).valid).toBe(false);
    const asIs = vectors.find(({ vector }) => vector.id === 'S1-001')?.vector.served_card as AgentCard;
    expect((await verifyAgentCard(asIs, { jwks, forms: ['served-as-is'] })).valid).toBe(true);
  });

  it.each(vectors.map(({ vector }) => [vector.id as string, vector] as const))(
    '%s: the bytes each verified signature covers are the ones the corpus records',
    async (id, vector) => {
      if (!VERDICTS[id]?.accept) return;
      const card = vector.served_card as AgentCard;
      const recorded = (vector.canonical_utf8_hex_per_signature as string[] | undefined) ?? [
        vector.canonical_utf8_hex as string,
      ];
      const forms = {
        pruned: canonicalizeAgentCard(card),
        'served-as-is': canonicalizeAgentCard(card, { form: 'served-as-is' }),
      };
      const result = await verifyAgentCard(card, { jwks });
      const verified = result.signatures.filter((s) => s.valid);
      expect(verified.length).toBeGreaterThan(0);
      for (const check of verified) {
        expect(Buffer.from(forms[check.form as keyof typeof forms], 'utf8').toString('hex')).toBe(
          recorded[check.index],
        );
      }
    },
  );
});

describe('a2a-jcs-v01', () => {
  const corpus = 'a2a-jcs-v01';
  const vectors = vectorsOf(corpus);

  it('is the published corpus: every vector matches the manifest sha256', () => {
    checkManifest(corpus);
    expect(vectors).toHaveLength(57);
  });

  it.each(vectors.map(({ vector }) => [vector.id as string, vector] as const))('%s', (_, vector) => {
    if (vector.disposition === 'MUST-ACCEPT') {
      const text = canonicalizeAgentCard(vector.input as AgentCard, { form: 'served-as-is' });
      expect(Buffer.from(text, 'utf8').toString('hex')).toBe(
        (vector.expected as { canonical_utf8_hex: string }).canonical_utf8_hex,
      );
      return;
    }
    const raw = vector.input_raw as string;
    if (vector.clause === 'a2a-spec-8.4.1-rule-3') {
      // A claimed canonical form that still carries signatures is not the canonical form.
      expect(canonicalizeAgentCard(JSON.parse(raw), { form: 'served-as-is' })).not.toBe(raw);
      return;
    }
    let thrown: unknown;
    try {
      canonicalizeAgentCard(JSON.parse(raw), { form: 'served-as-is' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown instanceof SyntaxError || thrown instanceof AgentCardError).toBe(true);
  });
});
