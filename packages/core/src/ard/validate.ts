// Validation of an ARD manifest (the document at /.well-known/ard.json) and its entries: the
// entry schema of the specification (Appendix D.1) and its discovery constraints (D.2).
import { type Finding, type Severity, toPointer, type ValidationProfile } from '../findings';
import { readJsonText } from '../json/read';
import { isObject } from '../validate/context';
import { own, type Segments } from '../validate/rules/read-json';
import type { ArdRuleId } from '../rules';
import { quote, showFound } from '../util';
import {
  ARD_IDENTIFIER,
  ARD_IDENTIFIER_MAX_LENGTH,
  ARD_PATH,
  ARD_QUERIES,
  ARD_REQUIRED_TERMS,
  ARD_SPEC,
} from './format';

/** Options of {@link validateArdManifest}. */
export interface ValidateArdManifestOptions {
  /** `strict` makes the discovery warnings (queries, media type form) errors. @default 'production' */
  profile?: ValidationProfile;
  /** Entries read; the rest are reported once and skipped. @default 1000 */
  maxEntries?: number;
}

/** What {@link validateArdManifest} returns. */
export interface ArdValidationResult {
  /** No error findings. */
  valid: boolean;
  /** Every finding, in document order. */
  findings: Finding[];
}

const SHOW_MAX = 80;
/** `type/subtype` with optional parameters (RFC 6838 names, RFC 9110 parameters). */
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]{0,126}\/[A-Za-z0-9][\w!#$&^.+-]{0,126}(\s*;\s*[^;]{1,256}){0,16}$/;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

interface Walk {
  strict: boolean;
  findings: Finding[];
}

function at(path: Segments): string {
  let out = 'ard';
  for (const s of path)
    out += typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  return out;
}

function report(w: Walk, rule: ArdRuleId, severity: Severity, path: Segments, what: string, hint: string): void {
  w.findings.push({ rule, severity, path: toPointer(path), message: `${at(path)}: ${what}.`, hint });
}

/** A discovery constraint: a warning, an error under `strict`. */
function advise(w: Walk, rule: ArdRuleId, path: Segments, what: string, hint: string): void {
  report(w, rule, w.strict ? 'error' : 'warning', path, what, hint);
}

/** The domain a trust identity names (`spiffe://d/…`, `https://d/…`, `did:web:d…`), if any. */
function identityDomain(identity: string): string | undefined {
  const did = /^did:web:([^:/?#%]+)/.exec(identity);
  if (did !== null) return did[1]!.toLowerCase();
  const url = /^(?:spiffe|https?):\/\/([^/?#:@]+)/.exec(identity);
  return url === null ? undefined : url[1]!.toLowerCase();
}

function checkIdentifier(w: Walk, entry: Record<string, unknown>, path: Segments, seen: Map<string, number>): void {
  const id = entry.identifier;
  if (typeof id !== 'string') return;
  const index = path[path.length - 1] as number;
  const first = seen.get(id);
  if (first !== undefined)
    report(
      w,
      'ard-identifier-unique',
      'error',
      [...path, 'identifier'],
      `repeats entries[${first}] (${showFound(id)})`,
      'Give each resource its own identifier: registries key their index on it.',
    );
  else seen.set(id, index);
  const match = id.length <= ARD_IDENTIFIER_MAX_LENGTH ? ARD_IDENTIFIER.exec(id) : null;
  if (match === null) {
    report(
      w,
      'ard-identifier-form',
      'error',
      [...path, 'identifier'],
      `is not a domain-anchored URN urn:air:<publisher>:<namespace>:<name> (${showFound(id)})`,
      "Use e.g. 'urn:air:example.com:agent:billing': the publisher is the domain you control.",
    );
    return;
  }
  const trust = entry.trustManifest;
  const identity = isObject(trust) ? trust.identity : undefined;
  const domain = typeof identity === 'string' ? identityDomain(identity) : undefined;
  const publisher = match[1]!.toLowerCase();
  if (domain !== undefined && domain !== publisher && !domain.endsWith(`.${publisher}`))
    report(
      w,
      'ard-publisher-binding',
      'error',
      [...path, 'trustManifest', 'identity'],
      `names ${showFound(domain)}, not the identifier's publisher ${showFound(publisher)}`,
      'The trust identity must belong to the publisher domain of the identifier (ARD §4.5.1).',
    );
}

function checkRequired(w: Walk, entry: Record<string, unknown>, path: Segments): void {
  for (const term of ARD_REQUIRED_TERMS) {
    const value = own(entry, term);
    if (typeof value !== 'string' || value.trim() === '')
      report(
        w,
        'ard-entry-required',
        'error',
        [...path, term],
        value === undefined ? 'is missing' : `must be a non-empty string (${showFound(value)})`,
        term === 'type'
          ? "Give the artifact's media type, e.g. 'application/a2a-agent-card+json'."
          : term === 'displayName'
            ? "Give the resource's name as people read it."
            : "Give a domain-anchored URN, e.g. 'urn:air:example.com:agent:billing'.",
      );
  }
  const type = entry.type;
  if (typeof type === 'string' && type.trim() !== '' && !(type.length <= 512 && MEDIA_TYPE.test(type)))
    advise(
      w,
      'ard-media-type',
      [...path, 'type'],
      `is not a media type type/subtype (${showFound(type)})`,
      "Use an IANA media type, e.g. 'application/a2a-agent-card+json'.",
    );
}

function checkContent(w: Walk, entry: Record<string, unknown>, path: Segments): void {
  const hasUrl = Object.hasOwn(entry, 'url');
  const hasData = Object.hasOwn(entry, 'data');
  if (hasUrl === hasData)
    report(
      w,
      'ard-value-or-reference',
      'error',
      path,
      hasUrl ? 'carries both url and data' : 'carries neither url nor data',
      'Give exactly one: url (where the artifact is) or data (the artifact inline).',
    );
  if (hasUrl && (typeof entry.url !== 'string' || !ABSOLUTE_URI.test(entry.url)))
    report(
      w,
      'ard-url',
      'error',
      [...path, 'url'],
      `must be an absolute URL (${showFound(entry.url)})`,
      "Use e.g. 'https://example.com/.well-known/agent-card.json'.",
    );
  if (hasData && !isObject(entry.data))
    report(
      w,
      'ard-data',
      'error',
      [...path, 'data'],
      `must be an object (${showFound(entry.data)})`,
      'Inline the artifact document.',
    );
}

function checkQueries(w: Walk, entry: Record<string, unknown>, path: Segments): void {
  const queries = own(entry, 'representativeQueries');
  const where = [...path, 'representativeQueries'];
  const fix = `List ${ARD_QUERIES.min} to ${ARD_QUERIES.max} things a user would ask for that this resource serves (for an A2A agent: its skills' examples).`;
  if (queries === undefined) {
    advise(w, 'ard-representative-queries', where, 'is missing, so search cannot find the entry', fix);
    return;
  }
  if (!Array.isArray(queries) || queries.some((q) => typeof q !== 'string')) {
    report(w, 'ard-representative-queries', 'error', where, `must be an array of strings (${showFound(queries)})`, fix);
    return;
  }
  if (queries.length < ARD_QUERIES.min || queries.length > ARD_QUERIES.max)
    advise(w, 'ard-representative-queries', where, `has ${queries.length} queries`, fix);
}

function checkOptional(w: Walk, entry: Record<string, unknown>, path: Segments): void {
  const context = own(entry, '@context');
  if (context !== undefined && typeof context !== 'string' && !isObject(context) && !Array.isArray(context))
    report(
      w,
      'ard-context',
      'error',
      [...path, '@context'],
      `must be a string, an object or an array (${showFound(context)})`,
      `Use the base context ${quote('https://agenticresourcediscovery.org/context/v1', SHOW_MAX)}.`,
    );
  for (const term of ['capabilities', 'tags'])
    if (own(entry, term) !== undefined) {
      const list = own(entry, term);
      if (!Array.isArray(list) || list.some((x) => typeof x !== 'string'))
        report(
          w,
          'ard-string-list',
          'error',
          [...path, term],
          `must be an array of strings (${showFound(list)})`,
          'List short strings.',
        );
    }
  const trust = own(entry, 'trustManifest');
  if (trust !== undefined && (!isObject(trust) || typeof trust.identity !== 'string' || trust.identity === ''))
    report(
      w,
      'ard-trust-manifest',
      'error',
      [...path, 'trustManifest'],
      isObject(trust) ? 'has no identity' : `must be an object (${showFound(trust)})`,
      "Give trustManifest.identity, e.g. 'did:web:example.com', or leave trustManifest out.",
    );
}

function checkEntry(w: Walk, entry: unknown, i: number, seen: Map<string, number>): void {
  const path: Segments = ['entries', i];
  if (!isObject(entry)) {
    report(
      w,
      'ard-entry-object',
      'error',
      path,
      `must be an object (${showFound(entry)})`,
      'Each entry describes one resource as a JSON object.',
    );
    return;
  }
  checkRequired(w, entry, path);
  checkIdentifier(w, entry, path, seen);
  checkContent(w, entry, path);
  checkQueries(w, entry, path);
  checkOptional(w, entry, path);
}

/**
 * Validates an ARD manifest, the document served at `/.well-known/ard.json` (ARD v0.91 §5.1): an
 * object with an `entries` array, each entry carrying `identifier` (a `urn:air:` URN),
 * `displayName`, `type` and exactly one of `url` and `data`. Pass the parsed value or the text
 * (text is read by the one untrusted-JSON reader: members named twice are errors).
 *
 * Errors are what the specification's entry schema rejects, plus identifiers named twice and a
 * trust identity outside the identifier's publisher domain (§4.5.1). Warnings are its discovery
 * constraints (Appendix D.2): `representativeQueries` missing or outside 2–5, a `type` that is
 * not a media type; `strict` makes them errors.
 *
 * @example
 * const { valid, findings } = validateArdManifest(await (await fetch(`${origin}/.well-known/ard.json`)).text())
 * @see https://github.com/ards-project/ard-spec/blob/04afa6cb03012020afc89a41d51b891bc5c5e7b6/spec/ard.md#51-discovery-mechanisms
 */
export function validateArdManifest(value: unknown, options: ValidateArdManifestOptions = {}): ArdValidationResult {
  const w: Walk = { strict: options.profile === 'strict', findings: [] };
  const maxEntries =
    typeof options.maxEntries === 'number' && options.maxEntries > 0 ? Math.floor(options.maxEntries) : 1000;
  let doc = value;
  if (typeof value === 'string') {
    const read = readJsonText(value, { inexactNumbers: 0 });
    if (!read.ok) {
      const reason = read.error === 'syntax' ? quote(read.reason, SHOW_MAX) : read.error;
      report(
        w,
        'ard-json-parse',
        'error',
        [],
        `is not JSON (${reason})`,
        'Serve a UTF-8 JSON object with an entries array.',
      );
      return { valid: false, findings: w.findings };
    }
    doc = read.value;
    for (const p of read.duplicates)
      report(
        w,
        'ard-duplicate-member',
        'error',
        p,
        'is named twice in one object',
        'Keep one: parsers that keep the first value and parsers that keep the last disagree.',
      );
  }
  const entries = isObject(doc) ? own(doc, 'entries') : undefined;
  if (!Array.isArray(entries)) {
    report(
      w,
      'ard-entries',
      'error',
      isObject(doc) ? ['entries'] : [],
      isObject(doc)
        ? entries === undefined
          ? 'is missing'
          : `must be an array (${showFound(entries)})`
        : `must be an object (${showFound(doc)})`,
      `Serve { "entries": [ … ] } at ${ARD_PATH} (ARD v${ARD_SPEC.version} §5.1).`,
    );
    return { valid: false, findings: w.findings };
  }
  const seen = new Map<string, number>();
  const count = Math.min(entries.length, maxEntries);
  for (let i = 0; i < count; i++) checkEntry(w, entries[i], i, seen);
  if (entries.length > maxEntries)
    report(
      w,
      'ard-max-entries',
      'warning',
      ['entries'],
      `has ${entries.length} entries; the first ${maxEntries} were read`,
      'Split the resources into fewer, or raise maxEntries.',
    );
  return { valid: !w.findings.some((f) => f.severity === 'error'), findings: w.findings };
}
