/**
 * Structure rules 4–18 of the catalogue: required fields, types, non-empty arrays, the shape of
 * interfaces, skills, provider, security schemes, OAuth flows, requirements, signatures and
 * extensions, camelCase keys and unknown fields.
 *
 * Field names, optionality, types and non-empty constraints come from the zod model; this file
 * only says which rule owns which part of the card and how to word the findings.
 *
 * @packageDocumentation
 */
import type { Severity } from '../../findings';
import type { CardRuleId } from '../../rules';
import {
  APIKeySecuritySchemeSchema,
  AgentCapabilitiesSchema,
  AgentCardSchema,
  AgentCardSignatureSchema,
  AgentExtensionSchema,
  AgentInterfaceSchema,
  AgentProviderSchema,
  AgentSkillSchema,
  AuthorizationCodeOAuthFlowSchema,
  ClientCredentialsOAuthFlowSchema,
  DeviceCodeOAuthFlowSchema,
  HTTPAuthSecuritySchemeSchema,
  ImplicitOAuthFlowSchema,
  MutualTlsSecuritySchemeSchema,
  OAuth2SecuritySchemeSchema,
  OAuthFlowsSchema,
  OpenIdConnectSecuritySchemeSchema,
  PasswordOAuthFlowSchema,
  SECURITY_SCHEME_KINDS,
  SecurityRequirementSchema,
  SecuritySchemeSchema,
  StringListSchema,
} from '../../model';
import { type CardShape, isObject, type JsonObject, keysOf, type RuleContext } from '../context';
import { ABSOLUTE_URI, BASE64URL, VOWEL_START } from '../patterns';
import { closest } from '../../nearest';
import { decodeJwsHeader } from './jws-header';
import {
  LEGACY_CARD_KEYS,
  describePath,
  enumValuesOf,
  fieldsOf,
  has,
  itemOf,
  json,
  own,
  preview,
  requiresNonEmpty,
  snakeCase,
  typeName,
  unwrap,
  type ModelSchema,
} from '../shape';

type Path = (string | number)[];

/** Options of the structure rules. */
export interface StructureOptions {
  /** Severity of `skills-non-empty` outside the `strict` profile. @default 'error' */
  skillsNonEmpty?: 'error' | 'warning';
}

const m = (schema: unknown) => schema as ModelSchema;

const CARD = m(AgentCardSchema);
const SKILL = m(AgentSkillSchema);
const SCHEME = m(SecuritySchemeSchema);
const FLOWS = m(OAuthFlowsSchema);
const REQUIREMENT = m(SecurityRequirementSchema);

/** Message names, for "X has no such field" hints. */
const MESSAGE_NAMES = new Map<ModelSchema, string>([
  [CARD, 'AgentCard'],
  [m(AgentInterfaceSchema), 'AgentInterface'],
  [m(AgentProviderSchema), 'AgentProvider'],
  [m(AgentCapabilitiesSchema), 'AgentCapabilities'],
  [m(AgentExtensionSchema), 'AgentExtension'],
  [SKILL, 'AgentSkill'],
  [SCHEME, 'SecurityScheme'],
  [m(APIKeySecuritySchemeSchema), 'APIKeySecurityScheme'],
  [m(HTTPAuthSecuritySchemeSchema), 'HTTPAuthSecurityScheme'],
  [m(OAuth2SecuritySchemeSchema), 'OAuth2SecurityScheme'],
  [m(OpenIdConnectSecuritySchemeSchema), 'OpenIdConnectSecurityScheme'],
  [m(MutualTlsSecuritySchemeSchema), 'MutualTlsSecurityScheme'],
  [FLOWS, 'OAuthFlows'],
  [m(AuthorizationCodeOAuthFlowSchema), 'AuthorizationCodeOAuthFlow'],
  [m(ClientCredentialsOAuthFlowSchema), 'ClientCredentialsOAuthFlow'],
  [m(DeviceCodeOAuthFlowSchema), 'DeviceCodeOAuthFlow'],
  [m(ImplicitOAuthFlowSchema), 'ImplicitOAuthFlow'],
  [m(PasswordOAuthFlowSchema), 'PasswordOAuthFlow'],
  [REQUIREMENT, 'SecurityRequirement'],
  [m(StringListSchema), 'StringList'],
  [m(AgentCardSignatureSchema), 'AgentCardSignature'],
]);

