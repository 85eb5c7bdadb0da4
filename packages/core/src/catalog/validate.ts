import { type Finding, toPointer, type ValidationProfile } from '../findings';
import type { CatalogRuleId } from '../rules';
import { at, isString, report, SHOW_MAX, show, type Walk } from './walk';
import { isObject } from '../validate/context';
import { readJsonText } from '../json/read';
import { signatureObjectProblem } from '../sign/catalog-did-web';
import { scalarProblem } from '../sign/jcs';
import { own, quote, type Segments } from '../validate/rules/read-json';
import { resolveProfile } from '../validate/validate';
import { checkCurrentEntry, detectDraft, reportDifferences } from './drafts';
import { publishedUrlProblems } from './published-urls';
import { registeredEntryTypeOf, urnAirOf } from './spellings';
import {
  AI_CATALOG_DRAFT,
  AI_CATALOG_DRAFT_IDS,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_MEMBERS,
  AI_CATALOG_PREVIOUS_DRAFT,
  AI_CATALOG_SPEC_VERSION,
  type AiCatalogDraftId,
  SPEC_VERSION_PATTERN,
} from './format';

/** Options of {@link validateAiCatalog}. */
export interface ValidateAiCatalogOptions {
  /** `production` makes non-https entry URLs warnings; `strict` makes unknown members errors. @default 'production' */
  profile?: ValidationProfile;
  /** Entries read per catalog (nested ones included); the rest are reported once and skipped. @default 1000 */
  maxEntries?: number;
  /** Base URL that relative entry URLs resolve against (the catalog's own URL). */
  baseUrl?: string;
  /**
   * The draft to hold the document to. `auto` reads the document's members to tell which draft
   * it follows, checks it against that one and, for the previous draft, reports each difference
   * from the current draft (`catalog-previous-draft`, info) with its fix.
   * @default 'auto'
   */
  draft?: 'auto' | AiCatalogDraftId;
}

/** What {@link validateAiCatalog} returns. */
export interface AiCatalogValidationResult {
  /** No error findings. */
  valid: boolean;
  /** Every finding, in document order. */
  findings: Finding[];
  /** The draft the document was checked against (the one it follows, with `draft: 'auto'`). */
  draft: AiCatalogDraftId;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
/** A URN (RFC 8141) or an absolute URI with a scheme (RFC 3986 §3.1). */
const URN_OR_URI = /^(urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+|[A-Za-z][A-Za-z0-9+.-]*:\S+)$/;
/**
 * Members named twice in one object (`catalog-duplicate-member`, an error): readers that keep the
 * first value and readers that keep the last would follow different entries.
 */
export function duplicateMemberFindings(paths: readonly Segments[]): Finding[] {
  return paths.map((path) => ({
    rule: 'catalog-duplicate-member' satisfies CatalogRuleId,
    severity: 'error',
    path: toPointer(path),
    message: `${at(path)}: named twice in one object; JSON parsers disagree about which value applies.`,
    hint: `Keep one ${quote(String(path[path.length - 1]), SHOW_MAX)} member: parsers that keep the first value and parsers that keep the last would follow different entries.`,
  }));
}

/** The member the current draft uses for one the previous draft had, and the reverse. */
const RENAMED: Readonly<Record<string, string>> = {
  mediaType: 'type',
  metadata: 'extensions',
  type: 'mediaType',
  extensions: 'metadata',
};

/** Checks unknown members against the draft's closed member lists (custom data goes in `extensions`, `metadata` before). */
function checkMembers(w: Walk, obj: Record<string, unknown>, path: Segments, known: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const renamed = RENAMED[key];
    report(
      w,
      'catalog-unknown-field',
      w.profile === 'strict' ? 'error' : 'warning',
      [...path, key],
      `unknown member (${quote(key, SHOW_MAX)})`,
      renamed !== undefined && known.includes(renamed)
        ? `Rename ${key} to ${renamed}: that is its name in the draft this catalog follows (${w.draft}).`
        : `Move custom data into \`${w.members.custom}\`, or fix the spelling.`,
    );
  }
}

