/**
 * Cross-field rules (packages/core/RULES.md §6.2, rules 19–30): relations between fields that a schema alone
 * cannot express. The card is untrusted raw JSON; anything structurally broken is skipped here
 * because the structure rules already report it.
 * @see packages/core/RULES.md §6.2
 */
import type { JsonObject, RuleCheck, RuleContext } from '../context';
import { parseAbsoluteUrl, parseHostPort, redactUrl } from '../urls';
import { isObject } from '../context';
import {
  BARE_HOST_AND_PORT,
  HTTP_FAMILY_SCHEME,
  LEADING_MAJOR_MINOR,
  MAJOR_MINOR,
  MAJOR_MINOR_PATCH,
  MEDIA_TYPE,
  NUMERIC_VERSION,
  SCHEME_AND_BODY,
  SCHEME_AUTHORITY,
  SCHEME_PREFIX,
  SEMVER,
  V_BEFORE_DIGIT,
} from '../patterns';
import { keysOf, own, ownArray, ownObject, ownString, quote, where, type Segments } from './read-json';

/** The three bindings the spec names; anything else must be an absolute URI. */
export type KnownBinding = 'JSONRPC' | 'GRPC' | 'HTTP+JSON';

const KNOWN_BINDINGS: ReadonlySet<string> = new Set<KnownBinding>(['JSONRPC', 'GRPC', 'HTTP+JSON']);

// Spellings seen in real cards and SDK enums; a Map so that keys such as "__proto__" are inert.
const BINDING_ALIASES: ReadonlyMap<string, KnownBinding> = new Map<string, KnownBinding>([
  ['jsonrpc', 'JSONRPC'],
  ['json-rpc', 'JSONRPC'],
  ['json_rpc', 'JSONRPC'],
  ['jsonrpc2', 'JSONRPC'],
  ['json-rpc-2.0', 'JSONRPC'],
  ['grpc', 'GRPC'],
  ['http+json', 'HTTP+JSON'],
  ['http_json', 'HTTP+JSON'],
  ['http-json', 'HTTP+JSON'],
  ['http/json', 'HTTP+JSON'],
  ['httpjson', 'HTTP+JSON'],
  ['http', 'HTTP+JSON'],
  ['rest', 'HTTP+JSON'],
]);

/** How a `protocolBinding` value reads. */
export interface BindingInfo {
  /** The spec binding it is or resembles, if any. */
  readonly known?: KnownBinding;
  /** True when the value is exactly one of the spec's spellings. */
  readonly exact: boolean;
  /** True when the value is an absolute URI (a custom binding). */
  readonly uri: boolean;
}

/**
 * Reads a `protocolBinding`: exact spec value, a near miss (`jsonrpc`), or a custom URI binding.
 * @example bindingInfo('jsonrpc') // { known: 'JSONRPC', exact: false, uri: false }
 * @see spec §5.8, proto `AgentInterface.protocol_binding`
 */
export function bindingInfo(value: string): BindingInfo {
  if (KNOWN_BINDINGS.has(value)) return { known: value as KnownBinding, exact: true, uri: false };
  const alias = BINDING_ALIASES.get(value.trim().toLowerCase());
  if (alias) return { known: alias, exact: false, uri: false };
  const uri = SCHEME_AND_BODY.test(value) && parseAbsoluteUrl(value) !== undefined;
  return { exact: false, uri };
}

/** Each object entry of `supportedInterfaces`, with its index. */
function interfacesOf(card: JsonObject): { index: number; entry: JsonObject }[] {
  const list = ownArray(card, 'supportedInterfaces');
  const out: { index: number; entry: JsonObject }[] = [];
  list?.forEach((entry, index) => {
    if (isObject(entry)) out.push({ index, entry });
  });
  return out;
}

// --- 19 skill-id-unique --------------------------------------------------------------------

