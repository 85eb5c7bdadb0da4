/**
 * The discovery rules (packages/core/RULES.md §6.4, rules 42–56): turn what the requests saw into findings.
 * Every message reads `where: what (value).`, where `where` is the URL concerned; every hint
 * says how to fix it.
 *
 * Header rules (45, 47, 50–56) judge `/.well-known/agent-card.json` only: it is the URL current
 * clients fetch. The legacy path is judged by `discovery-legacy-path` and
 * `discovery-paths-consistent`.
 */
import { type DiscoveryRuleId, type Severity, quoteUntrusted as show } from '@agent-card/core';
import type { ParsedBody } from './body';
import { headerTokens, isJsonMediaType, parseCacheControl, parseMediaType } from './body';
import type { Exchange } from './request';
import type {
  DiscoveryConsistency,
  DiscoveryFailure,
  DiscoveryFinding,
  DiscoveryHttpProbe,
  DiscoveryPathReport,
} from './types';

/** Words of a login page's title or path (rule `discovery-redirect`: a redirect to a login page). */
export const LOGIN = /log[-_ ]?in|sign[-_ ]?in|signin|auth|sso|saml|oauth|session|account/i;

/** Everything one path's requests produced. */
export interface PathRun {
  report: DiscoveryPathReport;
  get: Exchange;
  parsed?: ParsedBody;
  versioned: Exchange;
  head: Exchange;
  preflight: Exchange;
  conditional?: Exchange;
}

/** What the rules judge. */
export interface RuleInput {
  origin: string;
  allowHttp: boolean;
  timeoutMs: number;
  /** The card's read cap (`maxCardBytes`). */
  maxBytes: number;
  maxRedirects: number;
  corsOrigin: string;
  primary: PathRun;
  /** Absent for a card listed in a catalog: only its own URL is judged. */
  legacy?: PathRun;
  probe?: DiscoveryHttpProbe;
  consistency?: DiscoveryConsistency;
  /**
   * The `http://` origin the caller gave, when it was checked at its `https://` origin instead
   * (no `allowHttp`): the findings then say so, so a local service's TLS failure is not read as a
   * certificate problem.
   */
  httpTarget?: string;
}

/** What to do about an http target that was checked over https. */
const HTTP_TARGET_HINT =
  'To check the http:// service as it is (local development), pass allowHttp: true (agent-card check --allow-http).';

const KIB = 1024;
const SIZE_WARNING = 128 * KIB;
const SIZE_ERROR = 1024 * KIB;
const ONE_DAY = 86_400;

type Report = (rule: DiscoveryRuleId, severity: Severity, url: string, message: string, hint: string) => void;

/** Runs rules 42–56 and returns their findings in rule order. */
export function discoveryFindings(input: RuleInput): DiscoveryFinding[] {
  const findings: DiscoveryFinding[] = [];
  const report: Report = (rule, severity, url, message, hint) => {
    findings.push({ rule, severity, path: '', message: `${url}: ${message}`, hint, url });
  };
  checkStatus(input, report);
  checkHttps(input, report);
  checkRedirects(input, report);
  if (isOk(input.primary)) {
    checkContentType(input.primary, report);
  }
  checkHtml(input.primary, report);
  checkSize(input, report);
  if (input.legacy) {
    checkLegacyPath(input, input.legacy, report);
    checkConsistency(input, input.legacy, report);
  }
  if (isOk(input.primary)) {
    checkCacheControl(input.primary, report);
    checkEtag(input.primary, report);
    checkConditional(input.primary, report);
    checkVary(input, report);
    checkCors(input, report);
    checkVersionNegotiation(input.primary, report);
    checkMethods(input.primary, report);
  }
  return findings;
}

/** 200 with the whole body. */
function isOk(run: PathRun): boolean {
  return run.get.status === 200 && run.get.failure === undefined;
}