export function checkRequiredStrings(
  w: Walk,
  obj: Record<string, unknown>,
  path: Segments,
  names: readonly string[],
): void {
  for (const name of names) {
    const value = own(obj, name);
    if (value === undefined)
      report(w, 'catalog-required-fields', 'error', [...path, name], 'is required', `Add a non-empty string ${name}.`);
    else if (!isString(value))
      report(
        w,
        'catalog-field-types',
        'error',
        [...path, name],
        `must be a non-empty string (${show(value)})`,
        `Set ${name} to a string.`,
      );
  }
}

export function checkOptionalString(w: Walk, obj: Record<string, unknown>, path: Segments, name: string): void {
  const value = own(obj, name);
  if (value !== undefined && typeof value !== 'string')
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, name],
      `must be a string (${show(value)})`,
      `Set ${name} to a string or remove it.`,
    );
}

function checkMetadata(w: Walk, obj: Record<string, unknown>, path: Segments): void {
  const name = w.members.custom;
  const value = own(obj, name);
  if (value === undefined) return;
  if (!isObject(value)) {
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, name],
      `must be an object (${show(value)})`,
      'Use an object of custom keys.',
    );
    return;
  }
  if (name === 'extensions') {
    for (const key of Object.keys(value))
      if (!EXTENSION_KEY.test(key) && !URL_KEY.test(key))
        report(
          w,
          'catalog-extension-key',
          'error',
          [...path, name, key],
          `extension keys must be a URL or a reverse-DNS name (${quote(key, SHOW_MAX)})`,
          'Key it by a name you own, e.g. com.example.region or https://example.com/extensions/region.',
        );
  } else if (Object.hasOwn(value, ''))
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, 'metadata', ''],
      'metadata keys must be non-empty',
      'Name the key, e.g. com.example.region.',
    );
}

/** A reverse-DNS extension key (`com.example.region`): two labels or more. */
const EXTENSION_KEY = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9_-]+)+$/;
/** A URL extension key (`https://…`). */
const URL_KEY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/;

export function checkUrl(w: Walk, value: string, path: Segments, what: string): void {
  let url: URL;
  try {
    url = w.baseUrl === undefined ? new URL(value) : new URL(value, w.baseUrl);
  } catch {
    report(
      w,
      'catalog-url-format',
      'error',
      path,
      `${what} is not a URL (${quote(value, SHOW_MAX)})`,
      'Use an absolute https:// URL.',
    );
    return;
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
    report(
      w,
      'catalog-url-format',
      'warning',
      path,
      `${what} is relative (${quote(value, SHOW_MAX)})`,
      'Use an absolute URL; the draft recommends them.',
    );
  }
  // The middleware's rules for the catalog it publishes, so that a catalog read from elsewhere is
  // held to them too.
  const refused = publishedUrlProblems(value, url, w.profile);
  for (const p of refused)
    report(w, 'catalog-url-format', 'error', path, `${what} ${p.problem} (${quote(p.value, SHOW_MAX)})`, p.fix);
  if (refused.some((p) => p.problem.includes('scheme'))) return;
  if (url.protocol !== 'https:' && url.protocol !== 'data:') {
    report(
      w,
      'catalog-url-format',
      w.profile === 'development' ? 'info' : 'warning',
      path,
      `${what} is not https (${quote(value, SHOW_MAX)})`,
      'Serve the artifact over https.',
    );
  }
}

function checkHost(w: Walk, host: unknown, path: Segments): void {
  if (!isObject(host)) {
    report(w, 'catalog-field-types', 'error', path, `must be an object (${show(host)})`, 'Use { displayName }.');
    return;
  }
  checkMembers(w, host, path, [...w.members.host.required, ...w.members.host.optional]);
  checkRequiredStrings(w, host, path, w.members.host.required);
  for (const name of ['identifier', 'documentationUrl', 'logoUrl']) checkOptionalString(w, host, path, name);
  for (const name of ['documentationUrl', 'logoUrl']) {
    const value = own(host, name);
    if (isString(value)) checkUrl(w, value, [...path, name], name);
  }
}