/** The rule that owns everything inside a message (types, presence, blanks). */
const MESSAGE_OWNER = new Map<ModelSchema, CardRuleId>([
  [m(AgentInterfaceSchema), 'interface-required-fields'],
  [m(AgentProviderSchema), 'provider-required-fields'],
  [SCHEME, 'security-scheme-shape'],
  [m(APIKeySecuritySchemeSchema), 'security-scheme-shape'],
  [m(HTTPAuthSecuritySchemeSchema), 'security-scheme-shape'],
  [m(OAuth2SecuritySchemeSchema), 'security-scheme-shape'],
  [m(OpenIdConnectSecuritySchemeSchema), 'security-scheme-shape'],
  [m(MutualTlsSecuritySchemeSchema), 'security-scheme-shape'],
  [FLOWS, 'oauth-flow-shape'],
  [m(AuthorizationCodeOAuthFlowSchema), 'oauth-flow-shape'],
  [m(ClientCredentialsOAuthFlowSchema), 'oauth-flow-shape'],
  [m(DeviceCodeOAuthFlowSchema), 'oauth-flow-shape'],
  [m(ImplicitOAuthFlowSchema), 'oauth-flow-shape'],
  [m(PasswordOAuthFlowSchema), 'oauth-flow-shape'],
  [REQUIREMENT, 'security-requirement-shape'],
  [m(StringListSchema), 'security-requirement-shape'],
  [m(AgentCardSignatureSchema), 'signature-format'],
  [m(AgentExtensionSchema), 'extension-uri-required'],
]);

/** Rules owning one field of a message (the field and everything inside it). */
const FIELD_OWNER = new Map<ModelSchema, Record<string, CardRuleId>>([
  [
    CARD,
    {
      provider: 'provider-required-fields',
      securitySchemes: 'security-scheme-shape',
      securityRequirements: 'security-requirement-shape',
      signatures: 'signature-format',
    },
  ],
  [
    SKILL,
    {
      id: 'skill-required-fields',
      name: 'skill-required-fields',
      description: 'skill-required-fields',
      tags: 'skill-tags-required',
      securityRequirements: 'security-requirement-shape',
    },
  ],
  [m(AgentCapabilitiesSchema), { extensions: 'extension-uri-required' }],
  [m(OAuth2SecuritySchemeSchema), { flows: 'oauth-flow-shape' }],
]);

/** Example values for hints, per message and field. */
const EXAMPLES = new Map<ModelSchema, Record<string, string>>([
  [
    CARD,
    {
      name: '"Recipe Agent"',
      description: '"Plans weekly menus from the ingredients you have."',
      supportedInterfaces:
        '[{"url": "https://agent.your-company.com/a2a/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]',
      version: '"1.0.0"',
      capabilities: '{"streaming": false}',
      defaultInputModes: '["text/plain"]',
      defaultOutputModes: '["text/plain"]',
      skills:
        '[{"id": "plan-menu", "name": "Plan a menu", "description": "Plans a weekly menu.", "tags": ["cooking"]}]',
      provider: '{"organization": "Your Company", "url": "https://your-company.com"}',
      documentationUrl: '"https://docs.your-company.com/agent"',
      iconUrl: '"https://your-company.com/icon.png"',
      securitySchemes: '{"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}',
      securityRequirements: '[{"schemes": {"bearer": {"list": []}}}]',
      signatures: '[{"protected": "<base64url header>", "signature": "<base64url signature>"}]',
      url: '"https://agent.your-company.com/a2a/v1"',
      protocolVersion: '"0.3.0"',
    },
  ],
  [
    m(AgentInterfaceSchema),
    {
      url: '"https://agent.your-company.com/a2a/v1"',
      protocolBinding: '"JSONRPC"',
      protocolVersion: '"1.0"',
      tenant: '"acme"',
    },
  ],
  [m(AgentProviderSchema), { organization: '"Your Company"', url: '"https://your-company.com"' }],
  [
    SKILL,
    {
      id: '"plan-menu"',
      name: '"Plan a menu"',
      description: '"Plans a weekly menu from the ingredients you have."',
      tags: '["cooking"]',
      examples: '["Plan dinners for next week"]',
      inputModes: '["text/plain"]',
      outputModes: '["text/plain"]',
    },
  ],
  [m(APIKeySecuritySchemeSchema), { location: '"header"', name: '"X-API-Key"' }],
  [m(HTTPAuthSecuritySchemeSchema), { scheme: '"Bearer"', bearerFormat: '"JWT"' }],
  [
    m(OAuth2SecuritySchemeSchema),
    { flows: '{"clientCredentials": {"tokenUrl": "https://auth.your-company.com/token", "scopes": {}}}' },
  ],
  [
    m(OpenIdConnectSecuritySchemeSchema),
    { openIdConnectUrl: '"https://auth.your-company.com/.well-known/openid-configuration"' },
  ],
  [
    m(AuthorizationCodeOAuthFlowSchema),
    {
      authorizationUrl: '"https://auth.your-company.com/authorize"',
      tokenUrl: '"https://auth.your-company.com/token"',
      scopes: '{"read": "Read access"}',
    },
  ],
  [
    m(ClientCredentialsOAuthFlowSchema),
    { tokenUrl: '"https://auth.your-company.com/token"', scopes: '{"read": "Read access"}' },
  ],
  [
    m(DeviceCodeOAuthFlowSchema),
    {
      deviceAuthorizationUrl: '"https://auth.your-company.com/device"',
      tokenUrl: '"https://auth.your-company.com/token"',
      scopes: '{"read": "Read access"}',
    },
  ],
  [REQUIREMENT, { schemes: '{"oauth": {"list": ["read"]}}' }],
  [m(StringListSchema), { list: '["read"]' }],
  [m(AgentCardSignatureSchema), { protected: '"<base64url JWS header>"', signature: '"<base64url signature>"' }],
  [m(AgentExtensionSchema), { uri: '"https://your-company.com/extensions/audit/v1"' }],
]);

