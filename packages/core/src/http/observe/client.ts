// A coarse family of the client that fetched a document, from its `User-Agent`: a fixed list of
// tokens, looked for in a bounded prefix of the header, so the answer is one of a few values
// whatever a client sends (safe as a metric attribute) and costs a bounded amount of work.

/**
 * Who fetched a document, coarsely:
 * - `agent-crawler`: an AI or agent directory crawler (GPTBot, ClaudeBot, PerplexityBot…);
 * - `search-crawler`: a search engine or another bot that says it is one;
 * - `a2a-sdk`: an A2A SDK or agent-card tool that names itself;
 * - `http-library`: an HTTP library or command-line tool (curl, python-httpx, Node's fetch…);
 * - `browser`: a web browser;
 * - `other`: a `User-Agent` none of these match;
 * - `none`: no `User-Agent` at all.
 */
export type AgentCardClientFamily =
  | 'agent-crawler'
  | 'search-crawler'
  | 'a2a-sdk'
  | 'http-library'
  | 'browser'
  | 'other'
  | 'none';

/** How much of a `User-Agent` is read: every known token sits well within it. */
export const MAX_USER_AGENT_READ = 256;

// Lower-case tokens, in the order they are tried: agent crawlers before the generic `bot`, SDKs
// before the HTTP libraries they are built on.
const FAMILIES: readonly (readonly [AgentCardClientFamily, readonly string[]])[] = [
  [
    'agent-crawler',
    [
      'gptbot',
      'chatgpt-user',
      'oai-searchbot',
      'claudebot',
      'claude-user',
      'claude-searchbot',
      'anthropic-ai',
      'perplexitybot',
      'perplexity-user',
      'google-extended',
      'googleother',
      'google-cloudvertexbot',
      'meta-externalagent',
      'meta-externalfetcher',
      'mistralai-user',
      'cohere-ai',
      'ccbot',
      'bytespider',
      'amazonbot',
      'applebot',
      'youbot',
      'duckassistbot',
      'diffbot',
      'agentdeals',
      'a2a-registry',
      'a2a-directory',
      'agent-crawler',
    ],
  ],
  ['a2a-sdk', ['a2a-python', 'a2a-js', 'a2a-java', 'a2a-go', 'a2a-dotnet', 'a2a-sdk', 'a2a/', 'agent-card/']],
  ['search-crawler', ['googlebot', 'bingbot', 'duckduckbot', 'yandexbot', 'baiduspider', 'bot', 'crawler', 'spider']],
  [
    'http-library',
    [
      'curl/',
      'wget/',
      'httpie/',
      'python-httpx',
      'python-requests',
      'python-urllib',
      'aiohttp',
      'node-fetch',
      'undici',
      'axios/',
      'got (',
      'go-http-client',
      'okhttp',
      'java-http-client',
      'apache-httpclient',
      'reqwest',
      'dart:io',
      'postmanruntime',
      'insomnia',
    ],
  ],
];

const BROWSER_ENGINES = ['chrome/', 'safari/', 'firefox/', 'gecko/', 'edg/'];

/**
 * The family of a `User-Agent` header (repeated headers: the first). Reads at most
 * {@link MAX_USER_AGENT_READ} characters and compares fixed substrings: no regular expression, no
 * work that grows with what a client sends.
 */
export function clientFamily(userAgent: string | readonly string[] | undefined): AgentCardClientFamily {
  const raw = typeof userAgent === 'string' ? userAgent : userAgent?.[0];
  if (raw === undefined || raw === '') return 'none';
  // The same few clients ask again and again: their answer is kept, for a bounded number of them.
  const known = recent.get(raw);
  if (known !== undefined) return known;
  const family = familyOf(raw);
  if (raw.length <= MAX_USER_AGENT_READ) {
    if (recent.size >= MAX_REMEMBERED_USER_AGENTS) recent.clear();
    recent.set(raw, family);
  }
  return family;
}

/** Distinct `User-Agent` values whose family is kept; a client sending new ones only clears it. */
const MAX_REMEMBERED_USER_AGENTS = 256;
const recent = new Map<string, AgentCardClientFamily>();

function familyOf(raw: string): AgentCardClientFamily {
  const ua = (raw.length > MAX_USER_AGENT_READ ? raw.slice(0, MAX_USER_AGENT_READ) : raw).toLowerCase();
  // Node's own fetch (undici) sends exactly `node`.
  if (ua === 'node') return 'http-library';
  for (const [family, tokens] of FAMILIES) for (const token of tokens) if (ua.includes(token)) return family;
  if (ua.startsWith('mozilla/') && BROWSER_ENGINES.some((engine) => ua.includes(engine))) return 'browser';
  return 'other';
}

/**
 * The `A2A-Version` a client asked for (spec §3.6.1) as `major.minor` (one digit each, as every
 * version so far; a patch level is dropped), `'invalid'` when the header is something else,
 * `undefined` without one: at most 101 values, whatever is sent.
 */
export function requestedVersion(header: string | readonly string[] | undefined): string | undefined {
  const raw = typeof header === 'string' ? header : header?.[0];
  if (raw === undefined) return undefined;
  const value = (raw.length > 32 ? raw.slice(0, 32) : raw).trim();
  const digit = (i: number) => value.charCodeAt(i) >= 48 && value.charCodeAt(i) <= 57;
  const shaped = digit(0) && value.charCodeAt(1) === 46 /* . */ && digit(2);
  if (!shaped || (value.length > 3 && value.charCodeAt(3) !== 46)) return 'invalid';
  return value.slice(0, 3);
}