/** An entry's identifier: a URN or URI, and unique with its version (draft §"Multi-Version Entries"). */
function checkIdentifier(w: Walk, entry: Record<string, unknown>, path: Segments, seen: Map<string, number>): void {
  const identifier = own(entry, 'identifier');
  const version = own(entry, 'version');
  if (isString(identifier)) {
    if (!URN_OR_URI.test(identifier))
      report(
        w,
        'catalog-identifier-format',
        'warning',
        [...path, 'identifier'],
        `is not a URN or URI (${quote(identifier, SHOW_MAX)})`,
        'Use e.g. urn:example.com:agent:billing.',
      );
    // draft §"Multi-Version Entries": identifier + version (or identifier alone) is unique.
    const key = typeof version === 'string' ? `${identifier}\n${version}` : identifier;
    const first = seen.get(key);
    if (first !== undefined)
      report(
        w,
        'catalog-identifier-unique',
        'error',
        [...path, 'identifier'],
        `${typeof version === 'string' ? 'identifier and version repeat' : 'identifier repeats'} entries[${first}] (${quote(identifier, SHOW_MAX)})`,
        'Give each entry its own identifier, or distinct versions of one identifier.',
      );
    else seen.set(key, Number(path[path.length - 1]));
  }
}

/**
 * The entry as a reader takes it: a `urn:ai:` identifier read as `urn:air:` (a warning), an entry
 * type in another spelling read as the registered one (an info). The other checks see this copy;
 * the findings keep the entry's paths.
 */
function readSpellings(w: Walk, entry: Record<string, unknown>, path: Segments): Record<string, unknown> {
  let read = entry;
  const identifier = own(entry, 'identifier');
  const air = typeof identifier === 'string' ? urnAirOf(identifier) : undefined;
  if (air !== undefined) {
    report(
      w,
      'catalog-identifier-urn-ai',
      'warning',
      [...path, 'identifier'],
      `is spelled urn:ai:, read as ${quote(air, SHOW_MAX)} (${quote(identifier as string, SHOW_MAX)})`,
      `Write it as ${quote(air, SHOW_MAX)}: urn:air is the namespace the AI Catalog registers.`,
    );
    read = { ...read, identifier: air };
  }
  const name = w.members.entryType;
  const type = own(entry, name);
  const registered = typeof type === 'string' ? registeredEntryTypeOf(type) : undefined;
  if (registered !== undefined) {
    report(
      w,
      'catalog-entry-type-spelling',
      'info',
      [...path, name],
      `is read as ${registered} (${quote(type as string, SHOW_MAX)})`,
      `Write ${registered} exactly: readers that compare the type as written do not follow this entry.`,
    );
    read = { ...read, [name]: registered };
  }
  return read;
}