/** "at least one …" nouns for required arrays. */
const NOUNS: Record<string, string> = {
  supportedInterfaces: 'interface',
  defaultInputModes: 'media type',
  defaultOutputModes: 'media type',
  skills: 'skill',
  tags: 'tag',
};

/** Required top-level fields per card generation (rule 4). */
function requiredTopLevel(shape: CardShape): string[] {
  if (shape === 'v0.3' || shape === 'v0.2') {
    const legacy = [
      'protocolVersion',
      'name',
      'description',
      'url',
      'version',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ];
    // ≤0.2 cards had no protocolVersion; asking for one would not help them reach v1.0.
    return shape === 'v0.2' ? legacy.filter((k) => k !== 'protocolVersion') : legacy;
  }
  return Object.entries(fieldsOf(CARD))
    .filter(([, s]) => !unwrap(s).optional)
    .map(([k]) => k);
}

const WRAPPERS: readonly string[] = SECURITY_SCHEME_KINDS;
const FLOW_KEYS = Object.keys(fieldsOf(FLOWS));
const DEPRECATED_FLOWS = new Set(['implicit', 'password']);

function article(word: string): string {
  return VOWEL_START.test(word) ? `an ${word}` : `a ${word}`;
}

function expectedText(kind: string): string {
  switch (kind) {
    case 'string':
    case 'enum':
      return 'a string';
    case 'boolean':
      return 'a boolean (true or false)';
    case 'array':
      return 'an array';
    case 'object':
    case 'record':
      return 'an object';
    default:
      return article(kind);
  }
}

function matchesKind(value: unknown, kind: string): boolean {
  switch (kind) {
    case 'string':
    case 'enum':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
    case 'record':
      return isObject(value);
    default:
      return true;
  }
}

const camelCases = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

/** The known fields of a message by their snake_case spelling (only those that differ). */
function camelCaseOf(known: readonly string[]): ReadonlyMap<string, string> {
  let map = camelCases.get(known);
  if (map === undefined) {
    const built = new Map<string, string>();
    for (const k of known) {
      const snake = snakeCase(k);
      if (snake !== k && !built.has(snake)) built.set(snake, k);
    }
    map = built;
    camelCases.set(known, map);
  }
  return map;
}

/** A v0.3 security scheme entry: a `type` discriminator (reported by the legacy rules). */
function isLegacySchemeEntry(entry: unknown): entry is JsonObject {
  return isObject(entry) && has(entry, 'type');
}

/** A v0.3 requirement `{name: [scopes]}` inside `securityRequirements` (no `schemes` key). */
function isLegacyRequirement(entry: unknown): entry is JsonObject {
  return (
    isObject(entry) && !has(entry, 'schemes') && keysOf(entry).length > 0 && Object.values(entry).every(Array.isArray)
  );
}

