// What `pnpm demo` prints about the example cards (examples/demo-report.mjs), line for line: each
// starter template passes only as a card production refuses for its template content, and a
// template that fails for another reason, or no longer reads as a template, gets a ✗ that says so.
import { readdirSync, readFileSync } from 'node:fs';
import { type AgentCard, validateAgentCard } from '@agent-card/core';
import { describe, expect, it } from 'vitest';
import { brokenCheck, browseLines, checkLine, templateCheck } from '../examples/demo-report.mjs';

const cards = new URL('../examples/cards/', import.meta.url);
const templates = readdirSync(cards)
  .filter((file) => file.endsWith('.json'))
  .sort();
const read = (file: string) => readFileSync(new URL(file, cards), 'utf8');
/** The demo's line for a card, as a terminal without colour shows it. */
const line = (file: string, text: string) => {
  const { ok, what, detail } = templateCheck(file, validateAgentCard(text, { profile: 'production' }).findings);
  return checkLine(ok, what, detail);
};

describe('the demo on the starter templates', () => {
  it('prints one ✓ per template, saying production refuses it for its template content only', () => {
    expect(templates.map((file) => line(file, read(file)))).toEqual([
      '  ✓ booking.json: production refuses it only as the "booking" template (expected)  17 template-content errors to replace, no other finding',
      '  ✓ coding.json: production refuses it only as the "coding" template (expected)  14 template-content errors to replace, no other finding',
      '  ✓ research.json: production refuses it only as the "research" template (expected)  10 template-content errors to replace, no other finding',
      '  ✓ shopping.json: production refuses it only as the "shopping" template (expected)  13 template-content errors to replace, no other finding',
      '  ✓ support.json: production refuses it only as the "support" template (expected)  12 template-content errors to replace, no other finding',
      '  ✓ workflow.json: production refuses it only as the "workflow" template (expected)  13 template-content errors to replace, no other finding',
    ]);
  });

  it('never prints a bare ✓ next to an error count', () => {
    for (const file of templates) {
      const printed = line(file, read(file));
      expect(printed).toMatch(/^ {2}✓ .*production refuses it only as the ".*" template \(expected\) {2}\d+ /);
    }
  });

  it('prints ✗ naming the other rule when a template breaks for another reason', () => {
    const card = JSON.parse(read('booking.json')) as AgentCard;
    const broken = { ...card, skills: [] };
    expect(line('booking.json', JSON.stringify(broken))).toBe(
      '  ✗ booking.json: production finds more wrong with it than its "booking" template content  1 other finding: skills-non-empty (error)',
    );
  });

  it('prints ✗ when a template no longer reads as one (its content was replaced in place)', () => {
    expect(templateCheck('booking.json', [])).toEqual({
      ok: false,
      what: 'booking.json: production does not see the "booking" template in it',
      detail: 'no finding at all',
    });
  });

  it('prints ✗ with the rules the broken cards missed', () => {
    const missed = brokenCheck(57, ['url-https', 'skills-non-empty']);
    expect(checkLine(missed.ok, missed.what, missed.detail)).toBe(
      '  ✗ broken/: 55 of 57 cards trigger the rule they are named after  url-https, skills-non-empty',
    );
    const all = brokenCheck(57, []);
    expect(checkLine(all.ok, all.what, all.detail)).toBe(
      '  ✓ broken/: 57 of 57 cards trigger the rule they are named after',
    );
  });
});

describe('the demo after a service has stopped', () => {
  it('prints how to run it again on port 3000, never the closed port it used', () => {
    const service = { script: 'examples/express/server.mjs', env: { API_KEYS: 'demo-partner-key' } };
    expect(browseLines(service, ['/.well-known/agent-card.html'])).toEqual([
      '  stopped. To browse it: PORT=3000 API_KEYS=demo-partner-key node examples/express/server.mjs, then open',
      '      http://localhost:3000/.well-known/agent-card.html',
    ]);
  });
});
