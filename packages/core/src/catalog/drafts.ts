// Which draft a catalog follows, what the current draft adds to an entry's checks, and how a
// catalog written to the previous draft differs from the current one (each difference with its fix).
import { coverageProblem, signatureObjectProblem } from '../sign/catalog-did-web';
import { isObject } from '../validate/context';
import type { Segments } from '../validate/rules/read-json';
import { own } from '../validate/rules/read-json';
import {
  A2A_ENTRY_MEDIA_TYPES,
  AI_CATALOG_DRAFT,
  AI_CATALOG_MAX_DEPTH,
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PREVIOUS_DRAFT,
  type AiCatalogDraftId,
  MCP_SERVER_CARD_ENTRY_TYPE,
  URN_AIR_PATTERN,
} from './format';
import { showFound } from '../util';
import { report, type Walk } from './walk';

/** A digest the current draft accepts: SHA-256 or stronger, lowercase hex (§"Digest Format"). */
const DIGEST = /^(sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128})$/;

/** Artifacts that carry their own name and description (an A2A card, an MCP Server Card). */
const SELF_DESCRIBING = new Set([...A2A_ENTRY_MEDIA_TYPES, MCP_SERVER_CARD_ENTRY_TYPE]);

/** Members only the previous draft has, and members only the current one has, per object. */
function markers(obj: Record<string, unknown>): { previous: number; current: number } {
  let previous = 0;
  let current = 0;
  if (Object.hasOwn(obj, 'metadata')) previous++;
  if (Object.hasOwn(obj, 'extensions')) current++;
  return { previous, current };
}

/**
 * The draft a document follows, from its members: `mediaType` or `metadata` (and no `type`,
 * `extensions`, `signature`, `trustManifests` or `digest`) is the previous draft; anything else,
 * an empty catalog included, is held to the current one.
 */
export function detectDraft(doc: unknown, maxEntries: number): AiCatalogDraftId {
  if (!isObject(doc)) return AI_CATALOG_DRAFT.id;
  const root = markers(doc);
  let previous = root.previous;
  let current = root.current + (Object.hasOwn(doc, 'signature') ? 1 : 0);
  const host = own(doc, 'host');
  if (isObject(host) && Object.hasOwn(host, 'trustManifest')) previous++;
  const entries = own(doc, 'entries');
  if (Array.isArray(entries))
    for (const entry of entries.slice(0, maxEntries)) {
      if (!isObject(entry)) continue;
      const m = markers(entry);
      previous += m.previous + (Object.hasOwn(entry, 'mediaType') ? 1 : 0);
      current += m.current;
      for (const name of ['type', 'trustManifests', 'digest']) if (Object.hasOwn(entry, name)) current++;
    }
  return previous > 0 && current === 0 ? AI_CATALOG_PREVIOUS_DRAFT.id : AI_CATALOG_DRAFT.id;
}

/** The publisher domain of a `urn:air` identifier, lowercased. */
export function publisherOf(identifier: unknown): string | undefined {
  if (typeof identifier !== 'string') return undefined;
  return URN_AIR_PATTERN.exec(identifier)?.[1]?.toLowerCase();
}