/** What the walker needs to know about one schema, read from the zod model once. */
interface SchemaInfo {
  /** The schema without `.optional()`: the identity used by the owner and example tables. */
  readonly inner: ModelSchema;
  readonly kind: string;
  readonly optional: boolean;
  /** {@link requiresNonEmpty} of the schema. */
  readonly nonEmpty: boolean;
  /** Item schema of an array, value schema of a record. */
  readonly item: SchemaInfo | undefined;
  /** The rule owning the items (the item message's owner), if any. */
  readonly itemOwner: CardRuleId | undefined;
  /** Fields of an object message, in declaration order. */
  readonly fields: ReadonlyMap<string, FieldInfo>;
  /** The same fields as a list, for the presence check of every message. */
  readonly fieldList: readonly FieldInfo[];
  readonly known: string[];
}

interface FieldInfo {
  readonly key: string;
  readonly info: SchemaInfo;
  /** The field's owner when the field or its message names one; else the container's owner. */
  readonly owner: CardRuleId | undefined;
}

const NO_FIELDS: ReadonlyMap<string, FieldInfo> = new Map();
const infos = new Map<ModelSchema, SchemaInfo>();

function infoOf(schema: ModelSchema): SchemaInfo {
  const cached = infos.get(schema);
  if (cached) return cached;
  const { schema: inner, optional } = unwrap(schema);
  const kind = inner._zod.def.type;
  const itemSchema = kind === 'array' || kind === 'record' ? itemOf(inner) : undefined;
  const fields = new Map<string, FieldInfo>();
  const fieldList: FieldInfo[] = [];
  const info: SchemaInfo = {
    inner,
    kind,
    optional,
    nonEmpty: requiresNonEmpty(schema),
    item: undefined,
    itemOwner: itemSchema ? MESSAGE_OWNER.get(unwrap(itemSchema).schema) : undefined,
    fields: kind === 'object' ? fields : NO_FIELDS,
    fieldList,
    known: kind === 'object' ? Object.keys(fieldsOf(inner)) : [],
  };
  // Cached before the children are read, so a self-referencing schema ends.
  infos.set(schema, info);
  if (itemSchema) (info as { item: SchemaInfo | undefined }).item = infoOf(itemSchema);
  if (kind === 'object') {
    const shape = fieldsOf(inner);
    for (const key of info.known) {
      const child = shape[key]!;
      const field: FieldInfo = {
        key,
        info: infoOf(child),
        owner: FIELD_OWNER.get(inner)?.[key] ?? MESSAGE_OWNER.get(unwrap(child).schema),
      };
      fields.set(key, field);
      fieldList.push(field);
    }
  }
  return info;
}

const CARD_SKIPPED: ReadonlySet<string> = new Set(LEGACY_CARD_KEYS);
const SKILL_SKIPPED: ReadonlySet<string> = new Set(['security']);
const NOTHING_SKIPPED: ReadonlySet<string> = new Set();
const STRING_LIST = m(StringListSchema);
const EXTENSION = m(AgentExtensionSchema);
const SIGNATURE = m(AgentCardSignatureSchema);
const API_KEY = m(APIKeySecuritySchemeSchema);

class StructureWalker {
  private readonly unknownSeverity: Severity;
  private readonly skillsSeverity: Severity;
  /** Where the walk is; grown and shrunk in place, copied by `report` when a finding is made. */
  private readonly path: Path = [];

  constructor(
    private readonly ctx: RuleContext,
    options: StructureOptions,
  ) {
    const strict = ctx.profile === 'strict';
    this.unknownSeverity = strict ? 'error' : 'warning';
    this.skillsSeverity = strict ? 'error' : (options.skillsNonEmpty ?? 'error');
  }

  run(card: JsonObject): void {
    this.requiredFields(card);
    this.object(card, infoOf(CARD), 'field-types');
  }

  /** Rule 4. */
  private requiredFields(card: JsonObject): void {
    const fields = fieldsOf(CARD);
    for (const key of requiredTopLevel(this.ctx.shape)) {
      const value = own(card, key);
      if (value !== undefined && value !== null) continue;
      const alias = snakeCase(key);
      const found = alias !== key && has(card, alias) ? `; found snake_case "${alias}"` : '';
      const noun = NOUNS[key];
      const schema = fields[key];
      const rule = noun && schema && requiresNonEmpty(schema) ? `required, at least one ${noun}` : 'required';
      this.ctx.report(
        'required-fields',
        'error',
        [key],
        `${key}: missing (${rule}${found})${value === null ? ' (null)' : ''}.`,
        found ? `Rename "${alias}" to "${key}".` : `Add "${key}": ${EXAMPLES.get(CARD)?.[key] ?? '…'}.`,
      );
    }
  }