function checkSkillIds(card: JsonObject, ctx: RuleContext): void {
  const skills = ownArray(card, 'skills');
  if (!skills) return;
  if (idsDistinctIgnoringCase(skills)) return;
  const exact = new Map<string, number>();
  const folded = new Map<string, number>();
  for (let index = 0; index < skills.length; index++) {
    const id = ownString(skills[index], 'id');
    if (id === undefined) continue;
    const first = exact.get(id);
    if (first !== undefined) {
      if (ctx.overflows('skill-id-unique', 'error')) continue;
      const path = ['skills', index, 'id'];
      ctx.report(
        'skill-id-unique',
        'error',
        path,
        `${where(path)}: duplicates skills[${first}].id (${quote(id)}).`,
        `Give each skill its own id, e.g. ${quote(`${id}-${index + 1}`)}.`,
      );
      continue;
    }
    exact.set(id, index);
    const lower = id.toLowerCase();
    const caseTwin = folded.get(lower);
    if (caseTwin !== undefined) {
      if (ctx.overflows('skill-id-unique', 'warning')) continue;
      const path = ['skills', index, 'id'];
      ctx.report(
        'skill-id-unique',
        'warning',
        path,
        `${where(path)}: differs from skills[${caseTwin}].id only in letter case (${quote(id)}).`,
        'Use ids that differ by more than case: clients that compare ids case-insensitively will confuse them.',
      );
      continue;
    }
    folded.set(lower, index);
  }
}

/**
 * Whether no two skill ids are equal ignoring case (then rule 19 has nothing to report): one set
 * of folded ids, where the report needs two maps.
 */
function idsDistinctIgnoringCase(skills: readonly unknown[]): boolean {
  const folded = new Set<string>();
  for (let index = 0; index < skills.length; index++) {
    const id = ownString(skills[index], 'id');
    if (id === undefined) continue;
    const lower = id.toLowerCase();
    if (folded.has(lower)) return false;
    folded.add(lower);
  }
  return true;
}

// --- 20–23 security ----------------------------------------------------------------------------

/** Where a list of security requirements sits: the card's own (`-1`) or a skill's. */
/** Whether a security requirement names at least one scheme (`{"schemes": {"bearer": …}}`). */
function namesScheme(requirement: unknown): boolean {
  const map = own(requirement, 'schemes');
  return isObject(map) && keysOf(map).length > 0;
}

function requirementsPath(skill: number): Segments {
  return skill < 0 ? ['securityRequirements'] : ['skills', skill, 'securityRequirements'];
}

/** Where scheme `name` of requirement `index` of that list sits. */
function schemePath(skill: number, index: number, name: string): Segments {
  return [...requirementsPath(skill), index, 'schemes', name];
}

const NON_OAUTH_KINDS = ['apiKeySecurityScheme', 'httpAuthSecurityScheme', 'mtlsSecurityScheme'] as const;

/** What rule 23 needs of one declared scheme: its OAuth2 flows' scopes, or its other kind. */
interface SchemeScopes {
  /** Declared scopes per flow of an OAuth2 scheme; `undefined` when the scheme is not OAuth2. */
  readonly flows: readonly { flow: string; scopes: ReadonlySet<string> }[] | undefined;
  /** The non-OAuth kind of the scheme, if it is one. */
  readonly kind: (typeof NON_OAUTH_KINDS)[number] | undefined;
}

function schemeScopes(scheme: unknown): SchemeScopes {
  const flows = ownObject(ownObject(scheme, 'oauth2SecurityScheme'), 'flows');
  if (flows) {
    return {
      flows: keysOf(flows)
        .filter((flow) => isObject(flows[flow]))
        .map((flow) => {
          const scopes = ownObject(flows[flow], 'scopes');
          return { flow, scopes: new Set(scopes ? keysOf(scopes) : []) };
        }),
      kind: undefined,
    };
  }
  return { flows: undefined, kind: NON_OAUTH_KINDS.find((k) => isObject(own(scheme, k))) };
}

/**
 * Rule 23 for one scheme reference, `schemes[name]` of requirement `index` of the list at
 * `skill` (see {@link requirementsPath}). Paths are built only for a finding: a card with a
 * thousand skills under one `@ApiBearerAuth()` has nothing to report.
 */
