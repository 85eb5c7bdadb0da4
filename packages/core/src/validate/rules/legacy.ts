/**
 * Legacy rules 31–32 (`legacy-fields-present`, `legacy-security-shape`), and the move-to-v1.0
 * findings of v0.3 / ≤0.2 cards. Every hint carries the exact v1.0 JSON that
 * {@link migrateAgentCard} produces, so the validator and `agent-card migrate` never disagree.
 *
 * @packageDocumentation
 */
import type { Severity } from '../../findings';
import type { CardRuleId } from '../../rules';
import { migrateWithKinds, type KindedChange } from '../convert';
import type { JsonObject, RuleContext } from '../context';
import { isObject, keysOf } from '../context';
import { ARRAY_INDEX, SENTENCE_END } from '../patterns';
import { LEGACY_CARD_KEYS, describePath, has, json, own, preview } from '../shape';

/** Whether a card holds anything the migration converts (cheap pre-check for v1.0 cards). */
function hasLegacyContent(card: JsonObject): boolean {
  if (LEGACY_CARD_KEYS.some((k) => has(card, k))) return true;
  const schemes = own(card, 'securitySchemes');
  if (isObject(schemes) && keysOf(schemes).some((n) => isObject(schemes[n]) && has(schemes[n] as JsonObject, 'type'))) {
    return true;
  }
  const skills = own(card, 'skills');
  return Array.isArray(skills) && skills.some((s) => isObject(s) && has(s, 'security'));
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function segments(pointer: string): (string | number)[] {
  return parsePointer(pointer).map((s) => (ARRAY_INDEX.test(s) ? Number(s) : s));
}

function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = own(node, segment);
    else return undefined;
  }
  return node;
}

/** `Use "securityRequirements": [...]` or `In securitySchemes, use "google": {...}`. */
function replacement(migrated: Record<string, unknown>, target: string | undefined): string {
  if (target === undefined) return '';
  const value = at(migrated, target);
  if (value === undefined) return '';
  const path = segments(target);
  const key = path[path.length - 1];
  const parent = path.slice(0, -1);
  const member = typeof key === 'number' ? json(value) : `${JSON.stringify(key)}: ${json(value)}`;
  return parent.length === 0 ? `Use ${member}.` : `In ${describePath(parent)}, use ${member}.`;
}

function sentence(text: string): string {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return SENTENCE_END.test(t) ? t : `${t}.`;
}

const WHY: Record<string, string> = {
  url: 'v1.0 clients read the endpoint from supportedInterfaces',
  preferredTransport: 'v1.0 clients take the first supportedInterfaces entry as preferred',
  additionalInterfaces: 'v1.0 clients read supportedInterfaces',
  protocolVersion: 'v1.0 declares the protocol version per interface',
  security:
    'a2a-python still reads it, but clients that read only the v1.0 securityRequirements see no requirement, so clients disagree on whether authentication is required',
  supportsAuthenticatedExtendedCard: 'v1.0 clients read capabilities.extendedAgentCard',
  authentication: 'v1.0 clients read securitySchemes and securityRequirements',
};

/**
 * Rules 31–32 plus the v0.3 → v1.0 move findings.
 *
 * - v0.3 / ≤0.2 cards: every legacy field gets a `legacy-fields-present` **error** (v1.0 clients
 *   cannot use the card as it is) whose hint holds the v1.0 replacement.
 * - v1.0 / mixed cards: legacy top-level fields are `legacy-fields-present` warnings (a deliberate
 *   superset card is allowed), an error when the legacy `url` is not among
 *   `supportedInterfaces[].url`; `security` without `securityRequirements` and `type`-style
 *   scheme entries are `legacy-security-shape` errors.
 */
export function checkLegacy(card: JsonObject, ctx: RuleContext): void {
  if (!hasLegacyContent(card)) return;
  // The card is the validator's JSON copy already: the migration need not copy it again.
  const { card: migrated, changes } = migrateWithKinds(card, { tree: card, problems: [] });
  const legacyShape = ctx.shape === 'v0.3' || ctx.shape === 'v0.2';
  const reported = new Set<string>();

  const report = (rule: CardRuleId, severity: Severity, change: KindedChange, what: string, extraHint = '') => {
    if (reported.has(change.path)) return;
    reported.add(change.path);
    if (ctx.overflows(rule, severity)) return;
    const path = segments(change.path);
    const use = replacement(migrated, change.target);
    ctx.report(
      rule,
      severity,
      path,
      `${describePath(path)}: ${what} (${preview(at(card, change.path))}).`,
      [
        extraHint,
        sentence(change.change),
        use,
        legacyShape ? 'Or run `agent-card migrate` to rewrite the whole card.' : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  };

  const interfaceUrls = (() => {
    const list = own(card, 'supportedInterfaces');
    return Array.isArray(list) ? list.filter(isObject).map((i) => own(i, 'url')) : [];
  })();

  for (const change of changes) {
    const path = segments(change.path);
    const top = path.length === 1 && typeof path[0] === 'string' ? path[0] : undefined;
    switch (change.kind) {
      case 'interface':
      case 'extended-card':
      case 'authentication': {
        if (!top || !(LEGACY_CARD_KEYS as readonly string[]).includes(top)) break;
        if (legacyShape) {
          report('legacy-fields-present', 'error', change, `v0.3 field; ${WHY[top]}`);
        } else if (top === 'url' && !interfaceUrls.includes(own(card, 'url'))) {
          report(
            'legacy-fields-present',
            'error',
            change,
            'v0.3 field whose URL is not among supportedInterfaces[].url (inconsistent superset card)',
            'Add the interface to supportedInterfaces or remove the v0.3 url.',
          );
        } else {
          report(
            'legacy-fields-present',
            'warning',
            change,
            `v0.3 field in a v1.0 card; ${WHY[top]}`,
            'Remove it unless you serve a v0.3-compatible superset card on purpose.',
          );
        }
        break;
      }
      case 'security': {
        if (path[path.length - 1] !== 'security') break;
        const holder = at(card, change.path.slice(0, change.path.lastIndexOf('/')));
        const superset = isObject(holder) && has(holder, 'securityRequirements');
        if (legacyShape) report('legacy-fields-present', 'error', change, `v0.3 field; ${WHY.security}`);
        else if (superset)
          report(
            'legacy-fields-present',
            'warning',
            change,
            'v0.3 field next to securityRequirements',
            'Remove it unless you serve a v0.3-compatible superset card on purpose.',
          );
        else report('legacy-security-shape', 'error', change, `v0.3 security requirements; ${WHY.security}`);
        break;
      }
      case 'scheme':
        if (legacyShape)
          report(
            'legacy-fields-present',
            'error',
            change,
            'v0.3 security scheme (type discriminator); v1.0 clients read only the wrapper objects',
          );
        else
          report(
            'legacy-security-shape',
            'error',
            change,
            'v0.3 security scheme (type discriminator); parsers of the v1.0 shape do not see it, while a2a-python still reads it, so clients disagree on how to authenticate',
          );
        break;
      case 'scheme-extra':
        report(
          'legacy-fields-present',
          legacyShape ? 'error' : 'warning',
          change,
          'v0.3 scheme fields next to the v1.0 wrapper',
          'Remove them unless you serve a v0.3-compatible superset card on purpose.',
        );
        break;
      default:
        // Renames and removed capabilities are reported by json-camelcase and unknown-field.
        break;
    }
  }
}