  private example(container: ModelSchema, key: string): string | undefined {
    return EXAMPLES.get(container)?.[key];
  }

  /** Type check plus descent, for a value expected to match `info`, at the current path. */
  private value(
    value: unknown,
    info: SchemaInfo,
    owner: CardRuleId,
    container: ModelSchema | undefined,
    key: string | undefined,
  ): void {
    const kind = info.kind;
    const path = this.path;
    if (!matchesKind(value, kind)) {
      if (this.ctx.overflows(owner, 'error')) return;
      const example = container && key ? this.example(container, key) : undefined;
      const wrapHint =
        kind === 'object' && Array.isArray(value) && info.inner === STRING_LIST
          ? ` Wrap the scopes: {"list": ${json(value, 200)}}.`
          : '';
      this.ctx.report(
        owner,
        'error',
        path,
        `${describePath(path)}: expected ${expectedText(kind)}, got ${typeName(value)} (${preview(value)}).`,
        `Use ${expectedText(kind)}${example ? `, e.g. ${example}` : ''}.${wrapHint}`,
      );
      return;
    }
    if (kind === 'array') {
      const item = info.item;
      if (!item) return;
      const itemOwner = info.itemOwner ?? owner;
      const list = value as unknown[];
      // Skills that no rule here would report are passed over (see isQuietSkill).
      const quiet = item.inner === SKILL ? this.ctx.quietSkills : undefined;
      for (let i = 0; i < list.length; i++) {
        if (quiet?.has(list[i])) continue;
        path.push(i);
        this.value(list[i], item, itemOwner, undefined, undefined);
        path.pop();
      }
      if (container === SKILL && key === 'tags') this.tags(list, path);
      return;
    }
    if (kind === 'record') {
      const item = info.item;
      if (!item) return;
      const itemOwner = info.itemOwner ?? owner;
      const record = value as JsonObject;
      for (const k of keysOf(record)) {
        path.push(k);
        this.value(record[k], item, itemOwner, undefined, undefined);
        path.pop();
      }
      return;
    }
    if (kind === 'object') this.object(value as JsonObject, info, owner);
  }

  /** Walks one message: known fields, presence, blanks, empties, unknown and snake_case keys. */
  private object(obj: JsonObject, info: SchemaInfo, owner: CardRuleId): void {
    const schema = info.inner;
    const fields = info.fields;
    const path = this.path;
    const isCard = schema === CARD;
    if (schema === REQUIREMENT && isLegacyRequirement(obj)) {
      this.legacyRequirement(obj, path);
      return;
    }
    const skip = this.skippedKeys(obj, schema);
    if (skip === 'all') return;

    if (schema === SCHEME) this.schemeOneOf(obj, path);
    if (schema === FLOWS) this.flowsOneOf(obj, path);

    for (const key of keysOf(obj)) {
      const value = obj[key];
      const field = fields.get(key);
      if (field) {
        const fieldOwner = field.owner ?? owner;
        if (value === null && !field.info.optional) {
          if (!isCard) this.missing(schema, key, path, fieldOwner, true);
          continue;
        }
        path.push(key);
        this.value(value, field.info, fieldOwner, schema, key);
        path.pop();
        if (field.info.nonEmpty || (schema === EXTENSION && key === 'uri'))
          this.nonEmpty(value, schema, key, path, fieldOwner, isCard);
        continue;
      }
      if (skip.has(key)) continue;
      this.unknownKey(obj, key, value, info.known, schema, path);
    }

    if (!isCard) {
      for (const field of info.fieldList) {
        if (field.info.optional || has(obj, field.key)) continue;
        this.missing(schema, field.key, path, field.owner ?? owner, false, obj);
      }
    }

    if (schema === EXTENSION) this.extension(obj, path);
    if (schema === SIGNATURE) this.signature(obj, path);
    if (schema === API_KEY) this.apiKeyLocation(obj, path);
  }

  /** Keys the legacy rules report, so they are not also unknown fields. */
  private skippedKeys(obj: JsonObject, schema: ModelSchema): ReadonlySet<string> | 'all' {
    if (schema === CARD) return CARD_SKIPPED;
    if (schema === SKILL) return SKILL_SKIPPED;
    if (schema === SCHEME && isLegacySchemeEntry(obj)) {
      const wrappers = keysOf(obj).filter((k) => WRAPPERS.includes(k));
      return wrappers.length === 0 ? 'all' : new Set(keysOf(obj).filter((k) => !WRAPPERS.includes(k)));
    }
    return NOTHING_SKIPPED;
  }