function checkScopes(
  ctx: RuleContext,
  name: string,
  scheme: SchemeScopes,
  entry: unknown,
  skill: number,
  index: number,
): void {
  const list = ownArray(entry, 'list');
  if (!list) return;
  const { flows, kind } = scheme;
  if (flows) {
    if (flows.length === 0) return;
    for (let i = 0; i < list.length; i++) {
      const scope = list[i];
      if (typeof scope !== 'string' || flows.some((f) => f.scopes.has(scope))) continue;
      const scopePath = [...schemePath(skill, index, name), 'list', i];
      const flow = flows[0]?.flow ?? 'clientCredentials';
      ctx.report(
        'security-scope-declared',
        'warning',
        scopePath,
        `${where(scopePath)}: scope ${quote(scope)} is not declared in the ${quote(name)} scheme's flow scopes.`,
        `Add ${quote(scope)} to ${where(['securitySchemes', name, 'oauth2SecurityScheme', 'flows', flow, 'scopes'])}, or remove it from the list.`,
      );
    }
    return;
  }
  if (kind && list.some((s) => typeof s === 'string')) {
    const listPath = [...schemePath(skill, index, name), 'list'];
    ctx.report(
      'security-scope-declared',
      'info',
      listPath,
      `${where(listPath)}: lists roles for the non-OAuth scheme ${quote(name)} (${kind}).`,
      'OpenAPI 3.0 requires an empty list here and 3.1 allows role names; use "list": [] unless your clients read roles.',
    );
  }
}

function checkSecurity(card: JsonObject, ctx: RuleContext): void {
  const schemes = ownObject(card, 'securitySchemes');
  const names = schemes ? keysOf(schemes) : [];
  const used = new Set<string>();
  // Each declared scheme's scopes, read once for all the requirements that name it.
  const scopesOf = new Map<string, SchemeScopes>();

  // An empty `securitySchemes` ({}), an empty list and a lone empty requirement are the defaults
  // SDKs write for a public agent: they say nothing and are not reported.
  const cardList = ownArray(card, 'securityRequirements');
  const cardRequiresAuth = cardList?.some(namesScheme);

  /** Rules 20–23 for the list of requirements at `skill` (see {@link requirementsPath}). */
  const checkList = (list: readonly unknown[], skill: number): void => {
    // An empty requirement matters where it makes authentication optional: next to one that names
    // a scheme, or on a skill of a card that requires authentication. Alone it is a public agent's
    // default.
    const emptyMatters = list.some(namesScheme) || (skill !== -1 && cardRequiresAuth);
    if (names.length === 0 && list.some(namesScheme)) {
      const path = requirementsPath(skill);
      ctx.report(
        'security-empty',
        'warning',
        path,
        `${where(path)}: requires security, but the card defines no securitySchemes.`,
        'Add securitySchemes entries for the names used here, e.g. "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}.',
      );
    }
    for (let index = 0; index < list.length; index++) {
      const requirement = list[index];
      if (!isObject(requirement)) continue;
      const map = own(requirement, 'schemes');
      if (map !== undefined && !isObject(map)) continue;
      const namesHere = map ? keysOf(map) : [];
      if (namesHere.length === 0) {
        if (!emptyMatters) continue;
        const reqPath = [...requirementsPath(skill), index];
        ctx.report(
          'security-empty',
          'warning',
          reqPath,
          `${where(reqPath)}: names no scheme ({}), which makes authentication optional.`,
          `Name a scheme, e.g. {"schemes": {"${names[0] ?? 'bearer'}": {"list": []}}}, or remove the entry if authentication is required.`,
        );
        continue;
      }
      for (const name of namesHere) {
        used.add(name);
        if (!schemes || !Object.hasOwn(schemes, name)) {
          // The hint lists every declared name: past the bound, it is not built.
          if (ctx.overflows('security-scheme-reference', 'error')) continue;
          const namePath = schemePath(skill, index, name);
          const known = names.length > 0 ? `, or use one of: ${names.map((n) => quote(n)).join(', ')}` : '';
          ctx.report(
            'security-scheme-reference',
            'error',
            namePath,
            `${where(namePath)}: names a scheme that securitySchemes does not define (${quote(name)}).`,
            `Add ${where(['securitySchemes', name])}${known}.`,
          );
          continue;
        }
        let scheme = scopesOf.get(name);
        if (scheme === undefined) {
          scheme = schemeScopes(schemes[name]);
          scopesOf.set(name, scheme);
        }
        checkScopes(ctx, name, scheme, map ? map[name] : undefined, skill, index);
      }
    }
  };

  const top = ownArray(card, 'securityRequirements');
  if (top) checkList(top, -1);
  const skills = ownArray(card, 'skills');
  if (skills) {
    for (let i = 0; i < skills.length; i++) {
      const list = ownArray(skills[i], 'securityRequirements');
      if (list) checkList(list, i);
    }
  }

  // A v0.3-style `security` list also references schemes; rule 32 reports its shape.
  for (const entry of ownArray(card, 'security') ?? []) {
    if (isObject(entry)) for (const name of keysOf(entry)) used.add(name);
  }
  for (const name of names) {
    if (used.has(name)) continue;
    // Past the bound, no message is built for the unused schemes left.
    if (ctx.overflows('security-scheme-reference', 'info')) continue;
    const path = ['securitySchemes', name];
    ctx.report(
      'security-scheme-reference',
      'info',
      path,
      `${where(path)}: is defined but no securityRequirements entry uses it (${quote(name)}).`,
      `Reference it, e.g. "securityRequirements": [{"schemes": {${JSON.stringify(name)}: {"list": []}}}], or remove it.`,
    );
  }

  if (own(ownObject(card, 'capabilities'), 'extendedAgentCard') === true && names.length === 0) {
    const path = ['capabilities', 'extendedAgentCard'];
    ctx.report(
      'extended-card-requires-security',
      'error',
      path,
      `${where(path)}: is true but the card declares no securitySchemes (true).`,
      'Declare the scheme clients use to fetch the extended card in securitySchemes (and securityRequirements), or set extendedAgentCard to false.',
    );
  }
}

