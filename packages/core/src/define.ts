import type { z } from 'zod';
import { AgentCardError, formatErrorFindings, formatFindings } from './errors';
import type { Finding, ValidationProfile } from './findings';
import {
  AgentCardSchema,
  type AgentCapabilities,
  type AgentCard,
  type AgentCardSignature,
  type AgentInterface,
  type AgentProvider,
  type AgentSkill,
  type ProtocolBinding,
  type SecurityRequirement,
  type SecurityScheme,
} from './model';
import {
  applyRuleOverrides,
  type CardRuleId,
  resolveRuleOverrides,
  type RuleOverrides,
  type RuleTurnedOff,
} from './rules';
import { deepFreeze } from './util';
import { recordValidation } from './validate/recorded';
import { resolveProfile, sortFindingsInKeyOrder, validateAgentCardFindings } from './validate/validate';

/** The A2A protocol version the shorthand interfaces declare when none is given. */
const DEFAULT_PROTOCOL_VERSION = '1.0';
/** The media type that every A2A client understands. */
const DEFAULT_MODES: readonly string[] = ['text/plain'];

/** One entry of {@link AgentCardDefinition.supportedInterfaces}: `protocolVersion` may be left out. */
export type AgentInterfaceDefinition = Omit<AgentInterface, 'protocolVersion'> & {
  /**
   * The A2A protocol version served at this interface, `Major.Minor`.
   * @default "1.0"
   */
  protocolVersion?: string;
};

/**
 * The friendly input of {@link defineAgentCard}: an {@link AgentCard} where everything with an
 * obvious default may be left out, plus a shorthand for a card with a single interface.
 *
 * A complete v1.0 card is also a valid definition and comes out unchanged (keys in proto order).
 *
 * @example
 * const definition: AgentCardDefinition = {
 *   name: 'Acme Support',
 *   description: 'Answers questions about Acme orders, invoices and returns.',
 *   version: '2.3.0',
 *   url: 'https://support.acme-corp.io/a2a/v1',
 *   binding: 'JSONRPC',
 *   skills: [{ id: 'order-status', name: 'Order status', description: 'Looks up an order.', tags: ['orders'] }],
 * };
 */
export interface AgentCardDefinition {
  /** A human-readable name for the agent. */
  name: string;
  /** What the agent does, for people and for other agents choosing it. */
  description: string;
  /** The agent's own version (not the protocol's), e.g. `"1.4.0"`. */
  version: string;
  /**
   * Shorthand for a single interface: its URL. Needs {@link AgentCardDefinition.binding}; use
   * {@link AgentCardDefinition.supportedInterfaces} instead for several interfaces.
   */
  url?: string;
  /**
   * Shorthand for a single interface: `JSONRPC`, `HTTP+JSON`, `GRPC` or a custom binding URI.
   * Required with {@link AgentCardDefinition.url}; there is no default because a wrong binding
   * makes every client call fail.
   */
  binding?: ProtocolBinding;
  /**
   * Shorthand for a single interface: the A2A protocol version served at `url`.
   * @default "1.0"
   */
  protocolVersion?: string;
  /** Shorthand for a single interface: the tenant to send in requests. */
  tenant?: string;
  /** Every interface, the preferred one first (§8.3.1). Use this or the `url` shorthand. */
  supportedInterfaces?: AgentInterfaceDefinition[];
  /** The organisation that runs the agent. */
  provider?: AgentProvider;
  /** A URL with more documentation. */
  documentationUrl?: string;
  /** A URL to an icon for the agent. */
  iconUrl?: string;
  /**
   * Optional protocol features.
   * @default {}
   */
  capabilities?: AgentCapabilities;
  /** Named security schemes, referenced by `securityRequirements`. */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Security needed to contact the agent. */
  securityRequirements?: SecurityRequirement[];
  /**
   * Input media types supported across all skills.
   * @default ["text/plain"]
   */
  defaultInputModes?: string[];
  /**
   * Output media types supported across all skills.
   * @default ["text/plain"]
   */
  defaultOutputModes?: string[];
  /** What the agent can do. Each skill needs `tags`: they are never made up for you. */
  skills: AgentSkill[];
  /** JWS signatures; usually added later by `signAgentCard`. */
  signatures?: AgentCardSignature[];
}

/** Where {@link defineAgentCard} reports warnings. `console` fits. */
export interface AgentCardLogger {
  warn(message: string): void;
}