  private missing(
    schema: ModelSchema,
    key: string,
    path: Path,
    rule: CardRuleId,
    isNull: boolean,
    obj?: JsonObject,
  ): void {
    if (this.ctx.overflows(rule, 'error')) return;
    const where = describePath([...path, key]);
    const noun = NOUNS[key];
    const fieldSchema = fieldsOf(schema)[key];
    const what = noun && fieldSchema && requiresNonEmpty(fieldSchema) ? `required, at least one ${noun}` : 'required';
    const alias = snakeCase(key);
    const found = obj && alias !== key && has(obj, alias) ? `; found snake_case "${alias}"` : '';
    const example = this.example(schema, key);
    this.ctx.report(
      rule,
      'error',
      [...path, key],
      `${where}: missing (${what}${found})${isNull ? ' (null)' : ''}.`,
      found
        ? `Rename "${alias}" to "${key}".`
        : `Add "${key}"${example ? `: ${example}` : ''} to ${describePath(path)}.`,
    );
  }

  /** Blank REQUIRED strings and empty REQUIRED arrays (the caller checked the field requires a value). */
  private nonEmpty(
    value: unknown,
    schema: ModelSchema,
    key: string,
    path: Path,
    owner: CardRuleId,
    isCard: boolean,
  ): void {
    if (typeof value === 'string') {
      if (value.trim() !== '') return;
      if (schema === EXTENSION) return; // reported with the URI check
      if (this.ctx.overflows(isCard ? 'field-types' : owner, 'error')) return;
      const where = describePath([...path, key]);
      const example = this.example(schema, key);
      this.ctx.report(
        isCard ? 'field-types' : owner,
        'error',
        [...path, key],
        `${where}: blank (required, must be set) (${preview(value)}).`,
        `Set ${key} to a non-blank value${example ? `, e.g. ${example}` : ''}.`,
      );
    } else if (Array.isArray(value) && value.length === 0) {
      const where = describePath([...path, key]);
      const example = this.example(schema, key);
      const noun = NOUNS[key] ?? 'entry';
      let rule = owner;
      let severity: Severity = 'error';
      if (isCard) {
        rule = key === 'skills' ? 'skills-non-empty' : 'required-arrays-non-empty';
        if (key === 'skills') severity = this.skillsSeverity;
      }
      if (this.ctx.overflows(rule, severity)) return;
      this.ctx.report(
        rule,
        severity,
        [...path, key],
        `${where}: empty (required, at least one ${noun}).`,
        `Add at least one ${noun}${example ? `, e.g. "${key}": ${example}` : ''}.`,
      );
    }
  }

  /** Rules 17 and 18. */
  private unknownKey(
    obj: JsonObject,
    key: string,
    value: unknown,
    known: string[],
    schema: ModelSchema,
    path: Path,
  ): void {
    const camel = camelCaseOf(known).get(key);
    if (camel) {
      if (this.ctx.overflows('json-camelcase', this.unknownSeverity)) return;
      const where = describePath([...path, key]);
      const both = has(obj, camel);
      this.ctx.report(
        'json-camelcase',
        this.unknownSeverity,
        [...path, key],
        `${where}: snake_case key; A2A JSON uses camelCase (spec §5.5)${both ? `, and "${camel}" is also present` : ''}.`,
        both ? `Remove "${key}"; keep "${camel}".` : `Rename "${key}" to "${camel}".`,
      );
      return;
    }
    // Past the bound, no message (and no "did you mean" search) is built.
    if (this.ctx.overflows('unknown-field', this.unknownSeverity)) return;
    const where = describePath([...path, key]);
    const name = MESSAGE_NAMES.get(schema) ?? 'this message';
    if (schema === m(AgentCapabilitiesSchema) && key === 'stateTransitionHistory') {
      this.ctx.report(
        'unknown-field',
        this.unknownSeverity,
        [...path, key],
        `${where}: removed in A2A v1.0 (${preview(value)}).`,
        'Delete it: v1.0 has no stateTransitionHistory capability (removed before v1.0.0, A2A #1396).',
      );
      return;
    }
    const guess = closest(key, known);
    this.ctx.report(
      'unknown-field',
      this.unknownSeverity,
      [...path, key],
      `${where}: unknown field (${preview(value)}).`,
      guess
        ? `Did you mean "${guess}"? ${name} has no field "${key}".`
        : `Remove it: ${name} has no field "${key}" (known: ${known.join(', ')}). Consumers ignore it and strict schemas reject it.`,
    );
  }

