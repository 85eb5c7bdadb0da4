/**
 * Whether a card tells the truth about its agent: each interface it lists answers its binding,
 * the security it declares is enforced, and a declared extended card is refused without
 * credentials and served with them. Opt-in (it calls the agent), read-only (`GetTask` of a task
 * that does not exist, the extended card), bounded like the rest of discovery.
 */
import { type DiscoveryRuleId, quoteUntrusted as show } from '@agent-card/core';
import { parseBody } from './body';
import { type Exchange, exchange } from './request';
import type { DiscoveryFetch, DiscoveryFinding } from './types';

/** How {@link probeAgentCard} calls the agent. */
export interface ProbeAgentCardOptions {
  /**
   * The origin the card was checked at. Interfaces on it are probed; interfaces on any other
   * origin only when `allowOrigins` lists it.
   */
  origin: string;
  /** Other origins whose interfaces may be called (without credentials). */
  allowOrigins?: readonly string[];
  /**
   * Credentials (`Authorization`, an API key header…) for the calls that check what a caller
   * with credentials gets: sent to `origin` only, never to another origin, never over plain http
   * unless `origin` itself is http.
   */
  headers?: Readonly<Record<string, string>>;
  /** One budget for every probe together, in milliseconds. @default 10000 */
  timeoutMs?: number;
  /** Call `http://` interfaces (on allowed origins). @default false */
  allowHttp?: boolean;
  /** Largest body read per answer. @default 65536 */
  maxBytes?: number;
  /** Interfaces probed at most; the others are listed as not probed. @default 8 */
  maxInterfaces?: number;
  fetch?: DiscoveryFetch;
}

/** What one interface answered. */
export interface ProbeInterfaceReport {
  url: string;
  binding: string;
  /**
   * `answers`: the binding's answer (an error for a task that does not exist);
   * `refused`: 401/403 without credentials; `wrong`: anything else; `unreachable`: no answer;
   * `not-probed`: gRPC, another binding, another origin, plain http, past the limit.
   */
  outcome: 'answers' | 'refused' | 'wrong' | 'unreachable' | 'not-probed';
  status?: number;
  /** One line: what was sent and what came back, or why it was not probed. */
  detail: string;
}

/** The result of {@link probeAgentCard}. */
export interface ProbeReport {
  interfaces: ProbeInterfaceReport[];
  /** The extended card: `refused` without credentials, `served` with them, when declared. */
  extended?: { url: string; withoutCredentials?: number; withCredentials?: number };
  /** `probe-*` findings, each with the URL it is about. */
  findings: DiscoveryFinding[];
  requests: number;
  timeMs: number;
}

type Card = Record<string, unknown>;
interface Target {
  url: string;
  binding: string;
  version: string;
}

/** A task id no agent has: `GetTask` of it is answered with the binding's error, never with work. */
const PROBE_TASK = 'agent-card-probe-0000-nonexistent';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The interfaces a card lists: v1.0 `supportedInterfaces`, or v0.3 `url` + `additionalInterfaces`. */
function targetsOf(card: Card): Target[] {
  const list: Target[] = [];
  const add = (url: unknown, binding: unknown, version: unknown) => {
    if (typeof url === 'string' && typeof binding === 'string') {
      list.push({ url, binding: binding.toUpperCase(), version: typeof version === 'string' ? version : '1.0' });
    }
  };
  if (Array.isArray(card.supportedInterfaces)) {
    for (const i of card.supportedInterfaces) if (isObject(i)) add(i.url, i.protocolBinding, i.protocolVersion);
  } else {
    add(card.url, card.preferredTransport ?? 'JSONRPC', card.protocolVersion);
    if (Array.isArray(card.additionalInterfaces)) {
      for (const i of card.additionalInterfaces) if (isObject(i)) add(i.url, i.transport, card.protocolVersion);
    }
  }
  return list;
}

/** Whether the card requires credentials: non-empty `securityRequirements` (or v0.3 `security`). */
function declaresSecurity(card: Card): boolean {
  const list = card.securityRequirements ?? card.security;
  return Array.isArray(list) && list.some((r) => isObject(r) && Object.keys(r).length > 0);
}

const legacy = (t: Target) => t.version.startsWith('0.');
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** One request of a probe; `credentials` go to the checked origin only. */
interface ProbeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: Record<string, string> | undefined;
}

