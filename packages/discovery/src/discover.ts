import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import {
  AGENT_CARD_VERIFY_LIMITS,
  AgentCardError,
  applyRuleOverrides,
  type RuleId,
  type Severity,
  type ValidationProfile,
  prunedOnlyNote,
  toPointer,
  validateAgentCard,
  verifyAgentCard,
} from '@agent-card/core';
import { JWKS_PATH } from '@agent-card/core/http';
import type { ParsedBody } from './body';
import { headerTokens, parseBody } from './body';
import { type Exchange, type ExchangeSpec, exchange } from './request';
import { runCatalog } from './catalog';
import { gradeDocuments } from './documents';
import { type PathRun, discoveryFindings, equalBytes } from './rules';
import { DISCOVERY_DEFAULTS, type DiscoverySettings, WELL_KNOWN_PATHS, resolveOrigin, resolveSettings } from './target';
import type {
  DiscoveryConsistency,
  DiscoveryFinding,
  DiscoveryHeaderName,
  DiscoveryHeaders,
  DiscoveryHttpProbe,
  DiscoveryKeyOptions,
  DiscoveryOptions,
  DiscoveryPath,
  DiscoveryPathReport,
  DiscoveryReport,
  DiscoverySignature,
} from './types';

const INTERESTING: readonly DiscoveryHeaderName[] = [
  'content-type',
  'content-length',
  'content-encoding',
  'cache-control',
  'etag',
  'last-modified',
  'vary',
  'x-content-type-options',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'allow',
  'link',
  'location',
  'www-authenticate',
];