/** Options of {@link defineAgentCard} and {@link defineAgentCardWithFindings}. */
export interface DefineAgentCardOptions {
  /**
   * The validation profile.
   * @default the default of `validateAgentCard` (`production` when `NODE_ENV=production`)
   */
  profile?: ValidationProfile;
  /**
   * Receives one line per warning (`defineAgentCard` only). Without a logger, warnings are not
   * printed; call {@link defineAgentCardWithFindings} to get them as data.
   */
  logger?: AgentCardLogger;
  /**
   * Per-rule settings by rule id, as {@link ValidationOptions.rules} takes them: `'off'` leaves a
   * rule's findings out, a severity replaces theirs (an error set to `'warning'` no longer throws).
   * An unknown id or setting throws `ERR_AGENT_CARD_OPTIONS` naming the nearest id.
   * @example { 'metadata-quality': 'off' }
   */
  rules?: RuleOverrides;
}

/** What {@link defineAgentCardWithFindings} returns. */
export interface DefinedAgentCard {
  /** The validated, deep-frozen card. */
  card: AgentCard;
  /** The warnings and notes about the card (never errors: those are thrown). */
  findings: readonly Finding[];
  /** The rules `rules` turned off, with the findings each would have listed; only when some are. */
  turnedOff?: readonly RuleTurnedOff[];
}

/**
 * Builds a validated A2A v1.0 Agent Card from a friendly definition.
 *
 * Fills the defaults (`protocolVersion: "1.0"` for the `url` + `binding` shorthand,
 * `defaultInputModes`/`defaultOutputModes: ["text/plain"]`, `capabilities: {}`), validates the
 * result with every rule of `validateAgentCard`, and returns the card deep-frozen with its keys
 * in proto field order. The same definition always gives the same card.
 *
 * Errors throw one {@link AgentCardError} with code `ERR_AGENT_CARD_INVALID`: its message lists
 * every error finding and `error.findings` holds all findings, errors first. Warnings are not
 * thrown: pass `logger` to print them, or use {@link defineAgentCardWithFindings} to get them.
 *
 * @param input - The card definition. Skills must carry `tags`.
 * @param options - Validation profile and an optional logger for warnings.
 * @returns The frozen card.
 * @throws AgentCardError `ERR_AGENT_CARD_INVALID` when the card has errors.
 * @example
 * export const card = defineAgentCard({
 *   name: 'Acme Support',
 *   description: 'Answers questions about Acme orders, invoices and returns.',
 *   version: '2.3.0',
 *   url: 'https://support.acme-corp.io/a2a/v1',
 *   binding: 'JSONRPC',
 *   provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
 *   skills: [{ id: 'order-status', name: 'Order status', description: 'Looks up an order.', tags: ['orders'] }],
 * }, { profile: 'production', logger: console });
 * @see https://a2a-protocol.org/latest/specification/#55-agentcard-object-structure
 */
export function defineAgentCard(input: AgentCardDefinition, options: DefineAgentCardOptions = {}): AgentCard {
  const { card, findings } = defineAgentCardWithFindings(input, options);
  if (options.logger) {
    for (const finding of findings) {
      if (finding.severity === 'warning')
        options.logger.warn(`agent-card: ${formatFindings([finding]).trim().slice(2)}`);
    }
  }
  return card;
}

/**
 * Like {@link defineAgentCard}, but also returns the warnings and notes about the card, so a
 * caller can show or test them. Never logs.
 *
 * @returns `{ card, findings }`, where `findings` holds warnings and infos only.
 * @throws AgentCardError `ERR_AGENT_CARD_INVALID` when the card has errors.
 * @example
 * const { card, findings } = defineAgentCardWithFindings(definition, { profile: 'production' });
 * for (const f of findings) if (f.severity === 'warning') console.warn(f.rule, f.path, f.message);
 */