/** The read-only request of a binding: `GetTask` of {@link PROBE_TASK}. */
function request(t: Target, credentials: Record<string, string> | undefined): ProbeRequest {
  const headers: Record<string, string> = {
    accept: 'application/json, application/a2a+json',
    'a2a-version': t.version,
  };
  if (t.binding === 'JSONRPC') {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'agent-card-probe',
      method: legacy(t) ? 'tasks/get' : 'GetTask',
      params: { id: PROBE_TASK },
    });
    return {
      method: 'POST' as const,
      url: t.url,
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      credentials,
    };
  }
  const path = legacy(t) ? `/v1/tasks/${PROBE_TASK}` : `/tasks/${PROBE_TASK}`;
  return { method: 'GET' as const, url: join(t.url, path), headers, credentials };
}

/** The binding's error shape: JSON-RPC `{jsonrpc, id, error: {code, message}}`, HTTP+JSON `{error: {code, status|message}}`. */
function bindingError(binding: string, answer: Exchange): { code: unknown; text: string } | undefined {
  const body = parseBody(answer.body);
  if (body.kind !== 'json' || !isObject(body.value)) return undefined;
  const error = body.value.error;
  if (!isObject(error) || typeof error.code !== 'number') return undefined;
  if (binding === 'JSONRPC' && body.value.jsonrpc !== '2.0') return undefined;
  if (binding !== 'JSONRPC' && typeof error.status !== 'string' && typeof error.message !== 'string') return undefined;
  const text = typeof error.message === 'string' ? error.message : String(error.status);
  return { code: error.code, text };
}

const refused = (a: Exchange) => a.status === 401 || a.status === 403;
const answered = (a: Exchange) =>
  a.status === undefined ? `no answer (${a.failure?.message ?? 'failed'})` : `HTTP ${a.status}`;

/** Runs the probes of {@link probeAgentCard} within one deadline. */
class Prober {
  requests = 0;
  readonly deadline: number;
  readonly findings: DiscoveryFinding[] = [];
  constructor(readonly options: ProbeAgentCardOptions) {
    this.deadline = performance.now() + (options.timeoutMs ?? 10_000);
  }

  /** The reason `url` is not called, or undefined when it may be. */
  refusal(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'not a URL';
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && this.options.allowHttp)) {
      return `not https (${parsed.protocol})`;
    }
    if (parsed.origin !== this.options.origin && !(this.options.allowOrigins ?? []).includes(parsed.origin)) {
      return `another origin than the checked host (${parsed.origin}); allow it with --probe-origin ${parsed.origin}`;
    }
    return undefined;
  }

  /** One bounded request; credentials go only to the checked origin. */
  send(spec: ProbeRequest): Promise<Exchange> {
    const remaining = Math.max(1, Math.round(this.deadline - performance.now()));
    return exchange({
      method: spec.method,
      url: spec.url,
      headers: spec.headers,
      ...(spec.body === undefined ? {} : { body: spec.body }),
      ...(spec.credentials ? { caller: { origin: this.options.origin, headers: spec.credentials } } : {}),
      follow: false,
      allowHttp: this.options.allowHttp === true,
      maxRedirects: 0,
      maxBytes: this.options.maxBytes ?? 65_536,
      timeoutMs: remaining,
      fetch: this.options.fetch ?? fetch,
      onRequest: () => {
        this.requests += 1;
      },
    });
  }

  finding(
    rule: DiscoveryRuleId,
    severity: DiscoveryFinding['severity'],
    url: string,
    message: string,
    hint: string,
  ): void {
    this.findings.push({ rule, severity, path: '/supportedInterfaces', message, hint, url });
  }
}

/** The bindings of the A2A specification. */
const KNOWN_BINDINGS: ReadonlySet<string> = new Set(['JSONRPC', 'GRPC', 'HTTP+JSON']);