/** Headers HEAD must repeat from GET (RFC 9110 §9.3.2); length may legitimately be absent. */
const HEAD_COMPARED: readonly DiscoveryHeaderName[] = [
  'content-type',
  'etag',
  'cache-control',
  'vary',
  'access-control-allow-origin',
];

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Checks what a domain really serves as its Agent Card: fetches `/.well-known/agent-card.json`
 * and `/.well-known/agent.json` the way clients do, and reports per path the status, content
 * type, every redirect hop, size, timing, caching and CORS headers, the `If-None-Match` replay,
 * HEAD and preflight answers, whether both paths serve the same document, the parsed card with
 * its validation findings, and its signature status when keys are given.
 *
 * Requests: per path a header-less GET (`Accept: application/json`, as the TCK sends), a GET
 * with `A2A-Version: 1.0` and `Origin`, a HEAD, a CORS preflight and, after the GET, a
 * conditional GET — all concurrent except the last — plus one `http://` probe. Redirects are
 * followed only same-origin over https, at most `maxRedirects` times, every hop recorded. The
 * caller's `headers` go only to the checked origin: not over the `http://` probe, not to a
 * listed card or catalog on another origin, not to a redirect hop elsewhere.
 * Each request has `timeoutMs` for headers and body together and reads at most `maxBytes`; the
 * requests that wait for another (the conditional replays, key-set fetches) share what is left
 * of `1.25 × timeoutMs` from the start, and each distinct body is parsed and validated once, so
 * the whole run, validation included, ends within `2 × timeoutMs` whatever the server does.
 * A body nesting deeper than 64 levels is a `card-json-parse` error and is not parsed further,
 * so the report always serialises with `JSON.stringify`.
 *
 * The host's AI Catalog (`/.well-known/ai-catalog.json`) is read alongside, when `followCatalog`
 * allows it: validated with `validateAiCatalog`, and every A2A card it lists checked with the
 * same requests and rules, four at a time, at most `maxCatalogEntries`, same-origin by default,
 * nested catalogs one level deep, all within the same deadline (`report.catalog`,
 * `report.agents`, the `catalog-*` and `discovery-catalog-*` findings).
 *
 * Never rejects because of the server: network errors, timeouts, huge or endless bodies,
 * invalid UTF-8 and HTML pages become findings (rules 42–56 of the catalogue, `card-json-parse`,
 * the validator's rules, and `discovery-signature` when keys are given). `ok` is false when any
 * finding is an error.
 *
 * @param urlOrDomain - `acme.io`, `https://acme.io`, or any URL on the origin (e.g. the card URL).
 * @throws {AgentCardError} `ERR_AGENT_CARD_OPTIONS` when the input is not a domain or http(s)
 *   URL, or an option is invalid. Nothing else throws.
 * @example
 * const report = await discoverAgentCard('acme.io')
 * for (const f of report.findings) console.log(f.severity, f.rule, f.message)
 * process.exitCode = report.ok ? 0 : 1
 * @see spec §8.2 (well-known URI), §8.6 (caching); packages/core/RULES.md §6.4
 */
export async function discoverAgentCard(urlOrDomain: string, options: DiscoveryOptions = {}): Promise<DiscoveryReport> {
  const settings = resolveSettings(options);
  const origin = resolveOrigin(urlOrDomain, settings.allowHttp);
  const given = keyOptions(options);
  const keys =
    given ??
    (options.hostKeys === true || options.requireSignature === true ? hostKeyOptions(origin, options) : undefined);
  const started = performance.now();
  const budget = runBudget(started, settings.timeoutMs);
  let requests = 0;
  const onRequest = (): void => {
    requests += 1;
  };

  // The catalog and the cards it lists are read alongside the well-known paths, within the same
  // follow-up window (see runCatalog for the bounds).
  const catalogRun =
    settings.followCatalog === false
      ? undefined
      : runCatalog({
          origin,
          settings,
          remaining: budget.remaining,
          onRequest,
          checkCard: (url, cardSettings) => checkListedCard(url, cardSettings, budget, onRequest),
        });
  const [primary, legacy, probe] = await Promise.all([
    runPath(origin, WELL_KNOWN_PATHS[0] ?? '/.well-known/agent-card.json', settings, budget, onRequest),
    runPath(origin, WELL_KNOWN_PATHS[1] ?? '/.well-known/agent.json', settings, budget, onRequest),
    origin.startsWith('https:') && settings.probeHttp
      ? probeHttp(origin, settings, onRequest)
      : Promise.resolve(undefined),
  ]);

  const listed = catalogRun ? await catalogRun : undefined;
  const consistency = compare(primary, legacy);
  const source =
    primary.report.document !== undefined ? primary : legacy.report.document !== undefined ? legacy : undefined;
  if (source && keys) {
    const signature = await signatureStatus(source, keys, settings, budget);
    signature.keysFrom = given ? 'given' : 'host';
    source.report.signature = signature;
  }

  const findings: DiscoveryFinding[] = discoveryFindings({
    origin,
    allowHttp: settings.allowHttp,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxCardBytes,
    maxRedirects: settings.maxRedirects,
    corsOrigin: settings.corsOrigin,
    primary,
    legacy,
    ...(probe ? { probe } : {}),
    ...(consistency ? { consistency } : {}),
    ...httpTargetOf(urlOrDomain, origin),
  });
  // The primary path's parse and validation findings always count; the legacy path's only when
  // its document is the one clients would end up with.
  for (const run of source === legacy ? [primary, legacy] : [primary]) {
    const url = run.get.finalUrl;
    for (const f of run.report.findings) findings.push({ ...f, url });
  }
  const signature = source?.report.signature;
  if (source && signature) {
    findings.push(...signatureFindings(signature, source.get.finalUrl, options.requireSignature === true));
  }
  if (listed) findings.push(...listed.findings);
  // The user's rule settings decide every finding of the report once, and so its verdict.
  const { findings: decided, turnedOff } = applyRuleOverrides(findings, settings.rules);
  decided.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);

  const report: DiscoveryReport = {
    input: urlOrDomain,
    origin,
    profile: settings.profile,
    primary: primary.report,
    legacy: legacy.report,
    findings: decided,
    ok: !decided.some((f) => f.severity === 'error'),
    requests,
    timeMs: Math.round(performance.now() - started),
  };
  if (settings.rules !== undefined) report.turnedOff = turnedOff;
  if (probe) report.httpProbe = probe;
  if (listed) {
    report.catalog = listed.catalog;
    if (listed.catalog.found) report.agents = listed.agents;
  }
  if (source) {
    report.document = source.report.document;
    report.cardUrl = source.get.finalUrl;
    if (source.report.card) report.card = source.report.card;
  }
  if (consistency) {
    report.consistency = consistency;
    report.pathsConsistent = consistency.sameDocument && consistency.sameEtag !== false;
  }
  if (options.checkDocuments === true) {
    report.documents = await gradeDocuments({ origin, settings, followUp: budget.followUp, onRequest }, report);
    report.requests = requests;
    report.timeMs = Math.round(performance.now() - started);
  }
  return report;
}

