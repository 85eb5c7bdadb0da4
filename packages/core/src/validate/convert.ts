/**
 * v0.3 / ≤0.2 / mixed Agent Card → A2A v1.0 Agent Card.
 *
 * @packageDocumentation
 */
import { toPointer } from '../findings';
import { AgentCardSchema, SECURITY_SCHEME_KINDS, STANDARD_PROTOCOL_BINDINGS } from '../model';
import { isObject, type JsonObject } from './context';
import {
  LEGACY_CARD_KEYS,
  describePath,
  fieldsOf,
  has,
  itemOf,
  json,
  kindOf,
  own,
  setOwn,
  snakeCase,
  toJsonTree,
  type ModelSchema,
} from './shape';

/** One edit made by `migrateAgentCard`. */
export interface MigrationChange {
  /** JSON Pointer of the field in the input card. */
  path: string;
  /** What happened to it, e.g. `moved to supportedInterfaces[0] …`. */
  change: string;
  /** JSON Pointer of the v1.0 field that now carries the value, when there is one. */
  target?: string;
}

/** What `migrateAgentCard` returns. */
export interface MigrationResult {
  /** The card in v1.0 form: v1.0 fields kept, legacy fields converted and removed, keys in model order. */
  card: Record<string, unknown>;
  /** Every edit, in the order applied. Empty for a card that already was plain v1.0. */
  changes: MigrationChange[];
}

/** What kind of legacy construct a change converted; the validator maps kinds to rules. */
export type MigrationKind =
  | 'interface'
  | 'extended-card'
  | 'security'
  | 'scheme'
  | 'scheme-extra'
  | 'authentication'
  | 'removed-field'
  | 'rename';

/** A change plus its kind (internal to core). */
export interface KindedChange extends MigrationChange {
  kind: MigrationKind;
}

/** The v1.0 scheme wrappers a v0.3 `type` maps to. */
const WRAPPERS = SECURITY_SCHEME_KINDS;

/** `migrateAgentCard` with the kind of each change (used by the validator's hints). */
export function migrateWithKinds(
  value: unknown,
  copied?: { tree: unknown; problems: readonly { path: (string | number)[]; message: string }[] },
): { card: Record<string, unknown>; changes: KindedChange[] } {
  const changes: KindedChange[] = [];
  try {
    // The copy stops at 64 levels (and at cycles), so nothing below recurses on the input's depth.
    // The validator passes the copy it made already.
    const { tree, problems } = copied ?? toJsonTree(value);
    if (!isObject(tree)) {
      changes.push({ kind: 'removed-field', path: '', change: 'not a JSON object: nothing to migrate' });
      return { card: {}, changes };
    }
    for (const problem of problems) {
      changes.push({
        kind: 'removed-field',
        path: ptr(problem.path),
        change: `replaced by null: ${problem.message.slice(describePath(problem.path).length + 2)}`,
      });
    }
    const work = plainCopy(tree) as JsonObject;
    const splits = convertSchemes(work, changes);
    convertInterfaces(tree, work, changes);
    convertExtendedFlag(tree, work, changes);
    convertAuthentication(tree, work, changes);
    convertSecurity(work, [], changes, splits);
    const skills = own(work, 'skills');
    if (Array.isArray(skills)) {
      skills.forEach((skill, i) => {
        if (isObject(skill)) convertSecurity(skill, ['skills', i], changes, splits);
      });
    }
    for (const key of LEGACY_CARD_KEYS) delete work[key];
    const card = normalize(work, AgentCardSchema as unknown as ModelSchema, [], changes) as Record<string, unknown>;
    return { card, changes };
  } catch (error) {
    // Reaching this is a bug; a partial answer with the reason beats an exception in a CLI.
    changes.push({ kind: 'removed-field', path: '', change: `migration stopped: ${String(error)}` });
    return { card: {}, changes };
  }
}

/** Deep copy into ordinary objects, keeping `__proto__`-like keys as own data. */
function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, plainCopy(value[key]));
    return out;
  }
  return value;
}

function ptr(path: readonly (string | number)[]): string {
  return toPointer(path);
}