function statusText(status: number): string {
  const names: Record<number, string> = {
    200: 'OK',
    204: 'No Content',
    304: 'Not Modified',
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    406: 'Not Acceptable',
    410: 'Gone',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  const name = names[status];
  return name ? `${status} ${name}` : String(status);
}

function failureText(failure: DiscoveryFailure): string {
  return failure.code && !failure.message.includes(failure.code)
    ? `${failure.code}: ${failure.message}`
    : failure.message;
}

// Rule 42 discovery-status.
function checkStatus({ primary, timeoutMs, httpTarget }: RuleInput, report: Report): void {
  const { get } = primary;
  const url = get.finalUrl;
  const hint200 = 'Serve the card at /.well-known/agent-card.json with status 200 to anonymous GET requests.';
  if (get.status === undefined) {
    const failure = get.failure;
    if (!failure || failure.kind === 'tls') return; // TLS failures are rule 43.
    const what: Record<string, [string, string]> = {
      dns: ['host name does not resolve', 'Check the domain and its DNS A/AAAA records.'],
      refused: [
        'connection refused',
        'Make sure the service listens on the port of the URL (443 for https) and the firewall lets it through.',
      ],
      timeout: [
        `no response within ${timeoutMs} ms`,
        'Check that the service is up and answers the well-known path quickly (a static response).',
      ],
      reset: [
        'connection closed before a response',
        'Check the server and any proxy in front of it: the connection dropped without an HTTP response.',
      ],
      aborted: ['request aborted', 'The run was aborted before the server answered.'],
      network: ['request failed', hint200],
      'too-large': ['response too large', hint200],
    };
    const [message, hint] = what[failure.kind] ?? ['request failed', hint200];
    if (httpTarget !== undefined) {
      report(
        'discovery-status',
        'error',
        url,
        `${message} (${failureText(failure)}): the target was ${httpTarget} (http), checked here over https.`,
        HTTP_TARGET_HINT,
      );
      return;
    }
    report('discovery-status', 'error', url, `${message} (${failureText(failure)}).`, hint);
    return;
  }
  const status = get.status;
  if (status === 200) {
    const failure = get.failure;
    if (failure?.kind === 'timeout') {
      report(
        'discovery-status',
        'error',
        url,
        `body not complete within ${timeoutMs} ms (status 200, ${primary.report.bytes} bytes read).`,
        'Send the whole card at once with a Content-Length; a body that trickles or never ends makes every client time out.',
      );
    } else if (failure?.kind === 'reset' || failure?.kind === 'network' || failure?.kind === 'aborted') {
      report(
        'discovery-status',
        'error',
        url,
        `body cut off (status 200, ${primary.report.bytes} bytes read, ${failureText(failure)}).`,
        'Check the server and any proxy: the connection closed before the body was complete.',
      );
    }
    return;
  }
  if (status >= 300 && status < 400 && get.redirects.length > 0) return; // Rule 44 explains redirects.
  if (status === 401 || status === 403) {
    report(
      'discovery-status',
      'error',
      url,
      `card requires auth: public discovery will fail (status ${statusText(status)}).`,
      'Serve the public card without authentication; put private skills in the extended card (capabilities.extendedAgentCard).',
    );
  } else if (status === 404 || status === 410) {
    report('discovery-status', 'error', url, `card not published (status ${statusText(status)}).`, hint200);
  } else if (status >= 500) {
    report(
      'discovery-status',
      'error',
      url,
      `server error (status ${statusText(status)}).`,
      'Fix the server error; the card should be a static, always-available response.',
    );
  } else {
    report(
      'discovery-status',
      'error',
      url,
      `unexpected status (${statusText(status)}); clients accept 200 only.`,
      hint200,
    );
  }
}

// Rule 43 discovery-https.
function checkHttps({ origin, primary, probe, httpTarget }: RuleInput, report: Report): void {
  if (httpTarget !== undefined) {
    report(
      'discovery-https',
      'info',
      primary.report.url,
      `the target was ${httpTarget} (http); it was checked at ${origin} instead, as clients will.`,
      HTTP_TARGET_HINT,
    );
  }
  if (origin.startsWith('http:')) {
    report(
      'discovery-https',
      'info',
      primary.report.url,
      'checked over plain http (allowed by allowHttp).',
      'Serve discovery over https in production: clients fetch https://{domain}/.well-known/agent-card.json.',
    );
  }
  const failure = primary.get.failure;
  if (failure?.kind === 'tls') {
    report(
      'discovery-https',
      'error',
      primary.get.finalUrl,
      httpTarget === undefined
        ? `TLS handshake failed or the certificate does not validate (${failureText(failure)}).`
        : `TLS handshake failed (${failureText(failure)}): the target was ${httpTarget} (http), checked here over https.`,
      httpTarget === undefined
        ? 'Install a certificate from a public CA that covers this host name, with its full chain, and keep it unexpired.'
        : `${HTTP_TARGET_HINT} To publish it, serve it over https with a certificate from a public CA.`,
    );
  }
  if (probe && (probe.outcome === 'serves' || probe.outcome === 'redirects-elsewhere')) {
    const what =
      probe.outcome === 'serves'
        ? `plain http answers without redirecting to https (status ${statusText(probe.status ?? 0)}).`
        : `plain http redirects somewhere other than https on the same host (${show(probe.location ?? '')}).`;
    report(
      'discovery-https',
      'info',
      probe.url,
      what,
      'Redirect http:// to the same https:// URL (301 or 308), or do not listen on port 80.',
    );
  }
}

// Rule 44 discovery-redirect.
function checkRedirects({ primary, maxRedirects }: RuleInput, report: Report): void {
  const { get } = primary;
  const hops = get.redirects;
  if (hops.length === 0) return;
  const url = get.url;
  const chain = hops.map((h) => `${h.status} → ${h.location ?? '(no Location)'}`).join(', ');
  const last = hops[hops.length - 1];
  const fixHint =
    'Serve the card directly at /.well-known/agent-card.json with status 200: httpx and the TCK do not follow redirects, and clients refuse cross-origin or http hops.';
  switch (get.redirectStop) {
    case 'downgrade':
      report('discovery-redirect', 'error', url, `redirect downgrades https to http (${chain}).`, fixHint);
      return;
    case 'cross-origin': {
      const login =
        last?.location !== undefined && LOGIN.test(new URL(last.location).pathname + new URL(last.location).search);
      report(
        'discovery-redirect',
        'error',
        url,
        login ? `redirects to what looks like a login page (${chain}).` : `redirects to another origin (${chain}).`,
        login
          ? 'Exempt /.well-known/agent-card.json from authentication: the public card must be readable anonymously.'
          : fixHint,
      );
      return;
    }
    case 'loop':
      report('discovery-redirect', 'error', url, `redirect loop (${chain}).`, fixHint);
      return;
    case 'too-many':
      report('discovery-redirect', 'error', url, `more than ${maxRedirects} redirects (${chain}).`, fixHint);
      return;
    case 'no-location':
      report(
        'discovery-redirect',
        'error',
        url,
        `${last?.status ?? 3} redirect without a valid Location (${chain}).`,
        fixHint,
      );
      return;
    case 'not-followed':
      report('discovery-redirect', 'error', url, `redirects (${chain}).`, fixHint);
      return;
    default:
      break;
  }
  // Every hop was followed: a same-origin https chain. Judge where it landed.
  const parsed = primary.parsed;
  const landedOnJson = get.status === 200 && parsed?.kind === 'json';
  if (!landedOnJson && get.status === 200) {
    const title = parsed?.kind === 'html' && parsed.title ? ` titled ${show(parsed.title)}` : '';
    const looksLogin =
      parsed?.kind === 'html' && (LOGIN.test(parsed.title ?? '') || LOGIN.test(new URL(get.finalUrl).pathname));
    report(
      'discovery-redirect',
      'error',
      url,
      `redirect lands on ${looksLogin ? 'a login page' : parsed?.kind === 'html' ? 'an HTML page' : 'a non-JSON response'}${title} (${chain}).`,
      looksLogin ? 'Exempt /.well-known/agent-card.json from authentication.' : fixHint,
    );
    return;
  }
  report(
    'discovery-redirect',
    'warning',
    url,
    `redirects before the card (${chain}).`,
    'Serve the card directly with 200: clients that do not follow redirects (httpx, the TCK) fail here.',
  );
}

// Rule 45 discovery-content-type.
function checkContentType(run: PathRun, report: Report): void {
  const url = run.get.finalUrl;
  const raw = run.report.headers['content-type'];
  const media = parseMediaType(raw);
  const hint = 'Send Content-Type: application/json (or application/a2a+json).';
  if (raw === undefined) {
    report('discovery-content-type', 'warning', url, 'no Content-Type header.', hint);
  } else if (media === undefined) {
    report('discovery-content-type', 'warning', url, `malformed Content-Type (${show(raw)}).`, hint);
  } else if (media.essence === 'text/html') {
    report('discovery-content-type', 'error', url, `served as HTML (Content-Type ${show(raw)}).`, hint);
  } else if (!isJsonMediaType(media.essence)) {
    report('discovery-content-type', 'warning', url, `not a JSON media type (Content-Type ${show(raw)}).`, hint);
  } else if (media.charset !== undefined && media.charset !== 'utf-8' && media.charset !== 'utf8') {
    report(
      'discovery-content-type',
      'warning',
      url,
      `charset is not utf-8 (Content-Type ${show(raw)}).`,
      'Drop the charset parameter or use charset=utf-8: JSON is UTF-8 (RFC 8259 §8.1).',
    );
  }
  const nosniff = run.report.headers['x-content-type-options'];
  if (nosniff === undefined || nosniff.trim().toLowerCase() !== 'nosniff') {
    report(
      'discovery-content-type',
      'info',
      url,
      nosniff === undefined
        ? 'no X-Content-Type-Options: nosniff.'
        : `X-Content-Type-Options is not nosniff (${show(nosniff)}).`,
      'Send X-Content-Type-Options: nosniff so browsers never sniff the card as another type (RFC 8615 §4.2).',
    );
  }
}

function htmlCause(run: PathRun, title: string | undefined): string {
  const status = run.get.status ?? 0;
  const finalPath = new URL(run.get.finalUrl).pathname;
  if (LOGIN.test(title ?? '') || LOGIN.test(finalPath) || status === 401 || status === 403) {
    return 'likely a login page in front of the well-known path';
  }
  if (status >= 500) return 'likely an error page of a proxy or CDN';
  if (status === 404) return "likely the site's not-found page";
  return 'likely a single-page-app fallback or a static host serving index.html for unknown paths';
}

// Rule 46 discovery-html-body (the primary path; legacy HTML is judged by rule 48).
function checkHtml(run: PathRun, report: Report): void {
  if (run.parsed?.kind !== 'html') return;
  const title = run.parsed.title;
  report(
    'discovery-html-body',
    'error',
    run.get.finalUrl,
    `body is HTML, not JSON (${title ? `title ${show(title)}` : 'no title'}, status ${statusText(run.get.status ?? 0)}); ${htmlCause(run, title)}.`,
    'Route /.well-known/agent-card.json to the card before any SPA fallback, auth middleware or catch-all route.',
  );
}

// Rule 47 discovery-size.
function checkSize({ primary, maxBytes }: RuleInput, report: Report): void {
  const { get } = primary;
  const url = get.finalUrl;
  const declared = Number(primary.report.headers['content-length'] ?? Number.NaN);
  const hint =
    'Keep the card small: move long descriptions to documentationUrl and trim examples; some scanners stop at 128 KiB.';
  if (get.failure?.kind === 'too-large') {
    const size = Number.isFinite(declared) ? `${declared} bytes declared` : `more than ${maxBytes} bytes`;
    report(
      'discovery-size',
      'error',
      url,
      `body over the ${maxBytes}-byte card size limit (${size}); reading stopped.`,
      `${hint} To check a larger card anyway, raise the limit (maxCardBytes).`,
    );
    return;
  }
  if (get.failure !== undefined || get.status !== 200) return;
  const size = primary.report.bytes;
  if (size > SIZE_ERROR) {
    report('discovery-size', 'error', url, `body larger than 1 MiB (${size} bytes).`, hint);
  } else if (size > SIZE_WARNING) {
    report('discovery-size', 'warning', url, `body larger than 128 KiB (${size} bytes).`, hint);
  }
}

// Rule 48 discovery-legacy-path.
function checkLegacyPath({ primary, consistency }: RuleInput, legacy: PathRun, report: Report): void {
  const url = legacy.get.url;
  const primaryServes = isOk(primary) && primary.parsed?.kind === 'json';
  const legacyOk = isOk(legacy);
  const legacyJson = legacyOk && legacy.parsed?.kind === 'json';
  if (!primaryServes) {
    if (legacyJson) {
      report(
        'discovery-legacy-path',
        'error',
        url,
        'only the legacy path serves a card; /.well-known/agent-card.json does not.',
        'Serve the card at /.well-known/agent-card.json: every current SDK fetches that path only (spec v0.3.0 renamed it).',
      );
    }
    return;
  }
  if (legacyJson) {
    if (consistency && !consistency.sameDocument) {
      report(
        'discovery-legacy-path',
        'warning',
        url,
        'serves a different document than /.well-known/agent-card.json.',
        'Serve the same bytes at both paths (legacy: true in the middleware) or stop serving agent.json.',
      );
    }
    return;
  }
  const status = legacy.get.status;
  if (status === 404 || status === 410) {
    report(
      'discovery-legacy-path',
      'info',
      url,
      `not served (status ${statusText(status)}); clients of spec 0.2 and some directories still probe it.`,
      'Optional: serve the same card at /.well-known/agent.json (legacy: true in the middleware).',
    );
  } else if (legacyOk && legacy.parsed?.kind === 'html') {
    const title = legacy.parsed.title;
    report(
      'discovery-legacy-path',
      'warning',
      url,
      `serves HTML with status 200 (${title ? `title ${show(title)}` : 'no title'}); ${htmlCause(legacy, title)}.`,
      'Answer 404 (or serve the card) at /.well-known/agent.json: old clients read this HTML as a broken card.',
    );
  } else if (legacyOk) {
    report(
      'discovery-legacy-path',
      'warning',
      url,
      'answers 200 with a body that is not a JSON card.',
      'Answer 404 at /.well-known/agent.json, or serve the same card as /.well-known/agent-card.json.',
    );
  } else {
    const what =
      status !== undefined
        ? `answers status ${statusText(status)}${legacy.get.redirects.length > 0 ? ` after ${legacy.get.redirects.length} redirect(s)` : ''}`
        : `cannot be fetched (${failureText(legacy.get.failure ?? { kind: 'network', message: 'unknown' })})`;
    report(
      'discovery-legacy-path',
      'info',
      url,
      `${what}.`,
      'Optional: serve the same card at /.well-known/agent.json, or answer 404.',
    );
  }
}

// Rule 49 discovery-paths-consistent.
function checkConsistency({ primary, consistency }: RuleInput, legacy: PathRun, report: Report): void {
  if (!consistency) return;
  const url = legacy.get.url;
  const hint =
    'Serve one document at both paths (the middleware does with legacy: true); a difference means a stale copy, a CDN mismatch or a forgotten static file.';
  if (!consistency.sameDocument) {
    const a = primary.report.document;
    const b = legacy.report.document;
    const version = (doc: unknown): string | undefined =>
      typeof doc === 'object' && doc !== null && typeof (doc as { version?: unknown }).version === 'string'
        ? (doc as { version: string }).version
        : undefined;
    const va = version(a);
    const vb = version(b);
    const detail =
      va !== undefined && vb !== undefined && va !== vb
        ? `version ${show(va)} vs ${show(vb)}`
        : `sha256 ${primary.report.sha256?.slice(0, 12) ?? '?'}… vs ${legacy.report.sha256?.slice(0, 12) ?? '?'}…`;
    report(
      'discovery-paths-consistent',
      'warning',
      url,
      `differs from /.well-known/agent-card.json (${detail}).`,
      hint,
    );
    if (consistency.sameEtag === true) {
      report(
        'discovery-paths-consistent',
        'warning',
        url,
        `same ETag as /.well-known/agent-card.json for a different document (${show(primary.report.headers.etag ?? '')}).`,
        'Derive the ETag from the bytes served, so caches never mix the two documents.',
      );
    }
  } else if (consistency.sameEtag === false) {
    report(
      'discovery-paths-consistent',
      'warning',
      url,
      `same document but a different ETag (${show(primary.report.headers.etag ?? '')} vs ${show(legacy.report.headers.etag ?? '')}).`,
      'Serve both paths from one source so their ETags agree; two ETags for one document usually mean two copies that will drift.',
    );
  }
}

// Rule 50 discovery-cache-control.
function checkCacheControl(run: PathRun, report: Report): void {
  const url = run.get.finalUrl;
  const raw = run.report.headers['cache-control'];
  const hint =
    'Send Cache-Control: public, max-age=3600 (spec §8.6.1): long enough to spare the server, short enough to roll out changes.';
  if (raw === undefined) {
    report('discovery-cache-control', 'warning', url, 'no Cache-Control header.', hint);
    return;
  }
  const cc = parseCacheControl(raw);
  if (cc.has('no-store')) {
    report('discovery-cache-control', 'info', url, `caching disabled (Cache-Control ${show(raw)}).`, hint);
    return;
  }
  const ages = ['s-maxage', 'max-age'].filter((d) => cc.has(d)).map((d) => Number(cc.get(d)));
  if (cc.has('immutable')) {
    report(
      'discovery-cache-control',
      'warning',
      url,
      `marked immutable (Cache-Control ${show(raw)}): clients may never see a changed card.`,
      hint,
    );
  }
  if (ages.length === 0) {
    if (cc.has('no-cache')) {
      report('discovery-cache-control', 'info', url, `every use revalidates (Cache-Control ${show(raw)}).`, hint);
    } else {
      report('discovery-cache-control', 'warning', url, `no max-age or s-maxage (Cache-Control ${show(raw)}).`, hint);
    }
    return;
  }
  if (ages.some((age) => !Number.isInteger(age) || age < 0)) {
    report('discovery-cache-control', 'warning', url, `malformed max-age (Cache-Control ${show(raw)}).`, hint);
  } else if (ages.some((age) => age > ONE_DAY)) {
    report(
      'discovery-cache-control',
      'warning',
      url,
      `cached longer than one day (Cache-Control ${show(raw)}): stale-card risk.`,
      hint,
    );
  }
}

// Rule 51 discovery-etag.
function checkEtag(run: PathRun, report: Report): void {
  if (run.report.headers.etag !== undefined) return;
  const lastModified = run.report.headers['last-modified'];
  report(
    'discovery-etag',
    'warning',
    run.get.finalUrl,
    lastModified === undefined ? 'no ETag header.' : `no ETag header (Last-Modified ${show(lastModified)} only).`,
    'Send a strong ETag derived from the card bytes, so clients can revalidate with If-None-Match (spec §8.6.1).',
  );
}

// Rule 52 discovery-conditional-get.
function checkConditional(run: PathRun, report: Report): void {
  const c = run.report.conditional;
  if (!c) return;
  const url = run.get.finalUrl;
  const hint = 'Answer If-None-Match with 304, no body, and the same ETag, Cache-Control and Vary (RFC 9110 §15.4.5).';
  if (c.status === undefined) {
    report(
      'discovery-conditional-get',
      'warning',
      url,
      `conditional request failed (${failureText(c.failure ?? { kind: 'network', message: 'unknown' })}).`,
      hint,
    );
    return;
  }
  if (c.status === 304) {
    if (!c.bodyEmpty) report('discovery-conditional-get', 'warning', url, '304 carries a body.', hint);
    const missing = (['etag', 'cache-control', 'vary'] as const).filter(
      (h) => run.report.headers[h] !== undefined && c.headers[h] === undefined,
    );
    if (missing.length > 0) {
      report('discovery-conditional-get', 'warning', url, `304 omits ${missing.join(', ')} that the 200 sends.`, hint);
    }
    if (c.headers.etag !== undefined && !c.sameEtag) {
      report(
        'discovery-conditional-get',
        'warning',
        url,
        `304 has a different ETag (${show(c.headers.etag)} vs ${show(c.ifNoneMatch)}).`,
        hint,
      );
    }
    return;
  }
  if (c.status === 200) {
    const sameBody = run.conditional !== undefined && equalBytes(run.conditional.body, run.get.body);
    if (sameBody && !c.sameEtag) {
      report(
        'discovery-conditional-get',
        'warning',
        url,
        `different ETag for the same body (${show(c.headers.etag ?? '(none)')} vs ${show(c.ifNoneMatch)}).`,
        'Make the ETag a hash of the bytes, the same on every replica, with no timestamps.',
      );
    } else if (sameBody) {
      report(
        'discovery-conditional-get',
        'warning',
        url,
        'If-None-Match ignored: 200 with the same body instead of 304.',
        hint,
      );
    } else {
      report(
        'discovery-conditional-get',
        'info',
        url,
        'the card changed between two requests (200 with a different body).',
        'Check that every replica serves the same card.',
      );
    }
    return;
  }
  report(
    'discovery-conditional-get',
    'warning',
    url,
    `conditional request answered ${statusText(c.status)} instead of 304.`,
    hint,
  );
}

/** Byte equality of two bodies. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Rule 53 discovery-vary.
function checkVary({ primary, corsOrigin }: RuleInput, report: Report): void {
  const url = primary.get.finalUrl;
  const versioned = primary.report.versioned;
  if (versioned && versioned.status === 200 && !versioned.sameBody && primary.versioned.failure === undefined) {
    const lacking = [
      ['header-less', primary.report.headers.vary],
      ['A2A-Version: 1.0', versioned.headers.vary],
    ].filter(([, vary]) => {
      const tokens = headerTokens(vary);
      return !tokens.includes('a2a-version') && !tokens.includes('*');
    });
    if (lacking.length > 0) {
      report(
        'discovery-vary',
        'warning',
        url,
        `the body depends on A2A-Version but Vary lacks it (${lacking.map(([name, vary]) => `${name ?? ''}: ${show(vary ?? '(none)')}`).join('; ')}).`,
        'Send Vary: A2A-Version on every response of this path, so caches do not serve one version to the other clients (RFC 9110 §12.5.5).',
      );
    }
  }
  const acao = versioned?.headers['access-control-allow-origin'];
  if (acao !== undefined && acao.trim() === corsOrigin) {
    const tokens = headerTokens(versioned?.headers.vary);
    if (!tokens.includes('origin') && !tokens.includes('*')) {
      report(
        'discovery-vary',
        'warning',
        url,
        `Access-Control-Allow-Origin echoes the request Origin without Vary: Origin (${show(acao)}).`,
        'Add Vary: Origin, or answer Access-Control-Allow-Origin: * (the card is public).',
      );
    }
  }
}

// Rule 54 discovery-cors.
function checkCors({ primary, corsOrigin }: RuleInput, report: Report): void {
  const url = primary.get.finalUrl;
  const headers = primary.report.versioned?.status === 200 ? primary.report.versioned.headers : primary.report.headers;
  const acao = headers['access-control-allow-origin']?.trim();
  const hint =
    'Send Access-Control-Allow-Origin: * on the card: it is public, and browser-based clients and inspectors must read it.';
  if (acao === undefined) {
    report(
      'discovery-cors',
      'warning',
      url,
      'no Access-Control-Allow-Origin: browser-based clients cannot read the card.',
      hint,
    );
  } else if (acao === '*') {
    if (headers['access-control-allow-credentials']?.trim().toLowerCase() === 'true') {
      report(
        'discovery-cors',
        'error',
        url,
        'Access-Control-Allow-Origin: * with Access-Control-Allow-Credentials: true (browsers reject the pair).',
        'Drop Access-Control-Allow-Credentials: the public card needs no credentials.',
      );
    }
  } else if (acao !== corsOrigin) {
    report(
      'discovery-cors',
      'warning',
      url,
      `Access-Control-Allow-Origin allows one other origin only (${show(acao)}); browser clients elsewhere cannot read the card.`,
      hint,
    );
  }
  const preflight = primary.report.preflight;
  if (preflight && !preflight.ok) {
    const what =
      preflight.status === undefined
        ? `failed (${failureText(preflight.failure ?? { kind: 'network', message: 'unknown' })})`
        : `answered ${statusText(preflight.status)}${preflight.headers['access-control-allow-methods'] !== undefined ? ` with Access-Control-Allow-Methods ${show(preflight.headers['access-control-allow-methods'])}` : ' without Access-Control-Allow-Methods'}`;
    report(
      'discovery-cors',
      'info',
      url,
      `CORS preflight (OPTIONS) ${what}.`,
      'Answer OPTIONS with 204 and Access-Control-Allow-Methods: GET, HEAD, OPTIONS (browsers preflight when a client sends A2A-Version).',
    );
  }
}

// Rule 55 discovery-version-negotiation.
function checkVersionNegotiation(run: PathRun, report: Report): void {
  const url = run.get.finalUrl;
  const plainShape = run.report.shape;
  const versioned = run.report.versioned;
  if (plainShape === undefined || versioned === undefined) return;
  if (versioned.status !== 200 || run.versioned.failure !== undefined) {
    const what =
      versioned.status === undefined
        ? `failed (${failureText(run.versioned.failure ?? { kind: 'network', message: 'unknown' })})`
        : `got ${statusText(versioned.status)}`;
    report(
      'discovery-version-negotiation',
      'warning',
      url,
      `the header-less request got 200 but the A2A-Version: 1.0 request ${what}.`,
      'Serve the card whatever A2A-Version the client sends (spec §3.6.2): v1.0 clients send the header.',
    );
    return;
  }
  const got = `header-less request got ${plainShape}, A2A-Version: 1.0 got ${versioned.shape ?? 'a non-card body'}${versioned.sameBody ? ' (same bytes)' : ''}`;
  if (plainShape === 'v0.3' || plainShape === 'v0.2') {
    report(
      'discovery-version-negotiation',
      'warning',
      url,
      `${got}: the TCK fetches without the header and validates v1.0 strictly.`,
      'Serve the v1.0 card by default (to header-less requests); keep v0.3 only behind an explicit opt-in.',
    );
  } else {
    report(
      'discovery-version-negotiation',
      'info',
      url,
      `${got}.`,
      'Nothing to do; clients of either kind get a card they understand.',
    );
  }
}

// Rule 56 discovery-methods.
function checkMethods(run: PathRun, report: Report): void {
  const head = run.report.head;
  if (!head) return;
  const url = run.get.finalUrl;
  const hint = 'Answer HEAD like GET without the body (RFC 9110 §9.3.2); a 405 must list the allowed methods in Allow.';
  if (head.status === undefined) {
    report(
      'discovery-methods',
      'info',
      url,
      `HEAD failed (${failureText(head.failure ?? { kind: 'network', message: 'unknown' })}).`,
      hint,
    );
  } else if (head.status === 405) {
    const allow = head.headers.allow;
    report(
      'discovery-methods',
      'info',
      url,
      allow === undefined
        ? 'HEAD answered 405 without an Allow header.'
        : `HEAD not supported (405, Allow ${show(allow)}).`,
      hint,
    );
  } else if (head.status !== 200) {
    report('discovery-methods', 'info', url, `HEAD answered ${statusText(head.status)} while GET answers 200.`, hint);
  } else if (head.differs.length > 0) {
    report('discovery-methods', 'info', url, `HEAD headers differ from GET (${head.differs.join(', ')}).`, hint);
  } else if (!head.bodyEmpty) {
    report('discovery-methods', 'info', url, 'HEAD response carries a body.', hint);
  }
}