/** Probes one interface: its binding, and whether it lets a caller without credentials in. */
async function probeInterface(p: Prober, t: Target, secured: boolean): Promise<ProbeInterfaceReport> {
  // A binding of the spec names the interface; any other is the card's text, quoted in the detail
  // and never at the start of the message (a report line that starts with card text can be read as
  // a command, as GitHub Actions reads `::add-mask::…`).
  const where = KNOWN_BINDINGS.has(t.binding) ? `${t.binding} interface ${show(t.url)}` : `interface ${show(t.url)}`;
  const base = { url: t.url, binding: t.binding };
  if (t.binding !== 'JSONRPC' && t.binding !== 'HTTP+JSON') {
    const detail = t.binding === 'GRPC' ? 'gRPC is not probed' : `binding ${show(t.binding)} is not probed`;
    p.finding('probe-not-probed', 'info', t.url, `${where}: ${detail}.`, 'Check it with a client of that binding.');
    return { ...base, outcome: 'not-probed', detail };
  }
  const refusal = p.refusal(t.url);
  if (refusal) {
    p.finding(
      'probe-not-probed',
      'info',
      t.url,
      `${where}: not probed, ${refusal}.`,
      'Nothing to do, or allow the origin to probe it.',
    );
    return { ...base, outcome: 'not-probed', detail: refusal };
  }
  const plain = await p.send(request(t, undefined));
  const error = bindingError(t.binding, plain);
  const sent =
    t.binding === 'JSONRPC' ? 'GetTask of a task that does not exist' : `GET ${show(request(t, undefined).url)}`;
  if (refused(plain)) {
    if (!secured) {
      p.finding(
        'probe-security-enforced',
        'warning',
        t.url,
        `${where}: refused a caller without credentials (${answered(plain)}), but the card declares no securityRequirements.`,
        'Declare the scheme the endpoint enforces in securitySchemes and securityRequirements, so clients know to authenticate.',
      );
    } else if (plain.status === 401 && !plain.headers?.get('www-authenticate')) {
      p.finding(
        'probe-security-enforced',
        'warning',
        t.url,
        `${where}: answered 401 without a WWW-Authenticate header.`,
        'Send a WWW-Authenticate challenge with each 401 (RFC 9110 §11.6.1), naming the declared scheme.',
      );
    }
    const confirmed = await confirmWithCredentials(p, t, where, sent);
    return {
      ...base,
      outcome: 'refused',
      status: plain.status!,
      detail: `${sent}: ${answered(plain)} without credentials${confirmed}`,
    };
  }
  if (error === undefined) {
    const kind = plain.status === undefined ? 'unreachable' : 'wrong';
    p.finding(
      'probe-interface-binding',
      'error',
      t.url,
      `${where}: ${sent} got ${answered(plain)}, not a ${t.binding === 'JSONRPC' ? 'JSON-RPC error' : 'A2A error ({"error": {"code", "status", "message"}})'}.`,
      'Point the interface at the A2A endpoint itself (not a page or a proxy), with the binding it speaks.',
    );
    return {
      ...base,
      outcome: kind,
      ...(plain.status === undefined ? {} : { status: plain.status }),
      detail: `${sent}: ${answered(plain)}`,
    };
  }
  if (secured && !/auth/i.test(error.text)) {
    p.finding(
      'probe-security-enforced',
      'error',
      t.url,
      `${where}: answered a caller without credentials (${answered(plain)}, error ${show(String(error.code))} ${show(error.text)}), though the card requires credentials.`,
      'Refuse callers without credentials with 401 and a WWW-Authenticate challenge before handling the request, or remove securityRequirements from the card.',
    );
  }
  return {
    ...base,
    outcome: 'answers',
    status: plain.status!,
    detail: `${sent}: ${answered(plain)}, error ${String(error.code)}`,
  };
}

/**
 * An interface that refused a caller without credentials, called again with the user's (on the
 * checked origin only): a login page or a proxy behind the 401 must not pass for the binding.
 */
async function confirmWithCredentials(p: Prober, t: Target, where: string, sent: string): Promise<string> {
  const credentials = p.options.headers;
  if (credentials === undefined || Object.keys(credentials).length === 0) return '';
  if (new URL(t.url).origin !== p.options.origin) return '';
  const authed = await p.send(request(t, { ...credentials }));
  if (bindingError(t.binding, authed) !== undefined) return `; ${answered(authed)} with them`;
  if (refused(authed)) {
    p.finding(
      'probe-interface-binding',
      'warning',
      t.url,
      `${where}: refused the credentials given too (${answered(authed)}), so its binding was not confirmed.`,
      'Pass credentials the endpoint accepts (--probe-header) to confirm it answers its binding.',
    );
    return `; ${answered(authed)} with them`;
  }
  p.finding(
    'probe-interface-binding',
    'error',
    t.url,
    `${where}: ${sent} with the credentials given got ${answered(authed)}, not a ${t.binding === 'JSONRPC' ? 'JSON-RPC error' : 'A2A error ({"error": {"code", "status", "message"}})'}.`,
    'Point the interface at the A2A endpoint itself (not a page or a proxy), with the binding it speaks.',
  );
  return `; ${answered(authed)} with them`;
}