function checkEntry(w: Walk, listed: unknown, path: Segments, depth: number, seen: Map<string, number>): void {
  const entry = isObject(listed) ? readSpellings(w, listed, path) : listed;
  if (!isObject(entry)) {
    report(
      w,
      'catalog-field-types',
      'error',
      path,
      `entries must be objects (${show(entry)})`,
      w.draft === AI_CATALOG_PREVIOUS_DRAFT.id
        ? 'Use { identifier, displayName, mediaType, url }.'
        : 'Use { identifier, type, url }.',
    );
    return;
  }
  const m = w.members.entry;
  checkMembers(w, entry, path, [...m.required, ...m.content, ...m.optional]);
  checkRequiredStrings(w, entry, path, m.required);
  for (const name of ['description', 'version', 'updatedAt']) checkOptionalString(w, entry, path, name);
  if (w.draft !== AI_CATALOG_PREVIOUS_DRAFT.id) checkOptionalString(w, entry, path, 'displayName');
  checkMetadata(w, entry, path);

  const identifier = own(entry, 'identifier');
  checkIdentifier(w, entry, path, seen);

  const updatedAt = own(entry, 'updatedAt');
  if (typeof updatedAt === 'string' && !RFC3339.test(updatedAt))
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, 'updatedAt'],
      `is not an RFC 3339 timestamp (${quote(updatedAt, SHOW_MAX)})`,
      'Use e.g. 2026-03-15T10:00:00Z.',
    );

  const tags = own(entry, 'tags');
  if (tags !== undefined && (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')))
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, 'tags'],
      `must be an array of strings (${show(tags)})`,
      'Use e.g. ["billing"].',
    );

  const publisher = own(entry, 'publisher');
  if (publisher !== undefined) {
    if (!isObject(publisher))
      report(
        w,
        'catalog-field-types',
        'error',
        [...path, 'publisher'],
        `must be an object (${show(publisher)})`,
        'Use { identifier, displayName }.',
      );
    else {
      checkMembers(
        w,
        publisher,
        [...path, 'publisher'],
        [...w.members.publisher.required, ...w.members.publisher.optional],
      );
      checkRequiredStrings(w, publisher, [...path, 'publisher'], w.members.publisher.required);
    }
  }

  const trust = own(entry, 'trustManifest');
  if (w.draft !== AI_CATALOG_PREVIOUS_DRAFT.id) checkCurrentEntry(w, entry, path);
  else if (trust !== undefined) {
    const identity = own(trust, 'identity');
    if (!isObject(trust))
      report(
        w,
        'catalog-field-types',
        'error',
        [...path, 'trustManifest'],
        `must be an object (${show(trust)})`,
        'Use { identity, … } or remove it.',
      );
    else if (identity !== identifier)
      // draft §"Identity": consumers MUST reject a manifest whose identity is not the entry's identifier.
      report(
        w,
        'catalog-trust-identity',
        'error',
        [...path, 'trustManifest', 'identity'],
        `does not match the entry identifier (${show(identity)})`,
        'Set trustManifest.identity to the entry identifier.',
      );
  }

  const hasUrl = Object.hasOwn(entry, 'url');
  const hasData = Object.hasOwn(entry, 'data');
  if (hasUrl === hasData) {
    report(
      w,
      'catalog-entry-content',
      'error',
      path,
      hasUrl ? 'has both url and data' : 'has neither url nor data',
      'Give exactly one: url (where the artifact is) or data (the artifact inline).',
    );
  }
  const url = own(entry, 'url');
  if (hasUrl && !isString(url))
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, 'url'],
      `must be a non-empty string (${show(url)})`,
      'Use an absolute https:// URL.',
    );
  else if (isString(url)) checkUrl(w, url, [...path, 'url'], 'url');

  if (hasData && own(entry, w.members.entryType) === AI_CATALOG_MEDIA_TYPE) {
    // An inline nested catalog is checked like the root, to the depth the draft recommends.
    if (depth >= AI_CATALOG_MAX_DEPTH)
      report(
        w,
        'catalog-nesting-depth',
        'error',
        [...path, 'data'],
        `nests catalogs deeper than ${AI_CATALOG_MAX_DEPTH} levels`,
        'Flatten the hierarchy, or reference the deeper catalog by url.',
      );
    else checkCatalog(w, own(entry, 'data'), [...path, 'data'], depth + 1);
  }
}

function checkSpecVersion(w: Walk, value: unknown, path: Segments): void {
  if (value === undefined) {
    report(
      w,
      'catalog-required-fields',
      'error',
      path,
      'is required',
      `Add "specVersion": "${AI_CATALOG_SPEC_VERSION}".`,
    );
    return;
  }
  const m = typeof value === 'string' ? SPEC_VERSION_PATTERN.exec(value) : null;
  if (m === null) {
    report(
      w,
      'catalog-spec-version',
      'error',
      path,
      `must be "Major.Minor" (${show(value)})`,
      `Use "${AI_CATALOG_SPEC_VERSION}".`,
    );
    return;
  }
  const [major, minor] = AI_CATALOG_SPEC_VERSION.split('.').map(Number) as [number, number];
  if (Number(m[1]) !== major)
    report(
      w,
      'catalog-spec-version',
      'error',
      path,
      `major version ${m[1]} is not supported (${show(value)})`,
      `This checker reads AI Catalog ${major}.x; publish "${AI_CATALOG_SPEC_VERSION}".`,
    );
  else if (Number(m[2]) > minor)
    report(
      w,
      'catalog-spec-version',
      'info',
      path,
      `is newer than ${AI_CATALOG_SPEC_VERSION} (${show(value)})`,
      'Members this checker does not know are ignored.',
    );
}

