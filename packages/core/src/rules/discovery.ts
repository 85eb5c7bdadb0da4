/**
 * The rules of `discoverAgentCard` (`@agent-card/discovery`) about what a host serves over HTTP and the AI Catalog it lists: RULES.md §6.4 and §6.6. They live in core so that `listRules` names every rule; the discovery package reports them by these ids.
 *
 * One entry per rule, keyed by its id: adding a rule is adding an entry here and the check that
 * reports it. `RULES.md` is generated from these entries (`pnpm --filter @agent-card/core rules:md`).
 */
import { profiles, type RuleEntry } from './entry';

export const DISCOVERY_RULES = {
  'discovery-status': {
    number: 42,
    section: 'discovery',
    severity: profiles('error'),
    summary: '`/.well-known/agent-card.json` returns 200.',
    details:
      '`/.well-known/agent-card.json` returns 200. A 401/403 gets a specific message ("card requires auth: public discovery will fail"); 404 means "not published"; 5xx means server error.',
    fix: 'Serve the card at /.well-known/agent-card.json with status 200, without authentication.',
    source:
      '[spec] §8.1, §14.3; [tool] TCK fixture, a2a-go resolver (200 only), TCK main `test_public_agent_card_access_control`',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-https': {
    number: 43,
    section: 'discovery',
    severity: profiles('error'),
    summary: 'The discovery URL is https and TLS validates.',
    details:
      'The discovery URL is https and TLS validates. `http://` should redirect to `https://` or be refused; info if http serves the card directly.',
    fix: 'Serve the card over https:// with a valid certificate, and redirect http:// to https://.',
    source:
      '[spec] §8.2 (`https://{server_domain}/...`), §14.3; [tool] TCK main `test_http_to_https_redirect`; RFC 7033 §4.2',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-redirect': {
    number: 44,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles(
      'warning (same-origin https to https) / error (cross-origin, https to http downgrade, lands on non-JSON or login page, or >3 hops)',
    ),
    summary: 'The well-known path answers without a redirect (a same-origin https one warns).',
    details: 'Any 3xx on a well-known path.',
    fix: 'Serve the card directly at the well-known path with 200, or redirect at most once within the same https origin.',
    source:
      'httpx does not follow by default, so the TCK and default Python clients fail; OIDC Discovery 200-only; RFC 7033 §4.2 (https-only redirects); Apple AASA; [evidence] auth-proxy login redirects',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-content-type': {
    number: 45,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('error (`text/html`) / warning (missing, `text/plain`, `application/octet-stream`, other)'),
    summary: 'The card is served as JSON (`application/json`, `application/a2a+json`, `+json`), charset utf-8.',
    details:
      'Media type is `application/json`, `application/a2a+json` or any `+json`. Charset, if present, is utf-8. Missing `X-Content-Type-Options: nosniff` is info.',
    fix: 'Serve the card as application/json (or application/a2a+json), charset utf-8, with X-Content-Type-Options: nosniff.',
    source: '[tool] SDKs send `application/json`; agent-ready.dev; ax-audit; RFC 8615 §4.2 (media type, nosniff)',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-html-body': {
    number: 46,
    section: 'discovery',
    severity: profiles('error'),
    summary: 'The body at the well-known path is not an HTML page.',
    details:
      'Body starts (after whitespace) with `<` / `<!doctype` / `<html`, whatever the status or Content-Type: SPA fallback, login page or CDN error page. The message shows the `<title>` and names the likely cause.',
    fix: "Serve the card's JSON at the well-known path, not the site's HTML page (check SPA fallbacks and login redirects).",
    source:
      '[evidence] SlopDotCash#95 (HTML labelled JSON), SPA-fallback issues; [tool] freeq skill "Body isn\'t JSON"',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-size': {
    number: 47,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('warning (>128 KiB) / error (over the card size limit, 256 KiB by default; >1 MiB)'),
    summary: 'The card body is under 128 KiB (warning) and the card size limit (error).',
    details:
      'Body size. Some scanners cap at 128 KB (AIDE) or 200,000 characters (LLPRO). A card over the card size limit (`maxCardBytes`, `agent-card check --max-card-bytes`; 256 KiB by default) is not read past the limit: an error that names the option.',
    fix: 'Keep the card under 128 KiB: move long text to documentationUrl. To check a larger card anyway, raise the limit (maxCardBytes, --max-card-bytes).',
    source: '[proposal]; thresholds informed by AIDE and LLPRO',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-legacy-path': {
    number: 48,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('info / warning / error'),
    summary: '`/.well-known/agent.json` is absent or agrees with `agent-card.json`, which must exist.',
    details:
      '`/.well-known/agent.json`: 404 gives info (≤0.2 clients and some directories still probe it); 200 serving a different document from `agent-card.json` is a warning (see #49); only `agent.json` works while `agent-card.json` 404s is an **error** (all current SDKs use `agent-card.json` only).',
    fix: 'Serve the card at /.well-known/agent-card.json, and at agent.json the same document or nothing.',
    source:
      '[spec] rename in v0.3.0; [evidence] a2a-inspector#86, adcp#612, agentdeals#1608; [tool] Capiscio LEGACY_DISCOVERY_ENDPOINT, canagentuse path-compatibility',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-paths-consistent': {
    number: 49,
    section: 'discovery',
    severity: profiles('warning'),
    summary: 'When both paths return 200, they serve the same document.',
    details:
      'When both paths return 200, they serve the same document. Compare JCS-canonical JSON (RFC 8785) or byte hash, plus ETag. Different content points to a stale copy, a CDN mismatch or a forgotten static file.',
    fix: 'Serve the same document at agent-card.json and agent.json.',
    source: '[proposal]; [evidence] agentdeals#1608 acceptance test "both 200 … byte-identical"',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-cache-control': {
    number: 50,
    section: 'discovery',
    severity: profiles('warning'),
    summary: '`Cache-Control` has a `max-age` of at most a day.',
    details:
      '`Cache-Control` present with `max-age` (or `s-maxage`). `no-store` is info. `immutable` or max-age >1 day is a warning (stale-card risk).',
    fix: 'Send Cache-Control with a max-age of at most a day, e.g. public, max-age=300.',
    source: '[spec] §8.6.1 SHOULD; [tool] TCK CARD-CACHE-001; a2a-java#749',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-etag': {
    number: 51,
    section: 'discovery',
    severity: profiles('warning'),
    summary: 'The card is served with an `ETag`.',
    details: '`ETag` present (CARD-CACHE-002). `Last-Modified` is info only (CARD-CACHE-003, MAY).',
    fix: 'Send an ETag with the card.',
    source: '[spec] §8.6.1; [tool] TCK',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-conditional-get': {
    number: 52,
    section: 'discovery',
    severity: profiles('warning'),
    summary: '`If-None-Match` with the ETag gets a 304 with the same headers.',
    details:
      'Replaying with `If-None-Match: <etag>` returns 304 with no body and repeats ETag/Cache-Control/Vary. A 200 with identical body is a warning; a different ETag for the same body is a warning.',
    fix: 'Answer If-None-Match with 304 and the same ETag, Cache-Control and Vary.',
    source: 'RFC 9110 §13.1.2, §15.4.5; [spec] §8.6.2; [tool] a2a-js `req.fresh`',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-vary': {
    number: 53,
    section: 'discovery',
    severity: profiles('warning'),
    summary: '`Vary` names `A2A-Version` and `Origin` where the answer depends on them.',
    details:
      'If responses differ between header-less and `A2A-Version: 1.0` requests, `Vary` must include `A2A-Version`. If `Access-Control-Allow-Origin` echoes Origin, `Vary: Origin`.',
    fix: 'Send Vary: A2A-Version when the answer depends on it, and Vary: Origin when CORS echoes the origin.',
    source: 'RFC 9110 §12.5.5; [tool] a2a-js (`Vary: A2A-Version`), a2a-go (`Vary: Origin`)',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-cors': {
    number: 54,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('warning / error'),
    summary: 'Browsers can read the card: `Access-Control-Allow-Origin` present, not `*` with credentials.',
    details:
      'Missing `Access-Control-Allow-Origin` is a warning: browser-based clients and inspectors cannot read the card. `*` together with `Access-Control-Allow-Credentials: true` is an error: browsers reject it. Preflight (OPTIONS) not answered with 2xx plus Allow-Methods including GET is info.',
    fix: 'Send Access-Control-Allow-Origin: * without credentials, and answer preflight requests.',
    source:
      'RFC 7033 §5 (precedent); openid/connect#980; [tool] a2a-go, GATRA; [evidence] agentgateway#773, a2a-go#174',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-version-negotiation': {
    number: 55,
    section: 'discovery',
    severity: profiles('info'),
    summary: 'A request without `A2A-Version` gets the v1.0 card.',
    details:
      'Reports which shape the header-less request got versus `A2A-Version: 1.0`. Warning if the header-less response is v0.3-shaped, because the TCK fetches without the header and validates the v1.0 schema strictly.',
    fix: 'Serve the v1.0 card to requests without A2A-Version, or expect the TCK to read the v0.3 one.',
    source:
      '[tool] a2a-js legacyCompat (header-less means 0.3), TCK fixture; [spec] §3.6.2 (empty version means 0.3). The TCK interaction is our inference.',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-methods': {
    number: 56,
    section: 'discovery',
    severity: profiles('info'),
    summary: "HEAD returns 200 with GET's headers; a 405 must include `Allow`.",
    details: "HEAD returns 200 with GET's headers; a 405 must include `Allow`.",
    fix: 'Answer HEAD like GET without the body, and send Allow with any 405.',
    source: 'RFC 9110 §9.1, §15.5.6; [evidence] a2a-go returns 405 for HEAD with no Allow',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-signature': {
    number: 76,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('info (verified) / error (fails)'),
    summary:
      'Each `signatures[]` entry of the fetched card verifies against its `jku` key set (only hosts in `allowJkuHosts`) or the keys given.',
    details:
      'Each `signatures[]` entry of the fetched card verifies against its `jku` key set (only hosts in `allowJkuHosts`) or the keys given.',
    fix: 'Sign the card with a key its jku key set (or the keys given) lists, and sign it again after each change.',
    reportedBy: '`discoverAgentCard`',
  },
  'catalog-entry-card': {
    number: 80,
    section: 'host-catalog',
    severity: profiles('error'),
    summary:
      "A listed A2A card's `url` serves a card (200, complete, JSON) without errors; a nested catalog's `url` loads.",
    details:
      "A listed A2A card's `url` serves a card (200, complete, JSON) without errors; a nested catalog's `url` loads.",
    fix: 'Make each listed card URL serve a valid card with status 200.',
    reportedBy: '`discoverAgentCard`',
  },
  'catalog-entry-name': {
    number: 81,
    section: 'host-catalog',
    severity: profiles('warning'),
    summary: "The entry's `displayName` equals the served card's `name`.",
    details: "The entry's `displayName` equals the served card's `name`.",
    fix: "Make the entry's displayName the served card's name.",
    reportedBy: '`discoverAgentCard`',
  },
  'catalog-entry-version': {
    number: 82,
    section: 'host-catalog',
    severity: profiles('error'),
    summary: "The entry's `version`, when given, equals the served card's `version`.",
    details: "The entry's `version`, when given, equals the served card's `version`.",
    fix: "Make the entry's version the served card's version, or leave it out.",
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-catalog': {
    number: 83,
    section: 'host-catalog',
    severity: profiles('warning'),
    severityNote: profiles('warning / info'),
    summary:
      'The catalog URL answers 200 with JSON or 404/410 (warning otherwise); an HTML page is read as no catalog (info).',
    details:
      'The catalog URL answers 200 with JSON or 404/410 (warning otherwise); an HTML page is read as no catalog (info).',
    fix: 'Serve /.well-known/ai-catalog.json as JSON with 200, or answer 404.',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-catalog-limit': {
    number: 84,
    section: 'host-catalog',
    severity: profiles('warning'),
    summary: 'At most `maxCatalogEntries` entries followed and 1000 read; the rest are counted.',
    details: 'At most `maxCatalogEntries` entries followed and 1000 read; the rest are counted.',
    fix: 'List fewer entries, or raise maxCatalogEntries.',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-catalog-origin': {
    number: 85,
    section: 'host-catalog',
    severity: profiles('warning'),
    severityNote: profiles('warning / info'),
    summary:
      "An entry on another origin is not fetched unless `followCatalog: 'any'`, and then only from a public address (warning); a URL that is not http(s) never is (info).",
    details:
      "An entry on another origin is not fetched unless `followCatalog: 'any'` (warning). Under `'any'`, an entry on another origin whose host is `localhost` or a loopback, private, link-local or reserved address, literal or resolved, is not fetched either (warning): a catalog cannot point its checker at the checker's own network. A URL that is not http(s) never is (info).",
    fix: "List cards on the catalog's own origin, or pass followCatalog: 'any'; check a host on a private address on its own.",
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-catalog-nested': {
    number: 86,
    section: 'host-catalog',
    severity: profiles('info'),
    summary: 'Catalogs referenced by a nested catalog are not read (one level deep).',
    details: 'Catalogs referenced by a nested catalog are not read (one level deep).',
    fix: 'Nothing to fix: nested catalogs are read one level deep.',
    reportedBy: '`discoverAgentCard`',
  },
  'discovery-catalog-deadline': {
    number: 87,
    section: 'host-catalog',
    severity: profiles('warning'),
    summary: "Listed cards are checked within the run's time budget.",
    details:
      "Entries whose turn came after the run's follow-up window were not checked; a listed card whose validation, at the pace of the run's longest one so far, would end after `1.75 × timeoutMs` was not validated.",
    fix: 'Raise timeoutMs, or list fewer cards.',
    reportedBy: '`discoverAgentCard`',
  },
  'probe-interface-binding': {
    number: 127,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('error / warning (refused the credentials given too, so not confirmed)'),
    summary: "Each interface answers a harmless request with its binding's error.",
    details:
      "`probe` sends each JSON-RPC or HTTP+JSON interface a `GetTask` of a task no agent has: the answer is the binding's error (a JSON-RPC error, or an A2A error object), not a page, a proxy's answer or no answer; asked again with the credentials given when refused.",
    fix: 'Point the interface at the A2A endpoint itself (not a page or a proxy), with the binding it speaks.',
    reportedBy: '`probeAgentCard`, `agent-card check --probe`',
  },
  'probe-security-enforced': {
    number: 128,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles(
      'error (served a caller without credentials) / warning (undeclared scheme, 401 without a challenge)',
    ),
    summary: 'An interface refuses a caller without credentials exactly when the card requires credentials.',
    details:
      'An interface whose card declares `securityRequirements` does not answer a caller without credentials (error); one that refuses such a caller declares the scheme it enforces (warning), and a 401 carries a `WWW-Authenticate` challenge (warning, RFC 9110 §11.6.1).',
    fix: 'Refuse callers without credentials with 401 and a WWW-Authenticate challenge, and declare the scheme in the card.',
    reportedBy: '`probeAgentCard`, `agent-card check --probe`',
  },
  'probe-extended-card': {
    number: 129,
    section: 'discovery',
    severity: profiles('error'),
    severityNote: profiles('error / info (not fetched with credentials)'),
    summary: 'The extended card is refused without credentials and served with them.',
    details:
      'When `capabilities.extendedAgentCard` is true, the extended card is not served to a caller without credentials (error) and is served with the credentials given (error); without credentials, or on another origin, it is not fetched with them (info).',
    fix: 'Serve the extended card to authenticated callers only, or set capabilities.extendedAgentCard to false.',
    reportedBy: '`probeAgentCard`, `agent-card check --probe`',
  },
  'probe-not-probed': {
    number: 130,
    section: 'discovery',
    severity: profiles('info'),
    summary: 'An interface the probe does not send requests to, and why.',
    details:
      'An interface of another binding (gRPC), not https, or on another origin than the checked host (unless allowed) is not probed.',
    fix: 'Check it with a client of that binding, or allow its origin (--probe-origin).',
    reportedBy: '`probeAgentCard`, `agent-card check --probe`',
  },
} satisfies Record<string, RuleEntry>;