export function defineAgentCardWithFindings(
  input: AgentCardDefinition,
  options: Omit<DefineAgentCardOptions, 'logger'> = {},
): DefinedAgentCard {
  if (!isRecord(input)) {
    const finding: Finding = {
      rule: 'card-root-object' satisfies CardRuleId,
      severity: 'error',
      path: '',
      message: `card: the definition is not an object (${describe(input)}).`,
      hint: 'Pass an object with name, description, version, url, binding and skills.',
    };
    throw invalid([finding]);
  }

  const overrides = resolveRuleOverrides(options.rules, 'options.rules');
  const { raw, own, shorthand } = build(input);
  const profile = resolveProfile(options.profile);
  // Validate the card in the form it is returned (keys in proto order), so the findings are the
  // card's own and the responder can reuse them. A definition that cannot even be copied (a cycle,
  // a throwing getter) is validated as it is, which reports why.
  const written = new WeakMap<object, readonly string[]>();
  const ordered = copyInSchemaOrder(raw, written);
  const result = validateAgentCardFindings(ordered ?? raw, { profile });
  // Listed in the order the caller wrote the definition, as when the definition itself was checked.
  const validated = ordered
    ? sortFindingsInKeyOrder(result.findings, ordered, (node) => written.get(node))
    : result.findings;
  // Our own findings speak about the definition the caller wrote; drop the validator's finding
  // on the same spot so each problem is listed once.
  const covered = new Set(own.map((f) => f.path));
  const listed = [
    ...own,
    ...validated
      .map((f) => aboutDefinition(shorthand ? toShorthandPath(f) : f, input))
      .filter((f) => !(f.severity === 'error' && covered.has(f.path))),
  ];
  // The user's rule settings apply to all of them; the validator's findings are recorded as they
  // are, for a responder with settings of its own. A severity changed moves a finding to its group.
  const { findings, turnedOff } = applyRuleOverrides(listed, overrides);
  if (overrides !== undefined) findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);

  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) throw invalid([...errors, ...findings.filter((f) => f.severity !== 'error')]);

  const card = deepFreeze(ordered ?? inSchemaOrder(AgentCardSchema, raw)) as AgentCard;
  if (ordered) recordValidation(card, profile, result.findings);
  return { card, findings: Object.freeze(findings), ...(turnedOff.length > 0 ? { turnedOff } : {}) };
}

/** Keys of the definition that are not card fields; everything else is copied as it is. */
const SHORTHAND_KEYS = ['url', 'binding', 'protocolVersion', 'tenant'] as const;
/** Where a shorthand key ends up in the card. */
const SHORTHAND_TARGET: Record<string, string> = {
  url: 'url',
  protocolBinding: 'binding',
  protocolVersion: 'protocolVersion',
  tenant: 'tenant',
};

function build(input: Record<string, unknown>): {
  raw: Record<string, unknown>;
  own: Finding[];
  shorthand: boolean;
} {
  const own: Finding[] = [];
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if ((SHORTHAND_KEYS as readonly string[]).includes(key)) continue;
    setOwn(raw, key, input[key]);
  }

  const shorthand = input.url !== undefined || input.binding !== undefined;
  if (shorthand && input.supportedInterfaces !== undefined) {
    own.push(
      error(
        'interface-required-fields',
        '/url',
        `url: set together with supportedInterfaces (${describe(input.url)}).`,
        'Use url + binding for one interface, or list every interface in supportedInterfaces, not both.',
      ),
    );
  } else if (shorthand) {
    if (input.url === undefined) {
      own.push(
        error(
          'interface-required-fields',
          '/url',
          `url: missing, but binding is set (${describe(input.binding)}).`,
          "Add url: the endpoint of the agent, e.g. url: 'https://agents.acme-corp.io/a2a/v1'.",
        ),
      );
    }
    if (input.binding === undefined) {
      own.push(
        error(
          'interface-required-fields',
          '/binding',
          `binding: missing for url (${describe(input.url)}).`,
          "Add binding: 'JSONRPC', 'HTTP+JSON', 'GRPC' or a custom binding URI, whichever the endpoint speaks.",
        ),
      );
    }
    const iface: Record<string, unknown> = {};
    if (input.url !== undefined) iface.url = input.url;
    if (input.binding !== undefined) iface.protocolBinding = input.binding;
    iface.protocolVersion = input.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
    if (input.tenant !== undefined) iface.tenant = input.tenant;
    raw.supportedInterfaces = [iface];
  } else if (input.supportedInterfaces === undefined) {
    own.push(
      error(
        'required-fields',
        '/supportedInterfaces',
        'supportedInterfaces: missing (neither url nor supportedInterfaces is set).',
        "Add url and binding, e.g. url: 'https://agents.acme-corp.io/a2a/v1', binding: 'JSONRPC'.",
      ),
    );
  } else if (Array.isArray(input.supportedInterfaces)) {
    raw.supportedInterfaces = input.supportedInterfaces.map((entry: unknown) =>
      isRecord(entry) && entry.protocolVersion === undefined
        ? { ...entry, protocolVersion: DEFAULT_PROTOCOL_VERSION }
        : entry,
    );
  }
  if (!shorthand) {
    // A v0.3 card also has top-level protocolVersion/tenant-like keys; keep them so the
    // validator can name them (legacy-fields-present) instead of dropping them silently.
    for (const key of ['protocolVersion', 'tenant'] as const) {
      if (input[key] !== undefined) setOwn(raw, key, input[key]);
    }
  }

  raw.capabilities ??= {};
  raw.defaultInputModes ??= [...DEFAULT_MODES];
  raw.defaultOutputModes ??= [...DEFAULT_MODES];

  return { raw, own, shorthand };
}