  /** Rule 14: a v0.3 requirement `{name: [scopes]}` inside `securityRequirements`. */
  private legacyRequirement(obj: JsonObject, path: Path): void {
    const schemes: JsonObject = {};
    for (const name of keysOf(obj)) {
      const list = obj[name];
      Object.defineProperty(schemes, name, { value: { list }, enumerable: true, writable: true, configurable: true });
    }
    this.ctx.report(
      'security-requirement-shape',
      'error',
      path,
      `${describePath(path)}: v0.3 requirement shape {name: [scopes]} (${preview(json(obj, 200))}).`,
      `Use ${json({ schemes }, 1000)}.`,
    );
  }

  /** Rule 10: every tag is a non-blank string. */
  private tags(tags: unknown[], path: Path): void {
    tags.forEach((tag, i) => {
      if (typeof tag === 'string' && tag.trim() === '') {
        if (this.ctx.overflows('skill-tags-required', 'error')) return;
        this.ctx.report(
          'skill-tags-required',
          'error',
          [...path, i],
          `${describePath([...path, i])}: blank tag (${preview(tag)}).`,
          'Use a keyword such as "billing", or remove the entry.',
        );
      }
    });
  }

  /** Rule 12: exactly one wrapper. */
  private schemeOneOf(obj: JsonObject, path: Path): void {
    if (isLegacySchemeEntry(obj) && !keysOf(obj).some((k) => WRAPPERS.includes(k))) return;
    const present = keysOf(obj).filter((k) => WRAPPERS.includes(k));
    if (present.length === 1) return;
    if (this.ctx.overflows('security-scheme-shape', 'error')) return;
    const where = describePath(path);
    if (present.length === 0) {
      this.ctx.report(
        'security-scheme-shape',
        'error',
        path,
        `${where}: no security scheme (${preview(obj)}).`,
        `Use exactly one of ${WRAPPERS.join(', ')}, e.g. {"httpAuthSecurityScheme": {"scheme": "Bearer"}}.`,
      );
    } else {
      this.ctx.report(
        'security-scheme-shape',
        'error',
        path,
        `${where}: ${present.length} schemes in one entry (${present.join(', ')}).`,
        `Keep one wrapper per entry; declare ${present.slice(1).join(', ')} under a name of its own in securitySchemes.`,
      );
    }
  }

  /** Rule 12: apiKey location. */
  private apiKeyLocation(obj: JsonObject, path: Path): void {
    const location = own(obj, 'location');
    const allowed = enumValuesOf(fieldsOf(m(APIKeySecuritySchemeSchema)).location!);
    if (typeof location === 'string' && !allowed.includes(location)) {
      const fix = allowed.find((a) => a === location.trim().toLowerCase());
      this.ctx.report(
        'security-scheme-shape',
        'error',
        [...path, 'location'],
        `${describePath([...path, 'location'])}: must be ${allowed.join(', ')} (${preview(location)}).`,
        fix ? `Use "${fix}".` : `Use one of ${allowed.map((a) => `"${a}"`).join(', ')}.`,
      );
    }
  }

  /** Rule 13: exactly one flow; deprecated flows warn. */
  private flowsOneOf(obj: JsonObject, path: Path): void {
    const present = keysOf(obj).filter((k) => FLOW_KEYS.includes(k));
    const where = describePath(path);
    if (present.length === 0) {
      this.ctx.report(
        'oauth-flow-shape',
        'error',
        path,
        `${where}: no OAuth flow (${preview(obj)}).`,
        'Use exactly one of authorizationCode, clientCredentials or deviceCode, e.g. {"clientCredentials": {"tokenUrl": "https://auth.your-company.com/token", "scopes": {}}}.',
      );
    } else if (present.length > 1) {
      this.ctx.report(
        'oauth-flow-shape',
        'error',
        path,
        `${where}: ${present.length} flows in one scheme (${present.join(', ')}).`,
        `A2A v1.0 allows exactly one flow per scheme: keep ${present[0]} here and declare ${present.slice(1).join(', ')} as separate securitySchemes entries.`,
      );
    }
    for (const flow of present) {
      if (!DEPRECATED_FLOWS.has(flow)) continue;
      this.ctx.report(
        'oauth-flow-shape',
        'warning',
        [...path, flow],
        `${describePath([...path, flow])}: deprecated OAuth flow.`,
        flow === 'implicit'
          ? 'Use authorizationCode with "pkceRequired": true instead.'
          : 'Use authorizationCode with PKCE, or deviceCode, instead.',
      );
    }
  }