/** `{ httpTarget }` when the caller gave an `http://` target that is checked at `origin` (https). */
function httpTargetOf(input: string, origin: string): { httpTarget?: string } {
  if (!origin.startsWith('https:') || typeof input !== 'string') return {};
  const text = input.trim();
  if (!/^http:\/\//i.test(text)) return {};
  try {
    return { httpTarget: new URL(text).origin };
  } catch {
    return {};
  }
}

/**
 * The run's clock. The first requests start together with `timeoutMs` each; whatever has to wait
 * for them (a conditional replay, a key-set fetch) gets only what is left of `1.25 × timeoutMs`,
 * which keeps the last `0.75 × timeoutMs` of `2 × timeoutMs` for parsing, validation, signature
 * checks and (in the CLI) starting up, however loaded the machine. No signature check starts
 * after `1.75 × timeoutMs`.
 */
interface RunBudget {
  /** Milliseconds a follow-up request may take from now (at least 1). */
  followUp(timeoutMs: number): number;
  /** Milliseconds left of the follow-up window (may be ≤ 0). */
  remaining(): number;
  /** `performance.now()` after which no public-key check of a signature starts. */
  checksEnd: number;
  /** Validation results by body hash, card host and profile: each distinct body is validated once. */
  validated: Map<string, ReturnType<typeof validateAgentCard> | undefined>;
  /**
   * After this instant (`performance.now()`), a body not validated yet is left unvalidated. Never,
   * for the host's own paths; see {@link listedCardBudget} for the cards a catalog lists.
   */
  validateUntil: number;
  /** `validateUntil` of the cards a catalog lists: `1.75 × timeoutMs` from the start. */
  listedValidateUntil: number;
  /** The longest validation of the run so far, in milliseconds (shared by every copy). */
  pace: { longestMs: number };
}

function runBudget(started: number, timeoutMs: number): RunBudget {
  const followUpsEnd = started + timeoutMs * 1.25;
  return {
    followUp: (limit) => Math.max(1, Math.min(limit, Math.floor(followUpsEnd - performance.now()))),
    remaining: () => followUpsEnd - performance.now(),
    checksEnd: started + timeoutMs * 1.75,
    validated: new Map(),
    validateUntil: Number.POSITIVE_INFINITY,
    listedValidateUntil: started + timeoutMs * 1.75,
    pace: { longestMs: 0 },
  };
}

/**
 * The run's clock for a card a catalog lists. Validation runs on the event loop, so each listed
 * card's validation counts against the run's deadline: a card is validated only when, at the pace
 * of the run's longest validation so far, it would be done by `1.75 × timeoutMs`; otherwise it is
 * left unvalidated (`discovery-catalog-deadline`). That leaves the last quarter of `timeoutMs` for
 * the report, however many cards the catalog lists and however long each one takes to validate.
 */
function listedCardBudget(budget: RunBudget): RunBudget {
  return { ...budget, validateUntil: budget.listedValidateUntil };
}

function keyOptions(options: DiscoveryOptions): DiscoveryKeyOptions | undefined {
  const { keys, jwks, jwksUrl, allowJkuHosts, algorithms, allowInsecureJwksUrl, forms } = options;
  if (keys === undefined && jwks === undefined && jwksUrl === undefined) return undefined;
  const out: DiscoveryKeyOptions = {};
  if (keys !== undefined) out.keys = keys;
  if (jwks !== undefined) out.jwks = jwks;
  if (jwksUrl !== undefined) {
    // A wrong key source is the caller's mistake: say so before any request, not as a finding.
    let url: URL | undefined;
    try {
      url = new URL(String(jwksUrl));
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      (url.protocol !== 'https:' && !(allowInsecureJwksUrl === true && url.protocol === 'http:'))
    ) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_OPTIONS',
        `discoverAgentCard: jwksUrl must be an https URL (${JSON.stringify(String(jwksUrl))}). Use https://…/jwks.json.`,
      );
    }
    out.jwksUrl = jwksUrl;
  }
  if (allowJkuHosts !== undefined) out.allowJkuHosts = allowJkuHosts;
  if (algorithms !== undefined) out.algorithms = algorithms;
  if (allowInsecureJwksUrl !== undefined) out.allowInsecureJwksUrl = allowInsecureJwksUrl;
  if (forms !== undefined) out.forms = forms;
  return out;
}

