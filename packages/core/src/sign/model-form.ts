import { AgentCardError } from '../errors';
import type { AgentCard } from '../model';
import { jcs } from './jcs';

/*
 * The card as `@a2a-js/sdk` 1.3.0 reads it before it signs or verifies: a ProtoJSON round trip
 * through the v1.0 message descriptors (fields outside the model dropped, snake_case names read
 * as their camelCase twin, implicit-presence scalars at their default dropped, a oneof cut to its
 * first member), then every empty value removed and RFC 8785 applied.
 *
 * A verifier must never accept a signature over this form: what the round trip drops or renames
 * is content a plain JSON reader still sees. It is kept for two jobs only: telling a verifier's
 * caller which members a signature made this way leaves uncovered, and finding the members a
 * card carries under both its JSON and its proto name (the descriptors know both names).
 */

type Json = unknown;

type Field =
  | { kind: 'string' }
  | { kind: 'optionalString' }
  | { kind: 'bool' }
  | { kind: 'optionalBool' }
  | { kind: 'strings' }
  | { kind: 'message'; of: () => Message }
  | { kind: 'messages'; of: () => Message }
  | { kind: 'messageMap'; of: () => Message }
  | { kind: 'stringMap' }
  | { kind: 'struct' };

/** A field: its JSON name, its proto (snake_case) name when it differs, and its shape. */
type FieldSpec = readonly [json: string, proto: string | undefined, field: Field];

interface Message {
  fields?: readonly FieldSpec[];
  /** A message made of one oneof: members in proto order, the first one set wins. */
  oneof?: readonly (readonly [json: string, proto: string | undefined, of: () => Message])[];
}

const str: Field = { kind: 'string' };
const optStr: Field = { kind: 'optionalString' };
const bool: Field = { kind: 'bool' };
const optBool: Field = { kind: 'optionalBool' };
const strs: Field = { kind: 'strings' };
const scopes: FieldSpec = ['scopes', undefined, { kind: 'stringMap' }];