// --- 24 mode-media-type -----------------------------------------------------------------------

const LEGACY_MODES: ReadonlyMap<string, string> = new Map([
  ['text', 'text/plain'],
  ['file', 'application/octet-stream (or the file type, e.g. application/pdf)'],
  ['data', 'application/json'],
  ['json', 'application/json'],
  ['image', 'image/png'],
  ['audio', 'audio/mpeg'],
  ['video', 'video/mp4'],
]);

function checkModes(ctx: RuleContext, path: Segments, modes: readonly unknown[]): void {
  const seen = new Map<string, number>();
  modes.forEach((mode, index) => {
    if (typeof mode !== 'string' || mode.trim() === '') return;
    const modePath = [...path, index];
    const legacy = LEGACY_MODES.get(mode.trim().toLowerCase());
    if (legacy) {
      if (!ctx.overflows('mode-media-type', 'warning'))
        ctx.report(
          'mode-media-type',
          'warning',
          modePath,
          `${where(modePath)}: is a legacy mode token, not a media type (${quote(mode)}).`,
          `Use ${legacy}.`,
        );
    } else if ((mode.length > 255 || !MEDIA_TYPE.test(mode)) && !ctx.overflows('mode-media-type', 'warning')) {
      ctx.report(
        'mode-media-type',
        'warning',
        modePath,
        `${where(modePath)}: is not a media type of the form type/subtype (${quote(mode)}).`,
        'Use an RFC 6838 media type such as text/plain, application/json or image/png.',
      );
    }
    const key = mode.split(';')[0]?.trim().toLowerCase() ?? mode;
    const first = seen.get(key);
    if (first !== undefined) {
      if (ctx.overflows('mode-media-type', 'info')) return;
      ctx.report(
        'mode-media-type',
        'info',
        modePath,
        `${where(modePath)}: repeats ${where([...path, first])} (${quote(mode)}).`,
        `Remove the duplicate entry from ${where(path)}.`,
      );
    } else {
      seen.set(key, index);
    }
  });
}