/**
 * One card URL listed in a catalog: the same requests and rules as the well-known card, without
 * the legacy-path and http-probe ones (they are about the host's root, judged once).
 */
async function checkListedCard(
  url: string,
  settings: DiscoverySettings,
  budget: RunBudget,
  onRequest: () => void,
): Promise<{ report: DiscoveryPathReport; findings: DiscoveryFinding[] }> {
  const target = new URL(url);
  const run = await runPath(
    target.origin,
    `${target.pathname}${target.search}`,
    settings,
    listedCardBudget(budget),
    onRequest,
  );
  const findings = discoveryFindings({
    origin: target.origin,
    allowHttp: settings.allowHttp,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxCardBytes,
    maxRedirects: settings.maxRedirects,
    corsOrigin: settings.corsOrigin,
    primary: run,
  });
  for (const f of run.report.findings) findings.push({ ...f, url: run.get.finalUrl });
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return { report: run.report, findings };
}

async function runPath(
  origin: string,
  path: DiscoveryPath | (string & {}),
  settings: DiscoverySettings,
  budget: RunBudget,
  onRequest: () => void,
): Promise<PathRun> {
  const url = `${origin}${path}`;
  const base = (method: ExchangeSpec['method'], headers: Record<string, string>, follow = true): ExchangeSpec => {
    const spec: ExchangeSpec = {
      method,
      url,
      headers,
      caller: { origin, headers: settings.headers },
      follow,
      allowHttp: settings.allowHttp,
      maxRedirects: settings.maxRedirects,
      maxBytes: settings.maxCardBytes,
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
      onRequest,
    };
    if (settings.signal) spec.signal = settings.signal;
    return spec;
  };
  const accept = { accept: 'application/json' };
  const getting = exchange(base('GET', accept));
  const [get, versioned, head, preflight, conditional] = await Promise.all([
    getting,
    exchange(base('GET', { ...accept, 'a2a-version': '1.0', origin: settings.corsOrigin })),
    exchange(base('HEAD', accept)),
    // Browsers never follow redirects on a preflight.
    exchange(base('OPTIONS', { origin: settings.corsOrigin, 'access-control-request-method': 'GET' }, false)),
    getting.then((g) => {
      const etag = g.headers?.get('etag');
      return g.status === 200 && g.failure === undefined && etag
        ? exchange({
            ...base('GET', { ...accept, 'if-none-match': etag }),
            timeoutMs: budget.followUp(settings.timeoutMs),
          })
        : undefined;
    }),
  ]);

  const headers = pick(get.headers);
  const report: DiscoveryPathReport = {
    path,
    url,
    finalUrl: get.finalUrl,
    redirects: get.redirects,
    bytes: get.body.byteLength,
    truncated: get.truncated,
    timeMs: get.timeMs,
    headers,
    valid: false,
    findings: [],
  };
  if (get.status !== undefined) report.status = get.status;
  if (headers['content-type'] !== undefined) report.contentType = headers['content-type'];
  if (get.failure) report.failure = get.failure;
  if (!get.truncated && get.status !== undefined) report.sha256 = createHash('sha256').update(get.body).digest('hex');

  const run: PathRun = { report, get, versioned, head, preflight };
  if (conditional) run.conditional = conditional;

  // A non-200 body is an error page, not a card: it is only sniffed for HTML.
  if (get.body.byteLength > 0 && !get.truncated) {
    run.parsed = parseBody(get.body);
    if (get.status === 200) readCard(run, settings.profile, budget);
  } else if (get.status === 200 && get.failure === undefined && get.body.byteLength === 0) {
    run.parsed = { kind: 'empty' };
    readCard(run, settings.profile, budget);
  }

  report.versioned = {
    headers: pick(versioned.headers),
    bytes: versioned.body.byteLength,
    sameBody: versioned.failure === undefined && get.failure === undefined && equalBytes(versioned.body, get.body),
  };
  if (versioned.status !== undefined) report.versioned.status = versioned.status;
  if (versioned.failure) report.versioned.failure = versioned.failure;
  if (report.versioned.sameBody) {
    if (report.shape) report.versioned.shape = report.shape;
  } else if (versioned.status === 200 && versioned.failure === undefined) {
    const parsed = parseBody(versioned.body);
    if (parsed.kind === 'json') {
      const result = memoValidate(budget, versioned.body, parsed.value, settings.profile, versioned.finalUrl);
      if (result && result !== 'late') report.versioned.shape = result.shape;
    }
  }

  const headHeaders = pick(head.headers);
  report.head = {
    headers: headHeaders,
    differs: head.status === 200 ? HEAD_COMPARED.filter((h) => headHeaders[h] !== headers[h]) : [],
    bodyEmpty: head.body.byteLength === 0,
  };
  if (head.status !== undefined) report.head.status = head.status;
  if (head.failure) report.head.failure = head.failure;

  const preflightHeaders = pick(preflight.headers);
  const methods = headerTokens(preflightHeaders['access-control-allow-methods']);
  report.preflight = {
    headers: preflightHeaders,
    ok:
      preflight.status !== undefined &&
      preflight.status >= 200 &&
      preflight.status < 300 &&
      (methods.includes('get') || methods.includes('*')),
  };
  if (preflight.status !== undefined) report.preflight.status = preflight.status;
  if (preflight.failure) report.preflight.failure = preflight.failure;

  if (conditional) {
    const sent = get.headers?.get('etag') ?? '';
    const conditionalHeaders = pick(conditional.headers);
    report.conditional = {
      ifNoneMatch: sent,
      sameEtag: conditionalHeaders.etag === sent,
      bodyEmpty: conditional.body.byteLength === 0,
      headers: conditionalHeaders,
    };
    if (conditional.status !== undefined) report.conditional.status = conditional.status;
    if (conditional.failure) report.conditional.failure = conditional.failure;
  }
  return run;
}