const AgentInterface: Message = {
  fields: [
    ['url', undefined, str],
    ['protocolBinding', 'protocol_binding', str],
    ['tenant', undefined, str],
    ['protocolVersion', 'protocol_version', str],
  ],
};
const AgentProvider: Message = {
  fields: [
    ['url', undefined, str],
    ['organization', undefined, str],
  ],
};
const AgentExtension: Message = {
  fields: [
    ['uri', undefined, str],
    ['description', undefined, str],
    ['required', undefined, bool],
    ['params', undefined, { kind: 'struct' }],
  ],
};
const AgentCapabilities: Message = {
  fields: [
    ['streaming', undefined, optBool],
    ['pushNotifications', 'push_notifications', optBool],
    ['extensions', undefined, { kind: 'messages', of: () => AgentExtension }],
    ['extendedAgentCard', 'extended_agent_card', optBool],
  ],
};
const AuthorizationCodeOAuthFlow: Message = {
  fields: [
    ['authorizationUrl', 'authorization_url', str],
    ['tokenUrl', 'token_url', str],
    ['refreshUrl', 'refresh_url', str],
    scopes,
    ['pkceRequired', 'pkce_required', bool],
  ],
};
const ClientCredentialsOAuthFlow: Message = {
  fields: [['tokenUrl', 'token_url', str], ['refreshUrl', 'refresh_url', str], scopes],
};
const ImplicitOAuthFlow: Message = {
  fields: [['authorizationUrl', 'authorization_url', str], ['refreshUrl', 'refresh_url', str], scopes],
};
const PasswordOAuthFlow: Message = ClientCredentialsOAuthFlow;
const DeviceCodeOAuthFlow: Message = {
  fields: [
    ['deviceAuthorizationUrl', 'device_authorization_url', str],
    ['tokenUrl', 'token_url', str],
    ['refreshUrl', 'refresh_url', str],
    scopes,
  ],
};
// The SDK's generated code tests the flows in this order, not in proto field order.
const OAuthFlows: Message = {
  oneof: [
    ['authorizationCode', 'authorization_code', () => AuthorizationCodeOAuthFlow],
    ['clientCredentials', 'client_credentials', () => ClientCredentialsOAuthFlow],
    ['implicit', undefined, () => ImplicitOAuthFlow],
    ['password', undefined, () => PasswordOAuthFlow],
    ['deviceCode', 'device_code', () => DeviceCodeOAuthFlow],
  ],
};
const APIKeySecurityScheme: Message = {
  fields: [
    ['description', undefined, str],
    ['location', undefined, str],
    ['name', undefined, str],
  ],
};
const HTTPAuthSecurityScheme: Message = {
  fields: [
    ['description', undefined, str],
    ['scheme', undefined, str],
    ['bearerFormat', 'bearer_format', str],
  ],
};
const OAuth2SecurityScheme: Message = {
  fields: [
    ['description', undefined, str],
    ['flows', undefined, { kind: 'message', of: () => OAuthFlows }],
    ['oauth2MetadataUrl', 'oauth2_metadata_url', str],
  ],
};
const OpenIdConnectSecurityScheme: Message = {
  fields: [
    ['description', undefined, str],
    ['openIdConnectUrl', 'open_id_connect_url', str],
  ],
};
const MutualTlsSecurityScheme: Message = { fields: [['description', undefined, str]] };
const SecurityScheme: Message = {
  oneof: [
    ['apiKeySecurityScheme', 'api_key_security_scheme', () => APIKeySecurityScheme],
    ['httpAuthSecurityScheme', 'http_auth_security_scheme', () => HTTPAuthSecurityScheme],
    ['oauth2SecurityScheme', 'oauth2_security_scheme', () => OAuth2SecurityScheme],
    ['openIdConnectSecurityScheme', 'open_id_connect_security_scheme', () => OpenIdConnectSecurityScheme],
    ['mtlsSecurityScheme', 'mtls_security_scheme', () => MutualTlsSecurityScheme],
  ],
};
const StringList: Message = { fields: [['list', undefined, strs]] };
const SecurityRequirement: Message = {
  fields: [['schemes', undefined, { kind: 'messageMap', of: () => StringList }]],
};
const AgentSkill: Message = {
  fields: [
    ['id', undefined, str],
    ['name', undefined, str],
    ['description', undefined, str],
    ['tags', undefined, strs],
    ['examples', undefined, strs],
    ['inputModes', 'input_modes', strs],
    ['outputModes', 'output_modes', strs],
    ['securityRequirements', 'security_requirements', { kind: 'messages', of: () => SecurityRequirement }],
  ],
};
// `signatures` is absent on purpose: it is never part of the payload.
const AgentCardMessage: Message = {
  fields: [
    ['name', undefined, str],
    ['description', undefined, str],
    ['supportedInterfaces', 'supported_interfaces', { kind: 'messages', of: () => AgentInterface }],
    ['provider', undefined, { kind: 'message', of: () => AgentProvider }],
    ['version', undefined, str],
    ['documentationUrl', 'documentation_url', optStr],
    ['capabilities', undefined, { kind: 'message', of: () => AgentCapabilities }],
    ['securitySchemes', 'security_schemes', { kind: 'messageMap', of: () => SecurityScheme }],
    ['securityRequirements', 'security_requirements', { kind: 'messages', of: () => SecurityRequirement }],
    ['defaultInputModes', 'default_input_modes', strs],
    ['defaultOutputModes', 'default_output_modes', strs],
    ['skills', undefined, { kind: 'messages', of: () => AgentSkill }],
    ['iconUrl', 'icon_url', optStr],
  ],
};

const isSet = (value: Json): boolean => value !== null && value !== undefined;
const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null;
// A `__proto__` key never survives a plain-object rebuild in the SDK (the assignment sets the
// prototype instead of a property), so it never reaches the signed bytes there either.
const FORBIDDEN_KEY = '__proto__';

function fail(path: string, what: string): never {
  throw new AgentCardError(
    'ERR_AGENT_CARD_SIGNATURE',
    `the v1.0 model reading: ${path || '/'} ${what}. Make the card plain JSON that matches the A2A v1.0 model.`,
  );
}

