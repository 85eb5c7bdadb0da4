/**
 * Public types of the discovery client ({@link discoverAgentCard}).
 *
 * @see packages/core/RULES.md §6.4 (rules 42–56)
 * @packageDocumentation
 */
import type {
  AgentCard,
  CardShape,
  Finding,
  RuleOverrides,
  RuleTurnedOff,
  ValidationProfile,
  VerifyAgentCardOptions,
  VerifyAgentCardResult,
} from '@agent-card/core';

/** The two well-known paths a discovery run fetches. */
export type DiscoveryPath = '/.well-known/agent-card.json' | '/.well-known/agent.json';

/**
 * The `fetch` the client uses. Node's global `fetch` by default; inject another one for proxies,
 * custom TLS trust or tests. It is always called with `redirect: 'manual'` and a `signal`, and
 * must return the 3xx response itself (Node's fetch does).
 */
export type DiscoveryFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Trusted keys for the signature status of a discovered card, passed to `verifyAgentCard` as
 * they are. Giving any of `keys`, `jwks` or `jwksUrl` turns the check on.
 */
export type DiscoveryKeyOptions = Pick<
  VerifyAgentCardOptions,
  'keys' | 'jwks' | 'jwksUrl' | 'allowJkuHosts' | 'algorithms' | 'allowInsecureJwksUrl' | 'forms'
>;

/**
 * Options of {@link discoverAgentCard}.
 *
 * @example
 * await discoverAgentCard('acme.io', { timeoutMs: 5_000, profile: 'strict' })
 */
export interface DiscoveryOptions extends DiscoveryKeyOptions {
  /**
   * Time budget of one logical request (connection, headers, redirects and body). Requests run
   * concurrently; those that wait for another (the conditional replay, key-set fetches) share
   * what is left of `1.25 × timeoutMs`, so the whole run, validation included, ends within
   * `2 × timeoutMs`.
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * Hard cap on the bytes read from one body other than a card (the AI Catalog, the key set, the
   * other discovery documents). Reading stops (and the connection is dropped) as soon as the cap
   * is passed, whatever `Content-Length` says.
   * @default 1_048_576 (1 MiB)
   */
  maxBytes?: number;
  /**
   * Hard cap on the bytes read from a card body (the well-known paths and each card a catalog
   * lists), held like `maxBytes`; a card over it is a `discovery-size` error that names this
   * option. 256 KiB keeps the worst card and key set a host can choose under 100 ms of CPU to
   * verify, and is more than any registry accepts (AWS's agent registry refuses cards over
   * 102,400 characters).
   * @default 262_144 (256 KiB), or `maxBytes` when that is given and smaller
   */
  maxCardBytes?: number;
  /**
   * Same-origin `https → https` redirects followed per request. Any other redirect is recorded
   * and ends the chain.
   * @default 3
   */
  maxRedirects?: number;
  /** Validation profile for the served card. @default 'production' */
  profile?: ValidationProfile;
  /**
   * Per-rule settings (`{ 'metadata-quality': 'off' }`), applied once to every finding: the
   * report's own `findings` and its `ok`, each listed agent's findings, error and warning counts
   * and `ok`, and the catalog's summary findings about them. The rules turned off are listed in
   * the report's `turnedOff`. An unknown rule id throws.
   */
  rules?: RuleOverrides;
  /**
   * Accept an `http://` origin (local development, tests against `127.0.0.1`): `discovery-https`
   * becomes info, and same-origin `http → http` redirects are followed like `https → https`.
   * Without it an `http://` input is checked at its `https://` origin.
   * @default false
   */
  allowHttp?: boolean;
  /**
   * Check the card's signatures against the keys the host itself publishes, when no `keys`,
   * `jwks` or `jwksUrl` is given: `/.well-known/jwks.json` on the card's origin, and a
   * signature's `jku` when it names that same origin (never another). This shows that the card
   * and the host's key set agree (nothing changed it on the way: a cache, a CDN, a stale
   * replica); it cannot show who controls the host. An unsigned card is then only `info`.
   * @default false
   */
  hostKeys?: boolean;
  /**
   * Make an unsigned card, or one no signature of which verifies with a trusted key, an error
   * (`discovery-signature`). Without `keys`, `jwks` or `jwksUrl` the host's own keys are used,
   * as with `hostKeys`.
   * @default false
   */
  requireSignature?: boolean;
  /**
   * For an `https://` origin, also GET the `http://` discovery URL once to check that it
   * redirects to https or is refused (`discovery-https`). Limited to 3 s.
   * @default true
   */
  probeHttp?: boolean;
  /**
   * `Origin` sent with the `A2A-Version: 1.0` GET and the CORS preflight.
   * @default 'https://example.org'
   */
  corsOrigin?: string;
  /**
   * Extra request headers sent with every request to the checked origin (e.g. `User-Agent`,
   * `Authorization`, an API key). Never sent on the `http://` probe of an https origin, nor to
   * another origin (scheme, host and port) that a catalog lists or a redirect names.
   */
  headers?: Readonly<Record<string, string>>;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: DiscoveryFetch;
  /** Aborts the whole run; pending requests end with an `aborted` failure. */
  signal?: AbortSignal;
  /**
   * Whether to read the host's AI Catalog (`/.well-known/ai-catalog.json`) and check the cards it
   * lists: `'same-origin'` follows only entry URLs on the checked origin (scheme, host and port);
   * `'any'` follows every http(s) entry URL (without any of `headers` when the origin differs);
   * `false` sends no catalog request at all. Entries on another origin that are not followed are
   * reported (`discovery-catalog-origin`), never fetched. With `'any'`, a card or nested catalog
   * on another origin is fetched only from public addresses: an address literal, `localhost` or
   * a name that resolves to a loopback, private, link-local or reserved address is refused before
   * any connection (`discovery-catalog-origin`, skipped `'private'`), and without your `fetch`
   * the connection goes to exactly the addresses checked (no DNS rebinding). See
   * `allowPrivateTargets`.
   * @default 'same-origin'
   */
  followCatalog?: 'same-origin' | 'any' | false;
  /**
   * With `followCatalog: 'any'`, also follow cards and catalogs on other origins at loopback,
   * private and link-local addresses (an internal network you trust), and let the catalog's
   * signature check fetch from them. The checked origin is always followed, whatever its address.
   * @default false
   */
  allowPrivateTargets?: boolean;
  /**
   * Also read the host's other discovery documents (`/.well-known/ard.json`,
   * `/.well-known/mcp/catalog.json`, `/.well-known/jwks.json`, the card under
   * `Accept: application/a2a-agent-card+json`), compare what each says about the agents (names,
   * versions, URLs, digests, media types, the `Link` header) and grade the set
   * (`report.documents`). Four more requests, on the checked origin only, within the run's
   * deadline; they never add a finding or change `ok`.
   * @default false
   */
  checkDocuments?: boolean;
  /**
   * Catalog entries followed per run: A2A cards plus nested catalogs, in document order, each
   * distinct URL once. The rest are counted in one `discovery-catalog-limit` finding.
   * @default 16
   */
  maxCatalogEntries?: number;
}