/** Parses a 200 body into `document`, then validates it; parse problems are `card-json-parse`. */
function readCard(run: PathRun, profile: ValidationProfile, budget: RunBudget): void {
  const { report } = run;
  const parsed: ParsedBody = run.parsed ?? { kind: 'empty' };
  const parseFinding = (severity: Severity, message: string, hint: string): void => {
    report.findings.push({
      rule: 'card-json-parse' satisfies RuleId,
      severity,
      path: '',
      message: `${run.get.finalUrl}: ${message}`,
      hint,
    });
  };
  switch (parsed.kind) {
    case 'html':
      return; // discovery-html-body says it better.
    case 'empty':
      parseFinding('error', 'empty body with status 200.', 'Serve the card JSON as the body.');
      return;
    case 'invalid-utf8':
      parseFinding(
        'error',
        `body is not valid UTF-8 (byte 0x${parsed.byte.toString(16).padStart(2, '0')} at offset ${parsed.offset}).`,
        'Encode the card as UTF-8 (spec §14.1, RFC 8259 §8.1); re-save the file as UTF-8 without BOM.',
      );
      return;
    case 'too-deep':
      parseFinding(
        'error',
        `body nests deeper than ${parsed.limit} levels (character ${parsed.offset} opens level ${parsed.limit + 1}).`,
        `Serve a flat card: an Agent Card needs fewer than ${parsed.limit} levels of objects and arrays.`,
      );
      return;
    case 'invalid-json':
      parseFinding(
        'error',
        `body is not JSON (${parsed.reason}).`,
        'Serve the card as one JSON object; check the file with `agent-card validate`.',
      );
      return;
    case 'json':
      break;
  }
  if (parsed.bom) {
    parseFinding(
      'warning',
      'body starts with a UTF-8 byte order mark.',
      'Remove the BOM: RFC 8259 §8.1 forbids it and some parsers reject it.',
    );
  }
  for (const { path, message, hint } of parsed.duplicates) {
    report.findings.push({
      rule: 'card-json-duplicate-member' satisfies RuleId,
      severity: 'error',
      path: toPointer(path),
      message: `${run.get.finalUrl}: ${message}`,
      hint,
    });
  }
  for (const { path, message, hint } of parsed.inexact ?? []) {
    report.findings.push({
      rule: 'card-json-inexact-number' satisfies RuleId,
      severity: 'error',
      path: toPointer(path),
      message: `${run.get.finalUrl}: ${message}`,
      hint,
    });
  }
  report.document = parsed.value;
  const result = memoValidate(budget, run.get.body, parsed.value, profile, run.get.finalUrl);
  if (result === 'late') {
    report.findings.push({
      rule: 'discovery-catalog-deadline' satisfies RuleId,
      severity: 'warning',
      path: '',
      message: `${run.get.finalUrl}: not validated: the run's time ran out.`,
      hint: 'Raise timeoutMs (--timeout), or list fewer cards in the catalog.',
    });
    return;
  }
  if (!result) return;
  report.valid = result.valid;
  report.shape = result.shape;
  if (result.card) report.card = result.card;
  report.findings.push(...result.findings);
}

