/**
 * The ARD (Agentic Resource Discovery) format, in one place: every fact taken from the
 * specification (version, path, link relation, base context, which terms an entry must carry,
 * the identifier form, the query count) lives here, so following a new version is one edit to
 * this file and its tests.
 *
 * Implemented version: ards-project/ard-spec `spec/ard.md` v0.91 (2026-08-26) at commit
 * {@link ARD_SPEC}.commit.
 *
 * @see https://github.com/ards-project/ard-spec/blob/04afa6cb03012020afc89a41d51b891bc5c5e7b6/spec/ard.md
 * @packageDocumentation
 */

/** The version of the specification the format follows (pinned: drafts change in place). */
export const ARD_SPEC = Object.freeze({
  version: '0.91',
  repository: 'https://github.com/ards-project/ard-spec',
  path: 'spec/ard.md',
  commit: '04afa6cb03012020afc89a41d51b891bc5c5e7b6',
  date: '2026-08-26',
});

/** The well-known path of a host's ARD manifest (§5.1 "Well-Known URI"). */
export const ARD_PATH = '/.well-known/ard.json';

/** The link relation that points to an ARD manifest (§5.1 "HTML Link Tag"). */
export const ARD_LINK_REL = 'ard';

/**
 * The media type the manifest is served with. ARD names none for the manifest: it is "a JSON
 * document" (§5.1), so plain JSON.
 */
export const ARD_MEDIA_TYPE = 'application/json';

/** The ARD base context (§4.1): the initial expansion context that gives plain terms their IRIs. */
export const ARD_CONTEXT = 'https://agenticresourcediscovery.org/context/v1';

/** Terms every entry carries (§4.2); exactly one of {@link ARD_CONTENT_TERMS} too (§4.3). */
export const ARD_REQUIRED_TERMS = Object.freeze(['identifier', 'displayName', 'type'] as const);

/** Value or reference: exactly one of these (§4.3). */
export const ARD_CONTENT_TERMS = Object.freeze(['url', 'data'] as const);

/** How many `representativeQueries` an entry SHOULD carry (§4.2): 2 to 5. */
export const ARD_QUERIES = Object.freeze({ min: 2, max: 5 });

/**
 * The discovery identifier (Appendix C): `urn:air:<publisher>:<namespace…>:<name>`, the
 * publisher a domain name. The pattern of the specification's entry schema; every quantifier is
 * bounded by the identifier's length check before it runs.
 */
export const ARD_IDENTIFIER = /^urn:air:([a-zA-Z0-9.-]+)((?::[a-zA-Z0-9._-]+)+)$/;

/** Longest identifier the validator matches (longer ones are reported, not matched). */
export const ARD_IDENTIFIER_MAX_LENGTH = 1024;

/** An ARD entry: a JSON-LD node describing one agentic resource (§4). */
export interface ArdEntry {
  '@context'?: string | Record<string, unknown> | readonly unknown[];
  identifier: string;
  displayName: string;
  /** The artifact's media type, e.g. `application/a2a-agent-card+json`. */
  type: string;
  url?: string;
  data?: Record<string, unknown>;
  description?: string;
  representativeQueries?: string[];
  capabilities?: string[];
  tags?: string[];
  version?: string;
  updatedAt?: string;
  metadata?: Record<string, unknown>;
  trustManifest?: Record<string, unknown>;
  [term: string]: unknown;
}

/** The document at `/.well-known/ard.json` (§5.1): an `entries` array; other members are ignored. */
export interface ArdManifest {
  entries: ArdEntry[];
  [member: string]: unknown;
}
