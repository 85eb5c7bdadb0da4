import { decodeJwsHeader } from '../validate/rules/jws-header';
import { html, neutraliseJsonText, type SafeHtml, safeHref } from './escape';
import { type HtmlDocumentOptions, renderHtmlDocument } from './document';
import { asRecord, entries, flag, list, member, strings, text } from './read';
import { validateAgentCardFindings } from '../validate/validate';
import { type PromptSectionOptions, renderPromptSection } from './prompt';
import {
  describeAuthentication,
  describeSecurityScheme,
  renderAuthentication,
  renderDescriptionParts,
  renderUrl,
} from './schemes';

/** What is known about one signature of the card. */
export interface ViewerSignature {
  kid?: string;
  alg?: string;
  jku?: string;
  /** `true` verified, `false` failed, `undefined` not checked. */
  verified?: boolean | undefined;
}

/** Options of {@link renderCardSection}. */
export interface CardSectionOptions {
  /**
   * Where the JSON document is served: a path (`/.well-known/agent-card.json`), a relative
   * reference starting with `./` or `../`, or an absolute `http(s)` URL. Linked next to the raw
   * JSON; anything else is ignored.
   */
  jsonHref?: string;
  /**
   * The signatures as a verifier saw them. Without it the page reads `kid`, `alg` and `jku` from
   * each signature's protected header and says it did not verify them.
   */
  signatures?: readonly ViewerSignature[];
  /**
   * Whether the card passed validation, for the "Valid" badge of the summary. Without it the page
   * validates the card itself with the `development` profile (the A2A rules; the https and
   * publishing rules of `production` are for `agent-card check`).
   */
  valid?: boolean;
  /** Heading level of the card's name: 1 on its own page (default), 2 inside a report. */
  headingLevel?: 1 | 2;
  /**
   * The `id` of the raw JSON block, which its copy button names: a page showing several cards
   * gives each its own. Letters, digits, `-` and `_` only; anything else falls back to the default.
   * @default 'raw-json'
   */
  rawJsonId?: string;
  /**
   * The "What a model reads" section: its token counter and the findings to mark. Without
   * `findings` the page validates the card with the `development` profile to mark them.
   */
  prompt?: PromptSectionOptions;
}

/** Options of {@link renderAgentCardPage}. */
export interface AgentCardPageOptions extends CardSectionOptions {
  /** The page title. @default the card's name + " — Agent Card" */
  title?: string;
  /** Put the policy in a `<meta>` tag (a page saved to a file). @default false */
  cspMeta?: boolean;
  /** `<link>` elements naming the host's discovery documents (see `renderHtmlDocument`). */
  links?: HtmlDocumentOptions['links'];
}

/** Longest raw JSON shown; a longer card is cut with a note (the JSON link has it all). */
const MAX_RAW_JSON = 512 * 1024;

/**
 * A link to the page's own JSON document: a path on the same origin (`/…`, not `//…`), a relative
 * reference starting with `./` or `../`, or a safe absolute URL.
 */
export function jsonLink(jsonHref: string | undefined): string | undefined {
  if (typeof jsonHref !== 'string') return undefined;
  // A same-origin path, or a relative reference that cannot read as a scheme or a network path.
  if (/^(?:\/(?![/\\])|\.\/|(?:\.\.\/)+)[^\s\\]*$/.test(jsonHref)) return jsonHref;
  return safeHref(jsonHref);
}

/** A capability flag in words: one the card leaves out is `false` (A2A §4.4.3), said as such. */
function yesNo(value: boolean | undefined): string {
  return value === true ? 'yes' : value === false ? 'no' : 'no (not declared)';
}