/**
 * Validates a body once per run: both paths and the versioned GET usually serve the same bytes.
 * Findings depend on the bytes, the profile and (rule 38) the host the card was fetched from.
 * `'late'` when the body is new and, at the pace of the run's longest validation so far, would not
 * be validated by the budget's `validateUntil`.
 */
function memoValidate(
  budget: RunBudget,
  body: Uint8Array,
  value: unknown,
  profile: ValidationProfile,
  cardUrl: string,
): ReturnType<typeof validateAgentCard> | 'late' | undefined {
  let host = '';
  try {
    host = new URL(cardUrl).host;
  } catch {
    host = cardUrl;
  }
  const key = `${createHash('sha256').update(body).digest('hex')} ${host} ${profile}`;
  if (budget.validated.has(key)) return budget.validated.get(key);
  const started = performance.now();
  if (started + budget.pace.longestMs > budget.validateUntil) return 'late';
  let result: ReturnType<typeof validateAgentCard> | undefined;
  try {
    result = validateAgentCard(value, { profile, cardUrl });
  } catch {
    // validateAgentCard never throws by contract; a bug there must not sink the whole report.
    result = undefined;
  }
  budget.pace.longestMs = Math.max(budget.pace.longestMs, performance.now() - started);
  budget.validated.set(key, result);
  return result;
}