/** The domain an identity URI names: a URL's host, a `did:web`'s domain, a SPIFFE trust domain. */
function identityDomain(identity: string): string | undefined {
  const air = publisherOf(identity);
  if (air !== undefined) return air;
  const did = /^did:web:([^:/?#]+)/i.exec(identity);
  if (did) return decodeURIComponent(did[1]!).toLowerCase();
  try {
    const host = new URL(identity).hostname;
    return host === '' ? undefined : host.toLowerCase();
  } catch {
    return undefined;
  }
}

const SUBSTANTIVE = ['signature', 'attestations', 'provenance', 'trustSchema'];

/**
 * A Trust Manifest of the current specification (§"Trust Manifest"): its `contributor`, its
 * substance, and when signed, the Signature object and the subject binding its entry.
 */
function checkContributorManifest(
  w: Walk,
  trust: Record<string, unknown>,
  entry: Record<string, unknown>,
  path: Segments,
): void {
  const contributor = own(trust, 'contributor');
  if (typeof contributor !== 'string' || contributor === '')
    report(
      w,
      'catalog-required-fields',
      'error',
      [...path, 'contributor'],
      'is required',
      'Add the contributor URI (e.g. did:web:assessor.example).',
    );
  const signature = own(trust, 'signature');
  if (signature !== undefined) {
    const problem = isObject(signature) ? signatureObjectProblem(signature) : 'is not a Signature object';
    if (problem !== undefined)
      report(
        w,
        'catalog-signature-format',
        'error',
        [...path, 'signature'],
        problem,
        'Give signature { signer, profile: "did-web-v1", issuedAt, jws } with jws a detached compact JWS ("header..signature").',
      );
    else if ((signature as Record<string, unknown>).signer !== contributor)
      report(
        w,
        'catalog-trust-manifest-subject',
        'error',
        [...path, 'signature', 'signer'],
        `is not the contributor (${showFound((signature as Record<string, unknown>).signer)})`,
        'Sign the manifest again with its subject copied from the entry (identifier, type, version, digest, url), as the contributor.',
      );
    const coverage = coverageProblem(entry, trust);
    if (coverage !== undefined)
      report(
        w,
        'catalog-trust-manifest-subject',
        'error',
        [...path, 'subject'],
        coverage,
        'Sign the manifest again with its subject copied from the entry (identifier, type, version, digest, url), as the contributor.',
      );
  }
  const substantive = [...SUBSTANTIVE, 'extensions'].some((name) => {
    const value = own(trust, name);
    return Array.isArray(value)
      ? value.length > 0
      : isObject(value) && name === 'extensions'
        ? Object.keys(value).length > 0
        : value !== undefined;
  });
  if (!substantive)
    report(
      w,
      'catalog-trust-manifest-empty',
      'warning',
      path,
      'carries no signature, attestations, provenance, trustSchema or extensions, so readers treat it as absent',
      'Add trust evidence, or leave the manifest out.',
    );
}

/** One Trust Manifest of an entry, against the current draft's §"Identity" and §"Manifest Validity". */
function checkTrustManifest(
  w: Walk,
  trust: unknown,
  identifier: unknown,
  path: Segments,
  entry?: Record<string, unknown>,
): void {
  if (!isObject(trust)) {
    report(
      w,
      'catalog-field-types',
      'error',
      path,
      `must be an object (${showFound(trust)})`,
      'Use { identity, … } or remove it.',
    );
    return;
  }
  if (entry !== undefined && (own(trust, 'contributor') !== undefined || own(trust, 'identity') === undefined)) {
    checkContributorManifest(w, trust, entry, path);
    return;
  }
  const identity = own(trust, 'identity');
  if (typeof identity !== 'string' || identity === '') {
    report(
      w,
      'catalog-required-fields',
      'error',
      [...path, 'identity'],
      'is required',
      'Add the identity URI (a DID, SPIFFE ID or URL).',
    );
    return;
  }
  const publisher = publisherOf(identifier);
  const domain = identityDomain(identity);
  // Consumers MUST reject a manifest whose identity domain does not align with a urn:air publisher.
  if (publisher !== undefined && (domain === undefined || (domain !== publisher && !domain.endsWith(`.${publisher}`))))
    report(
      w,
      'catalog-trust-identity',
      'error',
      [...path, 'identity'],
      `does not align with the identifier's publisher ${publisher} (${showFound(identity)})`,
      `Use an identity in ${publisher}, e.g. did:web:${publisher}.`,
    );
  const substantive = SUBSTANTIVE.some((name) => {
    const value = own(trust, name);
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });
  if (!substantive)
    report(
      w,
      'catalog-trust-manifest-empty',
      'warning',
      path,
      'carries no signature, attestations, provenance or trustSchema, so readers treat it as absent',
      'Add trust evidence, or leave trustManifest out.',
    );
}

/** What the current draft adds to an entry's checks: its digest, its Trust Manifests, restated members. */
export function checkCurrentEntry(w: Walk, entry: Record<string, unknown>, path: Segments): void {
  const identifier = own(entry, 'identifier');
  const digest = own(entry, 'digest');
  if (digest !== undefined && (typeof digest !== 'string' || !DIGEST.test(digest)))
    report(
      w,
      'catalog-digest-format',
      'error',
      [...path, 'digest'],
      `is not sha256:, sha384: or sha512: with lowercase hex (${showFound(digest)})`,
      'Write sha256: and the 64 hex digits of the SHA-256 of the exact bytes served at url.',
    );
  const trust = own(entry, 'trustManifest');
  if (trust !== undefined) checkTrustManifest(w, trust, identifier, [...path, 'trustManifest']);
  const trusts = own(entry, 'trustManifests');
  if (trusts !== undefined) {
    if (!Array.isArray(trusts))
      report(
        w,
        'catalog-field-types',
        'error',
        [...path, 'trustManifests'],
        `must be an array (${showFound(trusts)})`,
        'Use one Trust Manifest per contributor.',
      );
    else
      for (const [i, t] of trusts.slice(0, 100).entries())
        checkTrustManifest(w, t, identifier, [...path, 'trustManifests', i], entry);
  }
  const type = own(entry, 'type');
  if (typeof type === 'string' && SELF_DESCRIBING.has(type))
    for (const name of ['displayName', 'description'])
      if (typeof own(entry, name) === 'string')
        report(
          w,
          'catalog-entry-restates-artifact',
          'info',
          [...path, name],
          `restates what the artifact itself carries (${showFound(own(entry, name))})`,
          `Leave ${name} out unless it deliberately overrides the artifact's own: readers take it from the artifact, and a copy drifts.`,
        );
}

interface Difference {
  path: Segments;
  what: string;
  fix: string;
}

/** Each difference of one previous-draft entry from the current draft. */
function entryDifferences(entry: Record<string, unknown>, path: Segments, out: Difference[]): void {
  if (Object.hasOwn(entry, 'mediaType'))
    out.push({
      path: [...path, 'mediaType'],
      what: 'is named type in the current draft (ADR-0014)',
      fix: 'Rename mediaType to type.',
    });
  if (Object.hasOwn(entry, 'metadata'))
    out.push({
      path: [...path, 'metadata'],
      what: 'is replaced by extensions in the current draft',
      fix: 'Rename metadata to extensions and key each value by a URL or a reverse-DNS name (com.example.region).',
    });
  const type = own(entry, 'mediaType');
  if (typeof type === 'string' && SELF_DESCRIBING.has(type))
    for (const name of ['displayName', 'description', 'version'])
      if (Object.hasOwn(entry, name))
        out.push({
          path: [...path, name],
          what: 'restates what the artifact carries; the current draft says to leave it out',
          fix: `Remove ${name}: readers take it from the artifact (set it only to override the artifact's own).`,
        });
  const identifier = own(entry, 'identifier');
  if (typeof identifier === 'string' && publisherOf(identifier) === undefined)
    out.push({
      path: [...path, 'identifier'],
      what: `is not a urn:air identifier (${showFound(identifier)})`,
      fix: 'Use urn:air:{your domain}:{namespace}:{name}, which stays the same when the URL changes.',
    });
}

/** Each difference of a previous-draft catalog object (and its inline nested catalogs) from the current draft. */
function catalogDifferences(doc: unknown, path: Segments, depth: number, max: number, out: Difference[]): void {
  if (!isObject(doc)) return;
  if (Object.hasOwn(doc, 'metadata'))
    out.push({
      path: [...path, 'metadata'],
      what: 'is replaced by extensions in the current draft',
      fix: 'Rename metadata to extensions and key each value by a URL or a reverse-DNS name (com.example.region).',
    });
  const host = own(doc, 'host');
  if (isObject(host) && Object.hasOwn(host, 'trustManifest'))
    out.push({
      path: [...path, 'host', 'trustManifest'],
      what: 'has no place in the current draft (ADR-0026)',
      fix: 'Remove it; sign the catalog (its signature member) for catalog-level integrity.',
    });
  const entries = own(doc, 'entries');
  if (!Array.isArray(entries)) return;
  entries.slice(0, max).forEach((entry, i) => {
    if (!isObject(entry) || out.length >= max) return;
    entryDifferences(entry, [...path, 'entries', i], out);
    if (own(entry, 'mediaType') === AI_CATALOG_MEDIA_TYPE && depth < AI_CATALOG_MAX_DEPTH)
      catalogDifferences(own(entry, 'data'), [...path, 'entries', i, 'data'], depth + 1, max, out);
  });
}

/**
 * Reports a catalog written to the previous draft: one `catalog-previous-draft` info finding that
 * says so, then one per difference from the current draft, each with its fix.
 */
export function reportDifferences(w: Walk, doc: unknown): void {
  const out: Difference[] = [];
  catalogDifferences(doc, [], 1, MAX_DIFFERENCES + 1, out);
  report(
    w,
    'catalog-previous-draft',
    'info',
    [],
    `follows the previous AI Catalog draft (${AI_CATALOG_PREVIOUS_DRAFT.id}); the current draft is ${AI_CATALOG_DRAFT.id}, with ${out.length > MAX_DIFFERENCES ? `more than ${MAX_DIFFERENCES} differences, the first ${MAX_DIFFERENCES}` : `${out.length} difference${out.length === 1 ? '' : 's'}`} below`,
    'Apply the fixes of the catalog-previous-draft findings to follow the current draft.',
  );
  for (const d of out.slice(0, MAX_DIFFERENCES)) report(w, 'catalog-previous-draft', 'info', d.path, d.what, d.fix);
}

/** Differences listed one by one; a catalog of thousands of entries repeats the same few. */
const MAX_DIFFERENCES = 50;