function chips(items: readonly string[], label: string): SafeHtml | undefined {
  if (items.length === 0) return undefined;
  return html`<ul class="chips" aria-label="${label}">${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}

function renderOverview(card: unknown): SafeHtml {
  const provider = member(card, 'provider');
  const organization = text(provider, 'organization');
  const providerUrl = text(provider, 'url');
  const documentation = text(card, 'documentationUrl');
  const icon = text(card, 'iconUrl');
  const rows: SafeHtml[] = [];
  rows.push(html`<dt>Version</dt><dd>${text(card, 'version') ?? html`<span class="muted">not given</span>`}</dd>`);
  if (organization !== undefined || providerUrl !== undefined) {
    rows.push(
      html`<dt>Provider</dt><dd>${organization ?? 'unnamed'}${providerUrl ? html` — ${renderUrl(providerUrl)}` : ''}</dd>`,
    );
  }
  if (documentation !== undefined) rows.push(html`<dt>Documentation</dt><dd>${renderUrl(documentation)}</dd>`);
  if (icon !== undefined) rows.push(html`<dt>Icon</dt><dd>${renderUrl(icon)}</dd>`);
  const input = strings(card, 'defaultInputModes');
  const output = strings(card, 'defaultOutputModes');
  rows.push(html`<dt>Accepts</dt><dd>${input.length > 0 ? input.join(', ') : 'not stated'}</dd>`);
  rows.push(html`<dt>Produces</dt><dd>${output.length > 0 ? output.join(', ') : 'not stated'}</dd>`);
  return html`<dl class="facts">${rows}</dl>`;
}

/**
 * The interfaces after the preferred one, which the summary shows (endpoint, binding, version and
 * tenant): each is said once on the page. Nothing when the card lists one interface or none.
 */
function renderOtherInterfaces(card: unknown): SafeHtml | '' {
  const others = list(card, 'supportedInterfaces').slice(1);
  if (others.length === 0) return '';
  const items = others.map((item) => {
    const url = text(item, 'url');
    const tenant = text(item, 'tenant');
    return html`<li><h3>${text(item, 'protocolBinding') ?? 'Unknown binding'}</h3>
<dl class="facts"><dt>URL</dt><dd>${url === undefined ? 'not given' : renderUrl(url)}</dd>
<dt>Protocol version</dt><dd>${text(item, 'protocolVersion') ?? 'not given'}</dd>${tenant === undefined ? '' : html`<dt>Tenant</dt><dd>${tenant}</dd>`}</dl></li>`;
  });
  return html`<h2>Other interfaces</h2><ul class="items">${items}</ul>`;
}

function renderCapabilities(card: unknown): SafeHtml {
  const capabilities = member(card, 'capabilities');
  const extensions = list(capabilities, 'extensions').map((extension) => {
    const uri = text(extension, 'uri');
    const description = text(extension, 'description');
    return html`<li>${uri === undefined ? 'an extension without a URI' : renderUrl(uri)}${flag(extension, 'required') ? ' (required)' : ''}${description ? html` — ${description}` : ''}</li>`;
  });
  return html`<h2>Capabilities</h2>
<dl class="facts"><dt>Streaming</dt><dd>${yesNo(flag(capabilities, 'streaming'))}</dd>
<dt>Push notifications</dt><dd>${yesNo(flag(capabilities, 'pushNotifications'))}</dd>
<dt>Extended card</dt><dd>${flag(capabilities, 'extendedAgentCard') ? 'yes, for authenticated callers' : yesNo(flag(capabilities, 'extendedAgentCard'))}</dd>
<dt>Extensions</dt><dd>${extensions.length === 0 ? 'none' : html`<ul class="plain">${extensions}</ul>`}</dd></dl>`;
}

/**
 * Each security scheme the card declares. What a call needs is the summary's (Authentication),
 * said once; nothing when the card declares no scheme.
 */
function renderSecurity(card: unknown): SafeHtml | '' {
  const schemes = entries(card, 'securitySchemes');
  if (schemes.length === 0) return '';
  const items = schemes.map(([name, scheme]) => {
    const described = describeSecurityScheme(scheme);
    return html`<li><h3>${name} <span class="muted">— ${described.kind}</span></h3><p>${renderDescriptionParts(described.parts)}</p>${described.description ? html`<p class="desc muted">${described.description}</p>` : ''}</li>`;
  });
  return html`<h2>Security schemes</h2><ul class="items">${items}</ul>`;
}

function renderSkills(card: unknown): SafeHtml {
  const skills = list(card, 'skills');
  if (skills.length === 0) return html`<h2>Skills</h2><p class="muted">The card lists no skill.</p>`;
  const items = skills.map((skill) => {
    const examples = strings(skill, 'examples');
    const input = strings(skill, 'inputModes');
    const output = strings(skill, 'outputModes');
    const requirements = list(skill, 'securityRequirements');
    // Modes a skill inherits are the card's defaults, shown once in the overview.
    const facts = [
      input.length > 0 ? html`<dt>Accepts</dt><dd>${input.join(', ')}</dd>` : '',
      output.length > 0 ? html`<dt>Produces</dt><dd>${output.join(', ')}</dd>` : '',
      requirements.length > 0
        ? html`<dt>Authentication</dt><dd>${renderAuthentication(describeAuthentication(card, requirements))}</dd>`
        : '',
    ].filter((fact) => fact !== '');
    return html`<li><h3>${text(skill, 'name') ?? text(skill, 'id') ?? 'Unnamed skill'}</h3>
${text(skill, 'id') ? html`<p class="muted">id <code>${text(skill, 'id')}</code></p>` : ''}
${text(skill, 'description') ? html`<p class="desc">${text(skill, 'description')}</p>` : ''}
${chips(strings(skill, 'tags'), 'Tags')}
${examples.length > 0 ? html`<p>Examples:</p><ul class="plain">${examples.map((example) => html`<li>${example}</li>`)}</ul>` : ''}
${facts.length > 0 ? html`<dl class="facts">${facts}</dl>` : ''}</li>`;
  });
  return html`<h2>Skills (${skills.length})</h2><p class="muted">A skill accepts and produces the card's default modes unless it lists its own.</p><ul class="items">${items}</ul>`;
}

