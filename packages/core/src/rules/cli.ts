/**
 * The rules of the CLI's own findings: `agent-card verify` (`signature-verify`, RULES.md §6.5) and
 * `agent-card diff` (`diff-*`, RULES.md §6.9). The library does not report them; they are catalogued
 * here so that `listRules`, `agent-card rules` and the CLI's SARIF output describe every id a run reports.
 */
import { profiles, type RuleEntry } from './entry';

const DIFF = '`agent-card diff`';
const EXPORT = '`agent-card export --registry`';
const DRIFT = '`agent-card check --against` (the drift gate)';

export const CLI_RULES = {
  'signature-verify': {
    number: 131,
    section: 'other',
    severity: profiles('error'),
    severityNote: profiles('error (no signature verified) / warning (another verified; limits) / info (verified)'),
    summary: 'A signature of the card verifies with a trusted key.',
    details:
      "One finding per signature: info when it verified, an error when none did (a warning when another did); a card with no signature is an error, and the verifier's limits and a signature over the pruned form only are warnings.",
    fix: 'Sign the card again with a key the verifier trusts (agent-card sign), and publish that key in the JWK Set.',
    reportedBy: '`agent-card verify`',
  },
  'diff-skill-removed': {
    number: 132,
    section: 'diff',
    severity: profiles('error'),
    summary: 'A skill of the older card is gone.',
    details:
      'A skill of the older card is gone. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients that ask for this skill fail. Keep it (mark it deprecated in its description) until they move, or publish the card under a new major version.',
    reportedBy: DIFF,
  },
  'diff-interface-removed': {
    number: 133,
    section: 'diff',
    severity: profiles('error'),
    summary: 'An interface of the older card is gone.',
    details:
      'An interface of the older card is gone. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients that call this interface fail. Keep serving it next to the new one until they move, or publish under a new major version.',
    reportedBy: DIFF,
  },
  'diff-interface-url-changed': {
    number: 134,
    section: 'diff',
    severity: profiles('error'),
    summary: "An interface's URL (or tenant, or the v0.3 `url`) changed.",
    details:
      "An interface's URL (or tenant, or the v0.3 `url`) changed. Breaking changes are errors, structural ones warnings, descriptive ones info.",
    fix: 'Clients calling the old URL fail. Keep the old URL answering (list both interfaces) until they move.',
    reportedBy: DIFF,
  },
  'diff-binding-changed': {
    number: 135,
    section: 'diff',
    severity: profiles('error'),
    summary: "An interface's protocol binding (or the v0.3 transport) changed.",
    details:
      "An interface's protocol binding (or the v0.3 transport) changed. Breaking changes are errors, structural ones warnings, descriptive ones info.",
    fix: 'Clients speaking the old binding fail. Add the new binding as another interface and keep the old one.',
    reportedBy: DIFF,
  },
  'diff-protocol-version-changed': {
    number: 136,
    section: 'diff',
    severity: profiles('error'),
    summary: "An interface's protocol version changed.",
    details:
      "An interface's protocol version changed. Breaking changes are errors, structural ones warnings, descriptive ones info.",
    fix: 'Clients of the old protocol version may fail. List the new version as another interface and keep the old one for a while.',
    reportedBy: DIFF,
  },
  'diff-capability-removed': {
    number: 137,
    section: 'diff',
    severity: profiles('error'),
    summary: 'A capability the older card declared is gone.',
    details:
      'A capability the older card declared is gone. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients that rely on this capability fail. Keep it, or publish the card under a new major version.',
    reportedBy: DIFF,
  },
  'diff-scheme-removed': {
    number: 138,
    section: 'diff',
    severity: profiles('error'),
    summary: 'A security scheme of the older card is gone.',
    details:
      'A security scheme of the older card is gone. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients that authenticate with this scheme fail. Keep the scheme until no requirement and no client uses it.',
    reportedBy: DIFF,
  },
  'diff-scheme-changed': {
    number: 139,
    section: 'diff',
    severity: profiles('error'),
    summary: 'A security scheme changed (anything but its description).',
    details:
      'A security scheme changed (anything but its description). Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients configured for the old scheme fail to authenticate. Add the changed scheme under a new name and keep the old one.',
    reportedBy: DIFF,
  },
  'diff-security-tightened': {
    number: 140,
    section: 'diff',
    severity: profiles('error'),
    summary: 'Callers need more than before: a security requirement or a required extension was added.',
    details:
      'Callers need more than before: a security requirement or a required extension was added. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients with the credentials that were enough before are refused. Add the new requirement as an alternative first, or publish under a new major version.',
    reportedBy: DIFF,
  },
  'diff-structural': {
    number: 141,
    section: 'diff',
    severity: profiles('warning'),
    summary: 'What a client can do changed (something added, loosened or replaced); nothing it used is gone.',
    details:
      'What a client can do changed (something added, loosened or replaced); nothing it used is gone. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Review it: clients see a different capability, interface or mode, none they used is gone.',
    reportedBy: DIFF,
  },
  'diff-descriptive': {
    number: 142,
    section: 'diff',
    severity: profiles('info'),
    summary: 'Text for people changed (name, description, version, signatures\u2026).',
    details:
      'Text for people changed (name, description, version, signatures\u2026). Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Text for people: nothing to do for clients.',
    reportedBy: DIFF,
  },
  'diff-version-not-bumped': {
    number: 143,
    section: 'diff',
    severity: profiles('warning'),
    summary: 'The content changed but `version` did not.',
    details: 'Two cards differ in content but carry the same `version`.',
    fix: 'Bump "version" so clients and caches can tell the cards apart.',
    reportedBy: DIFF,
  },
  'diff-entry-removed': {
    number: 193,
    section: 'diff',
    severity: profiles('error'),
    summary: 'An entry of the reviewed AI Catalog, ARD manifest or MCP catalog is not served.',
    details:
      'An entry of the reviewed AI Catalog, ARD manifest or MCP catalog (matched by `identifier`) is missing from the one the host serves, or the host serves no such document at all. Reported by the drift gate, `agent-card check --against <site>`. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Clients and search services that find the agent through this entry lose it. Deploy the reviewed catalog and manifest (agent-card build writes them), or review the removal first.',
    reportedBy: DRIFT,
  },
  'diff-entry-url-changed': {
    number: 194,
    section: 'diff',
    severity: profiles('error'),
    summary: "An entry's `url` or media type differs from the reviewed AI Catalog, ARD manifest or MCP catalog.",
    details:
      "An entry's `url`, `type` (`mediaType` in the previous AI Catalog draft) or `identifier` differs from the reviewed one: clients that followed the entry fetch another document, or read it as another format. Reported by the drift gate. Breaking changes are errors, structural ones warnings, descriptive ones info.",
    fix: 'Clients following the reviewed entry fetch something else. Deploy the reviewed catalog and manifest, or keep the old URL answering and list both.',
    reportedBy: DRIFT,
  },
  'diff-key-removed': {
    number: 196,
    section: 'diff',
    severity: profiles('error'),
    summary: 'A key of the reviewed JWK Set is not served.',
    details:
      "A key of the reviewed site's `.well-known/jwks.json` (matched by `kid`; a key without one by its RFC 7638 thumbprint, else by position) is missing from the JWK Set the host serves, or the host serves no JWK Set at all: cards and catalogs signed with it no longer verify for anyone who fetches the key set. Reported by the drift gate, `agent-card check --against <site>`. Breaking changes are errors, structural ones warnings, descriptive ones info.",
    fix: 'Signatures made with this key no longer verify. Deploy the reviewed key set (agent-card build writes it), and keep a retired key published until nothing signed with it is served.',
    reportedBy: DRIFT,
  },
  'diff-key-changed': {
    number: 197,
    section: 'diff',
    severity: profiles('error'),
    summary: "A key's material or algorithm differs from the reviewed JWK Set.",
    details:
      'The served key of a reviewed `kid` has another `kty`, `crv`, `x`, `y`, `n`, `e` or `alg`: signatures made with the reviewed key fail against it, and verifiers that pinned it see another key under the same id. A change of `use`, `key_ops` or another member is structural. Reported by the drift gate. Breaking changes are errors, structural ones warnings, descriptive ones info.',
    fix: 'Signatures made with the reviewed key fail. Deploy the reviewed key set; a new key takes a new kid, published next to the old one.',
    reportedBy: DRIFT,
  },
  'drift-not-compared': {
    number: 195,
    section: 'diff',
    severity: profiles('info'),
    summary: 'A discovery document was not compared by the drift gate, and why.',
    details:
      "The drift gate compares the card, and the AI Catalog, the ARD manifest, the MCP catalog and the JWK Set when the host serves them and the reviewed side has them. This info names each one it did not compare: the host serves none, the catalog was not requested (`--follow-catalog off`), `--against` is one card rather than the folder `agent-card build` writes, the site has no JWK Set while the host serves one (often an authorization server's keys at the same path), or the site has no file at the path of a card the catalog lists. An MCP catalog or JWK Set that neither side has is not named: a host serves them only when configured for them. The legacy path is not compared (`check` says whether it serves the same document as the card path).",
    fix: 'Nothing to do, unless the document should have been compared: pass the folder agent-card build writes (--against <dir> or rev:<dir>).',
    reportedBy: DRIFT,
  },
  'prompt-size': {
    number: 151,
    section: 'other',
    severity: profiles('info', 'warning'),
    summary: 'The public card, as a tool description a model reads, is at most 1,000 tokens.',
    details:
      'The card rendered as a tool description (its name and description, each skill with its description, tags and examples; `agent-card view --prompt` shows it) is counted in tokens with the `o200k_base` encoding. Over 1,000 tokens it is a warning in production and strict, info in development. An assistant that considers several agents reads every card in full: twenty cards of 1,000 tokens are 20,000 tokens of context before any work.',
    fix: 'Keep the public card short (a description and each skill in a sentence or two); move long descriptions, policies and examples to the extended card (capabilities.extendedAgentCard), which only authenticated callers read.',
    reportedBy: '`agent-card check`, `agent-card view --prompt`',
  },
  'registry-aws-card-size': {
    number: 152,
    section: 'other',
    severity: profiles('error'),
    summary: 'The card as JSON is at most 102,400 characters, the most AWS Agent Registry stores.',
    details:
      "AWS Agent Registry keeps an A2A card as the `data` string of an `A2aAgentCardDescriptor`, at most 102,400 characters; `agent-card export --registry aws` counts the card's compact JSON.",
    fix: 'Shorten descriptions and examples, or move skills to another card, until the card is at most 102,400 characters.',
    reportedBy: EXPORT,
  },
  'registry-aws-name': {
    number: 153,
    section: 'other',
    severity: profiles('info'),
    summary: "The card's name is a valid AWS record name, or the record takes a cleaned one.",
    details:
      "AWS record names match `[a-zA-Z0-9][a-zA-Z0-9_-./]*`; the export names the record after the card with other characters replaced, and keeps the card's name as its `displayName`.",
    fix: "Nothing to do: the registry shows the card's name as the record's displayName.",
    reportedBy: EXPORT,
  },
  'registry-aws-version': {
    number: 154,
    section: 'other',
    severity: profiles('error'),
    summary: "The card's `version` is a valid AWS `recordVersion`.",
    details:
      'AWS `recordVersion` matches `[a-zA-Z0-9.-]+`, at most 255 characters; a SemVer build part (`+…`) is refused.',
    fix: 'Use a version of letters, digits, dots and hyphens, e.g. 1.2.0.',
    reportedBy: EXPORT,
  },
  'registry-aws-description': {
    number: 155,
    section: 'other',
    severity: profiles('error'),
    summary: "The card's description fits an AWS record description (4,096 characters).",
    details: "An AWS registry record's `description` is at most 4,096 characters.",
    fix: 'Shorten the description to at most 4,096 characters.',
    reportedBy: EXPORT,
  },
  'registry-gcp-version': {
    number: 156,
    section: 'other',
    severity: profiles('error'),
    summary: 'The card speaks an A2A version Google Cloud Agent Registry indexes (1.0 or 0.3).',
    details:
      "Google Cloud Agent Registry takes A2A 1.0 (recommended) and 0.3 agent cards; `agent-card export --registry gcp` reads the version of the card's interfaces.",
    fix: 'Publish an A2A 1.0 card (agent-card migrate turns a v0.3 card into one).',
    reportedBy: EXPORT,
  },
  'registry-agntcy-required': {
    number: 157,
    section: 'other',
    severity: profiles('error'),
    summary: "The card has the name, version and description the AGNTCY directory's OASF record requires.",
    details:
      '`dirctl import --type a2a` makes an OASF record of the card, which requires a non-empty `name`, `version` and `description`.',
    fix: 'Add a non-empty name, version and description to the card.',
    reportedBy: EXPORT,
  },
  'registry-agntcy-skills': {
    number: 158,
    section: 'other',
    severity: profiles('warning'),
    summary: 'The card lists skills, by which the AGNTCY directory finds agents.',
    details:
      'The OASF record made from the card lists its skills; a card without any is hard to find in the directory.',
    fix: 'List at least one skill with an id, a name and a description.',
    reportedBy: EXPORT,
  },
} satisfies Record<string, RuleEntry>;
