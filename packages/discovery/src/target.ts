/**
 * Turning the user's argument and options into what a discovery run needs, failing early with
 * one clear {@link AgentCardError} when they are wrong.
 */
import {
  AgentCardError,
  checkRuleOverrides,
  type ResolvedRuleOverrides,
  type ValidationProfile,
} from '@agent-card/core';
import type { DiscoveryFetch, DiscoveryOptions, DiscoveryPath } from './types';

/** The two well-known paths, the current one first. */
export const WELL_KNOWN_PATHS: readonly DiscoveryPath[] = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

/**
 * The card size limit of discovery, `agent-card check` and `agent-card verify` unless raised
 * (`maxCardBytes`, `--max-card-bytes`): 256 KiB.
 */
export const DEFAULT_MAX_CARD_BYTES = 262_144;

/** Defaults of {@link DiscoveryOptions}. */
export const DISCOVERY_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 1_048_576,
  /**
   * Largest card body read: 256 KiB. Registries refuse cards far smaller (AWS's agent registry,
   * over 102,400 characters), and at this size the worst card and key set a host can choose
   * verify or fail in under 100 ms of CPU (`bench/verify.mjs --check`).
   */
  maxCardBytes: DEFAULT_MAX_CARD_BYTES,
  maxRedirects: 3,
  profile: 'production' as ValidationProfile,
  corsOrigin: 'https://example.org',
  /** The http:// probe only asks "redirect or refuse?"; a filtered port 80 must not stall the run. */
  probeTimeoutMs: 3_000,
  followCatalog: 'same-origin',
  maxCatalogEntries: 16,
  /** Listed cards checked at once. */
  catalogConcurrency: 4,
} as const;

/** Options with defaults applied and checked. */
export interface DiscoverySettings {
  timeoutMs: number;
  maxBytes: number;
  /** The read cap of a card body (the well-known paths and the cards a catalog lists). */
  maxCardBytes: number;
  maxRedirects: number;
  profile: ValidationProfile;
  allowHttp: boolean;
  probeHttp: boolean;
  corsOrigin: string;
  headers: Record<string, string>;
  fetch: DiscoveryFetch;
  /**
   * The `fetch` option as given. Without it, the catalog's signature check makes its own
   * connections, each to the addresses it checked (DNS rebinding, `verifyAiCatalog`).
   */
  callerFetch?: DiscoveryFetch;
  signal?: AbortSignal;
  followCatalog: 'same-origin' | 'any' | false;
  /** Follow-ups on another origin may reach non-public addresses. */
  allowPrivateTargets: boolean;
  maxCatalogEntries: number;
  /** The user's rule settings, for the findings of the cards a catalog lists. */
  rules?: ResolvedRuleOverrides;
}

function optionsError(what: string, how: string): AgentCardError {
  return new AgentCardError('ERR_AGENT_CARD_OPTIONS', `discoverAgentCard: ${what}. ${how}`);
}

function positiveInteger(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw optionsError(`${name} must be an integer ≥ ${min} (${String(value)})`, `Leave it out for ${fallback}.`);
  }
  return value;
}

function followCatalog(value: unknown): DiscoverySettings['followCatalog'] {
  if (value === undefined) return DISCOVERY_DEFAULTS.followCatalog;
  if (value === 'same-origin' || value === 'any' || value === false) return value;
  throw optionsError(
    `followCatalog must be 'same-origin', 'any' or false (${JSON.stringify(value)})`,
    "Leave it out for 'same-origin'.",
  );
}

