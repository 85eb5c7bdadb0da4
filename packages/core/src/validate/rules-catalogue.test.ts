import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgentCard } from './validate';

const root = new URL('../../../../', import.meta.url).pathname;
const catalogue = readFileSync(join(root, 'packages/core/RULES.md'), 'utf8');

/** The ids in the first or second column of the catalogue's tables. */
const listed = new Set(
  [...catalogue.matchAll(/^\| (?:\d+ \| )?`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)` \|/gm)].map((m) => m[1]!),
);

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
/** Where a rule id is written: `report('id', …)`, `report(ctx, 'id', …)`, `error('id', …)`, `rule: 'id'`, `rule = … 'id'`. */
const EMITTED = [
  new RegExp(`\\breport\\w*\\(\\s*(?:[\\w.]+,\\s*)?${ID}`, 'g'),
  new RegExp(`\\b(?:error|warning)\\(\\s*${ID}`, 'g'),
  new RegExp(`\\brule:\\s*${ID}`, 'g'),
  new RegExp(`\\brule = [^;]*?${ID}(?:[^;]*?${ID})?`, 'g'),
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

describe('RULES.md', () => {
  it('lists every rule id the code emits', () => {
    const unlisted = [...writtenIds()].filter(([id]) => !listed.has(id)).map(([id, file]) => `${id} (${file})`);
    const unlistedReported = [...reportedIds()].filter((id) => !listed.has(id));
    expect([...unlisted, ...unlistedReported]).toEqual([]);
  });

  it('lists no rule id the code never emits', () => {
    const emitted = new Set([...writtenIds().keys(), ...reportedIds()]);
    expect([...listed].filter((id) => !emitted.has(id))).toEqual([]);
  });

  it('has a broken example card for every rule of the validator', () => {
    // Rule 38 needs the URL that served the card; the others have a card named after them.
    const examples = new Set(
      readdirSync(join(root, 'examples/cards/broken')).map((name) => name.replace(/\.json$/, '')),
    );
    const validatorRules = [...catalogue.matchAll(/^\| (\d+) \| `([a-z0-9-]+)` \|/gm)]
      .filter((m) => Number(m[1]) <= 41 && m[2] !== 'interface-origin-mismatch')
      .map((m) => m[2]!);
    expect(validatorRules.filter((id) => !examples.has(id))).toEqual([]);
  });
});