function pick(headers: Headers | undefined): DiscoveryHeaders {
  const out: DiscoveryHeaders = {};
  if (!headers) return out;
  for (const name of INTERESTING) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** Rule 49's comparison; only when both paths answered 200 with a complete body. */
function compare(primary: PathRun, legacy: PathRun): DiscoveryConsistency | undefined {
  const complete = (run: PathRun): boolean => run.get.status === 200 && run.get.failure === undefined;
  if (!complete(primary) || !complete(legacy)) return undefined;
  const sameBytes = equalBytes(primary.get.body, legacy.get.body);
  const a = primary.report.document;
  const b = legacy.report.document;
  let method: DiscoveryConsistency['method'] = 'bytes';
  let sameDocument = sameBytes;
  if (a !== undefined && b !== undefined) {
    try {
      sameDocument = canonicalize(a) === canonicalize(b);
      method = 'jcs';
    } catch {
      sameDocument = sameBytes;
    }
  }
  const out: DiscoveryConsistency = { sameDocument, sameBytes, method };
  const ea = primary.report.headers.etag;
  const eb = legacy.report.headers.etag;
  if (ea !== undefined && eb !== undefined) out.sameEtag = ea === eb;
  return out;
}

/** GET http://host/.well-known/agent-card.json once: it should redirect to https or be refused. */
async function probeHttp(
  origin: string,
  settings: DiscoverySettings,
  onRequest: () => void,
): Promise<DiscoveryHttpProbe> {
  const https = new URL(origin);
  const http = new URL(origin);
  http.protocol = 'http:';
  const url = `${http.origin}${WELL_KNOWN_PATHS[0] ?? '/.well-known/agent-card.json'}`;
  const spec: ExchangeSpec = {
    method: 'GET',
    url,
    // None of the caller's headers: they would cross the network in clear.
    headers: { accept: 'application/json' },
    follow: false,
    allowHttp: false,
    maxRedirects: 0,
    // The probe only needs the status line; a small cap keeps a large http body cheap.
    maxBytes: 65_536,
    timeoutMs: Math.min(settings.timeoutMs, DISCOVERY_DEFAULTS.probeTimeoutMs),
    fetch: settings.fetch,
    onRequest,
  };
  if (settings.signal) spec.signal = settings.signal;
  const result: Exchange = await exchange(spec);
  const probe: DiscoveryHttpProbe = { url, outcome: 'refused' };
  if (result.status === undefined) {
    if (result.failure) probe.failure = result.failure;
    return probe;
  }
  probe.status = result.status;
  const hop = result.redirects[0];
  if (hop) {
    if (hop.location !== undefined) probe.location = hop.location;
    const target = hop.location === undefined ? undefined : new URL(hop.location);
    probe.outcome =
      target !== undefined && target.protocol === 'https:' && target.hostname === https.hostname
        ? 'redirects-to-https'
        : 'redirects-elsewhere';
  } else {
    probe.outcome = 'serves';
  }
  return probe;
}

async function signatureStatus(
  run: PathRun,
  keys: DiscoveryKeyOptions,
  settings: Pick<DiscoverySettings, 'fetch' | 'timeoutMs'>,
  budget: RunBudget,
): Promise<DiscoverySignature> {
  const document = run.report.document;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { status: 'unavailable', details: ['the body is not a JSON object'] };
  }
  const signatures = (document as { signatures?: unknown }).signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) {
    return { status: 'unsigned', details: ['the card has no signatures'] };
  }
  // JSON.parse kept the last of each repeated member; a reader keeping the first sees another card,
  // and no signature can say which of the two it covers.
  const duplicates = run.parsed?.kind === 'json' ? run.parsed.duplicates : [];
  if (duplicates.length > 0) {
    return {
      status: 'failed',
      details: [
        `not verified: the body names ${duplicates.map((d) => toPointer(d.path)).join(', ')} twice, so it is not one card a signature could cover`,
      ],
    };
  }
  // A signature covers the doubles the body's numbers read as (RFC 8785), while a reader that
  // keeps exact numbers reads the literals: a number a double does not hold exactly was not signed.
  const inexact = (run.parsed?.kind === 'json' ? run.parsed.inexact : undefined) ?? [];
  if (inexact.length > 0) {
    return {
      status: 'failed',
      details: [
        `not verified: the body holds numbers a double does not hold exactly (${inexact.map(({ path, literal }) => `${toPointer(path)}: ${literal}`).join(', ')}), so readers that keep exact numbers read values no signature covers`,
      ],
    };
  }
  try {
    // Key sets are fetched like the card: with the run's fetch, and only within what is left of
    // the run's time, whatever the verifier's own timeout does.
    const timeoutMs = budget.followUp(settings.timeoutMs);
    const deadline = AbortSignal.timeout(timeoutMs);
    const fetchKeys: typeof globalThis.fetch = (input, init) =>
      settings.fetch(input instanceof Request ? input.url : String(input), {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline,
      });
    const result = await verifyAgentCard(document as Parameters<typeof verifyAgentCard>[0], {
      ...keys,
      fetch: fetchKeys,
      timeoutMs,
      maxCheckTimeMs: Math.max(0, budget.checksEnd - performance.now()),
    });
    // Signatures past the per-card limit are summed up by `limits`, not listed one by one.
    const listed = result.signatures.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures);
    const details = listed.map((s) =>
      s.valid
        ? `#${s.index} (kid ${JSON.stringify(s.kid ?? '')}, ${s.alg ?? '?'}) verified with ${s.key ?? 'a trusted key'} over the ${s.form ?? 'pruned'} form${s.uncovered ? `, which does not cover ${s.uncovered.join(', ')} (members at their default value)` : ''}`
        : `#${s.index} (kid ${JSON.stringify(s.kid ?? '')}, ${s.alg ?? '?'}) failed: ${s.reason ?? 'unknown reason'}`,
    );
    if (result.reason !== undefined) details.push(result.reason);
    if (result.limits) details.push(...result.limits);
    const prunedOnly = prunedOnlyNote(result);
    if (prunedOnly) details.push(prunedOnly);
    return { status: result.valid ? 'verified' : 'failed', details, result };
  } catch (error) {
    return { status: 'unavailable', details: [error instanceof Error ? error.message : String(error)] };
  }
}