function child(path: string, key: string | number): string {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Reads `json` or, when it is not set, its snake_case twin, as ProtoJSON parsers do. */
function read(object: Record<string, Json>, json: string, proto: string | undefined, test: (v: Json) => boolean) {
  if (test(object[json])) return { value: object[json], key: json };
  if (proto !== undefined && test(object[proto])) return { value: object[proto], key: proto };
  return undefined;
}

/** A JSON pointer, written only when a message needs it. */
type Path = () => string;
const under =
  (path: Path, key: string | number): Path =>
  () =>
    child(path(), key);

function normalizeMessage(message: Message, value: Json, path: Path): Record<string, Json> {
  if (value === null || value === undefined) fail(path(), `is ${String(value)}, not an object`);
  const object = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  if (message.oneof) {
    for (const [json, proto, of] of message.oneof) {
      const found = read(object, json, proto, isSet);
      if (found) {
        out[json] = normalizeMessage(of(), found.value, under(path, found.key));
        break;
      }
    }
    return out;
  }
  for (const [json, proto, field] of message.fields ?? []) {
    switch (field.kind) {
      case 'string':
      case 'optionalString': {
        const found = read(object, json, proto, isSet);
        const text = found ? String(found.value) : undefined;
        if (text !== undefined && (text !== '' || field.kind === 'optionalString')) out[json] = text;
        break;
      }
      case 'bool':
      case 'optionalBool': {
        const found = read(object, json, proto, isSet);
        const flag = found ? Boolean(found.value) : undefined;
        if (flag !== undefined && (flag || field.kind === 'optionalBool')) out[json] = flag;
        break;
      }
      case 'strings': {
        const found = read(object, json, proto, Array.isArray);
        const list = found ? (found.value as Json[]).map((item) => String(item)) : [];
        if (list.length > 0) out[json] = list;
        break;
      }
      case 'message': {
        const found = read(object, json, proto, isSet);
        if (found) out[json] = normalizeMessage(field.of(), found.value, under(path, found.key));
        break;
      }
      case 'messages': {
        const found = read(object, json, proto, Array.isArray);
        const list = found
          ? (found.value as Json[]).map((item, i) =>
              normalizeMessage(field.of(), item, under(under(path, found.key), i)),
            )
          : [];
        if (list.length > 0) out[json] = list;
        break;
      }
      case 'messageMap':
      case 'stringMap': {
        const found = read(object, json, proto, isObject);
        if (!found) break;
        const map: Record<string, Json> = {};
        for (const [key, item] of Object.entries(found.value as Record<string, Json>)) {
          const normalized =
            field.kind === 'stringMap'
              ? String(item)
              : normalizeMessage(field.of(), item, under(under(path, found.key), key));
          if (key !== FORBIDDEN_KEY) map[key] = normalized;
        }
        if (Object.keys(map).length > 0) out[json] = map;
        break;
      }
      case 'struct': {
        const found = read(object, json, proto, isObject);
        if (found) out[json] = found.value;
        break;
      }
    }
  }
  return out;
}

/** Drops `""`, `null`, `undefined`, `[]` and `{}` recursively; `undefined` means "dropped". */
function dropEmpty(value: Json): Json {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const list = value.map(dropEmpty).filter((item) => item !== undefined);
    return list.length > 0 ? list : undefined;
  }
  if (typeof value === 'object') {
    if (value instanceof Date) return value.toISOString();
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleaned = dropEmpty(item);
      if (cleaned !== undefined && key !== FORBIDDEN_KEY) out[key] = cleaned;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}

/**
 * The card through the v1.0 model, without `signatures`, empty values removed, RFC 8785:
 * `canonicalizeAgentCard` of `@a2a-js/sdk` 1.3.0 byte for byte. Diagnostics only (see above).
 * @throws {AgentCardError} `ERR_AGENT_CARD_SIGNATURE` when the card does not fit the model's shape.
 */
export function modelCanonicalForm(card: AgentCard | Omit<AgentCard, 'signatures'>): string {
  if (!isObject(card) || Array.isArray(card))
    fail('', `is ${Array.isArray(card) ? 'an array' : typeof card}, not an object`);
  const cleaned = dropEmpty(normalizeMessage(AgentCardMessage, card, () => ''));
  if (cleaned === undefined) return '{}';
  try {
    return jcs(cleaned);
  } catch (error) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `the v1.0 model reading: the card cannot be serialized with RFC 8785 (${(error as Error).message}). Remove lone UTF-16 surrogates, NaN and Infinity from the card.`,
      { cause: error },
    );
  }
}

const hasOwn = (object: Record<string, Json>, key: string): boolean => Object.hasOwn(object, key);