/** "What a model reads", with the prompt-safety findings given or found by validating the card. */
function promptSection(card: unknown, options: PromptSectionOptions = {}): SafeHtml {
  const findings = options.findings ?? validateAgentCardFindings(card, { profile: 'development' }).findings;
  return renderPromptSection(card, { ...options, findings });
}

/** The summary's badge for validity: given by the caller, or from validating the card. */
function validBadge(card: unknown, given: boolean | undefined): SafeHtml {
  let valid = given;
  let errors: number | undefined;
  if (valid === undefined) {
    const result = validateAgentCardFindings(card, { profile: 'development' });
    valid = result.valid;
    errors = result.findings.filter((finding) => finding.severity === 'error').length;
  }
  if (valid) return html`<li class="badge badge-ok">✓ Valid A2A card</li>`;
  return html`<li class="badge badge-bad">✗ Not valid${errors === undefined ? '' : ` (${errors === 1 ? 'one error' : `${errors} errors`})`}</li>`;
}

/** The summary's badge for the signatures: verified, failed, not checked, or none. */
function signedBadge(signatures: readonly ViewerSignature[]): SafeHtml {
  if (signatures.length === 0) return html`<li class="badge badge-none">Not signed</li>`;
  if (signatures.some((s) => s.verified === true)) return html`<li class="badge badge-ok">✓ Signature verified</li>`;
  if (signatures.some((s) => s.verified === false)) {
    return html`<li class="badge badge-bad">✗ Signature did not verify</li>`;
  }
  return html`<li class="badge badge-ok">✓ Signed</li>`;
}

/** Up to this many skill names in the summary; the rest are counted. */
const SUMMARY_SKILLS = 5;

/**
 * What a partner asks first — can I call this agent, where, and with what credentials? — above
 * everything else: the preferred endpoint and its binding, the authentication in words, the
 * skills, and whether the card is valid and signed.
 */