/** `0.2.9` → `0.2`; `1` → `1.0`; anything else unchanged. */
function majorMinor(version: string): string {
  const m = /^\s*v?(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return version.trim();
  return `${m[1]}.${m[2] ?? '0'}`;
}

function binding(transport: unknown): string {
  if (typeof transport !== 'string' || transport.trim() === '') return 'JSONRPC';
  const upper = transport.trim().toUpperCase();
  const standard = STANDARD_PROTOCOL_BINDINGS.find((b) => b === upper || (b === 'HTTP+JSON' && upper === 'REST'));
  return standard ?? transport.trim();
}

interface LegacyInterface {
  from: string;
  url: string;
  protocolBinding: string;
}

function convertInterfaces(src: JsonObject, work: JsonObject, changes: KindedChange[]): void {
  const legacy: LegacyInterface[] = [];
  const url = own(src, 'url');
  if (typeof url === 'string' && url.trim() !== '') {
    legacy.push({ from: '/url', url, protocolBinding: binding(own(src, 'preferredTransport')) });
  }
  const extra = own(src, 'additionalInterfaces');
  if (Array.isArray(extra)) {
    extra.forEach((item, i) => {
      if (isObject(item) && typeof own(item, 'url') === 'string') {
        legacy.push({
          from: ptr(['additionalInterfaces', i]),
          url: own(item, 'url') as string,
          protocolBinding: binding(own(item, 'transport') ?? own(item, 'protocolBinding')),
        });
      }
    });
  }
  const declared = own(src, 'protocolVersion');
  const version = typeof declared === 'string' && declared.trim() !== '' ? majorMinor(declared) : '0.3';

  const existing = own(work, 'supportedInterfaces');
  const list: unknown[] = Array.isArray(existing) ? existing : [];
  const hadList = Array.isArray(existing);
  const indexOf = (l: LegacyInterface) =>
    list.findIndex((x) => isObject(x) && own(x, 'url') === l.url && own(x, 'protocolBinding') === l.protocolBinding);
  const placed = new Map<string, number>();
  for (const l of legacy) {
    let index = indexOf(l);
    if (index < 0) {
      list.push({ url: l.url, protocolBinding: l.protocolBinding, protocolVersion: version });
      index = list.length - 1;
      placed.set(l.from, index);
      changes.push({
        kind: 'interface',
        path: l.from,
        change: `moved to supportedInterfaces[${index}] as ${json(list[index])}`,
        target: '/supportedInterfaces',
      });
    } else {
      changes.push({
        kind: 'interface',
        path: l.from,
        change: `removed: supportedInterfaces[${index}] already declares ${l.url} (${l.protocolBinding})`,
        target: '/supportedInterfaces',
      });
    }
  }
  if (legacy.length > 0 || hadList) setOwn(work, 'supportedInterfaces', list);

  if (has(src, 'preferredTransport')) {
    changes.push({
      kind: 'interface',
      path: '/preferredTransport',
      change: `removed: the preferred interface is the first supportedInterfaces entry (protocolBinding ${json(binding(own(src, 'preferredTransport')))})`,
      target: '/supportedInterfaces',
    });
  }
  if (has(src, 'additionalInterfaces')) {
    changes.push({
      kind: 'interface',
      path: '/additionalInterfaces',
      change: 'removed: its entries are supportedInterfaces entries (transport → protocolBinding)',
      target: '/supportedInterfaces',
    });
  }
  if (has(src, 'protocolVersion')) {
    const note = hadList
      ? 'removed: each supportedInterfaces entry declares its own protocolVersion'
      : `removed: the interfaces taken from the card declare protocolVersion ${json(version)} (Major.Minor, spec §3.6); set "1.0" on the interfaces that speak A2A v1.0`;
    changes.push({ kind: 'interface', path: '/protocolVersion', change: note, target: '/supportedInterfaces' });
  } else if (!hadList && legacy.length > 0) {
    changes.push({
      kind: 'interface',
      path: '/supportedInterfaces',
      change:
        'the card declared no protocolVersion: its interfaces were given "0.3", as SDK parsers assume; set the version the endpoint speaks',
      target: '/supportedInterfaces',
    });
  }
  if (has(src, 'url') && legacy.every((l) => l.from !== '/url')) {
    changes.push({ kind: 'interface', path: '/url', change: `removed: not a usable URL (${json(own(src, 'url'))})` });
  }
}

function convertExtendedFlag(src: JsonObject, work: JsonObject, changes: KindedChange[]): void {
  if (!has(src, 'supportsAuthenticatedExtendedCard')) return;
  const flag = own(src, 'supportsAuthenticatedExtendedCard');
  let caps = own(work, 'capabilities');
  if (!isObject(caps) && typeof flag === 'boolean') {
    caps = {};
    setOwn(work, 'capabilities', caps);
  }
  if (isObject(caps) && typeof flag === 'boolean' && !has(caps, 'extendedAgentCard')) {
    setOwn(caps, 'extendedAgentCard', flag);
    changes.push({
      kind: 'extended-card',
      path: '/supportsAuthenticatedExtendedCard',
      change: `moved to capabilities.extendedAgentCard (${flag})`,
      target: '/capabilities',
    });
  } else {
    changes.push({
      kind: 'extended-card',
      path: '/supportsAuthenticatedExtendedCard',
      change:
        isObject(caps) && has(caps, 'extendedAgentCard')
          ? 'removed: capabilities.extendedAgentCard is already set'
          : `removed: not a boolean (${json(flag)})`,
      target: '/capabilities',
    });
  }
}

const OAUTH_FLOWS = ['authorizationCode', 'clientCredentials', 'deviceCode', 'implicit', 'password'];
/** Alternatives one requirement may expand to; beyond this the requirement is kept as it is. */
const MAX_ALTERNATIVES = 64;

/** Names a split OAuth scheme was turned into. */
type Splits = Map<string, string[]>;

function convertSchemes(work: JsonObject, changes: KindedChange[]): Splits {
  const splits: Splits = new Map();
  const schemes = own(work, 'securitySchemes');
  if (!isObject(schemes)) return splits;
  const out: JsonObject = {};
  const names = Object.keys(schemes);
  for (const name of names) {
    const entry = schemes[name];
    const path = ['securitySchemes', name];
    if (!isObject(entry) || !has(entry, 'type')) {
      setOwn(out, name, entry);
      continue;
    }
    const wrappers = WRAPPERS.filter((w) => has(entry, w));
    if (wrappers.length > 0) {
      const kept: JsonObject = {};
      for (const w of wrappers) setOwn(kept, w, entry[w]);
      const dropped = Object.keys(entry).filter((k) => !wrappers.includes(k as (typeof WRAPPERS)[number]));
      setOwn(out, name, kept);
      changes.push({
        kind: 'scheme-extra',
        path: ptr(path),
        change: `removed the v0.3 fields ${dropped.join(', ')} next to ${wrappers.join(', ')}`,
        target: ptr(path),
      });
      continue;
    }
    const converted = convertScheme(entry);
    if (!converted) {
      setOwn(out, name, entry);
      changes.push({
        kind: 'scheme',
        path: ptr(path),
        change: `not converted: unknown v0.3 type ${json(own(entry, 'type'))}; rewrite it as one of ${WRAPPERS.join(', ')}`,
      });
      continue;
    }
    const produced: string[] = [];
    converted.forEach((scheme, i) => {
      let target = i === 0 ? name : `${name}-${scheme.suffix}`;
      while (i > 0 && (has(out, target) || names.includes(target))) target = `${target}-${i}`;
      setOwn(out, target, scheme.value);
      produced.push(target);
    });
    if (produced.length > 1) splits.set(name, produced);
    changes.push({
      kind: 'scheme',
      path: ptr(path),
      change:
        produced.length > 1
          ? `converted to ${produced.map((p) => json(p)).join(', ')}: v1.0 allows one OAuth flow per scheme; requirements naming ${json(name)} now list each as an alternative`
          : `converted: type ${json(own(entry, 'type'))} → ${Object.keys(converted[0]!.value)[0]}`,
      target: produced.length > 1 ? '/securitySchemes' : ptr(path),
    });
  }
  setOwn(work, 'securitySchemes', out);
  return splits;
}

function pick(src: JsonObject, mapping: Record<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const [from, to] of Object.entries(mapping)) if (has(src, from)) setOwn(out, to, src[from]);
  return out;
}