/** One response on a redirect chain. */
export interface DiscoveryRedirect {
  /** The URL that answered with a redirect. */
  url: string;
  /** Its 3xx status. */
  status: number;
  /** `Location`, resolved against `url`; absent when the header is missing or malformed. */
  location?: string;
  /** Whether `location` has the origin of `url`. */
  sameOrigin: boolean;
  /** Set when the redirect changes the scheme, e.g. `https->http` (a downgrade). */
  schemeChange?: `${string}->${string}`;
  /** Whether the client followed it (same-origin, https, within `maxRedirects`, no loop). */
  followed: boolean;
}

/** Why a request produced no (complete) response. */
export type DiscoveryFailureKind =
  /** Nothing (or not the whole body) arrived within `timeoutMs`. */
  | 'timeout'
  /** The body passed `maxBytes`; reading stopped there. */
  | 'too-large'
  /** The host name does not resolve. */
  | 'dns'
  /** Nothing listens on the port. */
  | 'refused'
  /** The TLS handshake failed or the certificate does not validate. */
  | 'tls'
  /** The server closed the connection before the response was complete. */
  | 'reset'
  /** {@link DiscoveryOptions.signal} aborted the run. */
  | 'aborted'
  /** Any other network error. */
  | 'network';

/** A request that failed below HTTP (or whose body was cut). */
export interface DiscoveryFailure {
  kind: DiscoveryFailureKind;
  /** Readable reason, e.g. `getaddrinfo ENOTFOUND acme.invalid`. */
  message: string;
  /** The system or undici error code when there is one (`ECONNREFUSED`, `UND_ERR_SOCKET`...). */
  code?: string;
}