function renderSummary(card: unknown, signatures: readonly ViewerSignature[], valid: boolean | undefined): SafeHtml {
  const interfaces = list(card, 'supportedInterfaces');
  const preferred = interfaces[0];
  const url = text(preferred, 'url');
  const binding = text(preferred, 'protocolBinding');
  const version = text(preferred, 'protocolVersion');
  const others = interfaces.length - 1;
  const endpoint =
    preferred === undefined
      ? html`<span class="muted">none listed</span>`
      : html`${url === undefined ? html`<span class="muted">no URL given</span>` : renderUrl(url)}${others > 0 ? html` <span class="muted">(preferred; ${others === 1 ? 'one more interface' : `${others} more interfaces`} below)</span>` : ''}`;
  const tenant = text(preferred, 'tenant');
  const bindingText =
    preferred === undefined ? 'none' : `${binding ?? 'not given'}${version === undefined ? '' : `, A2A ${version}`}`;
  const skills = list(card, 'skills');
  const names = skills.slice(0, SUMMARY_SKILLS).map((skill) => text(skill, 'name') ?? text(skill, 'id') ?? 'unnamed');
  const more = skills.length - names.length;
  const skillText =
    skills.length === 0
      ? 'none listed'
      : `${skills.length === 1 ? 'one skill' : `${skills.length} skills`}: ${names.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
  return html`<section class="summary" aria-label="Summary"><ul class="badges" aria-label="Status">${validBadge(card, valid)}${signedBadge(signatures)}</ul>
<dl class="facts"><dt>Endpoint</dt><dd>${endpoint}</dd>
<dt>Binding</dt><dd>${bindingText}</dd>${
    tenant === undefined
      ? ''
      : html`
<dt>Tenant</dt><dd>${tenant}</dd>`
  }
<dt>Authentication</dt><dd>${renderAuthentication(describeAuthentication(card))}</dd>
<dt>Skills</dt><dd>${skillText}</dd></dl></section>`;
}

/** `kid`, `alg` and `jku` from a signature's protected header, when it decodes. */
export function readSignatureHeader(signature: unknown): ViewerSignature {
  const encoded = text(signature, 'protected');
  const header: Record<string, unknown> = {};
  if (encoded !== undefined && encoded.length <= 8192 && /^[A-Za-z0-9_-]+$/.test(encoded)) {
    // Read as the validator reads it; not a JWS header (not UTF-8 JSON): the page says it could not read one.
    Object.assign(header, asRecord(decodeJwsHeader(encoded)));
  }
  const unprotected = member(signature, 'header');
  const pick = (key: string) => text(header, key) ?? text(unprotected, key);
  const out: ViewerSignature = {};
  const kid = pick('kid');
  const alg = pick('alg');
  const jku = pick('jku');
  if (kid !== undefined) out.kid = kid;
  if (alg !== undefined) out.alg = alg;
  if (jku !== undefined) out.jku = jku;
  return out;
}

function renderSignatures(signatures: readonly ViewerSignature[]): SafeHtml {
  if (signatures.length === 0) return html`<h2>Signature</h2><p>The card is not signed.</p>`;
  const items = signatures.map((signature) => {
    const status =
      signature.verified === true
        ? html`<span class="status-ok">verified</span>`
        : signature.verified === false
          ? html`<span class="status-warn">did not verify</span>`
          : html`<span class="muted">not verified by this page</span>`;
    return html`<li>Key ${signature.kid ? html`<code>${signature.kid}</code>` : 'without a key id'}, algorithm ${signature.alg ?? 'not given'}${signature.jku ? html`, key set at ${renderUrl(signature.jku)}` : ''} — ${status}</li>`;
  });
  // `agent-card sign` and `signAgentCard` write one signature per canonical form of the card: a
  // reader seeing one key twice should learn why, not suspect a copy.
  const kids = signatures.map((s) => s.kid).filter((kid) => kid !== undefined);
  const repeated = new Set(kids).size < kids.length;
  const why = repeated
    ? html`<p class="muted">One key signing more than once is usual: a signer can sign each canonical form of the card (as served, and with empty members left out), since verifiers differ in the form they compute; any one that verifies is enough.</p>`
    : '';
  return html`<h2>Signature</h2><p>The card is signed (${signatures.length === 1 ? 'one signature' : `${signatures.length} signatures`}).</p>${why}<ul class="plain">${items}</ul>`;
}

/** The card as pretty JSON, with deceptive characters as `\uXXXX` escapes (still valid JSON). */
export function prettyJson(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, null, 2);
  } catch {
    return '(this value cannot be shown as JSON)';
  }
  if (json === undefined) return '(no JSON value)';
  const safe = neutraliseJsonText(json);
  return safe.length > MAX_RAW_JSON ? `${safe.slice(0, MAX_RAW_JSON)}\n… (cut at 512 KiB)` : safe;
}

/**
 * The raw JSON block: a copy button (shown by the script), the document link, and the pretty JSON
 * in a closed `<details>` (it is for machines; the page above says it in words).
 */
export function renderRawJson(value: unknown, jsonHref: string | undefined, id = 'raw-json'): SafeHtml {
  const link = jsonLink(jsonHref);
  const json = prettyJson(value);
  const lines = json.split('\n').length;
  return html`<h2>Raw JSON</h2><div class="bar"><button type="button" data-copy="${id}" hidden>Copy JSON</button>${link ? html`<a href="${link}">Open the JSON document</a>` : ''}</div>
<details class="raw"><summary>Show the JSON (${lines === 1 ? 'one line' : `${lines} lines`})</summary><pre id="${id}" tabindex="0" aria-label="The JSON document">${json}</pre></details>`;
}

/**
 * The body of a card's page as an escaped HTML fragment: name, description, overview, interfaces,
 * capabilities, security schemes in words, skills, signatures and the raw JSON. Renders whatever
 * part of `card` is well formed (an invalid or partial card included) and never throws.
 */
export function renderCardSection(card: unknown, options: CardSectionOptions = {}): SafeHtml {
  const level = options.headingLevel === 2 ? 2 : 1;
  const id =
    typeof options.rawJsonId === 'string' && /^[A-Za-z][\w-]{0,63}$/.test(options.rawJsonId)
      ? options.rawJsonId
      : 'raw-json';
  try {
    const name = text(card, 'name') ?? 'Unnamed agent';
    const heading = level === 1 ? html`<h1>${name}</h1>` : html`<h2>${name}</h2>`;
    const description = text(card, 'description');
    const signatures = options.signatures ?? list(card, 'signatures').map(readSignatureHeader);
    return html`<article class="agent-card"><header class="page">${heading}<p class="muted">A2A Agent Card</p>${description ? html`<p class="lead">${description}</p>` : ''}</header>
${asRecord(card) === undefined ? html`<p class="status-warn">This document is not a JSON object, so it is not an Agent Card.</p>` : ''}
${renderSummary(card, signatures, options.valid)}
${renderOverview(card)}
${renderOtherInterfaces(card)}
${renderCapabilities(card)}
${renderSecurity(card)}
${renderSkills(card)}
${promptSection(card, options.prompt)}
${renderSignatures(signatures)}
${renderRawJson(card, options.jsonHref, id)}</article>`;
  } catch {
    return html`<article class="agent-card"><p class="status-warn">This card could not be shown.</p>${renderRawJson(card, options.jsonHref, id)}</article>`;
  }
}

/**
 * A complete, self-contained HTML page for one Agent Card (see {@link renderCardSection}), to be
 * served with {@link VIEWER_CONTENT_SECURITY_POLICY} or saved with `cspMeta: true`.
 *
 * @example renderAgentCardPage(card, { jsonHref: '/.well-known/agent-card.json' })
 */
export function renderAgentCardPage(card: unknown, options: AgentCardPageOptions = {}): string {
  const title = options.title ?? `${text(card, 'name') ?? 'Agent'} — Agent Card`;
  const body = html`${renderCardSection(card, options)}<footer>Rendered by agent-card. Every value above comes from the card; links open only http and https URLs.</footer>`;
  return renderHtmlDocument({ title, body, cspMeta: options.cspMeta === true, links: options.links });
}