const SEVERITY_RANK: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2 };

/**
 * The validator's finding said about the definition where the definition left something out that
 * the card needs: a skill without `tags` (tags are never made up, so the caller adds them).
 */
function aboutDefinition(finding: Finding, input: Record<string, unknown>): Finding {
  if (finding.rule !== 'skill-tags-required') return finding;
  const match = /^\/skills\/(\d+)\/tags$/.exec(finding.path);
  const skills = input.skills;
  const index = match ? Number(match[1]) : -1;
  const skill = Array.isArray(skills) ? skills[index] : undefined;
  if (!isRecord(skill) || skill.tags !== undefined) return finding;
  const id = typeof skill.id === 'string' ? ` (${JSON.stringify(skill.id)})` : '';
  return {
    ...finding,
    message: `skills[${index}]${id}: tags are missing.`,
    hint: 'Add tags: keywords clients search for, e.g. tags: ["billing", "invoices"]. They are never made up for you.',
  };
}

/** Points a finding about the built interface back at the shorthand key the caller wrote. */
function toShorthandPath(finding: Finding): Finding {
  const match = /^\/supportedInterfaces\/0\/([^/]+)(.*)$/.exec(finding.path);
  const target = match ? SHORTHAND_TARGET[match[1]!] : undefined;
  return target === undefined ? finding : { ...finding, path: `/${target}${match![2]}` };
}

/**
 * A deep copy of `value` whose objects list the schema's keys in schema (= proto field) order,
 * followed by any keys the schema does not know, in input order. Keys are defined, never
 * assigned, so a `__proto__` key stays a plain key.
 */
function inSchemaOrder(
  schema: z.core.$ZodType | undefined,
  value: unknown,
  written?: WeakMap<object, readonly string[]>,
): unknown {
  const def = schema?._zod.def as
    | {
        type: string;
        innerType?: z.core.$ZodType;
        element?: z.core.$ZodType;
        valueType?: z.core.$ZodType;
        shape?: Record<string, z.core.$ZodType>;
      }
    | undefined;
  if (def && (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')) {
    return inSchemaOrder(def.innerType, value, written);
  }
  if (Array.isArray(value)) {
    return value.map((item) => inSchemaOrder(def?.type === 'array' ? def.element : undefined, item, written));
  }
  if (!isRecord(value)) return value;

  const out: Record<string, unknown> = {};
  if (def?.type === 'object' && def.shape) {
    for (const key of Object.keys(def.shape)) {
      if (Object.hasOwn(value, key)) setOwn(out, key, inSchemaOrder(def.shape[key], value[key], written));
    }
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(def.shape, key)) setOwn(out, key, inSchemaOrder(undefined, value[key], written));
    }
    // The written order of the keys JSON keeps (it drops undefined, functions and symbols).
    written?.set(
      out,
      Object.keys(value).filter((key) => Object.hasOwn(out, key) && isJsonValue(out[key])),
    );
    return out;
  }
  const item = def?.type === 'record' ? def.valueType : undefined;
  for (const key of Object.keys(value)) setOwn(out, key, inSchemaOrder(item, value[key], written));
  return out;
}

/**
 * {@link inSchemaOrder} of the whole card, or `undefined` when the definition cannot be copied;
 * `written` receives each reordered object's keys in the order they were written.
 */
function copyInSchemaOrder(
  raw: Record<string, unknown>,
  written: WeakMap<object, readonly string[]>,
): Record<string, unknown> | undefined {
  try {
    return inSchemaOrder(AgentCardSchema, raw, written) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function isJsonValue(value: unknown): boolean {
  const type = typeof value;
  return type !== 'undefined' && type !== 'function' && type !== 'symbol';
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function error(rule: CardRuleId, path: string, message: string, hint: string): Finding {
  return { rule, severity: 'error', path, message, hint };
}

function invalid(findings: Finding[]): AgentCardError {
  const errors = findings.filter((f) => f.severity === 'error');
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  return new AgentCardError(
    'ERR_AGENT_CARD_INVALID',
    `defineAgentCard: the agent card has ${count}. Fix each one below.\n${formatErrorFindings(errors)}`,
    { findings },
  );
}
