// Writes packages/core/RULES.md from the rule catalogue (packages/core/src/rules/), which is the
// one place rules are defined: `pnpm --filter @agent-card/core rules:md` builds core and runs this.
// `renderRulesMarkdown` is also what packages/core/src/validate/rules-catalogue.test.ts compares
// the committed file with, so a stale RULES.md fails the tests.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The sections of the catalogue, in order: number, title, what comes before the table. */
const SECTIONS = [
  { key: 'structure', number: '6.1', title: 'Structure (schema)' },
  { key: 'semantics', number: '6.2', title: 'Semantics (cross-field)' },
  {
    key: 'publishing',
    number: '6.3',
    title: 'Publishing readiness',
    intro:
      'URL checks cover every URL in the card: interface urls, `provider.url`, `documentationUrl`, `iconUrl`, OAuth `authorizationUrl`/`tokenUrl`/`refreshUrl`/`deviceAuthorizationUrl`/`oauth2MetadataUrl`, `openIdConnectUrl`, signature `jku`.',
  },
  {
    key: 'discovery',
    number: '6.4',
    title: 'Discovery (domain checker / HTTP)',
    intro:
      'Reported by `discoverAgentCard` of `@agent-card/discovery` (and so `agent-card check`), never by `validateAgentCard`; their entries are the discovery catalogue, `packages/core/src/rules/discovery.ts`, with those of §6.6. Fetch `https://{domain}/.well-known/agent-card.json` and `/.well-known/agent.json` with redirects **not** followed (record each hop). Send two requests: `Accept: application/json` with no `A2A-Version` header (as the TCK does), and a second with `A2A-Version: 1.0`. Cap the body size.',
  },
  {
    key: 'other',
    number: '6.5',
    title: 'Findings beside the rule sets',
    intro:
      'Findings about the JSON text, the validator itself, and what Nest and `@a2a-js/sdk` users get wrong.\n\nAny rule lists at most 100 findings per card; past that, one finding of that rule at the root says it stopped and how many more it found (`card: <rule> stopped reporting after 100 findings; N more were not listed.`), as severe as the worst one left out.',
  },
  {
    key: 'host-catalog',
    number: '6.6',
    title: 'AI Catalog of a host (discovery)',
    intro:
      '`discoverAgentCard` reads `/.well-known/ai-catalog.json` and checks the A2A cards it lists (core\nREADME, "The AI Catalog of a host"). Source: the AI Catalog draft pinned in\n`src/catalog/format.ts` (§"Catalog Entry": `url`, `displayName`, `version` describe the\nreferenced artifact; ADR-0001 for nesting); the bounds are ours.',
  },
  {
    key: 'catalog',
    number: '6.7',
    title: 'AI Catalog documents',
    intro: 'What `validateAiCatalog` checks in a catalog document (the draft pinned in `src/catalog/format.ts`).',
  },
  {
    key: 'ard',
    number: '6.8',
    title: 'ARD manifests',
    intro:
      'What `validateArdManifest` checks in an ARD manifest, the document at `/.well-known/ard.json` (the entry schema of ARD Appendix D.1 and its discovery constraints, D.2; pinned in `src/ard/format.ts`); `agent-card validate` and `check` report them. Their entries are in `packages/core/src/rules/ard.ts`.',
  },
  {
    key: 'diff',
    number: '6.9',
    title: 'Card changes (CLI)',
    intro:
      'Rules of the CLI, not of the library: `agent-card diff` reports one finding per change between two cards, by what it means for the clients of the older one (breaking: error, structural: warning, descriptive: info). Their entries, with `signature-verify` of `agent-card verify` (§6.5), are in `packages/core/src/rules/cli.ts`.',
  },
];

const PROFILES = ['development', 'production', 'strict'];