/** The response headers the report keeps (lower-case names). */
export type DiscoveryHeaderName =
  | 'content-type'
  | 'content-length'
  | 'content-encoding'
  | 'cache-control'
  | 'etag'
  | 'last-modified'
  | 'vary'
  | 'x-content-type-options'
  | 'access-control-allow-origin'
  | 'access-control-allow-credentials'
  | 'access-control-allow-methods'
  | 'access-control-allow-headers'
  | 'access-control-expose-headers'
  | 'access-control-max-age'
  | 'allow'
  | 'link'
  | 'location'
  | 'www-authenticate';

/** Headers of interest of one response; only those present. */
export type DiscoveryHeaders = Partial<Record<DiscoveryHeaderName, string>>;

/** The `If-None-Match` replay of a GET (rule `discovery-conditional-get`). */
export interface DiscoveryConditional {
  /** The ETag sent in `If-None-Match`. */
  ifNoneMatch: string;
  /** Final status (304 expected); absent when the request failed. */
  status?: number;
  /** Whether the replay's ETag equals the GET's. */
  sameEtag: boolean;
  /** Whether the replay's body was empty. */
  bodyEmpty: boolean;
  headers: DiscoveryHeaders;
  failure?: DiscoveryFailure;
}

/** The HEAD request (rule `discovery-methods`). */
export interface DiscoveryHead {
  status?: number;
  headers: DiscoveryHeaders;
  /** Headers whose value differs from the GET (`content-type`, `etag`, `cache-control`...). */
  differs: DiscoveryHeaderName[];
  /** Whether the server sent body bytes for HEAD. */
  bodyEmpty: boolean;
  failure?: DiscoveryFailure;
}

/** The CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method: GET`. */
export interface DiscoveryPreflight {
  status?: number;
  headers: DiscoveryHeaders;
  /** 2xx with `Access-Control-Allow-Methods` including GET (or `*`). */
  ok: boolean;
  failure?: DiscoveryFailure;
}

/** The GET with `A2A-Version: 1.0` (and `Origin`), compared with the header-less GET. */
export interface DiscoveryVersioned {
  status?: number;
  headers: DiscoveryHeaders;
  bytes: number;
  /** Whether the body is byte-identical to the header-less GET's. */
  sameBody: boolean;
  /** The card generation of this body, when it is a JSON object. */
  shape?: CardShape;
  failure?: DiscoveryFailure;
}

/** Signature status of a discovered card, when keys were given (or `hostKeys` is on). */
export interface DiscoverySignature {
  /**
   * - `verified`: at least one signature verified with one of the keys;
   * - `failed`: the card is signed and no signature verified;
   * - `unsigned`: the card has no `signatures`;
   * - `unavailable`: no verifier could run (e.g. the JWKS URL failed).
   */
  status: 'verified' | 'failed' | 'unsigned' | 'unavailable';
  /** One line per signature: which key verified it, or why it failed. */
  details: string[];
  /** The verifier's full result. */
  result?: VerifyAgentCardResult;
  /** Where the trusted keys came from: `given` (the caller's), or `host` (the host's own key set). */
  keysFrom?: 'given' | 'host';
}

/** Everything learned about one well-known path. */
export interface DiscoveryPathReport {
  /** The well-known path; for a card listed in a catalog, the path (and query) of its URL. */
  path: DiscoveryPath | (string & {});
  /** The URL requested first. */
  url: string;
  /** The URL that gave the final response (after followed redirects). */
  finalUrl: string;
  /** Final status; absent when no response arrived (see `failure`). */
  status?: number;
  /** The final response's `Content-Type`, as sent. */
  contentType?: string;
  /** Every 3xx on the way, followed or not. */
  redirects: DiscoveryRedirect[];
  /** Body bytes read (at most `maxBytes` + one chunk). */
  bytes: number;
  /** Whether reading stopped before the end of the body (cap, timeout, reset). */
  truncated: boolean;
  /** Milliseconds from the first request to the last body byte (or the failure). */
  timeMs: number;
  /** Headers of interest of the final response. */
  headers: DiscoveryHeaders;
  /** SHA-256 of the body bytes, lower-case hex; absent without a complete body. */
  sha256?: string;
  /** Set when the request failed below HTTP or the body was cut. */
  failure?: DiscoveryFailure;
  /** The parsed JSON body, whatever its shape; absent when the body is not JSON. */
  document?: unknown;
  /** The body as a validated card; absent when validation found errors. */
  card?: AgentCard;
  /** The card generation of `document`. */
  shape?: CardShape;
  /** Whether `document` validated without errors under the profile. */
  valid: boolean;
  /** `card-json-parse` and `validateAgentCard` findings of this body. */
  findings: Finding[];
  /** The GET with `A2A-Version: 1.0`. */
  versioned?: DiscoveryVersioned;
  /** The `If-None-Match` replay; absent when the GET gave no 200 with an ETag. */
  conditional?: DiscoveryConditional;
  head?: DiscoveryHead;
  preflight?: DiscoveryPreflight;
  /** Present when keys were given and the body is a card. */
  signature?: DiscoverySignature;
}