function checkCatalog(w: Walk, value: unknown, path: Segments, depth: number): void {
  if (!isObject(value)) {
    report(
      w,
      'catalog-root-object',
      'error',
      path,
      `must be a JSON object (${show(value)})`,
      'Publish { "specVersion": "1.0", "entries": [] }.',
    );
    return;
  }
  checkMembers(w, value, path, [...w.members.catalog.required, ...w.members.catalog.optional]);
  const signature = own(value, 'signature');
  if (signature !== undefined && w.draft !== AI_CATALOG_PREVIOUS_DRAFT.id && path.length === 0)
    checkSignatureFormat(w, signature, [...path, 'signature']);
  checkSpecVersion(w, own(value, 'specVersion'), [...path, 'specVersion']);
  const host = own(value, 'host');
  if (host !== undefined) checkHost(w, host, [...path, 'host']);
  checkMetadata(w, value, path);
  const entries = own(value, 'entries');
  if (entries === undefined) {
    report(
      w,
      'catalog-required-fields',
      'error',
      [...path, 'entries'],
      'is required',
      'Add "entries": [ … ] (it may be empty).',
    );
    return;
  }
  if (!Array.isArray(entries)) {
    report(
      w,
      'catalog-field-types',
      'error',
      [...path, 'entries'],
      `must be an array (${show(entries)})`,
      'Use an array of entries.',
    );
    return;
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    if (w.entriesRead >= w.maxEntries) {
      report(
        w,
        'catalog-entries-limit',
        'error',
        [...path, 'entries'],
        `more than ${w.maxEntries} entries; the rest were not read`,
        'Split the catalog into nested catalogs.',
      );
      return;
    }
    w.entriesRead++;
    checkEntry(w, entries[i], [...path, 'entries', i], depth, seen);
  }
}

/**
 * The catalog `signature`: the current Signature object, or the earlier detached JWS string
 * (read, with a warning that names the current form).
 */
function checkSignatureFormat(w: Walk, value: unknown, path: Segments): void {
  if (isObject(value)) {
    const problem = signatureObjectProblem(value);
    if (problem !== undefined)
      report(
        w,
        'catalog-signature-format',
        'error',
        path,
        problem,
        'Give signature { signer, profile: "did-web-v1", issuedAt, jws } with jws a detached compact JWS ("header..signature").',
      );
    return;
  }
  if (typeof value === 'string' && /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/.test(value)) {
    report(
      w,
      'catalog-signature-previous-form',
      'warning',
      path,
      'is a detached JWS string, the form of an earlier draft; the current specification carries a Signature object { signer, profile, issuedAt, jws }',
      "Sign the catalog in the Signature object form with a did:web signer (the middleware's catalog: { signer: 'did:web:…' }, or signAiCatalogDidWeb), and serve the signer's /.well-known/did.json.",
    );
    return;
  }
  report(
    w,
    'catalog-signature-format',
    'error',
    path,
    `is not a detached JWS in compact form (${show(value)})`,
    'Sign the RFC 8785 form of the catalog without signature and keep "header..signature" (empty payload), or remove signature.',
  );
}

/** One value of the JCS walk: its parent and its name or index there, so that paths cost nothing until reported. */
interface JcsNode {
  value: unknown;
  parent?: JcsNode;
  key?: string | number;
}

function pathOf(node: JcsNode): Segments {
  const path: (string | number)[] = [];
  for (let n: JcsNode | undefined = node; n?.key !== undefined; n = n.parent) path.push(n.key);
  return path.reverse();
}

/**
 * Where the document is not valid RFC 8785 input: lone surrogates and numbers JSON cannot carry.
 * Walked with an explicit stack (the text may nest to any depth), at most 8 findings.
 */