/** Applies defaults and checks every option. */
export function resolveSettings(options: DiscoveryOptions): DiscoverySettings {
  if (typeof options !== 'object' || options === null) {
    throw optionsError(`options must be an object (${String(options)})`, 'Pass {} or leave it out.');
  }
  const profile = options.profile ?? DISCOVERY_DEFAULTS.profile;
  if (profile !== 'development' && profile !== 'production' && profile !== 'strict') {
    throw optionsError(`unknown profile (${JSON.stringify(profile)})`, "Use 'development', 'production' or 'strict'.");
  }
  const fetchImpl = options.fetch ?? (globalThis.fetch as DiscoveryFetch | undefined);
  if (typeof fetchImpl !== 'function') {
    throw optionsError('no fetch available', 'Run on Node 20 or later, or pass options.fetch.');
  }
  const corsOrigin = options.corsOrigin ?? DISCOVERY_DEFAULTS.corsOrigin;
  let parsedOrigin: URL | undefined;
  try {
    parsedOrigin = new URL(corsOrigin);
  } catch {
    parsedOrigin = undefined;
  }
  if (parsedOrigin === undefined || parsedOrigin.origin !== corsOrigin) {
    throw optionsError(
      `corsOrigin is not an origin (${JSON.stringify(corsOrigin)})`,
      "Use scheme://host[:port], e.g. 'https://example.org'.",
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~\w-]+$/.test(name)) {
      throw optionsError(
        `headers["${name}"] is not a valid header`,
        'Use a token name and a single-line string value.',
      );
    }
    headers[name.toLowerCase()] = value;
  }
  const maxBytes = positiveInteger('maxBytes', options.maxBytes, DISCOVERY_DEFAULTS.maxBytes, 1);
  const settings: DiscoverySettings = {
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, DISCOVERY_DEFAULTS.timeoutMs, 1),
    maxBytes,
    // A smaller maxBytes given alone caps the card too: it is the cap of every body.
    maxCardBytes: positiveInteger(
      'maxCardBytes',
      options.maxCardBytes,
      Math.min(DISCOVERY_DEFAULTS.maxCardBytes, maxBytes),
      1,
    ),
    maxRedirects: positiveInteger('maxRedirects', options.maxRedirects, DISCOVERY_DEFAULTS.maxRedirects, 0),
    profile,
    allowHttp: options.allowHttp === true,
    probeHttp: options.probeHttp !== false,
    corsOrigin,
    headers,
    fetch: fetchImpl,
    followCatalog: followCatalog(options.followCatalog),
    allowPrivateTargets: options.allowPrivateTargets === true,
    maxCatalogEntries: positiveInteger(
      'maxCatalogEntries',
      options.maxCatalogEntries,
      DISCOVERY_DEFAULTS.maxCatalogEntries,
      0,
    ),
  };
  if (options.fetch !== undefined) settings.callerFetch = options.fetch;
  if (options.signal !== undefined) settings.signal = options.signal;
  const rules = checkRuleOverrides(options.rules, 'rules');
  if (rules.problems.length > 0) {
    throw optionsError(rules.problems.join('; '), 'Name rules of the catalogue (agent-card rules lists them).');
  }
  if (rules.overrides !== undefined) settings.rules = rules.overrides;
  return settings;
}

/**
 * The origin to check. A bare domain means `https://domain`; a URL gives its origin (a
 * well-known path or any other path alike: discovery is per origin, RFC 8615). Without
 * `allowHttp`, an `http://` URL is checked at its `https://` origin, as clients will.
 */
export function resolveOrigin(input: string, allowHttp: boolean): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw optionsError(
      `expected a domain or URL (${JSON.stringify(input)})`,
      'Pass e.g. "acme.io" or "https://acme.io".',
    );
  }
  const text = input.trim();
  const hasScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    throw optionsError(`not a domain or URL (${JSON.stringify(text)})`, 'Pass e.g. "acme.io" or "https://acme.io".');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw optionsError(`unsupported scheme (${JSON.stringify(url.protocol)})`, 'Use an https:// URL or a bare domain.');
  }
  if (url.hostname === '') {
    throw optionsError(`no host in ${JSON.stringify(text)}`, 'Pass e.g. "acme.io".');
  }
  if (url.protocol === 'http:' && !allowHttp) url.protocol = 'https:';
  return url.origin;
}