/** The extended card: refused without credentials, served with the user's (on the checked origin). */
async function probeExtended(p: Prober, targets: Target[]): Promise<ProbeReport['extended']> {
  const t =
    targets.find((i) => i.binding === 'HTTP+JSON' && !p.refusal(i.url)) ??
    targets.find((i) => i.binding === 'JSONRPC' && !p.refusal(i.url));
  if (!t) {
    p.finding(
      'probe-not-probed',
      'info',
      p.options.origin,
      'capabilities.extendedAgentCard: not probed, no HTTP+JSON or JSON-RPC interface on an origin that may be called.',
      'Allow the interface origin to probe it.',
    );
    return undefined;
  }
  const spec = (credentials: Record<string, string> | undefined): ProbeRequest =>
    t.binding === 'HTTP+JSON'
      ? {
          method: 'GET' as const,
          url: join(t.url, legacy(t) ? '/v1/card' : '/extendedAgentCard'),
          headers: { accept: 'application/json, application/a2a+json', 'a2a-version': t.version },
          credentials,
        }
      : {
          ...request(t, credentials),
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 'agent-card-probe',
            method: legacy(t) ? 'agent/getAuthenticatedExtendedCard' : 'GetExtendedAgentCard',
          }),
        };
  const served = (a: Exchange) => {
    const body = parseBody(a.body);
    if (a.status !== 200 || body.kind !== 'json' || !isObject(body.value)) return false;
    const card = t.binding === 'JSONRPC' ? body.value.result : body.value;
    return isObject(card) && typeof card.name === 'string';
  };
  const url = spec(undefined).url;
  const report: NonNullable<ProbeReport['extended']> = { url };
  const anonymous = await p.send(spec(undefined));
  if (anonymous.status !== undefined) report.withoutCredentials = anonymous.status;
  if (served(anonymous)) {
    p.finding(
      'probe-extended-card',
      'error',
      url,
      `capabilities.extendedAgentCard: ${show(url)} served the extended card to a caller without credentials.`,
      'Authenticate the extended-card request and answer 401 without credentials: it is meant for authenticated callers only.',
    );
  }
  const credentials = p.options.headers;
  if (credentials === undefined || Object.keys(credentials).length === 0) {
    p.finding(
      'probe-extended-card',
      'info',
      url,
      'capabilities.extendedAgentCard: not fetched with credentials (none given).',
      'Pass credentials (--probe-header "Authorization: Bearer …") to check that the extended card is served to an authenticated caller.',
    );
    return report;
  }
  if (new URL(url).origin !== p.options.origin) {
    p.finding(
      'probe-extended-card',
      'info',
      url,
      `capabilities.extendedAgentCard: not fetched with credentials: ${show(url)} is on another origin than the checked host, and credentials go to the checked origin only.`,
      'Check the extended card against its own origin.',
    );
    return report;
  }
  const authorized = await p.send(spec({ ...credentials }));
  if (authorized.status !== undefined) report.withCredentials = authorized.status;
  if (!served(authorized)) {
    p.finding(
      'probe-extended-card',
      'error',
      url,
      `capabilities.extendedAgentCard: ${show(url)} did not serve the extended card with the credentials given (${answered(authorized)}).`,
      'Serve the extended card to authenticated callers, or set capabilities.extendedAgentCard to false.',
    );
  }
  return report;
}

/**
 * Calls the interfaces of `card` to see whether it tells the truth (findings `probe-*`):
 * - each `JSONRPC` and `HTTP+JSON` interface on the checked origin (or an allowed one) is sent
 *   `GetTask` of a task that does not exist, without credentials, and must answer with its
 *   binding's error (`probe-interface-binding`), or 401/403;
 * - when the card requires credentials, that answer must be 401/403 (`probe-security-enforced`);
 * - with `capabilities.extendedAgentCard`, the extended card must be refused without
 *   credentials and served with `headers` (`probe-extended-card`);
 * - gRPC, other bindings and other origins are listed as not probed (`probe-not-probed`).
 * At most `maxInterfaces` interfaces, all within one `timeoutMs`; never follows a redirect.
 *
 * @example const probe = await probeAgentCard(report.document, { origin: report.origin })
 */
export async function probeAgentCard(card: unknown, options: ProbeAgentCardOptions): Promise<ProbeReport> {
  const started = performance.now();
  const p = new Prober(options);
  const doc: Card = isObject(card) ? card : {};
  const targets = targetsOf(doc);
  const max = options.maxInterfaces ?? 8;
  const secured = declaresSecurity(doc);
  const capabilities = isObject(doc.capabilities) ? doc.capabilities : {};
  const extendedDeclared = capabilities.extendedAgentCard === true || doc.supportsAuthenticatedExtendedCard === true;
  const [interfaces, extended] = await Promise.all([
    Promise.all(
      targets.map((t, i) =>
        i < max
          ? probeInterface(p, t, secured)
          : Promise.resolve<ProbeInterfaceReport>({
              url: t.url,
              binding: t.binding,
              outcome: 'not-probed',
              detail: `past the first ${max} interfaces`,
            }),
      ),
    ),
    extendedDeclared ? probeExtended(p, targets) : Promise.resolve(undefined),
  ]);
  const report: ProbeReport = {
    interfaces,
    findings: p.findings,
    requests: p.requests,
    timeMs: Math.round(performance.now() - started),
  };
  if (extended) report.extended = extended;
  return report;
}