function checkJcsInput(w: Walk, doc: unknown): void {
  let left = 8;
  const hint = 'Replace lone surrogates with the characters meant, and write numbers a double cannot hold as strings.';
  const stack: JcsNode[] = [{ value: doc }];
  while (stack.length > 0 && left > 0) {
    const node = stack.pop()!;
    const { value } = node;
    const problem = scalarProblem(value);
    if (problem !== undefined) {
      left--;
      report(
        w,
        'catalog-jcs-input',
        'error',
        pathOf(node),
        `is not valid RFC 8785 input (${problem.toLowerCase()})`,
        hint,
      );
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, key: i });
    } else if (isObject(value)) {
      const names = Object.keys(value);
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i]!;
        if (scalarProblem(name) !== undefined && left > 0) {
          left--;
          report(
            w,
            'catalog-jcs-input',
            'error',
            pathOf(node),
            'names a member with a lone surrogate, which RFC 8785 cannot write',
            hint,
          );
        }
        stack.push({ value: value[name], parent: node, key: name });
      }
    }
  }
}

/**
 * Validates an AI Catalog document (the parsed JSON, or its text) and says which draft it
 * follows. Never throws; every problem is a finding `{ rule, severity, path, message, hint }`
 * with a `catalog-*` rule id (see the catalog rules in core's docs/serving.md). Inline nested
 * catalogs are checked to the draft's recommended depth of 4; at most `maxEntries` entries are
 * read in all.
 *
 * Both drafts are read: a catalog written to the previous one (`mediaType`, `metadata`) is
 * checked against that draft, and each of its differences from the current draft is an info
 * finding `catalog-previous-draft` whose hint is the fix.
 *
 * @example
 * const { valid, findings, draft } = validateAiCatalog(JSON.parse(text))
 * @see https://github.com/Agent-Card/ai-catalog/blob/0379c868c8811f93e168caaa06dd42517449f6ac/specification/ai-catalog.md
 */
export function validateAiCatalog(value: unknown, options: ValidateAiCatalogOptions = {}): AiCatalogValidationResult {
  const asked = options.draft ?? 'auto';
  const fixed = (AI_CATALOG_DRAFT_IDS as readonly string[]).includes(asked) ? (asked as AiCatalogDraftId) : undefined;
  const w: Walk = {
    draft: fixed ?? AI_CATALOG_DRAFT.id,
    members: AI_CATALOG_MEMBERS[fixed ?? AI_CATALOG_DRAFT.id],
    profile: options.profile === undefined ? 'production' : resolveProfile(options.profile),
    maxEntries:
      typeof options.maxEntries === 'number' && options.maxEntries > 0 ? Math.floor(options.maxEntries) : 1000,
    baseUrl: options.baseUrl,
    findings: [],
    entriesRead: 0,
  };
  let doc = value;
  if (typeof value === 'string') {
    // Any depth: inline catalogs past the draft's depth are reported as such.
    const read = readJsonText(value, { maxDepth: Number.POSITIVE_INFINITY, inexactNumbers: 8 });
    if (!read.ok) {
      const reason = read.error === 'syntax' ? quote(read.reason, SHOW_MAX) : 'parse error';
      report(w, 'catalog-json-parse', 'error', [], `is not JSON (${reason})`, 'Serve a UTF-8 JSON object.');
      return { valid: false, findings: w.findings, draft: w.draft };
    }
    doc = read.value;
    w.findings.push(...duplicateMemberFindings(read.duplicates));
    for (const inexact of read.inexact)
      report(
        w,
        'catalog-jcs-input',
        'error',
        inexact.path,
        `is a number a double does not hold exactly (${quote(inexact.literal, SHOW_MAX)}), so RFC 8785 writes another value`,
        'Write numbers a double cannot hold as strings.',
      );
  }
  if (fixed === undefined) {
    w.draft = detectDraft(doc, w.maxEntries);
    w.members = AI_CATALOG_MEMBERS[w.draft];
  }
  checkCatalog(w, doc, [], 1);
  checkJcsInput(w, doc);
  if (fixed === undefined && w.draft === AI_CATALOG_PREVIOUS_DRAFT.id) reportDifferences(w, doc);
  return { valid: !w.findings.some((f) => f.severity === 'error'), findings: w.findings, draft: w.draft };
}