  /** Rule 15 beyond presence: base64url and the protected header's content. */
  private signature(obj: JsonObject, path: Path): void {
    for (const key of ['protected', 'signature'] as const) {
      const v = own(obj, key);
      if (typeof v === 'string' && v.trim() !== '' && !BASE64URL.test(v)) {
        this.ctx.report(
          'signature-format',
          'error',
          [...path, key],
          `${describePath([...path, key])}: not base64url (${preview(v, 40)}).`,
          'Use unpadded base64url (RFC 7515 §2): letters, digits, "-" and "_" only.',
        );
      }
    }
    const header = own(obj, 'protected');
    if (typeof header !== 'string' || !BASE64URL.test(header)) return;
    const where = describePath([...path, 'protected']);
    const decoded = decodeJwsHeader(header);
    if (!isObject(decoded)) {
      this.ctx.report(
        'signature-format',
        'error',
        [...path, 'protected'],
        `${where}: does not decode to a JSON object (${preview(header, 40)}).`,
        'Encode the JWS protected header, e.g. {"alg": "ES256", "typ": "JOSE", "kid": "key-1"}, as base64url.',
      );
      return;
    }
    for (const member of ['alg', 'kid'] as const) {
      const v = own(decoded, member);
      if (typeof v !== 'string' || v.trim() === '') {
        this.ctx.report(
          'signature-format',
          'error',
          [...path, 'protected'],
          `${where}: header has no "${member}" (${preview(decoded)}).`,
          member === 'alg'
            ? 'Add "alg", e.g. "ES256", to the protected header and sign again (spec §8.4.2).'
            : 'Add "kid" naming the signing key to the protected header and sign again (spec §8.4.2).',
        );
      }
    }
    const typ = own(decoded, 'typ');
    if (typ !== 'JOSE') {
      this.ctx.report(
        'signature-format',
        'warning',
        [...path, 'protected'],
        `${where}: header "typ" should be "JOSE" (${preview(typ)}).`,
        'Set "typ": "JOSE" in the protected header (spec §8.4.2); the JS SDK rejects signatures without typ.',
      );
    }
    if (has(decoded, 'jku')) {
      const jku = own(decoded, 'jku');
      if (typeof jku !== 'string' || !isHttpsUrl(jku)) {
        this.ctx.report(
          'signature-format',
          'error',
          [...path, 'protected'],
          `${where}: header "jku" is not an https URL (${preview(jku)}).`,
          'Publish the JWKS over https and put that URL in "jku" (spec §8.4.3), or leave jku out.',
        );
      }
    }
  }

  /** Rule 16 beyond types: a non-blank absolute URI. */
  private extension(obj: JsonObject, path: Path): void {
    const uri = own(obj, 'uri');
    if (uri !== undefined && typeof uri !== 'string') return; // type finding already made
    const where = describePath([...path, 'uri']);
    if (uri === undefined || uri.trim() === '') {
      this.ctx.report(
        'extension-uri-required',
        'error',
        [...path, 'uri'],
        `${where}: ${uri === undefined ? 'missing' : 'blank'} (required, the extension's URI)${uri === undefined ? '' : ` (${preview(uri)})`}.`,
        'Add "uri" with the absolute URI that identifies the extension, e.g. "https://your-company.com/extensions/audit/v1".',
      );
    } else if (!isAbsoluteUri(uri)) {
      this.ctx.report(
        'extension-uri-required',
        'error',
        [...path, 'uri'],
        `${where}: not an absolute URI (${preview(uri)}).`,
        'Use an absolute URI with a scheme, e.g. "https://your-company.com/extensions/audit/v1" (spec §4.6).',
      );
    }
  }
}

function isAbsoluteUri(value: string): boolean {
  if (!ABSOLUTE_URI.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Runs rules 4–18 on a card (already copied into plain JSON) and reports every problem found.
 *
 * @param card - the card, as plain JSON.
 * @param ctx - profile, detected shape and the finding sink.
 * @param options - `skillsNonEmpty` severity.
 */
export function checkStructure(card: JsonObject, ctx: RuleContext, options: StructureOptions = {}): void {
  const walker = new StructureWalker(ctx, options);
  walker.run(card);
}