/** A finding of a discovery run: a {@link Finding} plus the URL it is about. */
export interface DiscoveryFinding extends Finding {
  /** The URL the finding is about (the well-known URL, or the URL that served the card). */
  url?: string;
}

/** How the two paths compare (rule `discovery-paths-consistent`). */
export interface DiscoveryConsistency {
  /** RFC 8785 (JCS) canonical JSON equal; byte equality when a body is not JSON. */
  sameDocument: boolean;
  sameBytes: boolean;
  /** Absent when either response has no ETag. */
  sameEtag?: boolean;
  method: 'jcs' | 'bytes';
}

/** The http:// probe of an https origin (rule `discovery-https`). */
export interface DiscoveryHttpProbe {
  url: string;
  status?: number;
  location?: string;
  /** `redirects-to-https`, `refused` (connection failed), or `serves` (answered without redirecting). */
  outcome: 'redirects-to-https' | 'refused' | 'serves' | 'redirects-elsewhere';
  failure?: DiscoveryFailure;
}

/** The host's AI Catalog, and the nested catalogs it references (one level). */
export interface DiscoveryCatalogReport {
  /** The catalog URL requested (`{origin}/.well-known/ai-catalog.json`, or a nested catalog's URL). */
  url: string;
  /** The URL that gave the final response. */
  finalUrl: string;
  status?: number;
  contentType?: string;
  bytes: number;
  truncated: boolean;
  timeMs: number;
  failure?: DiscoveryFailure;
  /** A JSON document was served with status 200 (valid or not). A 404 means the host has none. */
  found: boolean;
  /** The parsed JSON body. */
  document?: unknown;
  /** `validateAiCatalog` found no error. */
  valid: boolean;
  /** `validateAiCatalog` findings (`catalog-*`), each with the catalog URL. */
  findings: DiscoveryFinding[];
  /** Entries listed at the top level of this catalog. */
  entries: number;
  /** `host.displayName`, when it is a string. */
  hostName?: string;
  /** Nested catalogs fetched by URL from this one (only from the host's own catalog). */
  nested?: DiscoveryCatalogReport[];
}

/** Why a listed card was not fetched. */
export type DiscoveryAgentSkip =
  /** Another origin, and `followCatalog` is `'same-origin'`. */
  | 'origin'
  /** Not an http(s) URL (or `http:` without `allowHttp`), or not a URL at all. */
  | 'scheme'
  /**
   * On another origin than the one checked, and its host is not a public address: an address
   * literal or name in a loopback, private, link-local, unique-local, CGNAT, multicast or reserved
   * range (IPv4-mapped IPv6 read as IPv4), or `localhost`.
   */
  | 'private'
  /** The run's time for follow-up requests was used up. */
  | 'deadline';

/** One A2A card listed in a catalog, and what its URL serves. */
export interface DiscoveryAgentReport {
  /** The catalog that lists it. */
  catalogUrl: string;
  /** JSON Pointer of the entry in that catalog, e.g. `/entries/1`. */
  entry: string;
  /** The entry's `identifier`, `displayName` and `version`, when they are strings. */
  identifier?: string;
  displayName?: string;
  version?: string;
  /** The entry's `url`, resolved against the catalog URL. */
  url: string;
  /** Whether the card was fetched; see `skipped` when not. */
  checked: boolean;
  skipped?: DiscoveryAgentSkip;
  /** Why the host was refused, when `skipped` is `'private'` (e.g. `10.0.0.1: 10.0.0.1 is a private address`). */
  refused?: string;
  /** What the card URL served: the same per-path report as the well-known paths get. */
  card?: DiscoveryPathReport;
  /** The served card's `name` and `version`, when they are strings. */
  cardName?: string;
  cardVersion?: string;
  /** `displayName` equals the card's `name`; absent when either is missing. */
  nameMatches?: boolean;
  /** The entry's `version` equals the card's; absent when the entry gives none or no card loaded. */
  versionMatches?: boolean;
  /** The card URL's discovery findings (rules 42–56 without the legacy-path ones) and its validation findings. */
  findings: DiscoveryFinding[];
  errors: number;
  warnings: number;
  /** Checked, and no finding is an error. */
  ok: boolean;
}