function convertScheme(entry: JsonObject): { suffix: string; value: JsonObject }[] | null {
  const type = own(entry, 'type');
  const t = typeof type === 'string' ? type.toLowerCase() : '';
  switch (t) {
    case 'apikey':
      return [
        {
          suffix: '',
          value: { apiKeySecurityScheme: pick(entry, { description: 'description', in: 'location', name: 'name' }) },
        },
      ];
    case 'http':
      return [
        {
          suffix: '',
          value: {
            httpAuthSecurityScheme: pick(entry, {
              description: 'description',
              scheme: 'scheme',
              bearerFormat: 'bearerFormat',
            }),
          },
        },
      ];
    case 'openidconnect':
      return [
        {
          suffix: '',
          value: {
            openIdConnectSecurityScheme: pick(entry, {
              description: 'description',
              openIdConnectUrl: 'openIdConnectUrl',
            }),
          },
        },
      ];
    case 'mutualtls':
    case 'mtls':
      return [{ suffix: '', value: { mtlsSecurityScheme: pick(entry, { description: 'description' }) } }];
    case 'oauth2': {
      const flows = own(entry, 'flows');
      const base = pick(entry, { description: 'description' });
      const meta = pick(entry, { oauth2MetadataUrl: 'oauth2MetadataUrl' });
      const keys = isObject(flows) ? Object.keys(flows) : [];
      const known = keys.filter((k) => OAUTH_FLOWS.includes(k));
      const make = (flowValue: JsonObject) => ({ oauth2SecurityScheme: { ...base, flows: flowValue, ...meta } });
      if (known.length <= 1) return [{ suffix: '', value: make(isObject(flows) ? flows : {}) }];
      // Unknown keys stay with the first flow, where the validator reports them.
      return known.map((k, i) => {
        const one: JsonObject = {};
        for (const key of keys)
          if (key === k || (i === 0 && !known.includes(key))) setOwn(one, key, (flows as JsonObject)[key]);
        return { suffix: k, value: make(one) };
      });
    }
    default:
      return null;
  }
}