function checkAllModes(card: JsonObject, ctx: RuleContext): void {
  for (const key of ['defaultInputModes', 'defaultOutputModes']) {
    const modes = ownArray(card, key);
    if (modes) checkModes(ctx, [key], modes);
  }
  const skills = ownArray(card, 'skills');
  if (!skills) return;
  for (let index = 0; index < skills.length; index++) {
    const skill = skills[index];
    if (!isObject(skill)) continue;
    // Most skills declare no modes of their own.
    const input = Object.hasOwn(skill, 'inputModes') ? skill.inputModes : undefined;
    if (Array.isArray(input)) checkModes(ctx, ['skills', index, 'inputModes'], input);
    const output = Object.hasOwn(skill, 'outputModes') ? skill.outputModes : undefined;
    if (Array.isArray(output)) checkModes(ctx, ['skills', index, 'outputModes'], output);
  }
}

// --- 25–29 interfaces -------------------------------------------------------------------------

function checkBinding(ctx: RuleContext, path: Segments, binding: string): void {
  const info = bindingInfo(binding);
  if (info.exact || info.uri) return;
  const bindingPath = [...path, 'protocolBinding'];
  // A client that meets a binding it does not know skips the interface: published, a misspelt
  // binding is an interface nobody can use.
  ctx.report(
    'interface-binding-known',
    ctx.profile === 'development' ? 'warning' : 'error',
    bindingPath,
    info.known
      ? `${where(bindingPath)}: is not the exact spec spelling (${quote(binding)}).`
      : `${where(bindingPath)}: is neither JSONRPC, GRPC, HTTP+JSON nor an absolute URI (${quote(binding)}).`,
    info.known
      ? `Use "${info.known}" (values are case-sensitive).`
      : 'Use "JSONRPC", "GRPC" or "HTTP+JSON", or an absolute URI that names a custom binding (e.g. "https://acme.io/bindings/mqtt").',
  );
}

const RELEASED_VERSIONS = new Set(['0.3', '1.0']);

function checkProtocolVersion(ctx: RuleContext, path: Segments, version: string): void {
  const versionPath = [...path, 'protocolVersion'];
  if (MAJOR_MINOR.test(version)) {
    if (!RELEASED_VERSIONS.has(version)) {
      ctx.report(
        'interface-protocol-version',
        'info',
        versionPath,
        `${where(versionPath)}: is not a released A2A protocol version (${quote(version)}).`,
        'Use "1.0" (or "0.3" for a legacy interface) unless you target a newer protocol release.',
      );
    }
    return;
  }
  const patch = MAJOR_MINOR_PATCH.exec(version);
  ctx.report(
    'interface-protocol-version',
    'warning',
    versionPath,
    patch
      ? `${where(versionPath)}: includes a patch number, which cards should not carry (${quote(version)}).`
      : `${where(versionPath)}: is not of the form MAJOR.MINOR (${quote(version)}).`,
    patch ? `Use "${patch[1] ?? '1.0'}".` : 'Use "1.0".',
  );
}