/** A discovery document a host may serve. */
export interface DiscoveryDocument {
  kind: 'card' | 'legacy' | 'ai-catalog' | 'ard' | 'mcp-catalog' | 'jwks';
  /** The well-known path asked for. */
  path: string;
  /** The URL that gave the final response. */
  url: string;
  /** Answered 200 with a JSON document. */
  served: boolean;
  status?: number;
  contentType?: string;
  /** Which format the document follows (the AI Catalog's draft, the ARD version). */
  format?: string;
  /** Its validator found no error (card, AI Catalog, ARD; a key set with a `keys` array). */
  valid?: boolean;
  /** Entries it lists (catalogs, ARD). */
  entries?: number;
  /**
   * The parsed JSON of a served ARD manifest, MCP catalog or JWK Set, read within the run's
   * `maxBytes` like every body (the AI Catalog's is `catalog.document`).
   */
  document?: unknown;
  /** Why no response was read (`timeout`, `network`…). */
  failure?: string;
}

/** One thing two discovery documents (or a document and the card it lists) say differently. */
export interface DiscoveryDisagreement {
  about: 'name' | 'version' | 'url' | 'identifier' | 'digest' | 'media-type' | 'link';
  /** What differs, naming both documents. */
  message: string;
  /** How to make them agree. */
  hint: string;
}

/** `A` all agree and are named; `B` what is served agrees, something is missing; `C` they disagree; `F` no valid card. */
export type DiscoveryGrade = 'A' | 'B' | 'C' | 'F';

/** Which discovery documents the host serves, whether they agree, and the grade. */
export interface DiscoveryDocumentsReport {
  documents: DiscoveryDocument[];
  /** The relations of the card answer's `Link` header, and whether each target is served. */
  links: { rel: string; href: string; served?: boolean }[];
  disagreements: DiscoveryDisagreement[];
  grade: DiscoveryGrade;
  /** One line a reader can act on: the grade, what it rests on, and the next thing to do. */
  summary: string;
}

/** The result of {@link discoverAgentCard}. */
export interface DiscoveryReport {
  /** The argument as given. */
  input: string;
  /** The origin checked, e.g. `https://acme.io`. */
  origin: string;
  profile: ValidationProfile;
  /** `/.well-known/agent-card.json`. */
  primary: DiscoveryPathReport;
  /** `/.well-known/agent.json` (legacy path, spec ≤ 0.2). */
  legacy: DiscoveryPathReport;
  /** The http:// probe, when the origin is https and `probeHttp` is on. */
  httpProbe?: DiscoveryHttpProbe;
  /** The parsed card clients get: the primary path's document, else the legacy path's. */
  document?: unknown;
  /** `document` as a validated card; absent when it has validation errors. */
  card?: AgentCard;
  /** The URL that served `document`. */
  cardUrl?: string;
  /** Both paths answered 200 with the same document and, if both sent one, the same ETag. */
  pathsConsistent?: boolean;
  consistency?: DiscoveryConsistency;
  /**
   * Discovery findings (rules 42–56) plus the validation findings of `document`; each names
   * the URL it is about. Sorted errors first.
   */
  findings: DiscoveryFinding[];
  /** No finding with severity `error`, after the `rules` settings. */
  ok: boolean;
  /** With `rules`: each rule set to `off`, and how many findings it would have made. */
  turnedOff?: RuleTurnedOff[];
  /**
   * The host's AI Catalog, when it was requested (`followCatalog` is not `false`): status,
   * `catalog-*` findings, and the nested catalogs read.
   */
  catalog?: DiscoveryCatalogReport;
  /** One report per A2A card the catalog lists (at most `maxCatalogEntries`), in document order. */
  agents?: DiscoveryAgentReport[];
  /** With `checkDocuments`: every discovery document of the host, whether they agree, and a grade. */
  documents?: DiscoveryDocumentsReport;
  /** HTTP requests sent (each redirect hop counts). */
  requests: number;
  /** Wall time of the run in milliseconds. */
  timeMs: number;
}