function convertAuthentication(src: JsonObject, work: JsonObject, changes: KindedChange[]): void {
  const auth = own(src, 'authentication');
  if (auth === undefined) return;
  const list = isObject(auth) ? own(auth, 'schemes') : undefined;
  const names = Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  const http = names.filter((s) => /^(bearer|basic|digest)$/i.test(s.trim()));
  const other = names.filter((s) => !http.includes(s));
  if (http.length > 0) {
    let schemes = own(work, 'securitySchemes');
    if (!isObject(schemes)) {
      schemes = {};
      setOwn(work, 'securitySchemes', schemes);
    }
    const reqs: JsonObject[] = [];
    for (const s of http) {
      const name = s.trim().toLowerCase();
      const scheme = name.charAt(0).toUpperCase() + name.slice(1);
      if (!has(schemes as JsonObject, name))
        setOwn(schemes as JsonObject, name, { httpAuthSecurityScheme: { scheme } });
      const req: JsonObject = {};
      setOwn(req, name, []);
      reqs.push(req);
    }
    if (!has(work, 'security') && !has(work, 'securityRequirements')) setOwn(work, 'security', reqs);
  }
  changes.push({
    kind: 'authentication',
    path: '/authentication',
    change:
      (http.length > 0
        ? `converted ${http.map((s) => json(s)).join(', ')} to HTTP securitySchemes and securityRequirements`
        : 'removed') +
      (other.length > 0
        ? `; ${other.map((s) => json(s)).join(', ')} cannot be converted automatically: declare them in securitySchemes`
        : ''),
    target: http.length > 0 ? '/securitySchemes' : undefined,
  });
}

/** `{name: [scopes]}` (v0.3) → `{schemes: {name: {list: [scopes]}}}`; v1.0 entries pass through. */
function convertRequirement(entry: unknown): JsonObject | null {
  if (!isObject(entry)) return null;
  if (has(entry, 'schemes') && isObject(entry.schemes)) return entry;
  const schemes: JsonObject = {};
  for (const name of Object.keys(entry)) {
    const scopes = entry[name];
    const list = Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : [];
    setOwn(schemes, name, { list });
  }
  return { schemes };
}

/**
 * Replaces each requirement naming a split scheme by one alternative per resulting scheme (the
 * cartesian product when several split schemes appear together).
 */
function expandSplits(reqs: unknown[], splits: Splits): unknown[] {
  if (splits.size === 0) return reqs;
  const out: unknown[] = [];
  for (const req of reqs) {
    const schemes = isObject(req) ? own(req, 'schemes') : undefined;
    if (!isObject(req) || !isObject(schemes) || !Object.keys(schemes).some((n) => splits.has(n))) {
      out.push(req);
      continue;
    }
    const total = Object.keys(schemes).reduce((n, name) => n * (splits.get(name)?.length ?? 1), 1);
    if (total > MAX_ALTERNATIVES) {
      out.push(req);
      continue;
    }
    let combos: JsonObject[] = [{}];
    for (const name of Object.keys(schemes)) {
      const names = splits.get(name) ?? [name];
      const next: JsonObject[] = [];
      for (const combo of combos) {
        for (const alias of names) {
          const copy: JsonObject = {};
          for (const k of Object.keys(combo)) setOwn(copy, k, combo[k]);
          setOwn(copy, alias, schemes[name]);
          next.push(copy);
        }
      }
      combos = next;
    }
    for (const combo of combos) {
      const copy: JsonObject = {};
      for (const k of Object.keys(req)) setOwn(copy, k, k === 'schemes' ? combo : req[k]);
      out.push(copy);
    }
  }
  return out;
}

