/**
 * The rules of `validateArdManifest` about an ARD manifest (`/.well-known/ard.json`): RULES.md §6.8.
 *
 * One entry per rule, keyed by its id: adding a rule is adding an entry here and the check that
 * reports it. `RULES.md` is generated from these entries (`pnpm --filter @agent-card/core rules:md`).
 */
import type { Severity } from '../findings';
import { profiles, type RuleEntry } from './entry';

const BY = '`validateArdManifest`, `agent-card validate`, `agent-card check`';
const ADVICE = profiles<Severity>('warning', 'warning', 'error');

export const ARD_RULES = {
  'ard-json-parse': {
    number: 110,
    section: 'ard',
    severity: profiles('error'),
    summary: 'The manifest is JSON.',
    details: 'The text is JSON (read by the one untrusted-JSON reader).',
    fix: 'Serve a UTF-8 JSON object with an entries array.',
    reportedBy: BY,
  },
  'ard-duplicate-member': {
    number: 111,
    section: 'ard',
    severity: profiles('error'),
    summary: 'The manifest names no member twice in one object.',
    details:
      'The text names no member twice in one object: parsers that keep the first value and parsers that keep the last would read different entries.',
    fix: 'Name each member once per object.',
    reportedBy: BY,
  },
  'ard-entries': {
    number: 112,
    section: 'ard',
    severity: profiles('error'),
    summary: 'The manifest is an object with an `entries` array.',
    details: 'The document is a JSON object and its `entries` member is an array (ARD §5.1).',
    fix: 'Serve { "entries": [ … ] } at /.well-known/ard.json.',
    reportedBy: BY,
  },
  'ard-entry-object': {
    number: 113,
    section: 'ard',
    severity: profiles('error'),
    summary: 'Each entry is a JSON object.',
    details: 'Each member of `entries` is a JSON object describing one resource.',
    fix: 'Describe each resource as a JSON object.',
    reportedBy: BY,
  },
  'ard-entry-required': {
    number: 114,
    section: 'ard',
    severity: profiles('error'),
    summary: 'Each entry has a non-empty `identifier`, `displayName` and `type`.',
    details: 'Each entry has `identifier`, `displayName` and `type`, each a non-empty string (Appendix D.1).',
    fix: "Give each entry its identifier (a urn:air: URN), its name as people read it and its artifact's media type.",
    reportedBy: BY,
  },
  'ard-media-type': {
    number: 115,
    section: 'ard',
    severity: ADVICE,
    summary: "An entry's `type` is a media type `type/subtype`.",
    details:
      "An entry's `type` is a media type `type/subtype` with optional parameters (a discovery constraint, Appendix D.2).",
    fix: "Use an IANA media type, e.g. 'application/a2a-agent-card+json'.",
    reportedBy: BY,
  },
  'ard-identifier-unique': {
    number: 116,
    section: 'ard',
    severity: profiles('error'),
    summary: 'No two entries share an `identifier`.',
    details: 'No two entries share an `identifier`: registries key their index on it.',
    fix: 'Give each resource its own identifier.',
    reportedBy: BY,
  },
  'ard-identifier-form': {
    number: 117,
    section: 'ard',
    severity: profiles('error'),
    summary: 'An `identifier` is a domain-anchored URN `urn:air:<publisher>:<namespace>:<name>`.',
    details:
      'An `identifier` is a domain-anchored URN `urn:air:<publisher>:<namespace>:<name>`, within the length bound.',
    fix: "Use e.g. 'urn:air:example.com:agent:billing': the publisher is the domain you control.",
    reportedBy: BY,
  },
  'ard-publisher-binding': {
    number: 118,
    section: 'ard',
    severity: profiles('error'),
    summary: "A trust identity belongs to the identifier's publisher domain.",
    details:
      "`trustManifest.identity` (`did:web:`, `spiffe://`, `https://`) names the identifier's publisher domain or a subdomain of it (ARD §4.5.1).",
    fix: "Use a trust identity of the identifier's publisher domain.",
    reportedBy: BY,
  },
  'ard-value-or-reference': {
    number: 119,
    section: 'ard',
    severity: profiles('error'),
    summary: 'Each entry has exactly one of `url` and `data`.',
    details: 'Each entry has exactly one of `url` (where the artifact is) and `data` (the artifact inline).',
    fix: 'Give exactly one of url and data.',
    reportedBy: BY,
  },
  'ard-url': {
    number: 120,
    section: 'ard',
    severity: profiles('error'),
    summary: "An entry's `url` is an absolute URL.",
    details: "An entry's `url` is a string holding an absolute URL.",
    fix: "Use e.g. 'https://example.com/.well-known/agent-card.json'.",
    reportedBy: BY,
  },
  'ard-data': {
    number: 121,
    section: 'ard',
    severity: profiles('error'),
    summary: "An entry's `data` is an object.",
    details: "An entry's `data` is the artifact document inline, a JSON object.",
    fix: 'Inline the artifact document as an object.',
    reportedBy: BY,
  },
  'ard-representative-queries': {
    number: 122,
    section: 'ard',
    severity: profiles('error'),
    severityNote: profiles(
      'error (not an array of strings) / warning (missing, or outside 2–5)',
      'error (not an array of strings) / warning (missing, or outside 2–5)',
      'error',
    ),
    summary: 'Each entry lists 2 to 5 `representativeQueries`, strings.',
    details:
      '`representativeQueries` is an array of strings; missing, or fewer than 2 or more than 5, is a discovery constraint (Appendix D.2): search cannot find the entry well.',
    fix: "List 2 to 5 things a user would ask for that the resource serves (for an A2A agent: its skills' examples).",
    reportedBy: BY,
  },
  'ard-context': {
    number: 123,
    section: 'ard',
    severity: profiles('error'),
    summary: '`@context` is a string, an object or an array.',
    details: "An entry's `@context`, when given, is a string, an object or an array (JSON-LD).",
    fix: 'Use the base context https://agenticresourcediscovery.org/context/v1.',
    reportedBy: BY,
  },
  'ard-string-list': {
    number: 124,
    section: 'ard',
    severity: profiles('error'),
    summary: '`capabilities` and `tags` are arrays of strings.',
    details: "An entry's `capabilities` and `tags`, when given, are arrays of strings.",
    fix: 'List short strings.',
    reportedBy: BY,
  },
  'ard-trust-manifest': {
    number: 125,
    section: 'ard',
    severity: profiles('error'),
    summary: '`trustManifest` is an object with an `identity`.',
    details: "An entry's `trustManifest`, when given, is an object with a non-empty string `identity`.",
    fix: "Give trustManifest.identity, e.g. 'did:web:example.com', or leave trustManifest out.",
    reportedBy: BY,
  },
  'ard-max-entries': {
    number: 126,
    section: 'ard',
    severity: profiles('warning'),
    summary: 'The manifest has no more entries than are read (`maxEntries`, 1000 by default).',
    details: 'Entries past `maxEntries` (1000 by default) are reported once and not read.',
    fix: 'Split the resources into fewer, or raise maxEntries.',
    reportedBy: BY,
  },
} satisfies Record<string, RuleEntry>;
