/**
 * The rules of `validateAiCatalog` about an AI Catalog document: RULES.md §6.7.
 *
 * One entry per rule, keyed by its id: adding a rule is adding an entry here and the check that
 * reports it. `RULES.md` is generated from these entries (`pnpm --filter @agent-card/core rules:md`).
 */
import { profiles, type RuleEntry } from './entry';

export const CATALOG_RULES = {
  'catalog-json-parse': {
    number: 90,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'The text is JSON (a BOM is skipped).',
    details: 'The text is JSON (a BOM is skipped).',
    fix: 'Write the catalog as JSON.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-duplicate-member': {
    number: 91,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'The catalog names no member twice in one object.',
    details:
      'The text names no member twice in one object: readers keeping the first value and readers keeping the last would follow different entries.',
    fix: 'Name each member once per object.',
    reportedBy: '`validateAiCatalog` (text), `discoverAgentCard`',
  },
  'catalog-root-object': {
    number: 92,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'The document (and an inline nested catalog) is a JSON object.',
    details: 'The document (and an inline nested catalog) is a JSON object.',
    fix: 'Make the catalog (and each inline nested catalog) a JSON object.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-required-fields': {
    number: 93,
    section: 'catalog',
    severity: profiles('error'),
    summary:
      "`specVersion`, `entries`; each entry's `identifier`, `displayName`, `mediaType`; `host.displayName`; a publisher's `identifier` and `displayName`.",
    details:
      "`specVersion`, `entries`; each entry's `identifier`, `displayName`, `mediaType`; `host.displayName`; a publisher's `identifier` and `displayName`.",
    fix: 'Add each missing field.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-spec-version': {
    number: 94,
    section: 'catalog',
    severity: profiles('error'),
    severityNote: profiles('error / info'),
    summary: '`specVersion` is "Major.Minor" and its major is 1.',
    details: '`specVersion` is "Major.Minor" and its major is 1.',
    fix: 'Set specVersion to "1.0".',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-field-types': {
    number: 95,
    section: 'catalog',
    severity: profiles('error'),
    summary:
      'Strings are strings, `tags` is a string array, `metadata` an object with non-empty keys, `updatedAt` RFC 3339.',
    details:
      'Strings are strings, `tags` is a string array, `metadata` an object with non-empty keys, `updatedAt` RFC 3339.',
    fix: 'Give each field the type the draft defines.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-entry-content': {
    number: 96,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'Exactly one of `url` and `data`.',
    details: 'Exactly one of `url` and `data`.',
    fix: 'Give each entry exactly one of url and data.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-identifier-unique': {
    number: 97,
    section: 'catalog',
    severity: profiles('error'),
    summary: '`identifier` (with `version` when present) is unique in its catalog.',
    details: '`identifier` (with `version` when present) is unique in its catalog.',
    fix: 'Give each entry an identifier of its own (or a different version).',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-identifier-format': {
    number: 98,
    section: 'catalog',
    severity: profiles('warning'),
    summary: '`identifier` is a URN or a URI.',
    details: '`identifier` is a URN or a URI.',
    fix: 'Use a URN or a URI as identifier, e.g. urn:agent:acme:support.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-url-format': {
    number: 99,
    section: 'catalog',
    severity: profiles('error'),
    severityNote: profiles('info / warning / error', 'warning / error', 'warning / error'),
    summary: 'Entry and host URLs parse, and are ones the middleware would publish.',
    details:
      'Entry and host URLs parse (an error), are absolute (a warning) and https (a warning in production, info in development). The rules the middleware applies to its own catalog at start-up are errors: credentials in the userinfo in every profile; in production and strict, a scheme other than http(s) (`data:`, `javascript:`, `file:`) and a loopback or link-local host.',
    fix: 'Use absolute https:// URLs on the public host name, without credentials.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-unknown-field': {
    number: 100,
    section: 'catalog',
    severity: profiles('warning', 'warning', 'error'),
    summary: 'Members the draft does not define (extensions belong in `metadata`).',
    details: 'Members the draft does not define (extensions belong in `metadata`).',
    fix: 'Remove the member or move it into metadata.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-trust-identity': {
    number: 101,
    section: 'catalog',
    severity: profiles('error'),
    summary: "`trustManifest.identity` equals the entry's `identifier` (consumers must reject it otherwise).",
    details: "`trustManifest.identity` equals the entry's `identifier` (consumers must reject it otherwise).",
    fix: "Make trustManifest.identity the entry's identifier.",
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-nesting-depth': {
    number: 102,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'Inline nested catalogs deeper than 4.',
    details: 'Inline nested catalogs deeper than 4.',
    fix: 'Nest inline catalogs at most 4 deep.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-entries-limit': {
    number: 103,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'More than `maxEntries` entries; the rest are not read.',
    details: 'More than `maxEntries` entries; the rest are not read.',
    fix: 'List fewer entries, or raise maxEntries.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-trust-manifest-empty': {
    number: 104,
    section: 'catalog',
    severity: profiles('warning'),
    summary: 'A trust manifest carries some trust evidence.',
    details:
      'A `trustManifest` (or an item of `trustManifests`) carries no signature, attestations, provenance or trustSchema, so readers treat it as absent.',
    fix: 'Add trust evidence, or leave trustManifest out.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-digest-format': {
    number: 105,
    section: 'catalog',
    severity: profiles('error'),
    summary: "An entry's `digest` is `sha256:`, `sha384:` or `sha512:` with lowercase hex.",
    details:
      "An entry's `digest` (current draft) names its algorithm and gives the lowercase hex of the exact bytes served at its `url`.",
    fix: 'Write sha256: and the 64 hex digits of the SHA-256 of the exact bytes served at url.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-entry-restates-artifact': {
    number: 106,
    section: 'catalog',
    severity: profiles('info'),
    summary: 'An entry of a self-describing artifact leaves out what the artifact carries.',
    details:
      'The current draft says `displayName`, `description` and `version` SHOULD be left out when the artifact carries them (an A2A card has `name`, `description`, `version`); a consumer resolves them entry → artifact → identifier.',
    fix: 'Leave displayName and description out of the entry: readers take them from the artifact.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-previous-draft': {
    number: 107,
    section: 'catalog',
    severity: profiles('info'),
    summary: 'The catalog follows the current AI Catalog draft.',
    details:
      'A catalog written to the previous draft (entries with `mediaType`, `metadata`, one `trustManifest`) is read, and each difference from the current draft is reported with its fix (at most 50).',
    fix: 'Apply the fixes of the catalog-previous-draft findings to follow the current draft.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-extension-key': {
    number: 108,
    section: 'catalog',
    severity: profiles('error'),
    summary: '`extensions` keys are URLs or reverse-DNS names.',
    details:
      "Each key of an `extensions` object (current draft, replacing `metadata`) is a URL or a reverse-DNS name, so that two publishers' extensions never collide.",
    fix: 'Key it by a name you own, e.g. com.example.region or https://example.com/extensions/region.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-signature-format': {
    number: 109,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'The catalog `signature` is a detached JWS in compact form.',
    details:
      'The catalog-level `signature` is a detached JWS (`header..signature`, empty payload) over the RFC 8785 form of the catalog without `signature`.',
    fix: 'Sign the RFC 8785 form of the catalog without signature and keep "header..signature" (empty payload), or remove signature.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-identifier-urn-ai': {
    number: 145,
    section: 'catalog',
    severity: profiles('warning'),
    summary: 'An entry identifier is spelled `urn:air:`, not `urn:ai:`.',
    details:
      'About one published entry in nine names its agent `urn:ai:…`; the drafts register `urn:air:{publisher}:{namespace}:{name}`. The identifier is read as `urn:air:…` (its uniqueness, its publisher for Trust Manifests, and by discovery) and reported, so the catalog is still followed.',
    fix: 'Write the identifier as urn:air:{your domain}:{namespace}:{name}.',
    reportedBy: '`validateAiCatalog`, `discoverAgentCard`',
  },
  'catalog-entry-type-spelling': {
    number: 146,
    section: 'catalog',
    severity: profiles('info'),
    summary: 'An entry type is written as registered (`application/a2a-agent-card+json`, …).',
    details:
      'An entry `type` (`mediaType` in the previous draft) written in other letter case, with spaces or media type parameters, or without its `+json` suffix, is read as the registered type it names (`application/a2a-agent-card+json`, `application/mcp-server-card+json`, `application/agent-skills+json`, `application/ai-catalog+json`) and reported.',
    fix: 'Write the registered type exactly, e.g. application/a2a-agent-card+json.',
    reportedBy: '`validateAiCatalog`, `discoverAgentCard`',
  },
  'catalog-signature-previous-form': {
    number: 147,
    section: 'catalog',
    severity: profiles('warning'),
    summary: 'The catalog `signature` is the current Signature object, not the earlier detached JWS string.',
    details:
      "The current AI Catalog specification carries `signature` as a Signature object `{ signer, profile, issuedAt, expiresAt?, jws }`, verified through the signer's `did:web` DID document (`did-web-v1`); a detached JWS string is the form of an earlier draft, which readers of the current text do not verify.",
    fix: "Sign the catalog in the Signature object form with a did:web signer (the middleware's catalog: { signer: 'did:web:…' }, or signAiCatalogDidWeb), and serve the signer's /.well-known/did.json.",
    reportedBy: '`validateAiCatalog`, `verifyAiCatalog`, `agent-card verify`',
  },
  'catalog-jcs-input': {
    number: 148,
    section: 'catalog',
    severity: profiles('error'),
    summary: 'The catalog is valid RFC 8785 (JCS) input, signed or not.',
    details:
      'Every AI Catalog must be valid JCS input whether or not it is signed: no string or member name with a lone surrogate, no number a double cannot hold exactly (write large integers as strings); duplicate members are `catalog-duplicate-member`.',
    fix: 'Replace lone surrogates with the characters meant, and write numbers a double cannot hold as strings.',
    reportedBy: '`validateAiCatalog`',
  },
  'catalog-trust-manifest-subject': {
    number: 149,
    section: 'catalog',
    severity: profiles('error'),
    summary: "A signed Trust Manifest's `subject` and signer bind the entry it sits on.",
    details:
      "A signed Trust Manifest carries a `subject` whose `identifier` and `type` equal the entry's, whose `version` and `digest` are present exactly when the entry's are and equal them, whose `url` (when present) equals the entry's https `url`, with a `digest` or a `url`; its `signature.signer` equals its `contributor` (Entry Release Coverage).",
    fix: 'Sign the manifest again with its subject copied from the entry (identifier, type, version, digest, url), as the contributor.',
    reportedBy: '`validateAiCatalog`, `verifyAiCatalog`',
  },
  'catalog-signature-verify': {
    number: 150,
    section: 'catalog',
    severity: profiles('error'),
    summary: "A signed catalog's signature, Trust Manifests and digests verify.",
    details:
      "The catalog's Signature object verifies under `did-web-v1` (ES256, `kid` under the signer, the key in the signer's DID document `assertionMethod`, `host.identifier` equal to the signer), each signed Trust Manifest verifies and binds its entry, and each entry `digest` matches the exact bytes served at its `url`.",
    fix: "Sign the catalog again with a key the signer's DID document lists under assertionMethod, and publish the bytes the digests name.",
    reportedBy: '`verifyAiCatalog`, `agent-card verify`, `agent-card check`',
  },
} satisfies Record<string, RuleEntry>;
