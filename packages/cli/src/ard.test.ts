// agent-card validate with an ARD manifest: the specification's examples, and a manifest a user
// wrote with both url and data.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../test/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'agent-card-ard-'));
const fixture = (name: string) => join(root, 'packages/core/src/ard/fixtures', name);

describe('agent-card validate reads an ARD manifest', () => {
  it('says it is an ARD manifest and accepts the examples of the specification', async () => {
    const run = await cli(['validate', fixture('valid-spec-examples.json')], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('valid-spec-examples.json: ARD manifest (v0.91), profile production\n');
  });

  it('exits 1 on an entry with both url and data, naming the rule and the entry', async () => {
    const file = join(dir, 'ard.json');
    writeFileSync(file, readFileSync(fixture('invalid-url-and-data.json')));
    const run = await cli(['validate', file, '--json'], { cwd: dir });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.kind).toBe('ard');
    expect(out.findings.map((f: { rule: string; message: string }) => [f.rule, f.message])).toEqual([
      ['ard-value-or-reference', 'ard.entries[0]: carries both url and data.'],
    ]);
  });
});