function convertSecurity(holder: JsonObject, at: (string | number)[], changes: KindedChange[], splits: Splits): void {
  const legacy = own(holder, 'security');
  const current = own(holder, 'securityRequirements');
  if (has(holder, 'security')) {
    const from = ptr([...at, 'security']);
    const target = ptr([...at, 'securityRequirements']);
    if (has(holder, 'securityRequirements')) {
      changes.push({ kind: 'security', path: from, change: 'removed: securityRequirements is already set', target });
    } else if (Array.isArray(legacy)) {
      const converted = legacy.map(convertRequirement);
      const kept = converted.filter((r): r is JsonObject => r !== null);
      setOwn(holder, 'securityRequirements', expandSplits(kept, splits));
      changes.push({
        kind: 'security',
        path: from,
        change:
          `moved to securityRequirements, each {name: [scopes]} as {schemes: {name: {list: [scopes]}}}` +
          (kept.length < converted.length
            ? `; dropped ${converted.length - kept.length} entries that were not objects`
            : ''),
        target,
      });
    } else {
      changes.push({ kind: 'security', path: from, change: `removed: not a list of requirements (${json(legacy)})` });
    }
    delete holder.security;
  } else if (Array.isArray(current) && splits.size > 0) {
    const expanded = expandSplits(current, splits);
    if (expanded.length !== current.length) {
      setOwn(holder, 'securityRequirements', expanded);
      changes.push({
        kind: 'security',
        path: ptr([...at, 'securityRequirements']),
        change: 'requirements naming a split OAuth scheme now list one alternative per flow',
        target: ptr([...at, 'securityRequirements']),
      });
    }
  }
}

/** A message's fields in model order with their snake_case aliases, worked out once per schema. */
const MODEL_FIELDS = new WeakMap<ModelSchema, { name: string; fieldSchema: ModelSchema; alias: string }[]>();

function modelFields(schema: ModelSchema): { name: string; fieldSchema: ModelSchema; alias: string }[] {
  let list = MODEL_FIELDS.get(schema);
  if (list === undefined) {
    list = Object.entries(fieldsOf(schema)).map(([name, fieldSchema]) => ({
      name,
      fieldSchema: fieldSchema as ModelSchema,
      alias: snakeCase(name),
    }));
    MODEL_FIELDS.set(schema, list);
  }
  return list;
}

/**
 * Orders keys as the model declares them, renames snake_case aliases of known fields and drops
 * `capabilities.stateTransitionHistory`; unknown keys are kept after the known ones.
 */
function normalize(
  value: unknown,
  schema: ModelSchema | undefined,
  path: (string | number)[],
  changes: KindedChange[],
): unknown {
  if (!schema) return value;
  const kind = kindOf(schema);
  if (kind === 'array' && Array.isArray(value)) {
    const item = itemOf(schema);
    // One path, grown and shrunk on the way down; a change takes a copy of it.
    return value.map((v, i) => {
      path.push(i);
      const out = normalize(v, item, path, changes);
      path.pop();
      return out;
    });
  }
  if (kind === 'record' && isObject(value)) {
    const item = itemOf(schema);
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      path.push(key);
      setOwn(out, key, normalize(value[key], item, path, changes));
      path.pop();
    }
    return out;
  }
  if (kind !== 'object' || !isObject(value)) return value;
  const out: JsonObject = {};
  const used = new Set<string>();
  for (const { name, fieldSchema, alias } of modelFields(schema)) {
    if (has(value, name)) {
      path.push(name);
      setOwn(out, name, normalize(value[name], fieldSchema, path, changes));
      path.pop();
      used.add(name);
      if (alias !== name && has(value, alias)) {
        used.add(alias);
        changes.push({
          kind: 'rename',
          path: ptr([...path, alias]),
          change: `removed: duplicate of ${name}`,
          target: ptr([...path, name]),
        });
      }
    } else if (alias !== name && has(value, alias)) {
      path.push(name);
      setOwn(out, name, normalize(value[alias], fieldSchema, path, changes));
      path.pop();
      used.add(alias);
      changes.push({
        kind: 'rename',
        path: ptr([...path, alias]),
        change: `renamed to ${name} (JSON uses camelCase, spec §5.5)`,
        target: ptr([...path, name]),
      });
    }
  }
  for (const key of Object.keys(value)) {
    if (used.has(key)) continue;
    if (key === 'stateTransitionHistory' && path.length === 1 && path[0] === 'capabilities') {
      changes.push({
        kind: 'removed-field',
        path: ptr([...path, key]),
        change: 'removed: v1.0 has no stateTransitionHistory capability',
      });
      continue;
    }
    setOwn(out, key, value[key]);
  }
  return out;
}
