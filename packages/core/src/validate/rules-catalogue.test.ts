import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script, typed by what it does (the test fails if it misbehaves).
import { renderRulesMarkdown } from '../../../../scripts/rules-md.mjs';
import { listRules } from '../rules';
import { validateAgentCard } from './validate';

const root = new URL('../../../../', import.meta.url).pathname;
const committed = readFileSync(join(root, 'packages/core/RULES.md'), 'utf8');

/** The ids of the catalogue. */
const listed = new Set(listRules().map((rule) => rule.id));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const ID = "'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'";
/**
 * Where a rule id is written: `report('id', …)`, `report(ctx, 'id', …)`, `advise(w, 'id', …)`,
 * `finding('id', …)` (the probe), `breaking('id', …)` (the diff), `error('id', …)`, `rule: 'id'`,
 * `rule = … 'id'`.
 */
const EMITTED = [
  new RegExp(`\\b(?:report\\w*|advise|finding|breaking)\\(\\s*(?:[\\w.]+,\\s*)?${ID}`, 'g'),
  new RegExp(`\\b(?:error|warning)\\(\\s*${ID}`, 'g'),
  new RegExp(`\\brule:\\s*${ID}`, 'g'),
  new RegExp(`\\brule =\\s[^;]*?${ID}(?:[^;]*?${ID})?(?:[^;]*?${ID})?`, 'g'),
];

/** Rule ids written in the sources of every package that makes findings. */
function writtenIds(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const pkg of ['core', 'discovery', 'nest', 'cli', 'express', 'koa']) {
    for (const file of sources(join(root, 'packages', pkg, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of EMITTED) {
        for (const match of text.matchAll(pattern)) {
          for (const id of match.slice(1)) if (id !== undefined) ids.set(id, file.slice(root.length));
        }
      }
    }
  }
  return ids;
}

/** Rule ids the validator reports for the broken example cards (one per rule, some ids are built). */
function reportedIds(): Set<string> {
  const dir = join(root, 'examples/cards/broken');
  const ids = new Set<string>();
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    for (const profile of ['development', 'production', 'strict'] as const) {
      for (const finding of validateAgentCard(bytes, { profile }).findings) ids.add(finding.rule);
    }
  }
  return ids;
}

describe('the rule catalogue', () => {
  it('is what RULES.md says: the committed file is the one the catalogue generates', () => {
    // Stale? Run `pnpm --filter @agent-card/core rules:md` and commit RULES.md.
    expect(committed).toBe(renderRulesMarkdown(listRules()));
  });

  it('has every rule id the code emits', () => {
    const unlisted = [...writtenIds()].filter(([id]) => !listed.has(id)).map(([id, file]) => `${id} (${file})`);
    const unlistedReported = [...reportedIds()].filter((id) => !listed.has(id));
    expect([...unlisted, ...unlistedReported]).toEqual([]);
  });

  it('has no rule id the code never emits', () => {
    const emitted = new Set([...writtenIds().keys(), ...reportedIds()]);
    expect([...listed].filter((id) => !emitted.has(id))).toEqual([]);
  });

  it('has a broken example card for every rule of the validator', () => {
    // Rule 38 needs the URL that served the card; the others have a card named after them.
    const examples = new Set(
      readdirSync(join(root, 'examples/cards/broken')).map((name) => name.replace(/\.json$/, '')),
    );
    const validatorRules = listRules()
      .filter((rule) => rule.number <= 41 && rule.id !== 'interface-origin-mismatch')
      .map((rule) => rule.id);
    expect(validatorRules.filter((id) => !examples.has(id))).toEqual([]);
  });
});