type Member = readonly [json: string, proto: string | undefined, field: Field];
const MEMBERS = new WeakMap<Message, readonly Member[]>();

/** A message's fields, or the members of its oneof as message fields; built once per message. */
function membersOf(message: Message): readonly Member[] {
  if (message.fields) return message.fields;
  let members = MEMBERS.get(message);
  if (members === undefined) {
    members = (message.oneof ?? []).map(([json, proto, of]) => [json, proto, { kind: 'message', of }] as const);
    MEMBERS.set(message, members);
  }
  return members;
}

/**
 * Every field the card carries under both its JSON name and its proto name
 * (`defaultInputModes` and `default_input_modes`), as pairs of JSON pointers. A reader may take
 * either spelling, so no signature can say which one it vouches for. The walk follows the v1.0
 * descriptors, so its depth is the model's, whatever the card's.
 */
export function dualNamePointers(card: unknown): (readonly [string, string])[] {
  const found: (readonly [string, string])[] = [];
  // The path of the value being visited, as keys; a pointer is written only for what is found.
  const path: (string | number)[] = [];
  const pointer = (key: string) => [...path, key].reduce<string>((at, step) => child(at, step), '');
  const visitMember = (field: Field, key: string, item: Json): void => {
    path.push(key);
    if (field.kind === 'message') visit(field.of(), item);
    else if (field.kind === 'messages' && Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        path.push(i);
        visit(field.of(), item[i]);
        path.pop();
      }
    } else if (field.kind === 'messageMap' && isObject(item) && !Array.isArray(item)) {
      for (const name of Object.keys(item)) {
        path.push(name);
        visit(field.of(), item[name]);
        path.pop();
      }
    }
    path.pop();
  };
  const visit = (message: Message, value: Json): void => {
    if (!isObject(value) || Array.isArray(value)) return;
    for (const [json, proto, field] of membersOf(message)) {
      const hasJson = hasOwn(value, json);
      const hasProto = proto !== undefined && hasOwn(value, proto);
      if (hasJson && hasProto) found.push([pointer(json), pointer(proto)]);
      // Only the fields that hold messages lead further; a scalar is looked at only for its twin.
      if (field.kind !== 'message' && field.kind !== 'messages' && field.kind !== 'messageMap') continue;
      if (hasJson) visitMember(field, json, value[json]);
      if (hasProto) visitMember(field, proto, value[proto]);
    }
  };
  visit(AgentCardMessage, card);
  return found;
}

/**
 * The JSON pointers of `received` that `covered` does not hold with the same value, at most
 * `limit` of them: what a reader of `received` sees that a signature over `covered` does not
 * vouch for. Iterative, so a deep card cannot exhaust the stack.
 */
export function uncoveredPointers(
  received: Json,
  covered: Json,
  limit = 20,
  order: (keys: string[]) => string[] = (keys) => keys,
): string[] {
  const out: string[] = [];
  const stack: [Json, Json, string][] = [[received, covered, '']];
  while (stack.length > 0 && out.length < limit) {
    const [a, b, path] = stack.pop() as [Json, Json, string];
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) out.push(path || '/');
      else for (let i = a.length - 1; i >= 0; i--) stack.push([a[i], b[i], child(path, i)]);
    } else if (isObject(a)) {
      if (!isObject(b) || Array.isArray(b)) out.push(path || '/');
      else {
        const keys = order(Object.keys(a)).reverse();
        for (const key of keys) {
          if (hasOwn(b, key)) stack.push([a[key], b[key], child(path, key)]);
          else out.push(child(path, key));
        }
      }
    } else if (a !== b) out.push(path || '/');
  }
  return out.slice(0, limit);
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;
const isArrayIndex = (key: string): boolean => ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * Keys in the order `Object.keys` gives them on `JSON.parse` of the RFC 8785 text of their
 * object: array indices ascending, then the others sorted by UTF-16 code units. With it,
 * {@link uncoveredPointers} walks values in the order it would walk their canonical text, parsed.
 */
export function canonicalKeyOrder(keys: string[]): string[] {
  const indices = keys.filter(isArrayIndex).sort((x, y) => Number(x) - Number(y));
  if (indices.length === 0) return keys.sort();
  return [...indices, ...keys.filter((key) => !isArrayIndex(key)).sort()];
}