/**
 * The host's own key set as the key source: `JWKS_PATH` on the card's origin, and
 * a `jku` on that same origin (one fetch at most, by the verifier's allow-list rules).
 */
function hostKeyOptions(origin: string, options: DiscoveryOptions): DiscoveryKeyOptions {
  const url = new URL(JWKS_PATH, origin);
  const out: DiscoveryKeyOptions = { jwksUrl: url.href, allowJkuHosts: [url.host] };
  if (options.algorithms !== undefined) out.algorithms = options.algorithms;
  if (options.forms !== undefined) out.forms = options.forms;
  if (origin.startsWith('http:')) out.allowInsecureJwksUrl = true;
  return out;
}

/**
 * The signature findings of a card: one, and when a signature verified, one info more for each
 * listed signature that did not (another algorithm or key the verifier does not know, as a card
 * signed for every verifier has), so that a card passes a reader that knows one of its keys.
 */
function signatureFindings(signature: DiscoverySignature, url: string, required: boolean): DiscoveryFinding[] {
  const result = signature.result;
  if (signature.status !== 'verified' || result === undefined) return [signatureFinding(signature, url, required)];
  const listed = result.signatures.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures);
  const verified = listed.filter((s) => s.valid).map((s) => s.index);
  const out = [signatureFinding(signature, url, required)];
  for (const s of listed) {
    if (s.valid) continue;
    out.push({
      rule: 'discovery-signature' satisfies RuleId,
      severity: 'info',
      path: `/signatures/${s.index}`,
      message: `${url}: signature #${s.index} (kid ${JSON.stringify(s.kid ?? '')}, ${s.alg ?? '?'}) did not verify (${s.reason ?? 'unknown reason'}); #${verified.join(', #')} did, which is enough.`,
      hint: 'Nothing to do when this signature is for verifiers with other keys or algorithms; otherwise re-sign the card, or publish its key.',
      url,
    });
  }
  return out;
}

function signatureFinding(signature: DiscoverySignature, url: string, required: boolean): DiscoveryFinding {
  const detail = signature.details.join('; ');
  const finding = (severity: Severity, message: string, hint: string): DiscoveryFinding => ({
    rule: 'discovery-signature' satisfies RuleId,
    severity,
    path: '/signatures',
    message: `${url}: ${message}`,
    hint,
    url,
  });
  const fromHost = signature.keysFrom === 'host';
  const source = fromHost ? " with the host's own key set" : '';
  switch (signature.status) {
    case 'verified':
      return finding('info', `signature verified${source} (${detail}).`, 'Nothing to do.');
    case 'unsigned':
      return finding(
        required || !fromHost ? 'error' : 'info',
        required
          ? 'card is not signed, and a signature is required.'
          : fromHost
            ? 'card is not signed.'
            : 'card is not signed, but keys were given to verify it.',
        'Sign the card (signAgentCard, or the middleware option sign).',
      );
    case 'failed':
      return finding(
        fromHost && !required && /unknown kid/.test(detail) && !/does not (match|cover)/.test(detail)
          ? 'warning'
          : 'error',
        `no signature verified${source} (${detail}).`,
        fromHost
          ? 'Publish the signing keys at /.well-known/jwks.json (the middleware does when sign is set), and re-sign the card after every change.'
          : 'Re-sign the card after every change, with a key the client trusts (same kid).',
      );
    default:
      return finding(
        required ? 'error' : fromHost ? 'warning' : 'error',
        `signature could not be checked (${detail}).`,
        fromHost
          ? 'Serve the key set at /.well-known/jwks.json, or pass --key or --jwks.'
          : 'Check the keys, jwks or jwksUrl given.',
      );
  }
}