function checkInterfaceUrl(ctx: RuleContext, path: Segments, url: string, binding: string): void {
  const info = bindingInfo(binding);
  const grpc = info.known === 'GRPC';
  const httpLike =
    info.known === 'JSONRPC' || info.known === 'HTTP+JSON' || (info.uri && HTTP_FAMILY_SCHEME.test(binding));
  if (!grpc && !httpLike) return;
  const urlPath = [...path, 'url'];
  // The URL is redacted for a message only, and past the bound there is none.
  const fail = (what: string, hint: string) => {
    if (ctx.overflows('interface-url-format', 'error')) return;
    ctx.report(
      'interface-url-format',
      'error',
      urlPath,
      `${where(urlPath)}: ${what} (${quote(redactUrl(url))}).`,
      hint,
    );
  };

  if (grpc && parseHostPort(url)) return;
  const parsed = SCHEME_PREFIX.test(url) ? parseAbsoluteUrl(url) : undefined;
  if (!parsed || parsed.host === '') {
    const guess = BARE_HOST_AND_PORT.test(url) ? `https://${url}` : undefined;
    fail(
      'is not an absolute URL',
      grpc
        ? 'Use host:port (e.g. "grpc.acme.io:443") or an absolute URL.'
        : guess
          ? `Use ${guess}.`
          : 'Use the absolute endpoint URL with scheme and host, e.g. "https://api.acme.io/a2a".',
    );
    return;
  }
  if (httpLike && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    fail(
      `uses the ${parsed.protocol.slice(0, -1)} scheme, but ${binding} needs http(s)`,
      `Use an https:// URL, e.g. "https://${parsed.host}${parsed.pathname.startsWith('/') ? parsed.pathname : '/'}".`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    fail(
      'carries credentials in the URL userinfo',
      'Remove "user:password@" from the URL and declare authentication in securitySchemes instead.',
    );
  }
  if (url.includes('#')) {
    const clean = url.slice(0, url.indexOf('#'));
    fail('has a fragment, which is never sent to the server', `Use ${quote(redactUrl(clean))}.`);
  }
}

function checkInterfaces(card: JsonObject, ctx: RuleContext): void {
  const entries = interfacesOf(card);
  const tuples = new Map<string, number>();
  const ranked: { index: number; secure?: boolean; version?: number; url: string }[] = [];

  for (const { index, entry } of entries) {
    const path = ['supportedInterfaces', index];
    const url = ownString(entry, 'url');
    const binding = ownString(entry, 'protocolBinding');
    const version = ownString(entry, 'protocolVersion');
    const tenant = own(entry, 'tenant');

    if (binding !== undefined) checkBinding(ctx, path, binding);
    if (version !== undefined) checkProtocolVersion(ctx, path, version);
    if (url !== undefined && binding !== undefined) checkInterfaceUrl(ctx, path, url, binding);

    if (url !== undefined && binding !== undefined && version !== undefined) {
      const key = JSON.stringify([url, binding, version, typeof tenant === 'string' ? tenant : '']);
      const first = tuples.get(key);
      if (first !== undefined) {
        if (!ctx.overflows('interface-duplicate', 'warning'))
          ctx.report(
            'interface-duplicate',
            'warning',
            path,
            `${where(path)}: repeats supportedInterfaces[${first}] (${binding} ${version} at ${quote(redactUrl(url))}).`,
            `Remove supportedInterfaces[${index}].`,
          );
      } else {
        tuples.set(key, index);
      }
    }

    if (url !== undefined) {
      const scheme = SCHEME_AUTHORITY.exec(url)?.[1]?.toLowerCase();
      const secure =
        scheme === 'https' || scheme === 'wss' ? true : scheme === 'http' || scheme === 'ws' ? false : undefined;
      const parts = version !== undefined ? LEADING_MAJOR_MINOR.exec(version) : null;
      const v = parts ? Number(parts[1]) * 1e6 + Number(parts[2]) : undefined;
      ranked.push({
        index,
        url,
        ...(secure !== undefined ? { secure } : {}),
        ...(v !== undefined ? { version: v } : {}),
      });
    }
  }

  if (ranked.length < 2) return;
  const first = ranked[0];
  if (first) {
    const entry = entries.find((e) => e.index === first.index)?.entry;
    const path = ['supportedInterfaces', first.index];
    const binding = ownString(entry, 'protocolBinding') ?? 'unknown binding';
    const version = ownString(entry, 'protocolVersion') ?? '?';
    ctx.report(
      'interface-preference',
      'info',
      path,
      `${where(path)}: is the interface clients try first (${binding} ${version} at ${quote(redactUrl(first.url))}).`,
      'Clients use the first entry they support (spec §8.3.1); reorder supportedInterfaces to change the preference.',
    );
  }
  // For each entry, the first later one that beats it: an https entry after an http one, or a
  // newer version with the same security. Both found in one pass from the end, so a long list of
  // equal interfaces costs a walk, not a comparison of every pair.
  const nextSecure: (number | undefined)[] = new Array(ranked.length);
  const nextNewer: (number | undefined)[] = new Array(ranked.length);
  let secureAfter: number | undefined;
  const newerAfter = new Map<boolean | undefined, number[]>();
  for (let i = ranked.length - 1; i >= 0; i--) {
    const a = ranked[i]!;
    nextSecure[i] = secureAfter;
    if (a.secure === true) secureAfter = i;
    if (a.version === undefined) continue;
    // Later entries of the same security, each newer than every one before it in the stack.
    let stack = newerAfter.get(a.secure);
    if (stack === undefined) {
      stack = [];
      newerAfter.set(a.secure, stack);
    }
    while (stack.length > 0 && ranked[stack[stack.length - 1]!]!.version! <= a.version) stack.pop();
    nextNewer[i] = stack[stack.length - 1];
    stack.push(i);
  }
  for (let i = 0; i < ranked.length; i++) {
    const a = ranked[i];
    if (!a) continue;
    const secure = a.secure === false ? nextSecure[i] : undefined;
    const newer = nextNewer[i];
    const j = secure === undefined ? newer : newer === undefined ? secure : Math.min(secure, newer);
    if (j === undefined) continue;
    const b = ranked[j]!;
    if (ctx.overflows('interface-preference', 'warning')) continue;
    const weaker =
      a.secure === false && b.secure === true
        ? 'uses http:// while a later entry uses https://'
        : 'speaks an older protocol version than a later entry';
    const path = ['supportedInterfaces', a.index];
    ctx.report(
      'interface-preference',
      'warning',
      path,
      `${where(path)}: ${weaker}, supportedInterfaces[${b.index}] (${quote(redactUrl(b.url))}).`,
      `Move supportedInterfaces[${b.index}] before supportedInterfaces[${a.index}]: clients pick the first entry they support.`,
    );
  }
}

// --- 30 version-format ------------------------------------------------------------------------

function checkVersion(card: JsonObject, ctx: RuleContext): void {
  const version = ownString(card, 'version');
  if (version === undefined || SEMVER.test(version)) return;
  const trimmed = version.trim().replace(V_BEFORE_DIGIT, '');
  const parts = NUMERIC_VERSION.exec(trimmed);
  const suggestion = parts
    ? `${Number(parts[1])}.${Number(parts[2] ?? 0)}.${Number(parts[3] ?? 0)}`
    : SEMVER.test(trimmed)
      ? trimmed
      : '1.0.0';
  ctx.report(
    'version-format',
    'info',
    ['version'],
    `version: is not a SemVer version (${quote(version)}).`,
    `Use MAJOR.MINOR.PATCH, e.g. "${suggestion}" (the spec leaves the format free, but tools compare SemVer).`,
  );
}

/**
 * Cross-field checks, rules 19–30 (except 31–32): unique skill ids, security scheme references
 * and scopes, empty security, extended card security, media types, interface bindings,
 * versions, URL format, duplicates and preference order, and the agent version format.
 * Never throws; skips anything structurally broken.
 * @example
 * const ctx = createRuleContext('production', 'v1.0');
 * checkSemantics(card, ctx);
 * ctx.findings; // [{ rule: 'skill-id-unique', severity: 'error', path: '/skills/1/id', ... }]
 * @see packages/core/RULES.md §6.2
 */
export const checkSemantics: RuleCheck = (card, ctx) => {
  if (!isObject(card)) return;
  checkSkillIds(card, ctx);
  checkSecurity(card, ctx);
  checkAllModes(card, ctx);
  checkInterfaces(card, ctx);
  checkVersion(card, ctx);
};