const HEAD = `# Rule catalogue

<!-- Generated from packages/core/src/rules/ by scripts/rules-md.mjs (pnpm --filter @agent-card/core rules:md). Edit the catalogue, not this file. -->

Every finding of \`validateAgentCard\`, \`validateAiCatalog\`, \`discoverAgentCard\`, the middleware and
the CLI carries one of the rule ids below (\`rule\`), a severity, a JSON Pointer \`path\`, a \`message\`
that reads \`where: what is wrong (value).\` and a \`hint\` that says how to fix it. Source comments
cite this file by section (\`RULES.md §6.3\`) and rule number.

The rules are defined in one place, the catalogue in \`packages/core/src/rules/\`: \`card.ts\` (the
card validator, §6.1–6.3 and §6.5), \`discovery.ts\` (\`@agent-card/discovery\`, §6.4 and §6.6, with
\`probe-*\` of \`probeAgentCard\`),
\`catalog.ts\` (\`validateAiCatalog\`, §6.7), \`ard.ts\` (\`validateArdManifest\`, §6.8) and \`cli.ts\`
(the CLI's own findings: \`signature-verify\` in §6.5, \`agent-card diff\` in §6.9). This file is generated from it; \`listRules()\` and
\`getRule(id)\` of \`@agent-card/core\` and \`agent-card rules\` read the same entries.

## Profiles

\`validateAgentCard(value, { profile })\` applies one of three profiles; the severity columns below
give the severity under each (where a rule's findings differ in severity, the column says how).

- \`development\` (default outside production): \`http://\` and loopback URLs are allowed (info).
- \`production\` (default when \`NODE_ENV=production\`, and for \`agent-card check\`): they are errors;
  \`http://\` links for people (\`provider.url\`, \`documentationUrl\`) are warnings.
- \`strict\`: production, plus \`unknown-field\` and \`json-camelcase\` are errors (the official TCK
  schema rejects unknown keys), and \`skills-non-empty\` stays an error whatever \`skillsNonEmpty\` says.

Discovery rules (§6.4) do not depend on the profile; the card they fetch is validated with the
profile given to \`discoverAgentCard\` (default \`production\`).

## Your settings

A user may turn a rule off or give its findings another severity, by id: \`rules: { '<id>': 'off' |
'info' | 'warning' | 'error' }\` of \`validateAgentCard\`, \`defineAgentCard\`, the middleware and Nest's
\`forRoot\`, \`--rule <id>=<setting>\` of \`agent-card validate\` and \`check\`, or \`"rules"\` of
\`agent-card.config.json\`. A setting replaces the severity of every finding of the rule, whatever the
profile; a rule turned off is the user's decision, and the result says so (\`turnedOff\`). An unknown
id or setting is refused at start-up, naming the nearest id.

Decisions: empty \`skills\` is an error (spec §5.7: required arrays MUST be non-empty); unknown
fields are warnings (spec: consumers SHOULD ignore them); snake_case is a warning; the
middleware serves \`application/a2a+json\` by default and the checker accepts any JSON media type;
\`/.well-known/agent.json\` is served as a byte-identical alias by default.

Sources: [spec] A2A v1.0 spec/proto; [tool] an existing checker (official TCK, a2a-inspector,
third-party validators); [evidence] a real bug report; [proposal] ours.

## 6 Rules
`;

const TAIL = `
## Adding a rule

1. Add one entry to the catalogue file of its kind (\`packages/core/src/rules/card.ts\`,
   \`discovery.ts\` or \`catalog.ts\`): its id as the key, the next free number, the section, the
   severity under each profile, a one-line summary, what it checks, the fix and the source.
2. Add one check that reports it: \`ctx.report('<id>', severity, path, message, hint)\` in the rule
   module of its section (the id must be a catalogue key, or it does not compile); message and hint
   follow the shape above.
3. Any regular expression it applies to card content goes in \`src/validate/patterns.ts\`, with an
   attack in \`patterns.test.ts\` (the test times it at 10,000 and 100,000 characters).
4. Add a card that triggers it to \`examples/cards/broken/<id>.json\` and a test pinned to the
   exact finding, then regenerate this file: \`pnpm --filter @agent-card/core rules:md\`.
`;

/** A table cell: one line, no bare pipe. */
const cell = (text) => String(text).replaceAll('\n', ' ').replaceAll('|', '\\|');

/** RULES.md for these rules (`listRules()` of @agent-card/core). */
export function renderRulesMarkdown(rules) {
  const out = [HEAD];
  for (const section of SECTIONS) {
    const members = rules.filter((rule) => rule.section === section.key);
    out.push(`### ${section.number} ${section.title}\n`);
    if (section.intro) out.push(`${section.intro}\n`);
    const numbered = members.some((rule) => rule.source !== undefined);
    const last = numbered ? 'source' : 'reported by';
    out.push(`| # | id | development | production | strict | checks | fix | ${last} |`);
    out.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const rule of members) {
      const severities = PROFILES.map((p) => cell(rule.severityNote?.[p] ?? rule.severity[p]));
      const origin = rule.source ?? rule.reportedBy;
      out.push(
        `| ${rule.number} | \`${rule.id}\` | ${severities.join(' | ')} | ${cell(rule.details)} | ${cell(rule.fix)} | ${cell(origin)} |`,
      );
    }
    out.push('');
  }
  const unplaced = rules.filter((rule) => !SECTIONS.some((s) => s.key === rule.section));
  if (unplaced.length > 0) throw new Error(`rules in no section: ${unplaced.map((r) => r.id).join(', ')}`);
  out.push(TAIL);
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { listRules } = await import('../packages/core/dist/index.mjs');
  const target = new URL('../packages/core/RULES.md', import.meta.url);
  writeFileSync(target, renderRulesMarkdown(listRules()));
  console.log(`Wrote ${fileURLToPath(target)} (${listRules().length} rules).`);
}
